/**
 * The commit walks of `git/walk.ts` that the repository API and push events use: `revList` against
 * `git rev-list` on real repositories (exclusions, first parents, topological order, paths, dates,
 * counts) and what it reads, and merge bases of several commits.
 */
import { describe, expect, it } from 'vitest';
import { isAncestor, mergeBasesOf, revList, type ObjectReader, type RevListOptions } from '../../../shared/repository/git/walk';
import { line, MemoryRepository } from '../api/memory-repository';
import { linearHistory, repoFactory } from '../push/repo';

const newRepo = repoFactory();

async function list(read: ObjectReader, options: RevListOptions): Promise<string[]> {
  const ids: string[] = [];
  for await (const oid of revList(read, options)) ids.push(oid);
  return ids;
}

/** root ← base ← main 1 ← merge (of topic 1 ← topic 2, which changed t.txt) ← after merge. */
function mergedHistory() {
  const repo = newRepo();
  repo.commit('root', { 'a.txt': '0' });
  const base = repo.commit('base', { 'a.txt': '1' });
  repo.checkout('topic', true);
  repo.commit('topic 1', { 't.txt': '1' });
  const topic = repo.commit('topic 2', { 't.txt': '2' });
  repo.checkout('main');
  repo.commit('main 1', { 'm.txt': '1' });
  repo.merge('topic', 'Merge topic');
  const tip = repo.commit('after merge', { 'z.txt': '1' });
  return { repo, base, topic, tip };
}

describe('revList', () => {
  it('lists as git rev-list does: all, excluded, first parents, topological order, a path, a date, a count', async () => {
    const { repo, base, topic, tip } = mergedHistory();
    const read = repo.reader().read;
    expect(await list(read, { include: [tip] })).toEqual(repo.revList([tip]));
    expect(await list(read, { include: [tip], exclude: [base] })).toEqual(repo.revList([tip, `^${base}`]));
    expect(await list(read, { include: [tip], exclude: [topic] })).toEqual(repo.revList([tip, `^${topic}`]));
    expect(await list(read, { include: [tip], firstParent: true })).toEqual(repo.revList(['--first-parent', tip]));
    expect(await list(read, { include: [tip], order: 'topo' })).toEqual(repo.revList(['--topo-order', tip]));
    expect(await list(read, { include: [tip], exclude: [base], order: 'topo' })).toEqual(repo.revList(['--topo-order', tip, `^${base}`]));
    expect(await list(read, { include: [tip], path: 't.txt' })).toEqual(repo.revList([tip, '--', 't.txt']));
    expect(await list(read, { include: [tip], path: '/a.txt/' })).toEqual(repo.revList([tip, '--', 'a.txt']));
    expect(await list(read, { include: [tip], limit: 3 })).toEqual(repo.revList(['--max-count=3', tip]));
    const since = Number(repo.git(['show', '-s', '--format=%ct', base]).trim());
    expect(await list(read, { include: [tip], since })).toEqual(repo.revList([`--max-age=${since}`, tip]));
    expect(await list(read, { include: [tip], limit: 0 })).toEqual([]);
  });

  it('peels tags among the tips and ignores ids that name nothing readable', async () => {
    const repo = newRepo();
    const first = repo.commit('first', { a: '1' });
    repo.git(['tag', '-a', '-m', 'release 1', 'v1']);
    const second = repo.commit('second', { a: '2' });
    const read = repo.reader().read;
    const missing = '1'.repeat(40);
    expect(await list(read, { include: [repo.rev('v1'), missing] })).toEqual([first]);
    expect(await list(read, { include: [second, first], exclude: [repo.rev('v1'), missing] })).toEqual([second]);
    expect(await list(read, { include: [missing], exclude: [second] })).toEqual([]);
  });

  it('reads only as far back as the consumer goes, and a short walk past an exclusion reads a handful', async () => {
    const repo = newRepo();
    repo.fastImport(linearHistory('main', 2000));
    const tip = repo.rev('main');
    const reader = repo.reader();
    const ids: string[] = [];
    for await (const oid of revList(reader.read, { include: [tip] })) if (ids.push(oid) === 10) break;
    expect(ids).toEqual(repo.revList(['--max-count=10', tip]));
    // The ten commits and the parent queued after the tenth.
    expect(reader.log).toHaveLength(11);

    reader.reset();
    const before = repo.rev('main~1');
    expect(await list(reader.read, { include: [tip], exclude: [before] })).toEqual([tip]);
    // The tip, the excluded commit and the five ancestors git's SLOP walks past.
    expect(reader.log).toHaveLength(7);
  });

  it('does not combine an exclusion with a path or first parents', async () => {
    const { repo, base, tip } = mergedHistory();
    await expect(list(repo.reader().read, { include: [tip], exclude: [base], path: 'a.txt' })).rejects.toThrow('revList');
  });

  it('lists the commits of head not in base, newest first', async () => {
    const repo = new MemoryRepository();
    const ids = line(repo, 6);
    const topic = repo.commit({ files: { t: '1' }, parents: [ids[3]] });
    const { read } = repo.reader();
    expect(await list(read, { include: [topic], exclude: [ids[5]], limit: 100 })).toEqual([topic]);
    expect(await list(read, { include: [ids[5]], exclude: [topic], limit: 100 })).toEqual([ids[5], ids[4]]);
    expect(await list(read, { include: [ids[2]], limit: 100 })).toEqual([ids[2], ids[1], ids[0]]);
  });
});

describe('merge bases and ancestry', () => {
  it('finds the merge base of diverged branches and of a commit and its descendant', async () => {
    const repo = new MemoryRepository();
    const ids = line(repo, 5);
    const left = repo.commit({ files: { l: '1' }, parents: [ids[4]] });
    const right = repo.commit({ files: { r: '1' }, parents: [ids[4]] });
    const { read } = repo.reader();
    expect(await mergeBasesOf(read, left, [right])).toEqual([ids[4]]);
    expect(await mergeBasesOf(read, ids[1], [left])).toEqual([ids[1]]);
    expect(await isAncestor(read, ids[2], left)).toBe(true);
    expect(await isAncestor(read, left, right)).toBe(false);
    const unrelated = repo.commit({ files: { u: '1' } });
    expect(await mergeBasesOf(read, unrelated, [left])).toEqual([]);
  });

  it('finds the merge base of one commit and a merge of several (git merge-base a b c)', async () => {
    const { repo, base, topic, tip } = mergedHistory();
    const read = repo.reader().read;
    const root = repo.rev(`${base}~1`);
    expect(await mergeBasesOf(read, root, [topic, tip])).toEqual(repo.git(['merge-base', '--all', root, topic, tip]).trim().split('\n'));
    expect(await mergeBasesOf(read, topic, [base, tip])).toEqual(repo.git(['merge-base', '--all', topic, base, tip]).trim().split('\n'));
  });
});
