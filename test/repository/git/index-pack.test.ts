import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashObject, type GitObject } from '../../../shared/repository/git/objects/types';
import { PackError } from '../../../shared/repository/git/pack/errors';
import { parsePackIndex } from '../../../shared/repository/git/pack/idx';
import { indexPack } from '../../../shared/repository/git/pack/index-pack';
import { encodeEntryHeader, encodeOfsDistance, PackFile } from '../../../shared/repository/git/pack/pack-file';
import { PackSet } from '../../../shared/repository/git/pack/pack-set';
import {
  appendingDelta,
  git,
  gitIndexPack,
  historyRepo,
  manyObjectsRepo,
  onlyPack,
  rawPack,
  removeDir,
  tempDir,
  verifyPack,
} from './fixtures';

let dir: string;
let work: string;
let pack: Buffer;
let idx: Buffer;
let repository: PackSet;

const noExternal = { readExternal: async () => undefined };

beforeAll(() => {
  dir = tempDir();
  work = tempDir();
  historyRepo(dir, 200);
  ({ pack, idx } = onlyPack(dir));
  repository = new PackSet([new PackFile(pack, parsePackIndex(idx))]);
});

afterAll(() => {
  removeDir(dir);
  removeDir(work);
});

/** Rewrites a pack's trailing checksum after a test altered it, so only the alteration is wrong. */
function resealed(data: Buffer): Buffer {
  return rawPack([data.subarray(12, data.length - 20)], data.readUInt32BE(8));
}

describe('indexPack on packs git wrote', () => {
  it('writes the same index as git for a repacked pack (OFS_DELTA chains)', async () => {
    const progress: number[] = [];
    const indexed = await indexPack(pack, { ...noExternal, onProgress: (done, total) => progress.push(done, total) });
    expect(indexed.pack).toBe(pack);
    expect(indexed.index.equals(idx)).toBe(true);
    expect(indexed.name).toBe(pack.subarray(pack.length - 20).toString('hex'));
    const verified = verifyPack(onlyPack(dir).idxPath);
    expect(indexed.objects).toEqual(verified.map(({ oid, type }) => ({ oid, type })));
    expect(progress.length).toBe(2 * verified.length);
    expect(progress.slice(-2)).toEqual([verified.length, verified.length]);
  });

  it('writes the same index whether deltas are kept between the passes, some of them or none', async () => {
    for (const deltaCacheBytes of [0, 3000]) {
      const indexed = await indexPack(pack, { ...noExternal, deltaCacheBytes });
      expect(indexed.index.equals(idx)).toBe(true);
    }
  });

  it('hands every object to onObject with a body that stays intact (no buffer reused)', async () => {
    const seen: { oid: string; type: GitObject['type']; body: Buffer }[] = [];
    const indexed = await indexPack(pack, { ...noExternal, deltaCacheBytes: 3000, onObject: (oid, type, body) => seen.push({ oid, type, body }) });
    expect(seen.map(({ oid }) => oid).sort()).toEqual(indexed.objects.map(({ oid }) => oid).sort());
    for (const { oid, type, body } of seen) expect(hashObject(type, body)).toBe(oid);
  });

  it('writes the same index as git for a pack of REF_DELTAs', async () => {
    const refPack = git(dir, ['pack-objects', '--stdout', '--revs', '--no-reuse-delta'], 'main\nfeature\n');
    const indexed = await indexPack(refPack, noExternal);
    expect(indexed.index.equals(gitIndexPack(work, refPack, 'ref'))).toBe(true);
  });

  it('writes the same index as git for an empty pack', async () => {
    const empty = git(dir, ['pack-objects', '--stdout'], '');
    const indexed = await indexPack(empty, noExternal);
    expect(indexed.objects).toEqual([]);
    expect(indexed.index.equals(gitIndexPack(work, empty, 'empty'))).toBe(true);
  });

  it('indexes thousands of objects quickly and as git does', async () => {
    const many = tempDir();
    try {
      manyObjectsRepo(many, 1600);
      const { pack: manyPack, idx: manyIdx } = onlyPack(many);
      const started = performance.now();
      const indexed = await indexPack(manyPack, noExternal);
      const elapsed = performance.now() - started;
      expect(indexed.objects.length).toBeGreaterThan(4000);
      expect(indexed.index.equals(manyIdx)).toBe(true);
      console.info(`indexPack: ${indexed.objects.length} objects, ${manyPack.length} bytes in ${elapsed.toFixed(0)} ms`);
    } finally {
      removeDir(many);
    }
  });
});

