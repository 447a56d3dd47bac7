/**
 * Diff note positions (GitLab's `Gitlab::Diff::Position` and the validations of `DiffNote`), what
 * every noteable with a diff shares: the `position` parameter of `POST .../discussions` as Grape
 * checks it, the lines of a unified diff as GitLab's parser numbers them, the line code of a text
 * position (`<sha1 of the file path>_<old line>_<new line>`, found in the diff or on an unchanged
 * line outside its hunks, as `Gitlab::Diff::LinesUnfolder` finds it), and GitLab's 400 for a
 * note whose position does not hold. Merge requests check positions against their diff versions
 * (the merge-requests feature's `diff-position.ts`), commits against their own diff
 * (`commands/commit-notes.ts`).
 *
 * The position is kept as GitLab shows it (`Position#to_h`), snake case.
 */
import { createHash } from 'node:crypto';
import { BadRequestError } from '../platform/http/errors';

/** A file of a diff as positions read it: its paths and its unified diff text (no `diff --git` header). */
export interface DiffFileText {
  old_path: string;
  new_path: string;
  diff: string;
}

/** GitLab's position types (`text` and `image` in the API, `file` since GitLab 16). */
export const POSITION_TYPES = ['text', 'image', 'file'] as const;

/** Internal: a line number as Grape's `Integer` coerces it; `undefined` when absent or blank. */
const lineNumber = (value: unknown): number | undefined | typeof INVALID => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(String(value).trim()) ? Number(String(value).trim()) : NaN;
  return Number.isSafeInteger(n) ? n : INVALID;
};
const INVALID = Symbol('invalid');

/** A position as given (`position` of `POST .../discussions`), checked as Grape checks it. */
export interface PositionInput {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: (typeof POSITION_TYPES)[number];
  old_path?: string;
  new_path?: string;
  old_line?: number;
  new_line?: number;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  line_range?: Record<string, unknown>;
}

/**
 * Internal: the nested `position` checked as Grape checks it: the position, `undefined` when
 * absent, or Grape's messages (`position[base_sha] is missing`, `position[position_type] does not
 * have a valid value`, `position[new_line] is invalid`, `position is invalid`).
 */
function parsePosition(value: unknown): PositionInput | undefined | { errors: string[] } {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return { errors: ['position is invalid'] };
  const given = value as Record<string, unknown>;
  const errors: string[] = [];
  const text = (name: string): string | undefined => {
    const v = given[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'object') {
      errors.push(`position[${name}] is invalid`);
      return undefined;
    }
    return String(v);
  };
  const requiredText = (name: string) => {
    const v = text(name);
    if (v === undefined || v.trim() === '') errors.push(`position[${name}] is missing`);
    return v ?? '';
  };
  const int = (name: string) => {
    const n = lineNumber(given[name]);
    if (n === INVALID) {
      errors.push(`position[${name}] is invalid`);
      return undefined;
    }
    return n;
  };
  const position = {
    base_sha: requiredText('base_sha'),
    start_sha: requiredText('start_sha'),
    head_sha: requiredText('head_sha'),
    position_type: requiredText('position_type') as PositionInput['position_type'],
    new_path: text('new_path'),
    new_line: int('new_line'),
    old_path: text('old_path'),
    old_line: int('old_line'),
    width: int('width'),
    height: int('height'),
    x: int('x'),
    y: int('y'),
  };
  if (position.position_type && !POSITION_TYPES.includes(position.position_type)) errors.push('position[position_type] does not have a valid value');
  const range = given.line_range;
  if (range !== undefined && (typeof range !== 'object' || range === null || Array.isArray(range))) errors.push('position[line_range] is invalid');
  if (errors.length > 0) return { errors };
  return { ...position, ...(range ? { line_range: range as Record<string, unknown> } : {}) };
}

