/**
 * The commits a push brought (`pushedCommits` of `shared/repository/push/summary.ts`, a `revList` of `git/walk.ts`) against `git rev-list`, on real
 * repositories, and its cost: a short push to a long history reads a handful of commits.
 */
import { describe, expect, it } from 'vitest';
import { peelToCommit, pushedCommits } from '../../../shared/repository/push/summary';
import { linearHistory, repoFactory } from './repo';

const newRepo = repoFactory();

const ids = (result: { commits: Array<{ id: string }> }) => result.commits.map((commit) => commit.id);

describe('pushedCommits', () => {
  it('answers the commits of an update, newest first, as git rev-list after ^before', async () => {
    const repo = newRepo();
    const before = repo.commit('one', { a: '1' });
    repo.commit('two', { a: '2' });
    repo.commit('three', { b: '3' });
    const after = repo.commit('four', { c: '4' });
    const result = await pushedCommits(repo.reader().read, after, [before], 20);
    expect(ids(result)).toEqual(repo.revList([after, `^${before}`]));
    expect(result.total).toBe(3);
    expect(result.commits[0].commit.message).toBe('four\n');
  });

  it('reads O(1) commits for a one-commit push on a 2000-commit history', async () => {
    const repo = newRepo();
    repo.fastImport(linearHistory('main', 2000));
    repo.git(['reset', '-q', '--hard', 'main']);
    const before = repo.head();
    const after = repo.commit('one more', { 'new.txt': 'x' });
    const reader = repo.reader();
    const result = await pushedCommits(reader.read, after, [before], 20);
    expect(ids(result)).toEqual([after]);
    expect(result.total).toBe(1);
    // after, before, and the five ancestors git's SLOP walks past before stopping; nothing else.
    expect(reader.commitReads()).toBe(7);
    expect(reader.log).toHaveLength(7);
  });

  it('walks the whole history when nothing is excluded (a new default branch), and counts it', async () => {
    const repo = newRepo();
    repo.fastImport(linearHistory('main', 300));
    const tip = repo.rev('main');
    const reader = repo.reader();
    const result = await pushedCommits(reader.read, tip, [], 20);
    expect(result.total).toBe(300);
    expect(ids(result)).toEqual(repo.revList(['--max-count=20', tip]));
  });

  it('counts a whole history with merges as git rev-list --count does', async () => {
    const repo = newRepo();
    repo.commit('root', { a: '0' });
    repo.checkout('topic', true);
    // Two sides of a merge, longer together than the limit of 20.
    for (let i = 1; i <= 12; i++) repo.commit(`topic ${i}`, { t: String(i) });
    repo.checkout('main');
    for (let i = 1; i <= 12; i++) repo.commit(`main ${i}`, { m: String(i) });
    repo.merge('topic', 'Merge topic');
    const tip = repo.commit('after merge', { z: '1' });
    const result = await pushedCommits(repo.reader().read, tip, [], 20);
    expect(result.total).toBe(Number(repo.git(['rev-list', '--count', tip]).trim()));
    expect(result.total).toBe(27);
    expect(ids(result)).toEqual(repo.revList(['--max-count=20', tip]));
  });

  it('keeps only the newest `limit` commits but counts them all', async () => {
    const repo = newRepo();
    const before = repo.commit('base', { a: '0' });
    for (let i = 1; i <= 25; i++) repo.commit(`change ${i}`, { a: String(i) });
    const after = repo.head();
    const result = await pushedCommits(repo.reader().read, after, [before], 20);
    expect(result.total).toBe(25);
    expect(result.commits).toHaveLength(20);
    expect(ids(result)).toEqual(repo.revList([after, `^${before}`]).slice(0, 20));
  });

  it('follows merges and stops at what the excluded tips reach', async () => {
    const repo = newRepo();
    repo.commit('root', { a: '0' });
    const base = repo.commit('base', { a: '1' });
    repo.checkout('topic', true);
    repo.commit('topic 1', { t: '1' });
    repo.commit('topic 2', { t: '2' });
    repo.checkout('main');
    repo.commit('main 1', { m: '1' });
    const merged = repo.merge('topic', 'Merge topic');
    const after = repo.commit('after merge', { z: '1' });
    const result = await pushedCommits(repo.reader().read, after, [base], 20);
    expect(ids(result)).toEqual(repo.revList([after, `^${base}`]));
    expect(result.total).toBe(5);
    expect(ids(result)).toContain(merged);
  });

  it('excludes several tips (a new branch against the default branch)', async () => {
    const repo = newRepo();
    repo.commit('root', { a: '0' });
    const main = repo.commit('main work', { a: '1' });
    repo.checkout('feature', true);
    repo.commit('feature 1', { f: '1' });
    const feature = repo.commit('feature 2', { f: '2' });
    repo.checkout('main');
    const other = repo.commit('main later', { a: '2' });
    const result = await pushedCommits(repo.reader().read, feature, [other, main], 20);
    expect(ids(result)).toEqual(repo.revList([feature, `^${other}`, `^${main}`]));
    expect(result.total).toBe(2);
  });

  it('answers nothing for a tip an excluded tip reaches (a branch created at an existing commit)', async () => {
    const repo = newRepo();
    repo.commit('root', { a: '0' });
    const main = repo.commit('main', { a: '1' });
    const result = await pushedCommits(repo.reader().read, main, [main], 20);
    expect(result).toEqual({ commits: [], total: 0 });
  });

  it('answers the rewritten commits of a forced update', async () => {
    const repo = newRepo();
    const base = repo.commit('base', { a: '0' });
    const before = repo.commit('old', { a: '1' });
    repo.git(['reset', '-q', '--hard', base]);
    repo.commit('new 1', { a: '2' });
    const after = repo.commit('new 2', { a: '3' });
    const result = await pushedCommits(repo.reader().read, after, [before], 20);
    expect(ids(result)).toEqual(repo.revList([after, `^${before}`]));
    expect(result.total).toBe(2);
  });

  it('gets the same commits as git when committer dates are skewed', async () => {
    const repo = newRepo();
    repo.commit('root', { a: '0' }, { time: 1_800_000_000 });
    const before = repo.commit('before', { a: '1' }, { time: 1_800_000_100 });
    // Commits dated before their parents (a bad clock), on both sides.
    repo.commit('skewed 1', { a: '2' }, { time: 1_700_000_000 });
    repo.commit('skewed 2', { a: '3' }, { time: 1_700_000_050 });
    const after = repo.commit('back to normal', { a: '4' }, { time: 1_800_000_200 });
    const result = await pushedCommits(repo.reader().read, after, [before], 20);
    expect(new Set(ids(result))).toEqual(new Set(repo.revList([after, `^${before}`])));
    expect(result.total).toBe(3);
  });

  it('peels annotated tags, as tips and as exclusions', async () => {
    const repo = newRepo();
    const first = repo.commit('first', { a: '1' });
    repo.git(['tag', '-a', '-m', 'release 1', 'v1']);
    const second = repo.commit('second', { a: '2' });
    const reader = repo.reader();
    const tagId = repo.rev('v1');
    expect(tagId).not.toBe(first);
    expect((await peelToCommit(reader.read, tagId))?.id).toBe(first);
    const result = await pushedCommits(reader.read, second, [tagId], 20);
    expect(ids(result)).toEqual([second]);
  });

  it('ignores excluded ids that name nothing readable', async () => {
    const repo = newRepo();
    const only = repo.commit('only', { a: '1' });
    const result = await pushedCommits(repo.reader().read, only, ['1'.repeat(40)], 20);
    expect(ids(result)).toEqual([only]);
  });
});
