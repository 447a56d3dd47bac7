/** Diff positions: lines numbered as GitLab's diff parser numbers them, line codes, and `position` parameters. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseParams } from '../../shared/platform/http/params';
import { diffLines, lineCodeIn } from '../../shared/merge-requests/diff-position';
import { createParams } from '../../shared/merge-requests/routes/discussions.params';

const PATCH = '@@ -1,5 +1,6 @@\n line1\n line2\n-line3\n+changed\n line4\n line5\n+line6\n';
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('diffLines', () => {
  it("numbers lines as GitLab's parser: an added line keeps the old counter, a removed one the new", () => {
    expect(diffLines(PATCH)).toEqual([
      { type: 'match', oldPos: 1, newPos: 1 },
      { type: 'context', oldPos: 1, newPos: 1 },
      { type: 'context', oldPos: 2, newPos: 2 },
      { type: 'old', oldPos: 3, newPos: 3 },
      { type: 'new', oldPos: 4, newPos: 3 },
      { type: 'context', oldPos: 4, newPos: 4 },
      { type: 'context', oldPos: 5, newPos: 5 },
      { type: 'new', oldPos: 6, newPos: 6 },
    ]);
  });

  it('restarts the counters at each hunk and skips "no newline" markers', () => {
    const lines = diffLines('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n@@ -10,2 +10,2 @@\n x\n-y\n+z\n');
    expect(lines.filter((l) => l.type !== 'nonewline' && l.type !== 'match').map((l) => `${l.type} ${l.oldPos}/${l.newPos}`)).toEqual([
      'old 1/1',
      'new 2/1',
      'context 10/10',
      'old 11/11',
      'new 12/11',
    ]);
  });
});

describe('lineCodeIn', () => {
  const file = { old_path: 'app.rb', new_path: 'app.rb', diff: PATCH };

  it('gives the code of an added, a removed and a context line by the lines a position names', () => {
    expect(lineCodeIn(file, undefined, 3)).toBe(`${sha1('app.rb')}_4_3`);
    expect(lineCodeIn(file, 3, undefined)).toBe(`${sha1('app.rb')}_3_3`);
    expect(lineCodeIn(file, 4, 4)).toBe(`${sha1('app.rb')}_4_4`);
    expect(lineCodeIn(file, undefined, 6)).toBe(`${sha1('app.rb')}_6_6`);
  });

  it('uses the new path of a renamed file', () => {
    expect(lineCodeIn({ ...file, new_path: 'lib/app.rb' }, undefined, 3)).toBe(`${sha1('lib/app.rb')}_4_3`);
  });

  it('finds nothing for a line outside the diff or named by the wrong side', () => {
    expect(lineCodeIn(file, undefined, 40)).toBeUndefined();
    expect(lineCodeIn(file, 6, undefined)).toBeUndefined();
    expect(lineCodeIn(file, undefined, 1)).toBeUndefined();
    expect(lineCodeIn(file, undefined, undefined)).toBeUndefined();
  });
});

describe('POST .../discussions parameters', () => {
  const base = { id: '1', merge_request_iid: '2', body: 'Here' };
  const shas = { base_sha: 'a'.repeat(40), start_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40) };

  it('takes form fields position[...] as collectParams gathers them (strings, nested too) and keeps only the declared parameters', () => {
    const parsed = parseParams(createParams, {
      ...base,
      position: { ...shas, position_type: 'text', new_path: 'app.rb', new_line: '3', line_range: { start: { line_code: 'x_1_1' } } },
      stray: 'ignored',
    });
    expect(parsed).toEqual({
      id: '1',
      merge_request_iid: 2,
      body: 'Here',
      created_at: undefined,
      position: { ...shas, position_type: 'text', new_path: 'app.rb', new_line: 3, line_range: { start: { line_code: 'x_1_1' } } },
    });
  });

  it('takes a JSON position, and no position at all', () => {
    expect(parseParams(createParams, { ...base, position: { ...shas, position_type: 'image', width: 10, height: 20, x: 1, y: 2 } }).position).toMatchObject({ width: 10, x: 1 });
    expect(parseParams(createParams, base).position).toBeUndefined();
  });

  it.each([
    [{ ...shas, head_sha: undefined, position_type: 'text' }, 'position[head_sha] is missing'],
    [{ ...shas, position_type: 'video' }, 'position[position_type] does not have a valid value'],
    [{ ...shas, position_type: 'text', old_line: '1.5' }, 'position[old_line] is invalid'],
    ['text', 'position is invalid'],
  ])('refuses %j with Grape\'s message', (position, message) => {
    expect(() => parseParams(createParams, { ...base, position })).toThrow(expect.objectContaining({ body: { error: message } }));
  });
});