/**
 * The `position` parameter from the request's parameters (a route schema's transform; form and
 * query fields named `position[base_sha]` arrive gathered, as Rack gathers them): Grape's checks of its fields, whose failures
 * are issues of the schema, answered 400 `{"error":"position[base_sha] is missing"}`.
 * @example
 * z.looseObject({ body: required(p.string()), position: z.unknown() })
 *   .transform(({ body, ...raw }, ctx) => ({ body, position: positionFrom(raw, ctx) }));
 */
export function positionFrom(raw: Record<string, unknown>, ctx: { addIssue: (issue: { code: 'custom'; message: string }) => void }): PositionInput | undefined {
  const parsed = parsePosition(raw.position);
  if (parsed && 'errors' in parsed) {
    for (const message of parsed.errors) ctx.addIssue({ code: 'custom', message });
    return undefined;
  }
  return parsed;
}

/** One line of a parsed diff (GitLab's `Gitlab::Diff::Line`): its type and positions. */
export interface DiffLine {
  type: 'match' | 'new' | 'old' | 'context' | 'nonewline';
  oldPos: number;
  newPos: number;
}

/**
 * The lines of a unified diff as GitLab's `Gitlab::Diff::Parser` numbers them: a hunk header sets
 * both counters; an added line has the new counter and the old one it sits before; a removed line
 * the old counter; a context line both.
 * @example
 * diffLines('@@ -1,2 +1,2 @@\n a\n-b\n+c\n'); // context 1/1, old 2/2, new 3/2
 */
export function diffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldPos = 1;
  let newPos = 1;
  const rows = patch.split('\n');
  if (rows[rows.length - 1] === '') rows.pop();
  for (const row of rows) {
    if (row.startsWith('@@ -')) {
      const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(row);
      oldPos = header ? Number(header[1]) : 0;
      newPos = header ? Number(header[2]) : 0;
      lines.push({ type: 'match', oldPos, newPos });
      continue;
    }
    if (row.startsWith('\\')) {
      lines.push({ type: 'nonewline', oldPos, newPos });
      continue;
    }
    if (row.startsWith('+')) {
      lines.push({ type: 'new', oldPos, newPos });
      newPos++;
    } else if (row.startsWith('-')) {
      lines.push({ type: 'old', oldPos, newPos });
      oldPos++;
    } else {
      lines.push({ type: 'context', oldPos, newPos });
      oldPos++;
      newPos++;
    }
  }
  return lines;
}

/** Internal: `Diff::Line#old_line` / `#new_line`: what a position names a line by. */
const oldLineOf = (line: DiffLine) => (line.type === 'context' || line.type === 'old' ? line.oldPos : undefined);
const newLineOf = (line: DiffLine) => (line.type === 'context' || line.type === 'new' ? line.newPos : undefined);

/**
 * The line code of a text position in a file's diff (GitLab's `DiffFile#line_code_for_position`),
 * or `undefined` when no line of the diff has exactly those old and new line numbers.
 * @example
 * lineCodeIn({ old_path: 'a', new_path: 'a', diff: '@@ -1 +1,2 @@\n x\n+y\n' }, undefined, 2); // '<sha1("a")>_2_2'
 */
export function lineCodeIn(file: DiffFileText, oldLine: number | undefined, newLine: number | undefined): string | undefined {
  if (oldLine === undefined && newLine === undefined) return undefined;
  const line = diffLines(file.diff).find((l) => oldLineOf(l) === oldLine && newLineOf(l) === newLine);
  if (!line) return undefined;
  const path = file.new_path || file.old_path;
  return `${createHash('sha1').update(path).digest('hex')}_${line.oldPos}_${line.newPos}`;
}

/** Internal: a line code, `<sha1 of the path>_<old line>_<new line>` (GitLab's `Gitlab::Git.diff_line_code`). */
const lineCode = (file: Pick<DiffFileText, 'old_path' | 'new_path'>, oldLine: number, newLine: number) =>
  `${createHash('sha1').update(file.new_path || file.old_path).digest('hex')}_${oldLine}_${newLine}`;

