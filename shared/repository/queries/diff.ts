/**
 * Diffs as GitLab shows them (Gitaly's `CommitDiff`, which runs `git diff` with rename
 * detection): the files two trees differ in, and each file's unified diff without headers (hunks
 * only, `@@ -1,3 +1,4 @@ <function line>`), `\ No newline at end of file` markers, and
 * `Binary files a/x and b/x differ` for binary content.
 *
 * Only subtrees whose ids differ are read. Lines are compared by git's own algorithm (`xdiff.ts`)
 * over the bytes (read as latin1, so any encoding survives); hunks, their context (3 lines), their
 * merging (gaps of up to 6 lines) and the function line of the header (git's default: the nearest
 * line above that starts with a letter, `_` or `$`, at most 80 bytes) follow git's xdiff.
 */
import { isUtf8 } from 'node:buffer';
import { MODE, isTreeEntry, modeOf, type ObjectReader, type TreeEntry } from './objects';
import { xdiff, xdiffRecords } from './xdiff';

/** One file two trees differ in. Paths are the UTF-8 readings of the names. */
export interface FileChange {
  oldPath: string;
  newPath: string;
  /** 0 when the file does not exist on that side. */
  oldMode: number;
  newMode: number;
  oldOid: string | null;
  newOid: string | null;
  newFile: boolean;
  deletedFile: boolean;
  renamedFile: boolean;
}

/** A file's diff text and line counts (`git diff --numstat`: binary files count 0). */
export interface FilePatch {
  diff: string;
  /** Over GitLab's patch limit (`diff_max_patch_bytes`): the diff is left empty. */
  tooLarge: boolean;
  additions: number;
  deletions: number;
}

/** GitLab's default `diff_max_patch_bytes` (200 KiB). */
export const MAX_PATCH_BYTES = 204_800;
/** git reads the first 8000 bytes to tell binary content (a NUL byte) from text. */
const BINARY_PROBE_BYTES = 8000;
/** git's default rename threshold (`-M50%`). */
const RENAME_SCORE = 0.5;
/** Inexact rename detection compares at most this many (deleted × added) pairs, as git's `diff.renameLimit`. */
const RENAME_PAIR_LIMIT = 1000 * 1000;
/** Files larger than this are not compared for inexact renames. */
const RENAME_MAX_BYTES = 1024 * 1024;
const CONTEXT = 3;

/** What a tree diff reads: trees, and the blobs of files it compares for inexact renames. */
export type DiffReader = Pick<ObjectReader, 'tree' | 'blob'>;

interface RawChange {
  status: 'A' | 'D' | 'M';
  path: Buffer;
  oldEntry?: TreeEntry;
  newEntry?: TreeEntry;
}

const join = (prefix: Buffer, name: Buffer) => (prefix.length === 0 ? name : Buffer.concat([prefix, Buffer.from('/'), name]));
const orderKey = (entry: TreeEntry) => (isTreeEntry(entry) ? Buffer.concat([entry.name, Buffer.from('/')]) : entry.name);

/** Internal: `git diff-tree -r` of two trees (null: the empty tree), in git's path order. */
async function rawDiff(reader: DiffReader, before: string | null, after: string | null, prefix: Buffer, out: RawChange[]): Promise<void> {
  if (before === after) return;
  const [old, next] = await Promise.all([before ? reader.tree(before) : [], after ? reader.tree(after) : []]);
  const slots = new Map<string, { key: Buffer; a?: TreeEntry; b?: TreeEntry }>();
  for (const entry of old ?? []) slots.set(orderKey(entry).toString('latin1'), { key: orderKey(entry), a: entry });
  for (const entry of next ?? []) {
    const id = orderKey(entry).toString('latin1');
    slots.set(id, { key: orderKey(entry), ...slots.get(id), b: entry });
  }
  for (const { a, b } of [...slots.values()].sort((x, y) => Buffer.compare(x.key, y.key))) {
    const path = join(prefix, (a ?? b)!.name);
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue;
    if ((a && isTreeEntry(a)) || (b && isTreeEntry(b))) {
      // One key, so both sides are trees (a tree and a file of one name sort apart).
      await rawDiff(reader, a?.oid ?? null, b?.oid ?? null, path, out);
      continue;
    }
    if (a && b) out.push({ status: 'M', path, oldEntry: a, newEntry: b });
    else if (a) out.push({ status: 'D', path, oldEntry: a });
    else out.push({ status: 'A', path, newEntry: b });
  }
}

