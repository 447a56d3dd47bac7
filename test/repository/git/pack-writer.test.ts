import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashObject, type GitObject } from '../../../shared/repository/git/objects/types';
import { PackError } from '../../../shared/repository/git/pack/errors';
import { parsePackIndex } from '../../../shared/repository/git/pack/idx';
import { indexPack } from '../../../shared/repository/git/pack/index-pack';
import { PackFile } from '../../../shared/repository/git/pack/pack-file';
import { PackSet } from '../../../shared/repository/git/pack/pack-set';
import { buildPack, writePack, type WritePackOptions } from '../../../shared/repository/git/pack/pack-writer';
import { catFile, git, gitIndexPack, historyRepo, onlyPack, removeDir, revListObjects, tempDir, verifyPack } from './fixtures';

let dir: string;
let work: string;
let pack: Buffer;
let packs: PackSet;
let all: string[];

beforeAll(() => {
  dir = tempDir();
  work = tempDir();
  historyRepo(dir, 200);
  const stored = onlyPack(dir);
  pack = stored.pack;
  packs = new PackSet([new PackFile(pack, parsePackIndex(stored.idx))]);
  all = revListObjects(dir, ['--all']);
});

afterAll(() => {
  removeDir(dir);
  removeDir(work);
});

const full: WritePackOptions = { ofsDelta: true, thin: false, clientHas: () => false };

async function written(plan: string[], set: PackSet, options: WritePackOptions): Promise<{ data: Buffer; count: number; checksum: string }> {
  const chunks: Buffer[] = [];
  const { count, checksum } = await writePack(
    plan.map((oid) => ({ oid })),
    set,
    options,
    async (chunk) => {
      chunks.push(Buffer.from(chunk));
    },
  );
  return { data: Buffer.concat(chunks), count, checksum };
}

/** The kinds of the entries of a pack (read back with git's index of it). */
function entryKinds(data: Buffer, idx: Buffer): Set<string> {
  const packFile = new PackFile(data, parsePackIndex(idx));
  const index = parsePackIndex(idx);
  return new Set(Array.from({ length: index.count }, (_, i) => packFile.entry(index.offsetAt(i)).kind));
}

/** Checks that a self-contained pack holds exactly `oids`, with git's content for each. */
async function expectObjects(data: Buffer, idx: Buffer, oids: string[]): Promise<void> {
  const packFile = new PackFile(data, parsePackIndex(idx));
  expect(packFile.index.count).toBe(oids.length);
  const expected = catFile(dir, oids);
  for (const oid of oids) {
    const object = await packFile.read(oid);
    expect(object?.type).toBe(expected.get(oid)!.type);
    expect(object!.body.equals(expected.get(oid)!.body)).toBe(true);
  }
}

