import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitObject } from '../../../shared/repository/git/objects/types';
import { INFINITE_DEPTH, isAncestor, mergeBase, mergeBases, objectsToSend, parseTreeLinks, shallowUpdate } from '../../../shared/repository/git/walk';
import { entryKind, MalformedObjectError, parseTree, serializeTree } from '../../../shared/repository/git/objects/parse';
import { commit, countingReader, git, gitText, initRepo, linearHistory, readAllObjects, revListObjects, tempDir } from './git-fixtures';

interface Graph {
  repo: string;
  objects: Map<string, GitObject>;
  c: string[];
  f: string[];
  merge: string;
  tip: string;
  orphan: string;
  v1: string;
  nested: string;
  treeTag: string;
}

/**
 * main: c0 … c5, a feature branch f0 f1 forked at c1, merged (merge), then tip; an annotated tag
 * on c2, a tag of that tag, a tag of a tree; an unrelated orphan branch.
 */
function buildGraph(): Graph {
  const repo = initRepo();
  let time = 1700000000;
  const c: string[] = [];
  const f: string[] = [];
  const files = (i: number): Record<string, string> => ({ [`dir${i % 3}/file${i}.txt`]: `content ${i}\n`, 'shared/list.txt': `edit ${i}\n` });
  for (let i = 0; i < 2; i++) c.push(commit(repo, `c${i}`, files(i), (time += 60)));
  git(repo, ['checkout', '-q', '-b', 'feature']);
  for (let i = 0; i < 2; i++) f.push(commit(repo, `f${i}`, { [`feature/f${i}.txt`]: `feature ${i}\n`, 'README': `readme ${i}\n` }, (time += 60)));
  git(repo, ['checkout', '-q', 'main']);
  for (let i = 2; i < 6; i++) c.push(commit(repo, `c${i}`, files(i), (time += 60)));
  git(repo, ['merge', '-q', '--no-ff', '-m', 'merge feature', 'feature'], { env: { GIT_COMMITTER_DATE: `${(time += 60)} +0000` } });
  const merge = gitText(repo, ['rev-parse', 'HEAD']);
  const tip = commit(repo, 'tip', { 'feature/f0.txt': 'changed\n' }, (time += 60));
  git(repo, ['tag', '-a', 'v1', '-m', 'v1', c[2]]);
  git(repo, ['tag', '-a', 'v1-nested', '-m', 'nested', 'v1']);
  git(repo, ['tag', '-a', 'tree-tag', '-m', 'tree', `${c[3]}^{tree}`]);
  git(repo, ['checkout', '-q', '--orphan', 'orphan']);
  const orphan = commit(repo, 'orphan', { 'other.txt': 'other\n' }, time + 60);
  git(repo, ['checkout', '-q', 'main']);
  const rev = (name: string) => gitText(repo, ['rev-parse', name]);
  return { repo, objects: readAllObjects(repo), c, f, merge, tip, orphan, v1: rev('v1'), nested: rev('v1-nested'), treeTag: rev('tree-tag') };
}

describe('parseTreeLinks', () => {
  const tree = serializeTree([
    { mode: '100644', name: 'a file with spaces.txt', oid: '1'.repeat(40) },
    { mode: '40000', name: 'dir', oid: '2'.repeat(40) },
    { mode: '160000', name: 'submodule', oid: '3'.repeat(40) },
    { mode: '120000', name: 'link', oid: '4'.repeat(40) },
    { mode: '100755', name: 'x\u00e9', oid: 'abcdef0123456789abcdef0123456789abcdef01' },
  ]);

  it('lists what parseTree and entryKind give, in order', () => {
    expect(parseTreeLinks(tree)).toEqual(parseTree(tree).map((entry) => ({ oid: entry.oid, kind: entryKind(entry.mode) })));
    expect(parseTreeLinks(Buffer.alloc(0))).toEqual([]);
  });

  it('refuses what parseTree refuses', () => {
    for (const bad of [tree.subarray(0, tree.length - 3), Buffer.from('10x644 name\0' + 'a'.repeat(20)), Buffer.from('100644 \0' + 'a'.repeat(20)), Buffer.from(' name\0' + 'a'.repeat(20))]) {
      expect(() => parseTree(bad)).toThrow(MalformedObjectError);
      expect(() => parseTreeLinks(bad)).toThrow(MalformedObjectError);
    }
  });
});