const basename = (path: Buffer) => path.subarray(path.lastIndexOf('/') + 1);
const isRegularFile = (entry: TreeEntry | undefined) => entry !== undefined && (modeOf(entry) & 0o170000) === 0o100000;

/** Internal: a rough `git diff -M` similarity of two contents: the bytes of the lines they share, over the larger size. */
function similarity(a: Buffer, b: Buffer): number {
  const larger = Math.max(a.length, b.length);
  if (larger === 0) return 1;
  if (Math.min(a.length, b.length) / larger < RENAME_SCORE) return 0;
  const counts = new Map<string, number>();
  for (const line of xdiffRecords(a.toString('latin1'))) counts.set(line, (counts.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of xdiffRecords(b.toString('latin1'))) {
    const left = counts.get(line);
    if (!left) continue;
    counts.set(line, left - 1);
    shared += line.length;
  }
  return shared / larger;
}

/**
 * The files two trees differ in, as `git diff --find-renames` lists them: in path order, a
 * renamed file where its new path sorts. Exact renames (the same content) pair first, preferring a
 * source of the same base name; then (unless `renames` is `exact`, which reads no blob) the
 * remaining regular files at least half alike.
 */
export async function diffTrees(reader: DiffReader, oldTree: string | null, newTree: string | null, options: { renames?: boolean | 'exact' } = {}): Promise<FileChange[]> {
  const raw: RawChange[] = [];
  await rawDiff(reader, oldTree, newTree, Buffer.alloc(0), raw);
  const sources = new Map<RawChange, RawChange>();
  if (options.renames !== false) {
    const deleted = raw.filter((change) => change.status === 'D' && (isRegularFile(change.oldEntry) || change.oldEntry?.mode === '120000'));
    const added = raw.filter((change) => change.status === 'A' && (isRegularFile(change.newEntry) || change.newEntry?.mode === '120000'));
    const used = new Set<RawChange>();
    for (const target of added) {
      const candidates = deleted.filter((source) => !used.has(source) && source.oldEntry!.oid === target.newEntry!.oid);
      if (candidates.length === 0) continue;
      const source = candidates.find((candidate) => basename(candidate.path).equals(basename(target.path))) ?? candidates[0];
      used.add(source);
      sources.set(target, source);
    }
    const targets = added.filter((target) => !sources.has(target));
    const left = deleted.filter((source) => !used.has(source));
    if (options.renames !== 'exact' && targets.length > 0 && left.length > 0 && targets.length * left.length <= RENAME_PAIR_LIMIT) {
      const scored: Array<{ score: number; source: RawChange; target: RawChange }> = [];
      const content = async (oid: string) => (await reader.blob(oid)) ?? Buffer.alloc(0);
      for (const target of targets) {
        const b = await content(target.newEntry!.oid);
        if (b.length > RENAME_MAX_BYTES || isBinary(b)) continue;
        for (const source of left) {
          const a = await content(source.oldEntry!.oid);
          if (a.length > RENAME_MAX_BYTES || isBinary(a)) continue;
          const score = similarity(a, b);
          if (score >= RENAME_SCORE) scored.push({ score, source, target });
        }
      }
      scored.sort((x, y) => y.score - x.score);
      for (const { source, target } of scored) {
        if (used.has(source) || sources.has(target)) continue;
        used.add(source);
        sources.set(target, source);
      }
    }
  }
  const renamedFrom = new Set(sources.values());
  const changes: FileChange[] = [];
  for (const change of raw) {
    if (renamedFrom.has(change)) continue;
    const source = sources.get(change);
    const oldEntry = source ? source.oldEntry : change.oldEntry;
    const newEntry = change.newEntry;
    const oldPath = (source ?? change).path.toString('utf8');
    const newPath = change.path.toString('utf8');
    changes.push({
      oldPath,
      newPath,
      oldMode: oldEntry ? modeOf(oldEntry) : 0,
      newMode: newEntry ? modeOf(newEntry) : 0,
      oldOid: oldEntry?.oid ?? null,
      newOid: newEntry?.oid ?? null,
      newFile: change.status === 'A' && !source,
      deletedFile: change.status === 'D',
      renamedFile: source !== undefined,
    });
  }
  return changes;
}

/** git's test for binary content: a NUL byte among the first 8000. */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/** git's default function line: a line starting with a letter, `_` or `$`, cut at 80 bytes, trailing blanks dropped. */
function functionLine(record: string): string | undefined {
  if (!/^[A-Za-z_$]/.test(record)) return undefined;
  return record.slice(0, 80).replace(/[\s]+$/, '');
}

/** The text of one line of a hunk, with git's marker after a last line that has no line feed. */
const hunkLine = (marker: string, record: string) => (record.endsWith('\n') ? `${marker}${record}` : `${marker}${record}\n\\ No newline at end of file\n`);

/** git's hunk header range: `start,count` (1-based; the line before when empty; no count when 1). */
const range = (start: number, count: number) => `${count === 0 ? start : start + 1}${count === 1 ? '' : `,${count}`}`;

/**
 * The unified diff of two texts (latin1 readings of the bytes) without file headers, as
 * `git diff` prints it (`xdl_emit_diff`), and its line counts.
 */
export function unifiedDiff(oldText: string, newText: string): { text: string; additions: number; deletions: number } {
  const a = xdiffRecords(oldText);
  const b = xdiffRecords(newText);
  const changes = xdiff(a, b);
  let additions = 0;
  let deletions = 0;
  for (const change of changes) {
    additions += change.chg2;
    deletions += change.chg1;
  }
  let text = '';
  let func = '';
  let searchedDownTo = -1;
  for (let first = 0; first < changes.length; ) {
    // Changes up to 6 lines apart share a hunk (xdl_get_hunk).
    let last = first;
    while (last + 1 < changes.length && changes[last + 1].i1 - (changes[last].i1 + changes[last].chg1) <= 2 * CONTEXT) last++;
    const [head, tail] = [changes[first], changes[last]];
    const s1 = Math.max(head.i1 - CONTEXT, 0);
    const s2 = Math.max(head.i2 - CONTEXT, 0);
    const after = Math.min(CONTEXT, a.length - (tail.i1 + tail.chg1), b.length - (tail.i2 + tail.chg2));
    const e1 = tail.i1 + tail.chg1 + after;
    const e2 = tail.i2 + tail.chg2 + after;
    // The function line: the nearest above the hunk, not searched again past the previous hunk's start.
    for (let line = s1 - 1; line > searchedDownTo && line >= 0; line--) {
      const found = functionLine(a[line]);
      if (found !== undefined) {
        func = found;
        break;
      }
    }
    searchedDownTo = s1 - 1;
    text += `@@ -${range(s1, e1 - s1)} +${range(s2, e2 - s2)} @@${func ? ` ${func}` : ''}\n`;
    for (let y = s2; y < head.i2; y++) text += hunkLine(' ', b[y]);
    for (let c = first; c <= last; c++) {
      const change = changes[c];
      if (c > first) {
        const previous = changes[c - 1];
        for (let x = previous.i1 + previous.chg1, y = previous.i2 + previous.chg2; x < change.i1 && y < change.i2; x++, y++) text += hunkLine(' ', b[y]);
      }
      for (let x = change.i1; x < change.i1 + change.chg1; x++) text += hunkLine('-', a[x]);
      for (let y = change.i2; y < change.i2 + change.chg2; y++) text += hunkLine('+', b[y]);
    }
    for (let y = tail.i2 + tail.chg2; y < e2; y++) text += hunkLine(' ', b[y]);
    first = last + 1;
  }
  return { text, additions, deletions };
}

const quoted = (side: 'a' | 'b', path: string | null) => (path === null ? '/dev/null' : `${side}/${path}`);

/** The diff of one file change as GitLab presents it (`Gitlab::Git::Diff#json_safe_diff`). */
export async function patchOf(reader: ObjectReader, change: FileChange): Promise<FilePatch> {
  if (change.oldMode === MODE.submodule || change.newMode === MODE.submodule) {
    const lines = [
      ...(change.oldMode === MODE.submodule ? [`-Subproject commit ${change.oldOid}\n`] : []),
      ...(change.newMode === MODE.submodule ? [`+Subproject commit ${change.newOid}\n`] : []),
    ];
    if (change.oldOid === change.newOid) return { diff: '', tooLarge: false, additions: 0, deletions: 0 };
    const [o, n] = [change.oldMode === MODE.submodule ? 1 : 0, change.newMode === MODE.submodule ? 1 : 0];
    const header = `@@ -${o === 0 ? '0,0' : '1'} +${n === 0 ? '0,0' : '1'} @@\n`;
    return { diff: header + lines.join(''), tooLarge: false, additions: n, deletions: o };
  }
  const [before, after] = await Promise.all([
    change.oldOid && change.oldMode !== 0 ? reader.blob(change.oldOid) : Promise.resolve(Buffer.alloc(0)),
    change.newOid && change.newMode !== 0 ? reader.blob(change.newOid) : Promise.resolve(Buffer.alloc(0)),
  ]);
  const a = before ?? Buffer.alloc(0);
  const b = after ?? Buffer.alloc(0);
  if (change.oldOid !== null && change.oldOid === change.newOid) return { diff: '', tooLarge: false, additions: 0, deletions: 0 };
  if (isBinary(a) || isBinary(b)) {
    const diff = `Binary files ${quoted('a', change.newFile ? null : change.oldPath)} and ${quoted('b', change.deletedFile ? null : change.newPath)} differ\n`;
    return { diff, tooLarge: false, additions: 0, deletions: 0 };
  }
  const result = unifiedDiff(a.toString('latin1'), b.toString('latin1'));
  const bytes = Buffer.from(result.text, 'latin1');
  if (bytes.length > MAX_PATCH_BYTES) return { diff: '', tooLarge: true, additions: result.additions, deletions: result.deletions };
  // Not UTF-8 (another encoding): GitLab cannot put it in JSON and shows it as binary.
  const diff = isUtf8(bytes) ? bytes.toString('utf8') : `Binary files ${change.oldPath} and ${change.newPath} differ\n`;
  return { diff, tooLarge: false, additions: result.additions, deletions: result.deletions };
}

/** Each change with its diff, in order. */
export async function withPatches(reader: ObjectReader, changes: readonly FileChange[]): Promise<Array<{ change: FileChange; patch: FilePatch }>> {
  const diffs: Array<{ change: FileChange; patch: FilePatch }> = [];
  for (const change of changes) diffs.push({ change, patch: await patchOf(reader, change) });
  return diffs;
}

/** A commit's line counts against its first parent (GitLab's `CommitStats`). */
export async function diffStats(reader: ObjectReader, oldTree: string | null, newTree: string): Promise<{ additions: number; deletions: number; total: number }> {
  let additions = 0;
  let deletions = 0;
  for (const { patch } of await withPatches(reader, await diffTrees(reader, oldTree, newTree))) {
    additions += patch.additions;
    deletions += patch.deletions;
  }
  return { additions, deletions, total: additions + deletions };
}
