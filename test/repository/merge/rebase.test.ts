/**
 * Rebasing a merge request's commits (`rebaseCommits`): the commits of the head that the target
 * lacks are replayed onto it, oldest first, each a three-way merge; authors and messages are kept,
 * the committer is the user; conflicts store nothing. Random histories are rebased by `git rebase`
 * too: the same trees, commit for commit, or a conflict where git stops.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommit, parseTree } from '../../../shared/repository/git/objects/parse';
import { hashObject, type GitObject } from '../../../shared/repository/git/objects/types';
import type { Repository } from '../../../shared/repository/repository';
import { rebaseCommits } from '../../../shared/repository/commands/rebase';
import { MemoryRepository } from '../api/memory-repository';
import { readAllObjects } from '../git/git-fixtures';
import { repoFactory, type TestRepo } from '../push/repo';

const committer = { name: 'Rita Rebaser', email: 'rita@example.com' };
const at = new Date(1_800_000_000_000);

/** The memory repository, with what the rebase writes stored in it (and counted). */
function writable(repo: MemoryRepository): { repository: Repository; written: GitObject[][] } {
  const written: GitObject[][] = [];
  const repository = {
    ...repo.asRepository(),
    writeObjects: async (batch: GitObject[]) => {
      written.push(batch);
      for (const object of batch) repo.objects.set(hashObject(object.type, object.body), object);
    },
  } as unknown as Repository;
  return { repository, written };
}

const commit = (repo: MemoryRepository, oid: string) => parseCommit(repo.objects.get(oid)!.body);

/** The files of a commit's tree (top level), by name. */
function files(repo: MemoryRepository, oid: string): Record<string, string> {
  const tree = parseTree(repo.objects.get(commit(repo, oid).tree)!.body);
  return Object.fromEntries(tree.map((entry) => [entry.name, repo.objects.get(entry.oid)!.body.toString()]));
}

/** The first-parent chain from `tip` down to (not including) `stop`. */
function chain(repo: MemoryRepository, tip: string, stop: string): string[] {
  const out: string[] = [];
  for (let oid = tip; oid !== stop; oid = commit(repo, oid).parents[0]) out.push(oid);
  return out.reverse();
}

describe('rebaseCommits', () => {
  it('replays the commits onto the target, authors and messages kept, contents merged', async () => {
    // Prepare: base → target (changes line 1 of a.txt); base → one (line 3) → merge of a side branch → two (b.txt).
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { 'a.txt': '1\n2\n3\n' } });
    const target = repo.commit({ parents: [base], files: { 'a.txt': 'one\n2\n3\n', 't.txt': 't\n' }, message: 'target\n' });
    const one = repo.commit({ parents: [base], files: { 'a.txt': '1\n2\nthree\n' }, message: 'one\n', author: 'Ann Author' });
    const side = repo.commit({ parents: [base], files: { 'a.txt': '1\n2\n3\n', 's.txt': 's\n' }, message: 'side\n', author: 'Sid Side' });
    const merge = repo.commit({ parents: [one, side], files: { 'a.txt': '1\n2\nthree\n', 's.txt': 's\n' }, message: 'merge side\n' });
    const two = repo.commit({ parents: [merge], files: { 'a.txt': '1\n2\nthree\n', 's.txt': 's\n', 'b.txt': 'b\n' }, message: 'two\n', author: 'Bob Author' });
    const { repository, written } = writable(repo);

    // Act
    const outcome = await rebaseCommits(repository, { onto: target, head: two, committer, committedAt: at });

    // Assess: three commits (the merge left out), one pack, on top of the target.
    expect(outcome).toMatchObject({ rebased: 3 });
    if (!('rebased' in outcome)) return;
    expect(written).toHaveLength(1);
    const rebased = chain(repo, outcome.commit, target);
    expect(rebased.map((oid) => commit(repo, oid).message)).toEqual(['one\n', 'side\n', 'two\n']);
    expect(rebased.map((oid) => commit(repo, oid).author.name)).toEqual(['Ann Author', 'Sid Side', 'Bob Author']);
    expect(rebased.map((oid) => commit(repo, oid).parents.length)).toEqual([1, 1, 1]);
    for (const oid of rebased) expect(commit(repo, oid).committer).toMatchObject({ name: committer.name, email: committer.email, timestamp: at.getTime() / 1000 });
    expect(files(repo, outcome.commit)).toEqual({ 'a.txt': 'one\n2\nthree\n', 'b.txt': 'b\n', 's.txt': 's\n', 't.txt': 't\n' });
  });

  it('stops at the first conflicting commit and stores nothing', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { 'a.txt': 'a\n' } });
    const target = repo.commit({ parents: [base], files: { 'a.txt': 'target\n' } });
    const fine = repo.commit({ parents: [base], files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    const clash = repo.commit({ parents: [fine], files: { 'a.txt': 'source\n', 'b.txt': 'b\n' } });
    const { repository, written } = writable(repo);

    expect(await rebaseCommits(repository, { onto: target, head: clash, committer })).toEqual({ conflicts: ['a.txt'], commit: clash });
    expect(written).toEqual([]);
  });

  it('is up to date when the target is in the head history, and drops commits already in the target', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { 'a.txt': 'a\n' } });
    const picked = repo.commit({ parents: [base], files: { 'a.txt': 'picked\n' }, message: 'picked\n' });
    const head = repo.commit({ parents: [picked], files: { 'a.txt': 'picked\n', 'b.txt': 'b\n' } });
    const { repository, written } = writable(repo);
    expect(await rebaseCommits(repository, { onto: picked, head, committer })).toEqual({ commit: head, rebased: 0, upToDate: true });
    expect(await rebaseCommits(repository, { onto: base, head, committer })).toEqual({ commit: head, rebased: 0, upToDate: true });
    expect(written).toEqual([]);

    // The target has the same change as `picked` (a cherry-pick of it): only `head`'s own change is replayed.
    const target = repo.commit({ parents: [base], files: { 'a.txt': 'picked\n' }, message: 'cherry-picked\n' });
    const outcome = await rebaseCommits(repository, { onto: target, head, committer });
    expect(outcome).toMatchObject({ rebased: 1 });
    if (!('rebased' in outcome)) return;
    expect(chain(repo, outcome.commit, target)).toHaveLength(1);
    expect(files(repo, outcome.commit)).toEqual({ 'a.txt': 'picked\n', 'b.txt': 'b\n' });
  });

  it('refuses more commits than its limit', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { 'a.txt': 'a\n' } });
    const target = repo.commit({ parents: [base], files: { 'a.txt': 'a\n', 't.txt': 't\n' } });
    let head = base;
    for (let i = 0; i < 3; i++) head = repo.commit({ parents: [head], files: { 'a.txt': `a${i}\n` } });
    const { repository } = writable(repo);
    expect(await rebaseCommits(repository, { onto: target, head, committer, limit: 2 })).toEqual({ tooMany: 2 });
  });
});

