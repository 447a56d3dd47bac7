/**
 * Merge request diff versions (`diffVersion`): the commits of the head not in the base, newest
 * first, and the changes capped as GitLab's `Gitlab::Git::DiffCollection` caps them (100 files,
 * 5000 lines, 5 KiB a file), with `overflow` and `realSize`.
 */
import { describe, expect, it } from 'vitest';
import { diffVersion } from '../../../shared/repository/queries/diff-versions';
import { MemoryRepository } from '../api/memory-repository';

const many = (count: number, content: (i: number) => string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, content(i)]));

describe('diffVersion', () => {
  it('lists the commits newest first and the changes with GitLab fields, renames found', async () => {
    const repo = new MemoryRepository();
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const base = repo.commit({ files: { 'a.txt': 'a\n', 'old/name.txt': text, 'gone.txt': 'bye\n' } });
    const one = repo.commit({ parents: [base], files: { 'a.txt': 'a2\n', 'old/name.txt': text, 'gone.txt': 'bye\n' }, message: 'one\n' });
    const two = repo.commit({ parents: [one], files: { 'a.txt': 'a2\n', 'new/name.txt': text.replace('line 3', 'line three'), 'b.sh': { mode: '100755', oid: repo.blob('run\n') } }, message: 'two\n' });

    const version = await diffVersion(repo.asRepository(), { base, head: two });

    expect(version.commits.map((commit) => commit.id)).toEqual([two, one]);
    expect(version.commits[0].message).toBe('two\n');
    expect(version.overflow).toBe(false);
    expect(version.realSize).toBe('4');
    expect(version.diffs.map((diff) => [diff.old_path, diff.new_path, diff.a_mode, diff.b_mode, diff.new_file, diff.renamed_file, diff.deleted_file])).toEqual([
      ['a.txt', 'a.txt', '100644', '100644', false, false, false],
      ['b.sh', 'b.sh', '0', '100755', true, false, false],
      ['gone.txt', 'gone.txt', '100644', '0', false, false, true],
      ['old/name.txt', 'new/name.txt', '100644', '100644', false, true, false],
    ]);
    expect(version.diffs[0]).toMatchObject({ diff: '@@ -1 +1 @@\n-a\n+a2\n', collapsed: false, too_large: false });
  });

  it('has no commits and no diffs for the same commit', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { 'a.txt': 'a\n' } });
    expect(await diffVersion(repo.asRepository(), { base, head: base })).toEqual({ commits: [], diffs: [], overflow: false, realSize: '0' });
  });

  it('stops at 100 files: overflow, real size "100+"', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: { 'keep.txt': 'k\n' } });
    const head = repo.commit({ parents: [base], files: { 'keep.txt': 'k\n', ...many(130, (i) => `file ${i}\n`) } });
    const version = await diffVersion(repo.asRepository(), { base, head });
    expect(version.diffs).toHaveLength(100);
    expect(version.diffs.at(-1)?.new_path).toBe('f099.txt');
    expect(version).toMatchObject({ overflow: true, realSize: '100+' });
    // Exactly 100 files do not overflow.
    const hundred = repo.commit({ parents: [base], files: { 'keep.txt': 'k\n', ...many(100, (i) => `file ${i}\n`) } });
    expect(await diffVersion(repo.asRepository(), { base, head: hundred })).toMatchObject({ overflow: false, realSize: '100' });
  });

  it('leaves out the file that brings the lines to 5000, and all after it', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: {} });
    const big = (i: number) => Array.from({ length: 2000 }, (_, n) => `${i}:${n}`).join('\n') + '\n';
    const head = repo.commit({ parents: [base], files: many(4, big) });
    const version = await diffVersion(repo.asRepository(), { base, head });
    // Each patch is 2001 lines (its hunk header and 2000 additions): the third reaches 5000.
    expect(version.diffs.map((diff) => diff.new_path)).toEqual(['f000.txt', 'f001.txt']);
    expect(version).toMatchObject({ overflow: true, realSize: '2+' });
  });

  it('leaves out the file that brings the bytes to 500 KiB, and keeps a patch over 200 KiB empty, too large', async () => {
    const repo = new MemoryRepository();
    const base = repo.commit({ files: {} });
    const huge = `${'x'.repeat(250 * 1024)}\n`;
    const wide = (i: number) => Array.from({ length: 100 }, (_, n) => `${i}:${n}:${'y'.repeat(1200)}`).join('\n') + '\n';
    const head = repo.commit({ parents: [base], files: { 'a-huge.txt': huge, ...many(6, wide) } });
    const version = await diffVersion(repo.asRepository(), { base, head });
    expect(version.diffs[0]).toMatchObject({ new_path: 'a-huge.txt', diff: '', too_large: true });
    // About 120 KB a patch: the fifth reaches 512000 bytes.
    expect(version.diffs.map((diff) => diff.new_path)).toEqual(['a-huge.txt', 'f000.txt', 'f001.txt', 'f002.txt', 'f003.txt']);
    expect(version).toMatchObject({ overflow: true, realSize: '5+' });
  });
});