describe('indexPack on thin packs', () => {
  let thin: Buffer;

  beforeAll(() => {
    thin = git(dir, ['pack-objects', '--stdout', '--revs', '--thin', '--delta-base-offset'], 'main\n^main~40\n');
  });

  it('appends the missing bases so that git accepts the pack as complete', async () => {
    const asked: string[] = [];
    const indexed = await indexPack(thin, {
      readExternal: (oid) => {
        asked.push(oid);
        return repository.read(oid);
      },
    });
    const received = thin.readUInt32BE(8);
    expect(indexed.objects.length).toBeGreaterThan(received);
    expect(indexed.pack.readUInt32BE(8)).toBe(indexed.objects.length);
    expect(new Set(asked).size).toBe(asked.length);
    expect(indexed.objects.slice(received).map((object) => object.oid)).toEqual(asked);
    // git reads the completed pack as self-contained and computes the same index.
    expect(indexed.index.equals(gitIndexPack(work, indexed.pack, `pack-${indexed.name}`))).toBe(true);
    git(work, ['verify-pack', join(work, `pack-${indexed.name}.idx`)]);

    // git index-pack --fix-thin completes the thin pack with the same objects.
    const fixed = tempDir();
    try {
      git(fixed, ['init', '-q', '--bare', '.']);
      writeFileSync(join(fixed, 'objects', 'info', 'alternates'), `${join(dir, 'objects')}\n`);
      git(fixed, ['index-pack', '--stdin', '--fix-thin'], thin);
      const gitIdx = readdirSync(join(fixed, 'objects', 'pack')).find((file) => file.endsWith('.idx'))!;
      const gitObjects = verifyPack(join(fixed, 'objects', 'pack', gitIdx)).map((object) => object.oid);
      expect(indexed.objects.map((object) => object.oid).sort()).toEqual(gitObjects.sort());
    } finally {
      removeDir(fixed);
    }
  });

  it('gives a pack that, with the bases, makes a repository git fsck accepts', async () => {
    const indexed = await indexPack(thin, { readExternal: (oid) => repository.read(oid) });
    const target = tempDir();
    try {
      git(target, ['init', '-q', '--bare', '.']);
      git(target, ['index-pack', '--stdin'], git(dir, ['pack-objects', '--stdout', '--revs'], 'main~40\n'));
      const packDir = join(target, 'objects', 'pack');
      mkdirSync(packDir, { recursive: true });
      writeFileSync(join(packDir, `pack-${indexed.name}.pack`), indexed.pack);
      writeFileSync(join(packDir, `pack-${indexed.name}.idx`), indexed.index);
      git(target, ['update-ref', 'refs/heads/main', git(dir, ['rev-parse', 'main']).toString().trim()]);
      git(target, ['fsck', '--full', '--no-dangling']);
      expect(git(target, ['rev-list', '--objects', 'main']).toString().split('\n').filter(Boolean).length).toBeGreaterThan(1000);
    } finally {
      removeDir(target);
    }
  });

  it('fails when a base is missing', async () => {
    await expect(indexPack(thin, noExternal)).rejects.toThrow(/delta base [0-9a-f]{40} not found/);
  });

  it('fails when the reader returns another object than asked', async () => {
    const wrong: GitObject = { type: 'blob', body: Buffer.from('wrong') };
    await expect(indexPack(thin, { readExternal: async () => wrong })).rejects.toThrow(/has another id/);
  });
});

