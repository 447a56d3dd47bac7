/**
 * The three-way merge of merge requests (`mergeCommits`, `canMergeCleanly`) against real git:
 * histories are built with the git CLI, and every clean merge's tree must be the tree
 * `git merge-tree --write-tree` (git's ort, what Gitaly runs) writes; conflicts must be found where
 * git finds them.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommit, parseTree } from '../../../shared/repository/git/objects/parse';
import { hashObject, type GitObject } from '../../../shared/repository/git/objects/types';
import type { Project } from '../../../shared/projects';
import type { Repository } from '../../../shared/repository/repository';
import { canMergeCleanly, mergeCommits } from '../../../shared/repository/commands/merge';
import { mergeLines } from '../../../shared/repository/merge/lines';
import { readAllObjects } from '../git/git-fixtures';
import { repoFactory, type FileChange, type TestRepo } from '../push/repo';

const newRepo = repoFactory();
const author = { name: 'Mia Merger', email: 'mia@example.com' };

/** A repository whose objects are the git repository's, plus what the merge writes. */
function repositoryOf(repo: TestRepo): { repository: Repository; written: GitObject[][] } {
  const objects = readAllObjects(repo.dir);
  const written: GitObject[][] = [];
  const repository = {
    project: { id: 1 } as Project,
    read: async (oid: string) => objects.get(oid),
    writeObjects: async (batch: GitObject[]) => {
      written.push(batch);
      for (const object of batch) objects.set(hashObject(object.type, object.body), object);
    },
  } as unknown as Repository;
  return { repository, written };
}

/** git's merge of two commits: the tree, or the conflicted paths. */
function gitMerge(repo: TestRepo, ours: string, theirs: string): { tree: string } | { conflicts: string[] } {
  try {
    const out = execFileSync('git', ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], { cwd: repo.dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }).toString();
    return { tree: out.trim() };
  } catch (error) {
    const { status, stdout } = error as { status: number; stdout: Buffer };
    if (status !== 1) throw error;
    const [, ...paths] = stdout.toString().trim().split('\n');
    // git moves a file out of a directory's way as `<path>~<commit>`; the conflict is at `<path>`.
    return { conflicts: [...new Set(paths.filter(Boolean).map((path) => path.replace(/~[0-9a-f]{40}$/, '')))].sort() };
  }
}

/** Builds base → ours and base → theirs (one commit each, or several) and answers the tips. */
function scenario(base: Record<string, FileChange>, ours: Array<Record<string, FileChange>>, theirs: Array<Record<string, FileChange>>): { repo: TestRepo; ours: string; theirs: string } {
  const repo = newRepo();
  repo.commit('base', base);
  repo.checkout('theirs', true);
  for (const [i, files] of theirs.entries()) repo.commit(`theirs ${i}`, files);
  repo.checkout('main');
  for (const [i, files] of ours.entries()) repo.commit(`ours ${i}`, files);
  return { repo, ours: repo.head(), theirs: repo.rev('theirs') };
}

async function expectSameAsGit(setup: { repo: TestRepo; ours: string; theirs: string }) {
  const expected = gitMerge(setup.repo, setup.ours, setup.theirs);
  const { repository, written } = repositoryOf(setup.repo);
  const outcome = await mergeCommits(repository, { ours: setup.ours, theirs: setup.theirs, message: 'Merge branch', author, committedAt: new Date(1_700_000_000_000) });
  expect(await canMergeCleanly(repository, setup.ours, setup.theirs)).toBe('tree' in expected);
  if ('conflicts' in expected) {
    expect(outcome).toEqual({ conflicts: expected.conflicts });
    expect(written).toEqual([]);
    return outcome;
  }
  expect('commit' in outcome).toBe(true);
  if (!('commit' in outcome)) return outcome;
  // One pack, ending with the merge commit; every object of the merged tree is stored.
  expect(written).toHaveLength(1);
  const commit = parseCommit(written[0].at(-1)!.body);
  expect(hashObject('commit', written[0].at(-1)!.body)).toBe(outcome.commit);
  expect(commit).toMatchObject({ tree: expected.tree, parents: [setup.ours, setup.theirs], message: 'Merge branch' });
  expect(commit.author).toMatchObject({ ...author, timestamp: 1_700_000_000, timezone: '+0000' });
  expect(commit.committer).toEqual(commit.author);
  await expectComplete(repository, commit.tree);
  return outcome;
}

