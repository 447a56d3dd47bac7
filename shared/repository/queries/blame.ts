/**
 * `git blame` of one file (what GitLab's `Gitlab::Blame` reads from Gitaly's `git blame
 * --porcelain`): each line of the file at a commit, with the commit that last changed it.
 *
 * As git's blame: every line starts suspected on the commit asked for; commits are visited newest
 * first (committer date), and a commit passes to each parent in turn the lines it shares with it
 * (git's own diff, `xdiff.ts`), keeping those no parent has. A parent holding the very same blob
 * takes every line at once, with no diff, so the walk costs a tree lookup per commit where the file
 * did not change. A commit reached from several children is visited once, with all their lines.
 *
 * Not as git: renames are not followed (a file's lines stop at the commit that moved it there),
 * and `-M`/`-C` moves within or across files are not detected (git's defaults do neither).
 */
import { entryAtPath, pathSegments } from '../git/walk';
import { xdiff, xdiffRecords } from './xdiff';
import type { CommitObject, ObjectReader } from './objects';

/** Consecutive lines last changed by one commit (GitLab's `BlameRange`). */
export interface BlameRange {
  commit: CommitObject;
  lines: string[];
}

/** Lines of one commit's version of the file still blamed on nobody: their indexes there, and in the final file. */
interface Suspect {
  oid: string;
  date: number;
  /** [line index in this commit's version, line index in the blamed file] pairs. */
  lines: Array<[number, number]>;
}

/** A file's content as git's diff reads it (`xdiffRecords`), as UTF-8 text: the lines shown. */
const records = (content: Buffer): string[] => xdiffRecords(content.toString('utf8'));

/**
 * The blame of `path` at `tip`, as ranges of consecutive lines (lines 1-based, `range` inclusive
 * and clamped to the file). The file must exist at `tip`.
 */
export async function blameFile(reader: ObjectReader, tip: CommitObject, path: string, range?: { start: number; end: number }): Promise<BlameRange[]> {
  const segments = pathSegments(path);
  const blobOf = async (tree: string) => {
    const entry = await entryAtPath(reader, tree, segments);
    return entry && (await reader.object(entry.oid))?.type === 'blob' ? entry.oid : undefined;
  };
  const contents = new Map<string, string[]>();
  const linesOf = async (blob: string) => {
    if (!contents.has(blob)) contents.set(blob, records((await reader.blob(blob)) ?? Buffer.alloc(0)));
    return contents.get(blob)!;
  };
  const tipBlob = await blobOf(tip.tree);
  if (!tipBlob) return [];
  const final = await linesOf(tipBlob);
  const first = Math.max(1, range?.start ?? 1) - 1;
  const last = Math.min(final.length, range?.end ?? final.length);
  const blamed: string[] = new Array(final.length);

  // Visited newest first; a commit reached again before its visit gathers more lines.
  const queue: Suspect[] = [];
  const blobs = new Map<string, string | undefined>([[tip.id, tipBlob]]);
  const enqueue = async (oid: string, lines: Array<[number, number]>) => {
    if (lines.length === 0) return;
    const waiting = queue.find((suspect) => suspect.oid === oid);
    if (waiting) {
      waiting.lines.push(...lines);
      return;
    }
    const links = await reader.commitLinks(oid);
    if (!links) return;
    const suspect = { oid, date: links.date, lines };
    const at = queue.findIndex((other) => other.date < suspect.date);
    queue.splice(at < 0 ? queue.length : at, 0, suspect);
  };
  await enqueue(tip.id, Array.from({ length: last - first }, (_, index) => [first + index, first + index] as [number, number]));

  for (let suspect = queue.shift(); suspect !== undefined; suspect = queue.shift()) {
    const links = (await reader.commitLinks(suspect.oid))!;
    const blob = blobs.get(suspect.oid) ?? (await blobOf(links.tree));
    let remaining = suspect.lines;
    for (const parent of links.parents) {
      if (remaining.length === 0) break;
      const parentLinks = await reader.commitLinks(parent);
      const parentBlob = parentLinks && (await blobOf(parentLinks.tree));
      if (!parentBlob) continue;
      blobs.set(parent, parentBlob);
      if (parentBlob === blob) {
        await enqueue(parent, remaining);
        remaining = [];
        break;
      }
      // Lines of this version the parent has too, by git's diff: each unchanged run maps across.
      const toParent = new Map<number, number>();
      let mine = 0;
      let theirs = 0;
      const ours = await linesOf(blob!);
      for (const change of [...xdiff(await linesOf(parentBlob), ours), { i1: Infinity, i2: ours.length, chg1: 0, chg2: 0 }]) {
        for (; mine < change.i2; mine++, theirs++) toParent.set(mine, theirs);
        mine += change.chg2;
        theirs += change.chg1;
      }
      const passed = remaining.filter(([line]) => toParent.has(line));
      await enqueue(parent, passed.map(([line, final]) => [toParent.get(line)!, final]));
      remaining = remaining.filter(([line]) => !toParent.has(line));
    }
    for (const [, line] of remaining) blamed[line] = suspect.oid;
  }

  const ranges: BlameRange[] = [];
  for (let line = first; line < last; line++) {
    const text = final[line].replace(/\n$/, '');
    const previous = ranges[ranges.length - 1];
    if (previous && previous.commit.id === blamed[line]) previous.lines.push(text);
    else ranges.push({ commit: (await reader.commit(blamed[line]))!, lines: [text] });
  }
  return ranges;
}
