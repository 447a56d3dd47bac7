import { describe, expect, it } from 'vitest';
import { diffStats, diffTrees, patchOf, unifiedDiff } from '../../../shared/repository/queries/diff';
import { MemoryRepository } from './memory-repository';

// Expected texts are what `git diff --no-index` prints after the file headers.
describe('unifiedDiff', () => {
  it.each([
    ['one line changed', 'one\ntwo\nthree\n', 'one\n2\nthree\n', '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n'],
    ['no newline on either side', 'a', 'b', '@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n'],
    ['the last newline removed', 'a\n', 'a', '@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n'],
    ['a new file', '', 'x\ny\n', '@@ -0,0 +1,2 @@\n+x\n+y\n'],
    ['a file emptied', 'x\ny\n', '', '@@ -1,2 +0,0 @@\n-x\n-y\n'],
    ['the function line in the header', 'def foo\n1\n2\n3\n4\n5\n6\n7\n8\n9\n', 'def foo\n1\n2\n3\n4\n5\n6\n7\nX\n9\n', '@@ -6,5 +6,5 @@ def foo\n 5\n 6\n 7\n-8\n+X\n 9\n'],
  ])('%s', (_name, before, after, expected) => {
    expect(unifiedDiff(before, after).text).toBe(expected);
  });

  it('merges changes up to six lines apart into one hunk, and splits farther ones', () => {
    const before = Array.from({ length: 20 }, (_, i) => `${i + 1}\n`).join('');
    const after = before.replace('2\n', 'X\n').replace('\n9\n', '\nY\n').replace('19\n', 'Z\n');
    const text = unifiedDiff(before, after).text;
    expect(text.match(/^@@.*$/gm)).toEqual(['@@ -1,12 +1,12 @@', '@@ -16,5 +16,5 @@']);
  });

  it('counts added and removed lines', () => {
    expect(unifiedDiff('a\nb\nc\n', 'a\nc\nd\ne\n')).toMatchObject({ additions: 2, deletions: 1 });
  });

  it('cuts the function line at 80 bytes and keeps the last one found for a later hunk', () => {
    const long = `function ${'x'.repeat(100)}\n`;
    const before = `${long}${Array.from({ length: 30 }, (_, i) => `${i}\n`).join('')}`;
    const after = before.replace('\n5\n', '\nfive\n').replace('\n25\n', '\ntwenty-five\n');
    const headers = unifiedDiff(before, after).text.match(/^@@.*$/gm)!;
    expect(headers).toHaveLength(2);
    for (const header of headers) expect(header.endsWith(` ${long.slice(0, 80)}`)).toBe(true);
  });
});

describe('diffTrees and patchOf', () => {
  it('lists added, modified and deleted files in path order, with their modes', async () => {
    const repo = new MemoryRepository();
    const before = repo.tree({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'z.txt': 'z\n' });
    const after = repo.tree({ 'a.txt': 'A\n', 'dir/c.txt': 'c\n', 'z.txt': { mode: '100755', oid: repo.blob('z\n') } });
    const changes = await diffTrees(repo.reader(), before, after);
    expect(changes.map((c) => [c.oldPath, c.newPath, c.oldMode.toString(8), c.newMode.toString(8), c.newFile, c.deletedFile, c.renamedFile])).toEqual([
      ['a.txt', 'a.txt', '100644', '100644', false, false, false],
      ['dir/b.txt', 'dir/b.txt', '100644', '0', false, true, false],
      ['dir/c.txt', 'dir/c.txt', '0', '100644', true, false, false],
      ['z.txt', 'z.txt', '100644', '100755', false, false, false],
    ]);
    const reader = repo.reader();
    expect((await patchOf(reader, changes[3])).diff).toBe('');
    expect((await patchOf(reader, changes[1])).diff).toBe('@@ -1 +0,0 @@\n-b\n');
  });

  it('detects exact renames, and renames of files at least half alike', async () => {
    const repo = new MemoryRepository();
    const body = Array.from({ length: 10 }, (_, i) => `line ${i}\n`).join('');
    const before = repo.tree({ 'old/same.txt': 'same content\n', 'edited.txt': body });
    const after = repo.tree({ 'new/same.txt': 'same content\n', 'moved.txt': body.replace('line 3', 'LINE 3') });
    const changes = await diffTrees(repo.reader(), before, after);
    expect(changes.map((c) => [c.oldPath, c.newPath, c.renamedFile])).toEqual([
      ['edited.txt', 'moved.txt', true],
      ['old/same.txt', 'new/same.txt', true],
    ]);
    expect((await patchOf(repo.reader(), changes[0])).diff).toBe('@@ -1,7 +1,7 @@\n line 0\n line 1\n line 2\n-line 3\n+LINE 3\n line 4\n line 5\n line 6\n');
  });

  it("shows binary content as git does, and text in another encoding as GitLab's binary message", async () => {
    const repo = new MemoryRepository();
    const t1 = repo.tree({ 'img.png': { mode: '100644', oid: repo.blob(Buffer.from([0x89, 0x50, 0x00, 0x01])) }, 'latin.txt': { mode: '100644', oid: repo.blob(Buffer.from('caf\xe9\n', 'latin1')) } });
    const t2 = repo.tree({ 'img.png': { mode: '100644', oid: repo.blob(Buffer.from([0x89, 0x50, 0x00, 0x02])) }, 'latin.txt': { mode: '100644', oid: repo.blob(Buffer.from('caf\xe9!\n', 'latin1')) } });
    const reader = repo.reader();
    const [image, latin] = await diffTrees(reader, t1, t2);
    expect(await patchOf(reader, image)).toMatchObject({ diff: 'Binary files a/img.png and b/img.png differ\n', additions: 0, deletions: 0 });
    expect((await patchOf(reader, latin)).diff).toBe('Binary files latin.txt and latin.txt differ\n');
    const [added] = await diffTrees(reader, null, repo.tree({ 'img.png': { mode: '100644', oid: repo.blob(Buffer.from([0, 1])) } }));
    expect((await patchOf(reader, added)).diff).toBe('Binary files /dev/null and b/img.png differ\n');
  });

  it('leaves out the diff of a file whose patch is over 200 KiB, as too large', async () => {
    const repo = new MemoryRepository();
    const big = Array.from({ length: 30_000 }, (_, i) => `row ${i} ${'x'.repeat(5)}\n`).join('');
    const reader = repo.reader();
    const [change] = await diffTrees(reader, null, repo.tree({ 'big.txt': big }));
    expect(await patchOf(reader, change)).toMatchObject({ diff: '', tooLarge: true, additions: 30_000 });
  });

  it('counts the lines a change adds and removes', async () => {
    const repo = new MemoryRepository();
    const stats = await diffStats(repo.reader(), repo.tree({ 'a.txt': 'a\nb\n' }), repo.tree({ 'a.txt': 'a\nc\nd\n', 'new.txt': 'n\n' }));
    expect(stats).toEqual({ additions: 3, deletions: 1, total: 4 });
  });
});
