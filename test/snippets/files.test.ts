/**
 * A snippet's file actions as GitLab checks and commits them (`shared/snippets/files.ts`), the
 * model's validation messages (`snippetErrors`) and Rails' human sizes they print.
 */
import { describe, expect, it } from 'vitest';
import { contentError } from '../../shared/snippets/commands/snippets';
import { actionsValid, applyChanges, humanSize, isSafeFilePath, legacyChange, type FileChange, type SnippetFile } from '../../shared/snippets/files';

const stored = (object: string) => ({ object, size: object.length });
const file = (path: string, object = path): SnippetFile => ({ path, ...stored(object) });

describe('actionsValid', () => {
  it.each([
    [{ action: 'create', file_path: 'a.rb', content: 'x' }, true],
    [{ action: 'create', content: 'x' }, true],
    [{ action: 'create', file_path: 'a.rb', content: '  ' }, false],
    [{ action: 'update', file_path: 'a.rb', content: 'x' }, true],
    [{ action: 'update', content: 'x' }, false],
    [{ action: 'update', file_path: 'a.rb', previous_path: 'b.rb', content: 'x' }, false],
    [{ action: 'delete', file_path: 'a.rb' }, true],
    [{ action: 'delete' }, false],
    [{ action: 'move', previous_path: 'a.rb', file_path: 'b.rb' }, true],
    [{ action: 'move', previous_path: 'a.rb', file_path: 'a.rb' }, false],
    [{ action: 'move', file_path: 'b.rb' }, false],
  ] as const)('%j is %s', (action, valid) => {
    expect(actionsValid([action])).toBe(valid);
  });

  it('refuses actions a create may not use', () => {
    expect(actionsValid([{ action: 'delete', file_path: 'a.rb' }], ['create'])).toBe(false);
  });
});

describe('applyChanges', () => {
  const files = [file('b.rb'), file('a.rb', 'obj-a')];

  it('applies create, update, move and delete as one commit, in path order', () => {
    // Prepare
    const changes: FileChange[] = [
      { action: 'create', filePath: 'c.txt', content: stored('obj-c') },
      { action: 'update', filePath: 'b.rb', content: stored('obj-b2') },
      { action: 'move', previousPath: 'a.rb', filePath: 'z/a.rb' },
      { action: 'delete', filePath: 'c.txt' },
      { action: 'create', content: stored('obj-e') },
    ];
    // Act
    const result = applyChanges(files, changes);
    // Assess
    expect(result).toEqual([file('b.rb', 'obj-b2'), file('snippetfile1.txt', 'obj-e'), file('z/a.rb', 'obj-a')]);
  });

  it.each<[string, FileChange]>([
    ['a create over an existing file', { action: 'create', filePath: 'a.rb', content: stored('x') }],
    ['an update of a missing file', { action: 'update', filePath: 'x.rb', content: stored('x') }],
    ['a delete of a missing file', { action: 'delete', filePath: 'x.rb' }],
    ['a move of a missing file', { action: 'move', previousPath: 'x.rb', filePath: 'y.rb' }],
    ['a move onto an existing file', { action: 'move', previousPath: 'a.rb', filePath: 'b.rb' }],
  ])('fails %s', (_name, change) => {
    expect(applyChanges(files, [change])).toBe('failed');
  });

  it('fails when no file is left or more than ten would be', () => {
    expect(applyChanges(files, [{ action: 'delete', filePath: 'a.rb' }, { action: 'delete', filePath: 'b.rb' }])).toBe('failed');
    const eleven = Array.from({ length: 11 }, (_, i): FileChange => ({ action: 'create', filePath: `f${i}`, content: stored('x') }));
    expect(applyChanges([], eleven)).toBe('failed');
  });

  it('numbers files created without a path after the last one', () => {
    expect(applyChanges([file('snippetfile3.txt')], [{ action: 'create', content: stored('x') }])).toEqual([file('snippetfile3.txt'), file('snippetfile4.txt', 'x')]);
  });

  it('turns the deprecated file_name into a move of the first file, content into its update', () => {
    expect(legacyChange([file('a.rb')], 'b.rb', undefined)).toEqual({ action: 'move', filePath: 'b.rb', previousPath: 'a.rb', content: undefined });
    expect(legacyChange([file('a.rb')], undefined, stored('x'))).toEqual({ action: 'update', filePath: 'a.rb', previousPath: 'a.rb', content: stored('x') });
  });
});

describe('isSafeFilePath', () => {
  it.each([
    ['lib/a.rb', true],
    ['a..b.rb', true],
    ['../a.rb', false],
    ['lib/../../a.rb', false],
    ['%2e%2e/a.rb', false],
    ['/etc/passwd', false],
  ])('%s → %s', (path, safe) => {
    expect(isSafeFilePath(path)).toBe(safe);
  });
});

describe('sizes and validation messages', () => {
  it.each([
    [1, '1 Byte'],
    [12, '12 Bytes'],
    [1024, '1 KB'],
    [4 * 1024 * 1024, '4 MB'],
    [4.5 * 1024 * 1024, '4.5 MB'],
    [1234567, '1.18 MB'],
    [50 * 1024 * 1024, '50 MB'],
  ])('%d bytes print as %s', (bytes, text) => {
    expect(humanSize(bytes)).toBe(text);
  });

  it("answers the model's message for the largest content past the limit", () => {
    expect(contentError(['x', 'x'.repeat(2048), 'x'.repeat(1500)], 1024)).toBe('Content is too long (2 KB). The maximum size is 1 KB.');
    expect(contentError(['x'.repeat(1024)], 1024)).toBeUndefined();
  });
});
