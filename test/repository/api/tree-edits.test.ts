import { describe, expect, it } from 'vitest';
import { TreeEditor, normalizePath, type IndexError } from '../../../shared/repository/commands/tree-edits';
import { MemoryRepository } from './memory-repository';

const path = (p: string) => normalizePath(p);

describe('TreeEditor', () => {
  it('builds the same tree git would for the edited files, writing only the trees that changed', async () => {
    const repo = new MemoryRepository();
    const base = repo.tree({ 'README.md': '# Hi\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'docs/x.md': 'x\n' });
    const editor = new TreeEditor(repo.reader(), base);
    await editor.update(path('src/a.ts'), { oid: repo.blob('A\n') });
    await editor.create(path('src/deep/new.ts'), { mode: '100755', oid: repo.blob('new\n') });
    await editor.remove(path('docs/x.md'));
    const { oid, objects } = editor.build();
    expect(oid).toBe(repo.tree({ 'README.md': '# Hi\n', 'src/a.ts': 'A\n', 'src/b.ts': 'b\n', 'src/deep/new.ts': { mode: '100755', oid: repo.blob('new\n') } }));
    // src/deep, src and the root: docs went away with its last file, README's tree was not touched.
    expect(objects).toHaveLength(3);
  });

  it('answers Gitaly’s index errors', async () => {
    const repo = new MemoryRepository();
    const editor = new TreeEditor(repo.reader(), repo.tree({ 'a.txt': 'a', 'dir/b.txt': 'b' }));
    const failure = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: IndexError) => error.message);
    expect(await failure(editor.create(path('a.txt'), { mode: '100644', oid: repo.blob('') }))).toBe('A file with this name already exists');
    expect(await failure(editor.create(path('dir'), { mode: '100644', oid: repo.blob('') }))).toBe('A directory with this name already exists');
    expect(await failure(editor.update(path('missing.txt'), {}))).toBe("A file with this name doesn't exist");
    expect(await failure(editor.remove(path('dir')))).toBe("A file with this name doesn't exist");
    expect(await failure(editor.create(path('a.txt/inner'), { mode: '100644', oid: repo.blob('') }))).toBe('A file with this name already exists');
  });

  it('starts from nothing for an empty repository', async () => {
    const repo = new MemoryRepository();
    const editor = new TreeEditor(repo.reader(), null);
    await editor.create(path('README.md'), { mode: '100644', oid: repo.blob('') });
    expect(editor.build().oid).toBe(repo.tree({ 'README.md': '' }));
  });
});

describe('normalizePath', () => {
  it('resolves dots and refuses what leaves the repository', () => {
    expect(normalizePath('./a/../b/c').map(String)).toEqual(['b', 'c']);
    expect(() => normalizePath('../etc/passwd')).toThrow('Path cannot include directory traversal');
    expect(() => normalizePath('')).toThrow('You must provide a file path');
    expect(() => normalizePath('a//b')).toThrow("invalid path: 'a//b'");
    expect(() => normalizePath('.git/config')).toThrow("invalid path: '.git/config'");
  });
});
