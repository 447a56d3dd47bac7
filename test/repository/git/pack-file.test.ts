import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashObject, type GitObject } from '../../../shared/repository/git/objects/types';
import { PackError } from '../../../shared/repository/git/pack/errors';
import { parsePackIndex, writePackIndex } from '../../../shared/repository/git/pack/idx';
import { indexPack } from '../../../shared/repository/git/pack/index-pack';
import { encodeEntryHeader, encodeOfsDistance, inflateEntry, PackFile, readEntryHeader } from '../../../shared/repository/git/pack/pack-file';
import { PackSet } from '../../../shared/repository/git/pack/pack-set';
import {
  appendingDelta,
  catFile,
  git,
  gitIndexPack,
  historyRepo,
  onlyPack,
  rawPack,
  removeDir,
  tempDir,
  verifyPack,
  type VerifiedObject,
} from './fixtures';

let dir: string;
let pack: Buffer;
let idx: Buffer;
let objects: VerifiedObject[];
let contents: Map<string, GitObject>;

beforeAll(() => {
  dir = tempDir();
  historyRepo(dir, 200);
  let idxPath: string;
  ({ pack, idx, idxPath } = onlyPack(dir));
  objects = verifyPack(idxPath);
  contents = catFile(dir, objects.map((object) => object.oid));
});

afterAll(() => removeDir(dir));

async function expectSameObjects(packFile: PackFile, oids: Iterable<string>): Promise<void> {
  for (const oid of oids) {
    const object = await packFile.read(oid);
    const expected = contents.get(oid)!;
    expect(object?.type, oid).toBe(expected.type);
    expect(object!.body.equals(expected.body), oid).toBe(true);
  }
}

/** A whole-object entry. */
function whole(object: GitObject): Buffer {
  return Buffer.concat([encodeEntryHeader(object.type, object.body.length), deflateSync(object.body)]);
}

/** A pack file over raw entries, indexed with the given ids. */
function packOf(entries: Buffer[], oids: string[]): PackFile {
  const data = rawPack(entries);
  let offset = 12;
  const indexEntries = entries.map((entry, i) => {
    const indexed = { oid: oids[i], offset, crc32: 0 };
    offset += entry.length;
    return indexed;
  });
  for (const entry of indexEntries) entry.crc32 = crcOf(data, entry.offset, indexEntries);
  return new PackFile(data, parsePackIndex(writePackIndex(indexEntries, data.subarray(data.length - 20))));
}

function crcOf(data: Buffer, offset: number, entries: { offset: number }[]): number {
  const next = entries.map((entry) => entry.offset).find((other) => other > offset) ?? data.length - 20;
  return crc32(data.subarray(offset, next));
}

describe('inflateEntry', () => {
  const body = Buffer.from('hello pack entry\n'.repeat(50));
  const stream = deflateSync(body);

  it('inflates exactly the zlib stream at the start of its input, saying how much input it used', () => {
    // Act: the stream runs on into other bytes, as entries do in a pack.
    const { data, consumed } = inflateEntry(Buffer.concat([stream, Buffer.from('next entry')]), body.length, 12);

    // Assert
    expect(data.equals(body)).toBe(true);
    expect(consumed).toBe(stream.length);
  });

  it('refuses corrupt, truncated and wrongly sized data with a PackError, and inflates correctly afterwards', () => {
    // Act / Assert: the reused inflater recovers from each failure.
    const corrupt = Buffer.from(stream);
    corrupt[4] ^= 0xff;
    expect(() => inflateEntry(corrupt, body.length, 40)).toThrow(PackError);
    expect(inflateEntry(stream, body.length, 12).data.equals(body)).toBe(true);
    expect(() => inflateEntry(stream.subarray(0, stream.length - 6), body.length, 40)).toThrow(/corrupt or truncated data of the entry at 40/);
    expect(inflateEntry(stream, body.length, 12).data.equals(body)).toBe(true);
    expect(() => inflateEntry(stream, body.length - 1, 40)).toThrow(PackError);
    expect(() => inflateEntry(stream, body.length + 1, 40)).toThrow(/inflates to 850 bytes, not 851/);
    expect(() => inflateEntry(Buffer.from('not zlib at all'), 3, 40)).toThrow(PackError);
    expect(inflateEntry(deflateSync(Buffer.alloc(0)), 0, 12).data.length).toBe(0);
  });

  it('gives transient data in a shared buffer, and kept data in a buffer of its own', () => {
    // Act
    const kept = inflateEntry(stream, body.length, 12).data;
    const transient = inflateEntry(stream, body.length, 12, { transient: true }).data;
    const other = Buffer.from('other');
    const again = inflateEntry(deflateSync(other), other.length, 12, { transient: true }).data;

    // Assert: the second transient inflate reused the first one's memory; the kept one is intact.
    expect(again.equals(other)).toBe(true);
    expect(transient.subarray(0, other.length).equals(other)).toBe(true);
    expect(kept.equals(body)).toBe(true);
  });
});