/**
 * The new line number of an unchanged old line outside every hunk of a file's diff: the old
 * number shifted by what the hunks before it added and removed. `undefined` when the line is in a
 * hunk (a line of the diff names it) or the diff has no hunk.
 * @example
 * unfoldedNewLine('@@ -1,2 +1,3 @@\n a\n+b\n c\n', 10); // 11
 */
export function unfoldedNewLine(patch: string, oldLine: number): number | undefined {
  const lines = diffLines(patch);
  if (!lines.some((line) => line.type === 'match')) return undefined;
  if (lines.some((line) => oldLineOf(line) === oldLine)) return undefined;
  let shift = 0;
  for (const row of patch.split('\n')) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(row);
    if (header) {
      // A side of no lines (`-5,0`) names the line before the change: its first line is the next one.
      const oldStart = Number(header[1]) + (header[2] === '0' ? 1 : 0);
      const newStart = Number(header[3]) + (header[4] === '0' ? 1 : 0);
      if (oldStart > oldLine) break;
      shift = newStart - oldStart;
    } else if (row.startsWith('+')) shift++;
    else if (row.startsWith('-')) shift--;
  }
  return oldLine + shift;
}

/**
 * The line code of an unchanged line outside the hunks (GitLab's unfolded diff lines): both
 * numbers given, the old one within the old file (`oldLineCount` lines), the new one what the
 * hunks before it make of it; `undefined` otherwise (not found, as GitLab finds no line).
 * @example
 * unfoldedLineCode({ old_path: 'a', new_path: 'a', diff: '@@ -1 +1,2 @@\n x\n+y\n' }, 5, 6, 10); // '<sha1("a")>_5_6'
 */
export function unfoldedLineCode(
  file: DiffFileText & { new_file?: unknown; deleted_file?: unknown },
  oldLine: number | undefined,
  newLine: number | undefined,
  oldLineCount: number | undefined,
): string | undefined {
  if (oldLine === undefined || newLine === undefined || oldLineCount === undefined) return undefined;
  if (file.new_file === true || file.deleted_file === true || oldLine < 1 || oldLine > oldLineCount) return undefined;
  return unfoldedNewLine(file.diff, oldLine) === newLine ? lineCode(file, oldLine, newLine) : undefined;
}

/**
 * GitLab's `bad_request!("Note #{note.errors.messages}")` of a diff note's failed validations, in
 * Ruby's hash inspection: `400 Bad request - Note {:line_code=>["can't be blank"]}`.
 */
export function positionNoteErrors(errors: Record<string, string[]>): BadRequestError {
  const inspected = Object.entries(errors)
    .map(([name, messages]) => `:${name}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ');
  return new BadRequestError(`400 Bad request - Note {${inspected}}`);
}

/** A checked position: as GitLab shows it, with the line code of a text position. */
export interface CheckedPosition {
  position: { base_sha: string; start_sha: string; head_sha: string; old_path: string | null; new_path: string | null; position_type: string } & Record<string, unknown>;
  lineCode?: string;
}

/** GitLab's `Position#complete?`: a path; a text position a line, an image one its size and point. */
export function isCompletePosition(input: PositionInput): boolean {
  if (!(input.new_path || input.old_path)) return false;
  if (input.position_type === 'text') return input.old_line !== undefined || input.new_line !== undefined;
  if (input.position_type === 'image') return [input.width, input.height, input.x, input.y].every((n) => n !== undefined);
  return true;
}

/** A position as GitLab shows it (`Position#to_h`): the fields of its type, `null` for those not given. */
export function shownPosition(input: PositionInput): CheckedPosition['position'] {
  const base = {
    base_sha: input.base_sha,
    start_sha: input.start_sha,
    head_sha: input.head_sha,
    old_path: input.old_path ?? null,
    new_path: input.new_path ?? null,
    position_type: input.position_type,
  };
  if (input.position_type === 'text') return { ...base, old_line: input.old_line ?? null, new_line: input.new_line ?? null, line_range: input.line_range ?? null };
  if (input.position_type === 'image') return { ...base, width: input.width!, height: input.height!, x: input.x!, y: input.y! };
  return base;
}
