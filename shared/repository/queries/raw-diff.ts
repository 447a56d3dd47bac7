/**
 * The plain-text diff of two commits as `git diff --full-index <base> <head>` prints it (what
 * Gitaly's `RawDiff` streams for GitLab's `…/merge_requests/:iid/raw_diffs`): per file the
 * `diff --git` line, the extended headers (`new file mode`, `deleted file mode`, `old mode` /
 * `new mode`, `similarity index` / `rename from` / `rename to`, `index <old>..<new>[ <mode>]`), then
 * `Binary files … differ` or the `---` / `+++` lines and the hunks (none for a file whose content
 * did not change or is empty). The files and their renames are those of the merge request's diffs
 * (`diff.ts`); a change between a file and a symlink is a deletion and a creation, as git splits it.
 *
 * Bytes stay bytes (latin1 readings of the contents, written back as latin1). Not as git: paths
 * are never C-quoted (`core.quotePath`), and an inexact rename's similarity is `diff.ts`' estimate.
 * The text stops at `maxBytes` (`'too_large'`): files are read one by one, so a huge diff costs
 * what is read before the cap, not the whole diff.
 */
import { diffTrees, isBinary, patchOf, unifiedDiff, type FileChange } from './diff';
import { MODE, type ObjectReader } from './objects';

const ZERO = '0'.repeat(40);
const octal = (mode: number) => mode.toString(8).padStart(6, '0');
const kind = (mode: number) => mode & 0o170000;

/** Internal: one file pair's text (`change` with at most one side a regular file or symlink kind). */
async function filePatch(reader: ObjectReader, change: FileChange): Promise<Buffer> {
  const added = change.oldMode === 0;
  const deleted = change.newMode === 0;
  const lines = [`diff --git a/${change.oldPath} b/${change.newPath}`];
  if (added) lines.push(`new file mode ${octal(change.newMode)}`);
  else if (deleted) lines.push(`deleted file mode ${octal(change.oldMode)}`);
  else if (change.oldMode !== change.newMode) lines.push(`old mode ${octal(change.oldMode)}`, `new mode ${octal(change.newMode)}`);
  const [a, b] = await Promise.all([
    !added && change.oldMode !== MODE.submodule && change.oldOid ? reader.blob(change.oldOid) : undefined,
    !deleted && change.newMode !== MODE.submodule && change.newOid ? reader.blob(change.newOid) : undefined,
  ]);
  if (change.renamedFile) {
    const score = change.oldOid === change.newOid ? 100 : similarityPercent(a ?? Buffer.alloc(0), b ?? Buffer.alloc(0));
    lines.push(`similarity index ${score}%`, `rename from ${change.oldPath}`, `rename to ${change.newPath}`);
  }
  const oldOid = change.oldOid ?? ZERO;
  const newOid = change.newOid ?? ZERO;
  if (oldOid !== newOid) lines.push(`index ${oldOid}..${newOid}${change.oldMode === change.newMode ? ` ${octal(change.oldMode)}` : ''}`);
  const header = `${lines.join('\n')}\n`;
  if (oldOid === newOid) return Buffer.from(header, 'utf8');
  const from = added ? '/dev/null' : `a/${change.oldPath}`;
  const to = deleted ? '/dev/null' : `b/${change.newPath}`;
  let hunks: Buffer;
  if (change.oldMode === MODE.submodule || change.newMode === MODE.submodule) {
    hunks = Buffer.from((await patchOf(reader, change)).diff, 'utf8');
  } else {
    const [before, after] = [a ?? Buffer.alloc(0), b ?? Buffer.alloc(0)];
    if (isBinary(before) || isBinary(after)) return Buffer.from(`${header}Binary files ${from} and ${to} differ\n`, 'utf8');
    hunks = Buffer.from(unifiedDiff(before.toString('latin1'), after.toString('latin1')).text, 'latin1');
  }
  if (hunks.length === 0) return Buffer.from(header, 'utf8');
  return Buffer.concat([Buffer.from(`${header}--- ${from}\n+++ ${to}\n`, 'utf8'), hunks]);
}

/** Internal: the percentage git prints for an inexact rename, estimated as `diff.ts` pairs them (bytes of shared lines over the larger side). */
function similarityPercent(a: Buffer, b: Buffer): number {
  const counts = new Map<string, number>();
  const lines = (buffer: Buffer) => buffer.toString('latin1').split(/(?<=\n)/);
  for (const line of lines(a)) counts.set(line, (counts.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of lines(b)) {
    const left = counts.get(line);
    if (!left) continue;
    counts.set(line, left - 1);
    shared += line.length;
  }
  return Math.floor((shared * 100) / Math.max(a.length, b.length, 1));
}

/**
 * The raw diff from `base` to `head` (commits readable by `reader`), or `'too_large'` past `maxBytes`.
 *
 * @example
 * const text = await rawDiff(new ObjectReader(repository), version.baseCommitSha, version.headCommitSha, { maxBytes: 4 << 20 });
 */
export async function rawDiff(reader: ObjectReader, base: string, head: string, options: { maxBytes: number }): Promise<Buffer | 'too_large' | undefined> {
  const [from, to] = await Promise.all([reader.commit(base), reader.commit(head)]);
  if (!from || !to) return undefined;
  const parts: Buffer[] = [];
  let bytes = 0;
  for (const change of await diffTrees(reader, from.tree, to.tree)) {
    const typeChange = change.oldMode !== 0 && change.newMode !== 0 && kind(change.oldMode) !== kind(change.newMode);
    const pairs: FileChange[] = typeChange
      ? [
          { ...change, newPath: change.oldPath, newMode: 0, newOid: null, newFile: false, deletedFile: true, renamedFile: false },
          { ...change, oldPath: change.newPath, oldMode: 0, oldOid: null, newFile: true, deletedFile: false, renamedFile: false },
        ]
      : [change];
    for (const pair of pairs) {
      const part = await filePatch(reader, pair);
      bytes += part.length;
      if (bytes > options.maxBytes) return 'too_large';
      parts.push(part);
    }
  }
  return Buffer.concat(parts);
}
