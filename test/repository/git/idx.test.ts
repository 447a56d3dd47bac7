import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackError } from '../../../shared/repository/git/pack/errors';
import { parsePackIndex, writePackIndex } from '../../../shared/repository/git/pack/idx';
import { git, historyRepo, onlyPack, removeDir, tempDir, verifyPack, type VerifiedObject } from './fixtures';

let dir: string;
let pack: Buffer;
let idx: Buffer;
let idxPath: string;
let objects: VerifiedObject[];

beforeAll(() => {
  dir = tempDir();
  historyRepo(dir, 200);
  ({ pack, idx, idxPath } = onlyPack(dir));
  objects = verifyPack(idxPath);
});

afterAll(() => removeDir(dir));

/** Rewrites an index's trailing checksum after a test altered it, so only the alteration is wrong. */
function resealed(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  createHash('sha1').update(copy.subarray(0, copy.length - 20)).digest().copy(copy, copy.length - 20);
  return copy;
}

describe('parsePackIndex', () => {
  it('agrees with git verify-pack on every object', () => {
    const index = parsePackIndex(idx);
    expect(index.count).toBe(objects.length);
    expect(index.packChecksum).toBe(pack.subarray(pack.length - 20).toString('hex'));
    for (const object of objects) expect(index.find(object.oid)).toBe(object.offset);
    const positions = Array.from({ length: index.count }, (_, i) => index.oidAt(i));
    expect(positions).toEqual(objects.map((object) => object.oid).sort());
  });

  it('records the CRC32 of each entry as stored in the pack', () => {
    const index = parsePackIndex(idx);
    for (const object of objects.slice(0, 200)) {
      const position = index.position(object.oid)!;
      expect(index.crc32At(position)).toBe(crc32(pack.subarray(object.offset, object.offset + object.sizeInPack)));
    }
  });

  it('does not find absent or malformed ids', () => {
    const index = parsePackIndex(idx);
    expect(index.find('0'.repeat(40))).toBeUndefined();
    expect(index.find('f'.repeat(40))).toBeUndefined();
    expect(index.find(objects[0].oid.slice(0, 39))).toBeUndefined();
    expect(index.find('zz' + objects[0].oid.slice(2))).toBeUndefined();
    expect(() => index.oidAt(index.count)).toThrow(PackError);
  });

  it('reads 64-bit offsets (git index-pack --index-version=2,<limit> puts offsets above the limit there)', () => {
    const out = join(dir, 'large.idx');
    git(dir, ['index-pack', '--index-version=2,4096', '-o', out, onlyPack(dir).packPath]);
    const large = readFileSync(out);
    expect(large.length).toBeGreaterThan(idx.length);
    const index = parsePackIndex(large);
    for (const object of objects) expect(index.find(object.oid)).toBe(object.offset);
  });

  it('rejects corrupt indexes', () => {
    expect(() => parsePackIndex(idx.subarray(0, 100))).toThrow(PackError);
    expect(() => parsePackIndex(resealed(Buffer.concat([Buffer.from('PACK'), idx.subarray(4)])))).toThrow(/signature/);
    const v3 = Buffer.from(idx);
    v3.writeUInt32BE(3, 4);
    expect(() => parsePackIndex(resealed(v3))).toThrow(/version 3/);
    const flipped = Buffer.from(idx);
    flipped[2000] ^= 1;
    expect(() => parsePackIndex(flipped)).toThrow(/checksum/);
    const fanout = Buffer.from(idx);
    fanout.writeUInt32BE(0xffff, 8 + 4 * 10);
    expect(() => parsePackIndex(resealed(fanout))).toThrow(/monotonic/);
    expect(() => parsePackIndex(resealed(Buffer.concat([idx.subarray(0, idx.length - 40), Buffer.alloc(4), idx.subarray(idx.length - 40)])))).toThrow(
      /size/,
    );
  });
});

describe('writePackIndex', () => {
  it('writes the same bytes as git', () => {
    const index = parsePackIndex(idx);
    const entries = objects.map((object) => ({
      oid: object.oid,
      offset: object.offset,
      crc32: crc32(pack.subarray(object.offset, object.offset + object.sizeInPack)),
    }));
    expect(writePackIndex(entries.reverse(), Buffer.from(index.packChecksum, 'hex')).equals(idx)).toBe(true);
  });

  it('writes the same bytes as git for an empty pack', () => {
    const empty = git(dir, ['pack-objects', '--stdout'], '');
    const out = join(dir, 'empty.idx');
    git(dir, ['index-pack', '-o', out, '--stdin'], empty);
    expect(writePackIndex([], empty.subarray(empty.length - 20)).equals(readFileSync(out))).toBe(true);
  });

  it('puts offsets of 2^31 and more in the 64-bit table', () => {
    const entries = [
      { oid: 'a'.repeat(40), offset: 2 ** 31, crc32: 1 },
      { oid: '1'.repeat(40), offset: 12, crc32: 0xffffffff },
      { oid: '5'.repeat(40), offset: 2 ** 40 + 7, crc32: 3 },
    ];
    const data = writePackIndex(entries, Buffer.alloc(20, 9));
    expect(data.length).toBe(8 + 1024 + 3 * 28 + 2 * 8 + 40);
    const index = parsePackIndex(data);
    for (const entry of entries) {
      expect(index.find(entry.oid)).toBe(entry.offset);
      expect(index.crc32At(index.position(entry.oid)!)).toBe(entry.crc32);
    }
    expect(index.packChecksum).toBe('09'.repeat(20));
  });

  it('orders ids sharing their first bytes, and keeps equal ids in the order given', () => {
    // Prepare: 50 ids starting with abcd (one bucket of the sort), 3 with abce, one given twice.
    const id = (prefix: string, n: number) => createHash('sha1').update(String(n)).digest('hex').replace(/^.{4}/, prefix);
    const ids = [...Array.from({ length: 50 }, (_, n) => id('abcd', n)), ...Array.from({ length: 3 }, (_, n) => id('abce', n)), '0'.repeat(40)];
    const entries = [...ids, ids[7]].map((oid, n) => ({ oid, offset: 12 + 10 * n, crc32: n }));

    // Act
    const index = parsePackIndex(writePackIndex(entries, Buffer.alloc(20)));

    // Assert
    const sorted = [...ids, ids[7]].sort();
    expect(Array.from({ length: index.count }, (_, position) => index.oidAt(position))).toEqual(sorted);
    const first = sorted.indexOf(ids[7]);
    expect([index.offsetAt(first), index.offsetAt(first + 1)]).toEqual([12 + 10 * 7, 12 + 10 * ids.length]);
  });

  it('rejects ids that are not 40 lower-case hex digits', () => {
    expect(() => writePackIndex([{ oid: 'A'.repeat(40), offset: 12, crc32: 0 }], Buffer.alloc(20))).toThrow(PackError);
    expect(() => writePackIndex([{ oid: 'abc', offset: 12, crc32: 0 }], Buffer.alloc(20))).toThrow(PackError);
  });
});