describe('objectsToSend', () => {
  let g: Graph;
  beforeAll(() => {
    g = buildGraph();
  });

  const cases: Array<[string, (g: Graph) => { wants: string[]; haves: string[] }]> = [
    ['a clone', (g) => ({ wants: [g.tip], haves: [] })],
    ['a fetch on main', (g) => ({ wants: [g.tip], haves: [g.c[4]] })],
    ['a fetch from the feature branch', (g) => ({ wants: [g.tip], haves: [g.f[1]] })],
    ['a fetch with haves on both sides of a merge', (g) => ({ wants: [g.tip], haves: [g.c[3], g.f[0]] })],
    ['only the merge commit new', (g) => ({ wants: [g.merge], haves: [g.c[5], g.f[1]] })],
    ['several wants', (g) => ({ wants: [g.f[1], g.tip, g.c[2]], haves: [g.c[1]] })],
    ['an annotated tag', (g) => ({ wants: [g.v1], haves: [] })],
    ['a tag of a tag over a have', (g) => ({ wants: [g.nested], haves: [g.c[1]] })],
    ['a tag of a tree', (g) => ({ wants: [g.treeTag], haves: [g.c[2]] })],
    ['an unrelated history', (g) => ({ wants: [g.orphan], haves: [g.tip] })],
    ['everything already there', (g) => ({ wants: [g.c[3]], haves: [g.tip] })],
    ['a have the server lacks', (g) => ({ wants: [g.tip], haves: ['0123456789012345678901234567890123456789', g.c[5]] })],
  ];

  it.each(cases)('lists what git rev-list --objects lists for %s', async (_name, pick) => {
    const { wants, haves } = pick(g);
    const known = haves.filter((have) => g.objects.has(have));
    const expected = revListObjects(g.repo, [...wants, ...known.map((have) => `^${have}`)]);
    const result = await objectsToSend({ read: countingReader(g.objects), wants, haves });
    expect([...result.oids].sort()).toEqual(expected);
    expect(new Set(result.oids).size).toBe(result.oids.length);
    expect(result).toMatchObject({ shallows: [], unshallows: [] });
  });

  it('reads a number of objects independent of the history length for a one-commit fetch', async () => {
    const reads: number[] = [];
    for (const length of [40, 400]) {
      const repo = initRepo();
      const history = linearHistory(repo, length, 1700000000);
      const tip = commit(repo, 'new', { 'dir1/new.txt': 'new\n' }, 1700000000 + length + 10);
      const reader = countingReader(readAllObjects(repo));
      const result = await objectsToSend({ read: reader, wants: [tip], haves: [history[length - 1]] });
      expect([...result.oids].sort()).toEqual(revListObjects(repo, [tip, `^${history[length - 1]}`]));
      reads.push(reader.calls);
    }
    expect(reads[0]).toBe(reads[1]);
    expect(reads[0]).toBeLessThan(30);
  });

  it('fails on a want the reader does not have', async () => {
    await expect(objectsToSend({ read: countingReader(new Map()), wants: [g.tip], haves: [] })).rejects.toThrow(/missing object/);
  });
});