const newRepo = repoFactory();

/** A commit's edits: a line of a file set to a value (the lines a file starts with are `<file>-<n>`). */
const edits = fc.array(fc.record({ file: fc.constantFrom('a.txt', 'b.txt', 'c.txt'), line: fc.nat(7), value: fc.constantFrom('x', 'y', 'z') }), { maxLength: 3 });

/** Applies edits to the files as they are in the work tree (kept in `state`). */
function edited(state: Record<string, string[]>, changes: Array<{ file: string; line: number; value: string }>): Record<string, string> {
  for (const change of changes) state[change.file][change.line] = change.value;
  return Object.fromEntries(Object.entries(state).map(([file, lines]) => [file, lines.join('\n') + '\n']));
}

/** git's rebase of `source` onto `main`: the trees of the commits it made, oldest first, or `conflict`. */
function gitRebase(repo: TestRepo): string[] | 'conflict' {
  repo.checkout('source');
  try {
    repo.git(['rebase', '-q', 'main']);
  } catch {
    repo.git(['rebase', '--abort']);
    return 'conflict';
  }
  return repo.revList(['--reverse', 'main..HEAD']).map((oid) => repo.rev(`${oid}^{tree}`));
}

describe('rebaseCommits against git rebase', () => {
  it('makes the trees git makes, or conflicts where git stops', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edits, { minLength: 1, maxLength: 2 }), fc.array(edits, { minLength: 1, maxLength: 3 }), async (targetCommits, sourceCommits) => {
        // Prepare: a base of three files, `main` and `source` each editing lines of them.
        const repo = newRepo();
        const start = () => Object.fromEntries(['a.txt', 'b.txt', 'c.txt'].map((file) => [file, Array.from({ length: 8 }, (_, n) => `${file}-${n}`)]));
        repo.commit('base', edited(start(), []));
        repo.checkout('source', true);
        const sourceState = start();
        for (const [i, changes] of sourceCommits.entries()) repo.commit(`source ${i}`, edited(sourceState, changes));
        repo.checkout('main');
        const targetState = start();
        for (const [i, changes] of targetCommits.entries()) repo.commit(`main ${i}`, edited(targetState, changes));
        const [onto, head] = [repo.rev('main'), repo.rev('source')];
        const objects = readAllObjects(repo.dir);
        const repository = {
          read: async (oid: string) => objects.get(oid),
          writeObjects: async (batch: GitObject[]) => batch.forEach((object) => objects.set(hashObject(object.type, object.body), object)),
        } as unknown as Repository;

        // Act
        const outcome = await rebaseCommits(repository, { onto, head, committer });
        const expected = gitRebase(repo);

        // Assess
        if (expected === 'conflict') {
          expect(outcome).toHaveProperty('conflicts');
          return;
        }
        expect(outcome).toHaveProperty('commit');
        if (!('commit' in outcome)) return;
        const trees: string[] = [];
        for (let oid = outcome.commit; oid !== onto; ) {
          const parsed = parseCommit(objects.get(oid)!.body);
          trees.unshift(parsed.tree);
          oid = parsed.parents[0];
        }
        expect(trees).toEqual(expected);
      }),
      // Each run is a few dozen git processes: a handful keep the suite fast (60 pass, in 90 s here).
      { numRuns: 6 },
    );
  }, 120_000);
});
