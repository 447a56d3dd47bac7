import { describe, expect, it } from 'vitest';
import { lastCommitForPath, logCommits } from '../../../shared/repository/queries/commits';
import { line, MemoryRepository } from './memory-repository';

describe('logCommits', () => {
  it('lists newest first and reads only as far back as the page reaches', async () => {
    const repo = new MemoryRepository();
    const ids = line(repo, 200);
    const reader = repo.reader();
    const page = await logCommits(reader, { tips: [ids[199]], offset: 20, limit: 20 });
    expect(page.map((c) => c.id)).toEqual(ids.slice(160, 180).reverse());
    // The 40 commits of the first two pages and the parent queued after the last one: not the 200.
    expect(repo.reads).toBeLessThan(45);
  });

  it('follows a path with git’s default simplification, and stops at --since', async () => {
    const repo = new MemoryRepository();
    const ids = line(repo, 10);
    const reader = repo.reader();
    const shared = await logCommits(reader, { tips: [ids[9]], path: 'shared.txt', offset: 0, limit: 100 });
    expect(shared.map((c) => c.message)).toEqual(['commit 8\n', 'commit 6\n', 'commit 4\n', 'commit 2\n', 'commit 0\n']);
    const since = (await reader.commit(ids[5]))!.committer.timestamp;
    const recent = await logCommits(reader, { tips: [ids[9]], since, offset: 0, limit: 100 });
    expect(recent.map((c) => c.id)).toEqual(ids.slice(5).reverse());
    const until = await logCommits(reader, { tips: [ids[9]], until: since, offset: 0, limit: 3 });
    expect(until.map((c) => c.id)).toEqual([ids[5], ids[4], ids[3]]);
  });

  it('shows a merge, follows first parents only when asked, and orders topologically', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { a: '1\n' }, message: 'base\n' });
    const side = repo.commit({ files: { a: '1\n', b: 'side\n' }, parents: [base], message: 'side\n' });
    const main = repo.commit({ files: { a: '2\n' }, parents: [base], message: 'main\n' });
    const merge = repo.commit({ files: { a: '2\n', b: 'side\n' }, parents: [main, side], message: 'merge\n' });
    const reader = repo.reader();
    const all = await logCommits(reader, { tips: [merge], offset: 0, limit: 10 });
    expect(all.map((c) => c.message)).toEqual(['merge\n', 'main\n', 'side\n', 'base\n']);
    const first = await logCommits(reader, { tips: [merge], firstParent: true, offset: 0, limit: 10 });
    expect(first.map((c) => c.message)).toEqual(['merge\n', 'main\n', 'base\n']);
    const topo = await logCommits(reader, { tips: [merge], order: 'topo', offset: 0, limit: 10 });
    expect(topo.map((c) => c.message)).toEqual(['merge\n', 'side\n', 'main\n', 'base\n']);
    // Only the side branch changed b: the merge is the same as its second parent there and is not shown.
    const b = await logCommits(reader, { tips: [merge], path: 'b', offset: 0, limit: 10 });
    expect(b.map((c) => c.message)).toEqual(['side\n']);
    expect((await lastCommitForPath(reader, merge, 'a'))?.message).toBe('main\n');
  });

  it('filters by author', async () => {
    const repo = new MemoryRepository();
    const first = repo.commit({ files: { a: '1' }, author: 'Jane Doe' });
    const second = repo.commit({ files: { a: '2' }, parents: [first], author: 'John Roe' });
    const page = await logCommits(repo.reader(), { tips: [second], author: 'Jane', offset: 0, limit: 10 });
    expect(page.map((c) => c.id)).toEqual([first]);
  });
});