describe('writePack', () => {
  it('writes a full clone pack git accepts, reusing the stored entries', async () => {
    const progress: number[] = [];
    const { data, count, checksum } = await written(all, packs, { ...full, onProgress: (done) => progress.push(done) });
    expect(count).toBe(all.length);
    expect(checksum).toBe(data.subarray(data.length - 20).toString('hex'));
    expect(progress).toEqual(all.map((_, i) => i + 1));
    const idx = gitIndexPack(work, data, 'clone');
    expect(data.length).toBeLessThan(pack.length * 1.1);
    // Every planned object is in the one stored pack, in the same order: the pack comes back as it is.
    expect(data.equals(pack)).toBe(true);
    expect(entryKinds(data, idx)).toContain('ofs-delta');
    await expectObjects(data, idx, all);
    expect((await indexPack(data, { readExternal: async () => undefined })).index.equals(idx)).toBe(true);
  });

  it('writes REF_DELTAs for a client without ofs-delta', async () => {
    const { data } = await written(all, packs, { ...full, ofsDelta: false });
    const idx = gitIndexPack(work, data, 'no-ofs');
    const kinds = entryKinds(data, idx);
    expect(kinds).toContain('ref-delta');
    expect(kinds).not.toContain('ofs-delta');
    await expectObjects(data, idx, all);
  });

  it('writes a self-contained partial pack when thin packs are not allowed', async () => {
    const plan = revListObjects(dir, ['main', '^main~30']);
    const has = new Set(revListObjects(dir, ['main~30']));
    const { data } = await written(plan, packs, { ofsDelta: true, thin: false, clientHas: (oid) => has.has(oid) });
    const idx = gitIndexPack(work, data, 'partial');
    await expectObjects(data, idx, plan);
  });

  it('writes a thin pack with REF_DELTAs on objects the client has, which git completes', async () => {
    const plan = revListObjects(dir, ['main', '^main~30']);
    const has = new Set(revListObjects(dir, ['main~30']));
    const { data } = await written(plan, packs, { ofsDelta: true, thin: true, clientHas: (oid) => has.has(oid) });
    // Thin: git cannot index it on its own.
    expect(() => gitIndexPack(work, data, 'thin')).toThrow();

    const client = tempDir();
    try {
      git(client, ['init', '-q', '--bare', '.']);
      git(client, ['index-pack', '--stdin'], git(dir, ['pack-objects', '--stdout', '--revs'], 'main~30\n'));
      git(client, ['index-pack', '--stdin', '--fix-thin'], data);
      git(client, ['update-ref', 'refs/heads/main', git(dir, ['rev-parse', 'main']).toString().trim()]);
      git(client, ['fsck', '--full', '--no-dangling']);
    } finally {
      removeDir(client);
    }
    const completed = await indexPack(data, { readExternal: (oid) => packs.read(oid) });
    expect(completed.objects.length).toBeGreaterThan(plan.length);
  });

  it('writes every planned object once, whatever the order and repetitions of the plan', async () => {
    const plan = revListObjects(dir, ['topic', '^main']);
    const { data, count } = await written([...plan, ...plan].reverse(), packs, full);
    expect(count).toBe(plan.length);
    await expectObjects(data, gitIndexPack(work, data, 'repeated'), plan);
  });

  it('writes loose objects whole, and deltas across packs as REF_DELTAs', async () => {
    const blob: GitObject = { type: 'blob', body: Buffer.from('a new file\n') };
    const blobOid = hashObject('blob', blob.body);
    const tree: GitObject = { type: 'tree', body: Buffer.concat([Buffer.from('100644 new.txt\0'), Buffer.from(blobOid, 'hex')]) };
    const treeOid = hashObject('tree', tree.body);
    // A second pack stores recent history; its deltas on objects of the first travel as REF_DELTAs.
    const recent = git(dir, ['pack-objects', '--stdout', '--revs', '--thin'], 'main\n^main~10\n');
    const recentIndexed = await indexPack(recent, { readExternal: (oid) => packs.read(oid) });
    const set = new PackSet(
      [new PackFile(recentIndexed.pack, parsePackIndex(recentIndexed.index)), ...packs.packs],
      new Map([
        [blobOid, blob],
        [treeOid, tree],
      ]),
    );
    const plan = [...all, blobOid, treeOid];
    const { data } = await written(plan, set, full);
    const indexed = await indexPack(data, { readExternal: async () => undefined });
    expect(indexed.objects.map((object) => object.oid).sort()).toEqual([...plan].sort());
    const reread = new PackFile(indexed.pack, parsePackIndex(indexed.index));
    expect((await reread.read(treeOid))?.body.equals(tree.body)).toBe(true);
    const kinds = entryKinds(data, gitIndexPack(work, data, 'two-packs'));
    expect(kinds).toContain('ref-delta');
    expect(kinds).toContain('ofs-delta');
  });

  it('rejects objects it cannot find and stored entries that fail their CRC32', async () => {
    await expect(written(['0'.repeat(40)], packs, full)).rejects.toThrow(/not found/);
    const verified = verifyPack(onlyPack(dir).idxPath);
    const blob = verified.find((object) => object.type === 'blob' && !object.base && object.sizeInPack > 100)!;
    const corrupt = Buffer.from(pack);
    corrupt[blob.offset + 50] ^= 0xff;
    const corruptSet = new PackSet([new PackFile(corrupt, packs.packs[0].index)]);
    await expect(written([blob.oid], corruptSet, full)).rejects.toThrow(PackError);
  });
});

describe('buildPack', () => {
  it('writes a pack of whole objects git accepts', async () => {
    const objects: GitObject[] = [
      { type: 'blob', body: Buffer.from('hello\n') },
      { type: 'blob', body: Buffer.alloc(0) },
      { type: 'blob', body: Buffer.alloc(100_000, 7) },
    ];
    const data = buildPack(objects);
    const idx = gitIndexPack(work, data, 'built');
    const verified = verifyPack(join(work, 'built.idx'));
    expect(verified.map((object) => object.oid).sort()).toEqual(objects.map((object) => hashObject(object.type, object.body)).sort());
    expect(verified.every((object) => object.base === undefined)).toBe(true);
    expect((await indexPack(data, { readExternal: async () => undefined })).index.equals(idx)).toBe(true);
  });

  it('writes an empty pack', async () => {
    const indexed = await indexPack(buildPack([]), { readExternal: async () => undefined });
    expect(indexed.objects).toEqual([]);
  });
});