describe('entry headers', () => {
  it('round-trip types, sizes and OFS_DELTA distances', () => {
    for (const size of [0, 15, 16, 127, 128, 2047, 2048, 1e6, 2 ** 33 + 5]) {
      const header = Buffer.concat([encodeEntryHeader('blob', size), Buffer.alloc(4)]);
      expect(readEntryHeader(header, 0, header.length)).toMatchObject({ kind: 'blob', size, headerEnd: header.length - 4 });
    }
    for (const distance of [1, 127, 128, 16511, 16512, 2 ** 21, 3_000_000]) {
      const entry = Buffer.concat([encodeEntryHeader('ofs-delta', 10), encodeOfsDistance(distance)]);
      const at = distance + 12;
      const padded = Buffer.concat([Buffer.alloc(at), entry]);
      expect(readEntryHeader(padded, at, padded.length).baseOffset).toBe(12);
    }
  });

  it('rejects invalid types and truncated headers', () => {
    expect(() => readEntryHeader(Buffer.from([0x50, 0]), 0, 2)).toThrow(/invalid object type 5/);
    expect(() => readEntryHeader(Buffer.from([0x00, 0]), 0, 2)).toThrow(/invalid object type 0/);
    expect(() => readEntryHeader(Buffer.from([0xb5]), 0, 1)).toThrow(/truncated/);
    expect(() => readEntryHeader(Buffer.from([0x75, 1, 2]), 0, 3)).toThrow(/truncated base id/);
    expect(() => readEntryHeader(Buffer.from([0x65, 0x05]), 0, 2)).toThrow(/invalid base offset/);
  });
});

describe('PackFile', () => {
  it('reads every object as git cat-file does', async () => {
    const packFile = new PackFile(pack, parsePackIndex(idx));
    expect(packFile.name).toBe(pack.subarray(pack.length - 20).toString('hex'));
    await expectSameObjects(packFile, objects.map((object) => object.oid).reverse());
  });

  it('reads every object with no cache and with a tiny one', async () => {
    for (const cacheBytes of [0, 4096]) {
      await expectSameObjects(new PackFile(pack, parsePackIndex(idx), { cacheBytes }), objects.slice(0, 400).map((object) => object.oid));
    }
  });

  it('describes entries as git verify-pack does', () => {
    const packFile = new PackFile(pack, parsePackIndex(idx));
    const kinds = new Set<string>();
    for (const object of objects) {
      const entry = packFile.entry(object.offset);
      kinds.add(entry.kind);
      expect(entry.end - object.offset).toBe(object.sizeInPack);
      expect(packFile.oidAt(object.offset)).toBe(object.oid);
      expect(packFile.offsetOf(object.oid)).toBe(object.offset);
      expect(packFile.rawEntry(object.offset).length).toBe(object.sizeInPack);
      if (object.base) {
        expect(entry.kind).toBe('ofs-delta');
        expect(entry.baseOffset).toBe(packFile.offsetOf(object.base));
        expect(entry.dataStart).toBeGreaterThan(entry.headerEnd);
      } else {
        expect(entry).toMatchObject({ kind: object.type, size: object.size, dataStart: entry.headerEnd });
      }
    }
    expect([...kinds].sort()).toEqual(['blob', 'commit', 'ofs-delta', 'tag', 'tree']);
    expect(packFile.oidAt(13)).toBeUndefined();
    expect(() => packFile.entry(13)).toThrow(PackError);
    expect(packFile.has(objects[0].oid)).toBe(true);
    expect(packFile.has('0'.repeat(40))).toBe(false);
  });

  it('reads REF_DELTA entries (a pack written without --delta-base-offset)', async () => {
    const refPack = git(dir, ['pack-objects', '--stdout', '--revs', '--no-reuse-delta'], 'main\n');
    const refIdx = gitIndexPack(dir, refPack, 'ref');
    const packFile = new PackFile(refPack, parsePackIndex(refIdx));
    const oids = verifyPack(`${dir}/ref.idx`).map((object) => object.oid);
    const kinds = new Set(oids.map((oid) => packFile.entry(packFile.offsetOf(oid)!).kind));
    expect(kinds).toContain('ref-delta');
    expect(kinds).not.toContain('ofs-delta');
    await expectSameObjects(packFile, oids);
  });

  it('rejects a pack that does not match its index', () => {
    const other = git(dir, ['pack-objects', '--stdout', '--revs'], 'main~5\n');
    expect(() => new PackFile(other, parsePackIndex(idx))).toThrow(PackError);
    const renamed = Buffer.from(pack);
    renamed[renamed.length - 1] ^= 1;
    expect(() => new PackFile(renamed, parsePackIndex(idx))).toThrow(/checksum/);
    expect(() => new PackFile(Buffer.from('PACK'), parsePackIndex(idx))).toThrow(/truncated/);
  });

  it('fails with PackError on corrupt compressed data, and checks stored bytes against the CRC32', async () => {
    const blob = objects.find((object) => object.type === 'blob' && !object.base && object.sizeInPack > 100)!;
    const corrupt = Buffer.from(pack);
    corrupt[blob.offset + Math.floor(blob.sizeInPack / 2)] ^= 0xff;
    const packFile = new PackFile(corrupt, parsePackIndex(idx));
    await expect(packFile.read(blob.oid)).rejects.toThrow(PackError);
    expect(() => packFile.rawEntry(blob.offset)).toThrow(/CRC/);
  });
});

