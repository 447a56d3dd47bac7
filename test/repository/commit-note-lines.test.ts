/**
 * The lines a commit comment with `path` and `line` may land on (GitLab's `Gitlab::Diff::Parser`
 * and `Line#line`/`#type`): added lines by their new number, removed lines by their old number;
 * context lines are not among them.
 */
import { describe, expect, it } from 'vitest';
import { changedLines } from '../../shared/repository/commands/commit-notes';

describe('changedLines', () => {
  it('numbers added lines on the new side and removed lines on the old side, across hunks', () => {
    const diff = '@@ -1,3 +1,4 @@\n one\n-two\n+zwei\n three\n+four\n@@ -10,2 +11,1 @@\n ten\n-eleven\n';
    expect(changedLines(diff)).toEqual([
      { type: 'old', oldPos: 2, newPos: 2 },
      { type: 'new', oldPos: 3, newPos: 2 },
      { type: 'new', oldPos: 4, newPos: 4 },
      { type: 'old', oldPos: 11, newPos: 12 },
    ]);
  });
});