describe('indexPack on hand-made packs', () => {
  const base: GitObject = { type: 'blob', body: Buffer.from('hand-made base\n'.repeat(10)) };
  const derived: GitObject = { type: 'blob', body: Buffer.concat([base.body, Buffer.from('tail\n')]) };
  const baseOid = hashObject(base.type, base.body);
  const whole = (object: GitObject) => Buffer.concat([encodeEntryHeader(object.type, object.body.length), deflateSync(object.body)]);
  const refDelta = (on: Buffer, oid: string, suffix: string) => {
    const delta = appendingDelta(on, suffix);
    return Buffer.concat([encodeEntryHeader('ref-delta', delta.length), Buffer.from(oid, 'hex'), deflateSync(delta)]);
  };

  it('resolves a REF_DELTA whose base comes later in the pack, as git does', async () => {
    const forward = rawPack([refDelta(base.body, baseOid, 'tail\n'), whole(base)]);
    const indexed = await indexPack(forward, noExternal);
    expect(indexed.objects).toEqual([
      { oid: hashObject('blob', derived.body), type: 'blob' },
      { oid: baseOid, type: 'blob' },
    ]);
    expect(indexed.index.equals(gitIndexPack(work, forward, 'forward'))).toBe(true);
  });

  it('resolves chains through bases that are themselves deltas on a missing base', async () => {
    const derivedOid = hashObject('blob', derived.body);
    const third = Buffer.concat([derived.body, Buffer.from('more\n')]);
    // The first entry needs the second, which needs a base from outside.
    const chain = rawPack([refDelta(derived.body, derivedOid, 'more\n'), refDelta(base.body, baseOid, 'tail\n')]);
    const asked: string[] = [];
    const indexed = await indexPack(chain, {
      readExternal: async (oid) => {
        asked.push(oid);
        return oid === baseOid ? base : undefined;
      },
    });
    expect(asked).toEqual([derivedOid, baseOid]);
    expect(indexed.objects.map((object) => object.oid)).toEqual([hashObject('blob', third), derivedOid, baseOid]);
  });

  it('rejects an OFS_DELTA whose base is not an entry', async () => {
    const delta = appendingDelta(base.body, 'x');
    const first = whole(base);
    const bad = Buffer.concat([encodeEntryHeader('ofs-delta', delta.length), encodeOfsDistance(first.length - 1), deflateSync(delta)]);
    await expect(indexPack(rawPack([first, bad]), noExternal)).rejects.toThrow(/no base/);
  });

  it('rejects an entry that inflates to another size than its header says', async () => {
    const lying = Buffer.concat([encodeEntryHeader('blob', 5), deflateSync(Buffer.from('four'))]);
    await expect(indexPack(rawPack([lying]), noExternal)).rejects.toThrow(/inflates to 4 bytes, not 5/);
  });
});

describe('indexPack on corrupt packs', () => {
  it('rejects a bad checksum, signature, version or size', async () => {
    const flipped = Buffer.from(pack);
    flipped[flipped.length - 1] ^= 1;
    await expect(indexPack(flipped, noExternal)).rejects.toThrow(/checksum/);
    await expect(indexPack(Buffer.concat([Buffer.from('KCAP'), pack.subarray(4)]), noExternal)).rejects.toThrow(/signature/);
    const v4 = Buffer.from(pack);
    v4.writeUInt32BE(4, 4);
    await expect(indexPack(v4, noExternal)).rejects.toThrow(/version 4/);
    await expect(indexPack(pack.subarray(0, 20), noExternal)).rejects.toThrow(PackError);
  });

  it('rejects truncated packs', async () => {
    await expect(indexPack(pack.subarray(0, pack.length - 1000), noExternal)).rejects.toThrow(/checksum/);
    for (const cut of [13, 200, Math.floor(pack.length / 2), pack.length - 30]) {
      await expect(indexPack(resealed(Buffer.concat([pack.subarray(0, cut), Buffer.alloc(20)])), noExternal)).rejects.toThrow(PackError);
    }
    const moreObjects = Buffer.from(pack);
    moreObjects.writeUInt32BE(pack.readUInt32BE(8) + 1, 8);
    await expect(indexPack(resealed(moreObjects), noExternal)).rejects.toThrow(/truncated/);
  });

  it('rejects bytes after the last object', async () => {
    const padded = Buffer.concat([pack.subarray(0, pack.length - 20), Buffer.from('garbage'), Buffer.alloc(20)]);
    await expect(indexPack(resealed(padded), noExternal)).rejects.toThrow(/unexpected bytes/);
  });

  it('rejects corrupt compressed data', async () => {
    const corrupt = Buffer.from(pack);
    for (let i = 1000; i < 1010; i++) corrupt[i] ^= 0x5a;
    await expect(indexPack(resealed(corrupt), noExternal)).rejects.toThrow(PackError);
  });
});
