/**
 * Unchanged lines outside a diff's hunks (GitLab's `Gitlab::Diff::LinesUnfolder`): the new number
 * of an old line is the old one shifted by the hunks before it; its line code is GitLab's; lines
 * beyond the old file's end, in a new or deleted file, or named with the wrong new number have none.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unfoldedLineCode, unfoldedNewLine } from '../../shared/merge-requests/diff-position';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
// Line 3 changed; a line inserted after old line 30; old line 38 removed.
const diff = [
  '@@ -1,6 +1,6 @@', ' l1', ' l2', '-l3', '+changed', ' l4', ' l5', ' l6',
  '@@ -28,6 +28,7 @@', ' l28', ' l29', ' l30', '+inserted', ' l31', ' l32', ' l33',
  '@@ -35,6 +36,5 @@', ' l35', ' l36', ' l37', '-l38', ' l39', ' l40',
].join('\n') + '\n';
const file = { old_path: 'a.txt', new_path: 'a.txt', diff };

describe('unfoldedNewLine', () => {
  it('shifts an old line by the hunks before it', () => {
    expect(unfoldedNewLine(diff, 15)).toBe(15);
    expect(unfoldedNewLine(diff, 34)).toBe(35);
    expect(unfoldedNewLine(diff, 41)).toBe(41);
  });

  it('has nothing for a line inside a hunk, or a diff without hunks', () => {
    expect(unfoldedNewLine(diff, 4)).toBeUndefined();
    expect(unfoldedNewLine(diff, 38)).toBeUndefined();
    expect(unfoldedNewLine('', 4)).toBeUndefined();
  });

  it('reads a side of no lines (`-5,0`) as the line after it', () => {
    const insertion = '@@ -5,0 +6,2 @@\n+a\n+b\n';
    expect(unfoldedNewLine(insertion, 5)).toBe(5);
    expect(unfoldedNewLine(insertion, 6)).toBe(8);
  });
});

describe('unfoldedLineCode', () => {
  it('gives GitLab’s line code for a line within the old file', () => {
    expect(unfoldedLineCode(file, 15, 15, 41)).toBe(`${sha1('a.txt')}_15_15`);
    expect(unfoldedLineCode(file, 41, 41, 41)).toBe(`${sha1('a.txt')}_41_41`);
  });

  it('has none beyond the old file’s end, for a wrong new line, one side only, or a new or deleted file', () => {
    expect(unfoldedLineCode(file, 42, 42, 41)).toBeUndefined();
    expect(unfoldedLineCode(file, 15, 16, 41)).toBeUndefined();
    expect(unfoldedLineCode(file, 15, undefined, 41)).toBeUndefined();
    expect(unfoldedLineCode(file, 15, 15, undefined)).toBeUndefined();
    expect(unfoldedLineCode({ ...file, new_file: true }, 15, 15, 41)).toBeUndefined();
    expect(unfoldedLineCode({ ...file, deleted_file: true }, 15, 15, 41)).toBeUndefined();
  });
});