describe('PackFile and PackSet with REF_DELTA bases elsewhere', () => {
  const base: GitObject = { type: 'blob', body: Buffer.from('base content\n'.repeat(20)) };
  const baseOid = hashObject(base.type, base.body);
  const derived: GitObject = { type: 'blob', body: Buffer.concat([base.body, Buffer.from('more\n')]) };
  const derivedOid = hashObject(derived.type, derived.body);
  const twice: GitObject = { type: 'blob', body: Buffer.concat([derived.body, Buffer.from('again\n')]) };
  const twiceOid = hashObject(twice.type, twice.body);

  /** A pack of `derived` (REF_DELTA on `base`, not in it) and `twice` (OFS_DELTA on `derived`). */
  function thinPack(): PackFile {
    const first = Buffer.concat([
      encodeEntryHeader('ref-delta', appendingDelta(base.body, 'more\n').length),
      Buffer.from(baseOid, 'hex'),
      deflateSync(appendingDelta(base.body, 'more\n')),
    ]);
    const second = Buffer.concat([
      encodeEntryHeader('ofs-delta', appendingDelta(derived.body, 'again\n').length),
      encodeOfsDistance(first.length),
      deflateSync(appendingDelta(derived.body, 'again\n')),
    ]);
    return packOf([first, second], [derivedOid, twiceOid]);
  }

  it('resolves a base through the external reader, or fails without one', async () => {
    const packFile = thinPack();
    await expect(packFile.read(twiceOid)).rejects.toThrow(/delta base .* not found/);
    const object = await packFile.read(twiceOid, async (oid) => (oid === baseOid ? base : undefined));
    expect(object?.body.equals(twice.body)).toBe(true);
    expect(await packFile.read(baseOid)).toBeUndefined();
  });

  it('reads across packs and loose objects', async () => {
    const basePack = packOf([whole(base)], [baseOid]);
    const set = new PackSet([thinPack(), basePack]);
    expect((await set.read(twiceOid))?.body.equals(twice.body)).toBe(true);
    expect((await set.read(derivedOid))?.body.equals(derived.body)).toBe(true);
    expect(set.locate(baseOid)).toEqual({ pack: basePack, offset: 12 });
    expect(set.has(twiceOid)).toBe(true);
    expect(await set.read('0'.repeat(40))).toBeUndefined();

    const looseSet = new PackSet([thinPack()], new Map([[baseOid, base]]));
    expect((await looseSet.read(twiceOid))?.body.equals(twice.body)).toBe(true);
    expect(looseSet.has(baseOid)).toBe(true);
    expect(looseSet.locate(baseOid)).toBeUndefined();
    expect(looseSet.packs).toHaveLength(1);
  });

  it('is what indexPack produces once the pack is completed', async () => {
    const indexed = await indexPack(thinPack().data, { readExternal: async (oid) => (oid === baseOid ? base : undefined) });
    const completed = new PackFile(indexed.pack, parsePackIndex(indexed.index));
    expect((await completed.read(twiceOid))?.body.equals(twice.body)).toBe(true);
    expect(completed.has(baseOid)).toBe(true);
  });
});