async function expectComplete(repository: Repository, tree: string): Promise<void> {
  const object = await repository.read(tree);
  expect(object?.type, `tree ${tree}`).toBe('tree');
  for (const entry of parseTree(object!.body)) {
    if (entry.mode === '40000') await expectComplete(repository, entry.oid);
    else if (entry.mode !== '160000') expect(await repository.read(entry.oid), entry.path).toBeDefined();
  }
}

const lines = (n: number, change: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => change[i + 1] ?? `line ${i + 1}`).join('\n') + '\n';

describe('mergeCommits against git merge-tree', () => {
  it('merges changes to different files and directories', async () => {
    await expectSameAsGit(
      scenario(
        { 'a.txt': 'a\n', 'src/lib/x.ts': 'x\n', 'src/y.ts': 'y\n' },
        [{ 'a.txt': 'a2\n', 'src/new.ts': 'new\n' }],
        [{ 'src/lib/x.ts': 'x2\n', 'docs/guide/intro.md': 'hi\n', 'src/y.ts': null }],
      ),
    );
  });

  it('merges non-overlapping hunks of one file, and identical changes on both sides', async () => {
    const base = { 'f.txt': lines(30), 'same.txt': lines(5) };
    await expectSameAsGit(
      scenario(base, [{ 'f.txt': lines(30, { 2: 'ours 2' }), 'same.txt': lines(5, { 3: 'both' }) }], [{ 'f.txt': lines(30, { 25: 'theirs 25' }), 'same.txt': lines(5, { 3: 'both' }) }]),
    );
  });

  it('merges changes with one unchanged line between them, and insertions and deletions', async () => {
    const base = { 'f.txt': lines(12) };
    await expectSameAsGit(scenario(base, [{ 'f.txt': lines(12, { 4: 'ours 4\nextra' }) }], [{ 'f.txt': lines(12, { 6: 'theirs 6', 9: '' }).replace('\n\n', '\n') }]));
  });

  it('conflicts on overlapping and on adjacent hunks', async () => {
    const overlap = await expectSameAsGit(scenario({ 'f.txt': lines(10) }, [{ 'f.txt': lines(10, { 5: 'ours' }) }], [{ 'f.txt': lines(10, { 5: 'theirs' }) }]));
    expect(overlap).toEqual({ conflicts: ['f.txt'] });
    const adjacent = await expectSameAsGit(scenario({ 'f.txt': lines(10) }, [{ 'f.txt': lines(10, { 5: 'ours' }) }], [{ 'f.txt': lines(10, { 6: 'theirs' }) }]));
    expect(adjacent).toEqual({ conflicts: ['f.txt'] });
  });

  it('merges a change overlapping an identical one when both sides end with the same lines', async () => {
    await expectSameAsGit(scenario({ 'f.txt': lines(10) }, [{ 'f.txt': lines(10, { 4: 'x', 5: 'y' }) }], [{ 'f.txt': lines(10, { 4: 'x', 5: 'y' }), 'g.txt': 'g\n' }]));
  });

  it('conflicts on add/add of different contents, and merges add/add of the same', async () => {
    const different = await expectSameAsGit(scenario({ 'a.txt': 'a\n' }, [{ 'new.txt': 'one\n' }], [{ 'new.txt': 'two\n' }]));
    expect(different).toEqual({ conflicts: ['new.txt'] });
    await expectSameAsGit(scenario({ 'a.txt': 'a\n' }, [{ 'new.txt': 'same\n' }], [{ 'new.txt': 'same\n', 'b.txt': 'b\n' }]));
  });

  it('conflicts on modify/delete, either way', async () => {
    expect(await expectSameAsGit(scenario({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, [{ 'a.txt': 'a2\n' }], [{ 'a.txt': null }]))).toEqual({ conflicts: ['a.txt'] });
    expect(await expectSameAsGit(scenario({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, [{ 'a.txt': null }], [{ 'a.txt': 'a2\n' }]))).toEqual({ conflicts: ['a.txt'] });
  });

  it('merges a deletion on one side with nothing on the other, and a deletion on both', async () => {
    await expectSameAsGit(scenario({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' }, [{ 'a.txt': null, 'c.txt': null }], [{ 'b.txt': null, 'c.txt': null }]));
  });

  it('merges nested directories changed on both sides, removing directories left empty', async () => {
    await expectSameAsGit(
      scenario(
        { 'a/b/c/one.txt': lines(8), 'a/b/two.txt': 'two\n', 'a/gone/x.txt': 'x\n', 'z.txt': 'z\n' },
        [{ 'a/b/c/one.txt': lines(8, { 1: 'first' }), 'a/b/c/d/deep.txt': 'deep\n', 'a/gone/x.txt': null }],
        [{ 'a/b/c/one.txt': lines(8, { 8: 'last' }), 'a/b/two.txt': 'two!\n', 'a/b/c/d/other.txt': 'other\n' }],
      ),
    );
  });

  it('conflicts on a file against a directory when both changed the path, and merges when one side left it alone', async () => {
    const clash = await expectSameAsGit(scenario({ 'a.txt': 'a\n' }, [{ thing: 'a file\n' }], [{ 'thing/inside.txt': 'in a directory\n' }]));
    expect('conflicts' in clash).toBe(true);
    // The file replaced by a directory on one side, untouched on the other.
    await expectSameAsGit(scenario({ thing: 'file\n', 'b.txt': 'b\n' }, [{ 'b.txt': 'b2\n' }], [{ thing: null, 'thing/inside.txt': 'now a dir\n' }]));
  });

  it('conflicts on a directory deleted on one side and changed inside on the other', async () => {
    const outcome = await expectSameAsGit(scenario({ 'dir/a.txt': 'a\n', 'dir/b.txt': 'b\n', 'top.txt': 't\n' }, [{ 'dir/a.txt': null, 'dir/b.txt': null }], [{ 'dir/a.txt': 'a2\n' }]));
    expect(outcome).toEqual({ conflicts: ['dir/a.txt'] });
  });

  it('merges the executable bit changed on one side with content changed on the other', async () => {
    await expectSameAsGit(scenario({ 'run.sh': lines(6), 'x.txt': 'x\n' }, [{ 'run.sh': { executable: lines(6) } }], [{ 'run.sh': lines(6, { 6: 'echo done' }) }]));
    await expectSameAsGit(scenario({ 'run.sh': lines(6), 'x.txt': 'x\n' }, [{ 'run.sh': { executable: lines(6, { 1: '#!/bin/sh' }) } }], [{ 'run.sh': { executable: lines(6) } }]));
  });

  it('conflicts on binary files changed on both sides, and on symlinks changed differently', async () => {
    const binary = await expectSameAsGit(scenario({ 'img.bin': Buffer.from([0, 1, 2, 10, 3]).toString('latin1') }, [{ 'img.bin': '\0ours\n' }], [{ 'img.bin': '\0theirs\n' }]));
    expect(binary).toEqual({ conflicts: ['img.bin'] });
    const link = await expectSameAsGit(scenario({ link: { symlink: 'a' }, a: 'a\n' }, [{ link: { symlink: 'b' } }], [{ link: { symlink: 'c' } }]));
    expect(link).toEqual({ conflicts: ['link'] });
  });

  it('conflicts on a file turned into a symlink on one side and changed on the other', async () => {
    const outcome = await expectSameAsGit(scenario({ f: 'f\n' }, [{ f: { symlink: 'target' } }], [{ f: 'f2\n' }]));
    expect('conflicts' in outcome).toBe(true);
  });

  it('merges histories with several commits per side and a previous merge', async () => {
    const repo = newRepo();
    repo.commit('base', { 'f.txt': lines(40) });
    repo.checkout('theirs', true);
    repo.commit('t1', { 'f.txt': lines(40, { 30: 'theirs 30' }) });
    repo.checkout('main');
    repo.commit('o1', { 'f.txt': lines(40, { 2: 'ours 2' }) });
    repo.merge('theirs', 'first merge');
    repo.checkout('theirs');
    repo.commit('t2', { 'f.txt': lines(40, { 30: 'theirs 30', 35: 'theirs 35' }), 'g.txt': 'g\n' });
    repo.checkout('main');
    repo.commit('o2', { 'f.txt': lines(40, { 2: 'ours 2', 10: 'ours 10' }) });
    await expectSameAsGit({ repo, ours: repo.head(), theirs: repo.rev('theirs') });
  });

  it('merges a criss-cross history (two merge bases) through a virtual base', async () => {
    const repo = newRepo();
    repo.commit('base', { 'f.txt': lines(30), 'g.txt': lines(10) });
    repo.checkout('theirs', true);
    repo.commit('t1', { 'f.txt': lines(30, { 20: 'theirs 20' }) });
    repo.checkout('main');
    repo.commit('o1', { 'f.txt': lines(30, { 5: 'ours 5' }) });
    const o1 = repo.head();
    repo.merge('theirs', 'merge theirs into main');
    repo.checkout('theirs');
    repo.merge(o1, 'merge main into theirs');
    repo.commit('t2', { 'g.txt': lines(10, { 9: 'theirs 9' }) });
    repo.checkout('main');
    repo.commit('o2', { 'g.txt': lines(10, { 1: 'ours 1' }), 'f.txt': lines(30, { 5: 'ours 5', 20: 'theirs 20', 29: 'ours 29' }) });
    const ours = repo.head();
    const theirs = repo.rev('theirs');
    expect(repo.git(['merge-base', '--all', ours, theirs]).trim().split('\n')).toHaveLength(2);
    await expectSameAsGit({ repo, ours, theirs });
  });

  it('makes a merge commit with the tree of theirs when ours could be fast-forwarded', async () => {
    const setup = scenario({ 'a.txt': 'a\n' }, [], [{ 'a.txt': 'a2\n' }]);
    const outcome = await expectSameAsGit(setup);
    expect(outcome).not.toHaveProperty('alreadyMerged');
  });

  it('makes a merge commit with the tree of ours, saying so, when theirs is already merged', async () => {
    const setup = scenario({ 'a.txt': 'a\n' }, [{ 'b.txt': 'b\n' }], []);
    const outcome = await expectSameAsGit({ ...setup, theirs: setup.repo.rev('main~1') });
    expect(outcome).toMatchObject({ alreadyMerged: true });
  });
});

describe('mergeLines', () => {
  const merge = (base: string, ours: string, theirs: string) => mergeLines(Buffer.from(base), Buffer.from(ours), Buffer.from(theirs))?.toString();

  it('takes the side that changed, and both sides of separate changes', () => {
    expect(merge('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', 'a\nb\nc\nd\nE\n')).toBe('A\nb\nc\nd\nE\n');
    expect(merge('a\nb\n', 'a\nb\n', 'a\nb\nc\n')).toBe('a\nb\nc\n');
  });

  it('conflicts on insertions at one place, unless they are the same', () => {
    expect(merge('a\nb\n', 'a\nx\nb\n', 'a\ny\nb\n')).toBeUndefined();
    expect(merge('a\nb\nc\n', 'a\nx\nb\nc\n', 'a\nx\nb\nc\n')).toBe('a\nx\nb\nc\n');
  });

  it('keeps a missing final newline where one side changed it', () => {
    expect(merge('a\nb\nc\nd\ne', 'A\nb\nc\nd\ne', 'a\nb\nc\nd\ne\n')).toBe('A\nb\nc\nd\ne\n');
  });
});

describe('mergeLines against git merge-file (the same xdl_merge, Myers diff)', () => {
  it('agrees on random edits: clean or not, and the merged bytes', () => {
    const dir = newRepo().dir;
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const edit = (base: string[]) => {
      const out = [...base];
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(out.length + 1);
        const kind = random(3);
        if (kind === 0) out.splice(at, 1);
        else if (kind === 1) out.splice(at, 0, `new ${random(4)}`);
        else out.splice(at, 1, `changed ${random(4)}`);
      }
      return out;
    };
    let clean = 0;
    for (let round = 0; round < 100; round++) {
      const base = Array.from({ length: 4 + random(12) }, () => `l${random(6)}`);
      const texts = [base, edit(base), edit(base)].map((file) => Buffer.from(file.map((line) => `${line}\n`).join('')));
      const [b, o, t] = ['base', 'ours', 'theirs'].map((name, i) => {
        const path = `${dir}/${name}.txt`;
        writeFileSync(path, texts[i]);
        return path;
      });
      let expected: Buffer | undefined;
      try {
        expected = execFileSync('git', ['merge-file', '-p', o, b, t]);
      } catch {
        expected = undefined;
      }
      const merged = mergeLines(texts[0], texts[1], texts[2]);
      expect(merged?.toString(), `round ${round}: ${texts.map((text) => JSON.stringify(text.toString())).join(' ')}`).toBe(expected?.toString());
      if (merged) clean++;
    }
    expect(clean).toBeGreaterThan(10);
  });
});