describe('shallow fetches', () => {
  let g: Graph;
  beforeAll(() => {
    g = buildGraph();
  });

  /** What a real shallow clone of main holds: its objects and its shallow file. */
  function shallowClone(args: string[]): { objects: string[]; shallow: string[]; dir: string } {
    const dir = join(tempDir(), 'clone');
    git(g.repo, ['clone', '-q', '--bare', '--single-branch', '--branch', 'main', '--no-tags', ...args, `file://${g.repo}`, dir]);
    const listing = gitText(dir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']);
    return { objects: listing.split('\n').sort(), shallow: readFileSync(join(dir, 'shallow'), 'utf8').trim().split('\n').sort(), dir };
  }

  it.each([1, 2, 3, 5])('sends what git clone --depth %i receives', async (depth) => {
    const clone = shallowClone([`--depth=${depth}`]);
    // git clone asks for include-tag (even with --no-tags): tags of sent objects come along.
    const includeTags = [g.v1, g.nested, g.treeTag];
    const result = await objectsToSend({ read: countingReader(g.objects), wants: [g.tip], haves: [], depth, includeTags });
    expect([...result.oids].sort()).toEqual(clone.objects);
    expect([...result.shallows].sort()).toEqual(clone.shallow);
    expect(result.unshallows).toEqual([]);
  });

  it('marks a root commit within the depth shallow, as git does', async () => {
    const update = await shallowUpdate({ read: countingReader(g.objects), wants: [g.c[0]], depth: 1 });
    expect(update).toEqual({ shallows: [g.c[0]], unshallows: [] });
  });

  it('deepens a shallow clone: new boundary, unshallowed commits, only the missing objects', async () => {
    const clone = shallowClone(['--depth=2']);
    const before = new Set(clone.objects);
    git(clone.dir, ['fetch', '-q', '--depth=4', 'origin', 'main']);
    const after = gitText(clone.dir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).split('\n');
    const shallowNow = readFileSync(join(clone.dir, 'shallow'), 'utf8').trim().split('\n').sort();
    const result = await objectsToSend({ read: countingReader(g.objects), wants: [g.tip], haves: [g.tip], clientShallows: clone.shallow, depth: 4, thin: true });
    expect([...result.oids].sort()).toEqual(after.filter((oid) => !before.has(oid)).sort());
    expect([...result.shallows].sort()).toEqual(shallowNow);
    expect([...result.unshallows].sort()).toEqual(clone.shallow);
  });

  it('unshallows everything for an infinite depth', async () => {
    const clone = shallowClone(['--depth=1']);
    const result = await objectsToSend({ read: countingReader(g.objects), wants: [g.tip], haves: [g.tip], clientShallows: clone.shallow, depth: INFINITE_DEPTH, thin: true });
    expect(result.unshallows).toEqual(clone.shallow);
    expect(result.shallows).toEqual([]);
    const everything = revListObjects(g.repo, [g.tip]).filter((oid) => !clone.objects.includes(oid));
    expect([...result.oids].sort()).toEqual(everything);
  });

  it('cuts at a date like git clone --shallow-since', async () => {
    const since = Number(gitText(g.repo, ['log', '-1', '--format=%ct', g.c[3]]));
    const clone = shallowClone([`--shallow-since=${since}`]);
    const result = await objectsToSend({ read: countingReader(g.objects), wants: [g.tip], haves: [], deepenSince: since, includeTags: [g.treeTag, g.v1] });
    expect([...result.oids].sort()).toEqual(clone.objects);
    expect([...result.shallows].sort()).toEqual(clone.shallow);
  });

  it('cuts at a ref like git clone --shallow-exclude', async () => {
    const clone = shallowClone(['--shallow-exclude=feature']);
    const result = await objectsToSend({ read: countingReader(g.objects), wants: [g.tip], haves: [], deepenNot: [g.f[1]], includeTags: [g.treeTag, g.v1] });
    expect([...result.oids].sort()).toEqual(clone.objects);
    expect([...result.shallows].sort()).toEqual(clone.shallow);
  });

  it('stops at the client shallow commits when not deepening', async () => {
    const clone = shallowClone(['--depth=1']);
    const result = await objectsToSend({ read: countingReader(g.objects), wants: [g.f[1]], haves: [], clientShallows: clone.shallow });
    expect([...result.oids].sort()).toEqual(revListObjects(g.repo, [g.f[1]]));
    const side = await objectsToSend({ read: countingReader(g.objects), wants: [g.tip], haves: [], clientShallows: [g.merge] });
    expect(side.oids).not.toContain(g.c[5]);
    expect(side.oids).toContain(g.merge);
  });
});

describe('ancestry', () => {
  let g: Graph;
  beforeAll(() => {
    g = buildGraph();
    // A criss-cross: two merge bases.
    const repo = g.repo;
    git(repo, ['checkout', '-q', '-b', 'x', g.c[3]]);
    git(repo, ['merge', '-q', '--no-ff', '-m', 'x merges f1', g.f[1]], { env: { GIT_COMMITTER_DATE: '1700100000 +0000' } });
    git(repo, ['checkout', '-q', '-b', 'y', g.f[1]]);
    git(repo, ['merge', '-q', '--no-ff', '-m', 'y merges c3', g.c[3]], { env: { GIT_COMMITTER_DATE: '1700100060 +0000' } });
    git(repo, ['checkout', '-q', 'main']);
    g.objects = readAllObjects(repo);
  });

  it('answers is-ancestor as git merge-base --is-ancestor', async () => {
    const read = countingReader(g.objects);
    const pairs = [
      [g.c[0], g.tip], [g.f[0], g.tip], [g.tip, g.c[0]], [g.f[1], g.c[5]], [g.c[2], g.c[2]], [g.orphan, g.tip], [g.merge, g.tip],
    ];
    for (const [ancestor, descendant] of pairs) {
      let expected = true;
      try {
        git(g.repo, ['merge-base', '--is-ancestor', ancestor, descendant]);
      } catch {
        expected = false;
      }
      expect(await isAncestor(read, ancestor, descendant), `${ancestor} ${descendant}`).toBe(expected);
    }
  });

  it('finds the merge bases git merge-base finds', async () => {
    const read = countingReader(g.objects);
    const rev = (name: string) => gitText(g.repo, ['rev-parse', name]);
    const pairs = [[g.tip, g.f[1]], [g.c[5], g.f[1]], [rev('x'), rev('y')], [g.c[2], g.c[4]], [g.tip, g.tip]];
    for (const [a, b] of pairs) {
      expect(await mergeBase(read, a, b)).toBe(gitText(g.repo, ['merge-base', a, b]));
      expect([...(await mergeBases(read, a, b))].sort()).toEqual(gitText(g.repo, ['merge-base', '--all', a, b]).split('\n').sort());
    }
    expect(await mergeBases(read, rev('x'), rev('y'))).toHaveLength(2);
    expect(await mergeBase(read, g.orphan, g.tip)).toBeUndefined();
  });
});
