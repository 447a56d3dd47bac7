/**
 * Walking a repository's history as git does: `git log` with its filters (a path, dates, author,
 * first parents, topological order), merge bases (`paint_down_to_common`), ancestry, and the
 * commits of one tip not reachable from another (`git log base..head`).
 *
 * Walks pop commits newest first by committer date (ties in the order they were met) and read a
 * commit's parents only when it is popped, so a walk that stops early (a page of a log) reads only
 * as far back as the page reaches.
 */
import { isTreeEntry, type CommitObject, type ObjectReader, type TreeEntry } from './objects';

/** A queue of commit ids ordered by committer date, newest first; equal dates first come, first served. */
class DateQueue {
  private readonly heap: Array<{ id: string; date: number; seq: number }> = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(id: string, date: number): void {
    this.heap.push({ id, date, seq: this.seq++ });
    for (let i = this.heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent], this.heap[i]];
      i = parent;
    }
  }

  pop(): string | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (!top || !last) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      for (let i = 0; ; ) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let best = i;
        if (l < this.heap.length && this.before(l, best)) best = l;
        if (r < this.heap.length && this.before(r, best)) best = r;
        if (best === i) break;
        [this.heap[i], this.heap[best]] = [this.heap[best], this.heap[i]];
        i = best;
      }
    }
    return top.id;
  }

  ids(): string[] {
    return this.heap.map((entry) => entry.id);
  }

  private before(a: number, b: number): boolean {
    const [x, y] = [this.heap[a], this.heap[b]];
    return x.date !== y.date ? x.date > y.date : x.seq < y.seq;
  }
}

// ---------------------------------------------------------------------------------------------
// Paths in trees
// ---------------------------------------------------------------------------------------------

/** A path's components as bytes (`a/b/c.txt`); leading, trailing and doubled slashes are ignored. */
export const pathSegments = (path: string): Buffer[] =>
  path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => Buffer.from(segment, 'utf8'));

/** The entry at a path of a tree (a file, a directory, a submodule), or `undefined`. */
export async function entryAtPath(reader: ObjectReader, tree: string, path: string | Buffer[]): Promise<TreeEntry | undefined> {
  const segments = typeof path === 'string' ? pathSegments(path) : path;
  let entries = await reader.tree(tree);
  let found: TreeEntry | undefined;
  for (const [i, segment] of segments.entries()) {
    found = entries?.find((entry) => entry.name.equals(segment));
    if (!found) return undefined;
    if (i < segments.length - 1) {
      if (!isTreeEntry(found)) return undefined;
      entries = await reader.tree(found.oid);
    }
  }
  return found;
}

/** Whether a commit and one of its parents hold the same thing at a path (git's TREESAME). */
async function sameAtPath(reader: ObjectReader, tree: string, parentTree: string, path: Buffer[]): Promise<boolean> {
  if (tree === parentTree) return true;
  const [a, b] = await Promise.all([entryAtPath(reader, tree, path), entryAtPath(reader, parentTree, path)]);
  return a === undefined ? b === undefined : b !== undefined && a.oid === b.oid && a.mode === b.mode;
}

// ---------------------------------------------------------------------------------------------
// git log
// ---------------------------------------------------------------------------------------------

export interface LogOptions {
  /** The commits to start from (`git log <tip>...`). */
  tips: string[];
  /** Only commits changing this file or directory (with git's default history simplification). */
  path?: string;
  /** Only commits committed at or after / at or before (seconds since the epoch). */
  since?: number;
  until?: number;
  /** `--author`: matched against `Name <email>` (a regular expression, or the text itself). */
  author?: string;
  firstParent?: boolean;
  /** `topo`: no parent before all its children (`--topo-order`); otherwise by committer date. */
  order?: 'default' | 'topo';
  /** Commits to skip, then how many to return. */
  offset: number;
  limit: number;
}

/** Internal: an `--author` matcher (git's regular expressions are close enough to JavaScript's). */
function authorMatcher(author: string | undefined): ((commit: CommitObject) => boolean) | undefined {
  if (author === undefined || author === '') return undefined;
  let pattern: RegExp | undefined;
  try {
    pattern = new RegExp(author);
  } catch {
    pattern = undefined;
  }
  return (commit) => {
    const line = `${commit.author.name} <${commit.author.email}>`;
    return pattern ? pattern.test(line) : line.includes(author);
  };
}

interface Step {
  /** Whether the commit is shown (it passes the filters and changes the path). */
  shown: boolean;
  /** The parents the walk goes on to. */
  parents: string[];
}

/** Internal: what `git log` does with one commit it reached. */
async function step(reader: ObjectReader, commit: CommitObject, options: LogOptions, path: Buffer[] | undefined): Promise<Step> {
  let parents = options.firstParent ? commit.parents.slice(0, 1) : commit.parents;
  if (options.since !== undefined && commit.committer.timestamp < options.since) {
    // git marks a commit older than --since uninteresting: it and its ancestors are not walked.
    return { shown: false, parents: [] };
  }
  let changes = true;
  if (path) {
    if (parents.length === 0) {
      changes = (await entryAtPath(reader, commit.tree, path)) !== undefined;
    } else {
      // Default simplification: a commit the same as one of its parents follows only that parent.
      for (const parent of parents) {
        const links = await reader.commitLinks(parent);
        if (links && (await sameAtPath(reader, commit.tree, links.tree, path))) {
          changes = false;
          parents = [parent];
          break;
        }
      }
    }
  }
  const dated = options.until === undefined || commit.committer.timestamp <= options.until;
  const byAuthor = authorMatcher(options.author);
  return { shown: changes && dated && (!byAuthor || byAuthor(commit)), parents };
}

/**
 * `git log` from some tips: the commits after `offset` matches, at most `limit`. In the default
 * order it reads only as far back as the page reaches; `--topo-order` needs the whole history
 * first, as git does without a commit-graph.
 */
export async function logCommits(reader: ObjectReader, options: LogOptions): Promise<CommitObject[]> {
  const path = options.path ? pathSegments(options.path) : undefined;
  if (path?.length === 0) return logCommits(reader, { ...options, path: undefined });
  if (options.order === 'topo') return topoLog(reader, options, path);
  const queue = new DateQueue();
  const seen = new Set<string>();
  for (const tip of options.tips) {
    const commit = await reader.commit(tip);
    if (!commit || seen.has(commit.id)) continue;
    seen.add(commit.id);
    queue.push(commit.id, commit.committer.timestamp);
  }
  const page: CommitObject[] = [];
  let skipped = 0;
  while (page.length < options.limit) {
    const id = queue.pop();
    if (id === undefined) break;
    const commit = (await reader.commit(id))!;
    const { shown, parents } = await step(reader, commit, options, path);
    for (const parent of parents) {
      if (seen.has(parent)) continue;
      const links = await reader.commitLinks(parent);
      if (!links) continue;
      seen.add(parent);
      queue.push(parent, links.date);
    }
    if (!shown) continue;
    if (skipped < options.offset) skipped++;
    else page.push(commit);
  }
  return page;
}

/** Internal: `git log --topo-order`: the whole walk, then children before parents, one line of history at a time. */
async function topoLog(reader: ObjectReader, options: LogOptions, path: Buffer[] | undefined): Promise<CommitObject[]> {
  const queue = new DateQueue();
  const walked = new Map<string, { commit: CommitObject; shown: boolean; parents: string[] }>();
  const order: string[] = [];
  const seen = new Set<string>();
  for (const tip of options.tips) {
    const commit = await reader.commit(tip);
    if (!commit || seen.has(commit.id)) continue;
    seen.add(commit.id);
    queue.push(commit.id, commit.committer.timestamp);
  }
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    const commit = (await reader.commit(id))!;
    const { shown, parents } = await step(reader, commit, options, path);
    walked.set(id, { commit, shown, parents });
    order.push(id);
    for (const parent of parents) {
      if (seen.has(parent)) continue;
      const links = await reader.commitLinks(parent);
      if (!links) continue;
      seen.add(parent);
      queue.push(parent, links.date);
    }
  }
  const children = new Map<string, number>();
  for (const { parents } of walked.values()) for (const parent of parents) if (walked.has(parent)) children.set(parent, (children.get(parent) ?? 0) + 1);
  // git's sort_in_topological_order with a LIFO queue: tips in date order, then each parent once all its children are out.
  const stack = order.filter((id) => !children.has(id)).reverse();
  const page: CommitObject[] = [];
  let skipped = 0;
  while (stack.length > 0 && page.length < options.limit) {
    const id = stack.pop()!;
    const node = walked.get(id)!;
    for (const parent of node.parents) {
      if (!walked.has(parent)) continue;
      const left = children.get(parent)! - 1;
      children.set(parent, left);
      if (left === 0) stack.push(parent);
    }
    if (!node.shown) continue;
    if (skipped < options.offset) skipped++;
    else page.push(node.commit);
  }
  return page;
}

/** The newest commit from `tip` that changed `path` (`git log -1 -- <path>`), or `undefined`. */
export async function lastCommitForPath(reader: ObjectReader, tip: string, path: string): Promise<CommitObject | undefined> {
  return (await logCommits(reader, { tips: [tip], path, offset: 0, limit: 1 }))[0];
}

// ---------------------------------------------------------------------------------------------
// Merge bases and ancestry
// ---------------------------------------------------------------------------------------------

const PARENT1 = 1;
const PARENT2 = 2;
const STALE = 4;
const RESULT = 8;

/**
 * git's `paint_down_to_common`: the common ancestors of `one` and every commit of `twos` that are
 * not ancestors of another common ancestor found first, newest first. Commits reached from `one`
 * are painted 1, from `twos` 2; a commit painted both is a result and its ancestors are stale; the
 * walk ends when only stale commits remain queued.
 */
async function paintDownToCommon(reader: ObjectReader, one: string, twos: string[]): Promise<{ results: string[]; flags: Map<string, number> }> {
  const flags = new Map<string, number>();
  const queue = new DateQueue();
  const paint = async (id: string, flag: number) => {
    const links = await reader.commitLinks(id);
    if (!links) return;
    flags.set(id, (flags.get(id) ?? 0) | flag);
    queue.push(id, links.date);
  };
  await paint(one, PARENT1);
  for (const two of twos) await paint(two, PARENT2);
  const results: string[] = [];
  const hasLive = () => queue.ids().some((id) => !((flags.get(id) ?? 0) & STALE));
  while (queue.size > 0 && hasLive()) {
    const id = queue.pop()!;
    let flag = (flags.get(id) ?? 0) & (PARENT1 | PARENT2 | STALE);
    if (flag === (PARENT1 | PARENT2)) {
      if (!((flags.get(id) ?? 0) & RESULT)) {
        flags.set(id, (flags.get(id) ?? 0) | RESULT);
        results.push(id);
      }
      flag |= STALE;
    }
    const links = (await reader.commitLinks(id))!;
    for (const parent of links.parents) {
      if (((flags.get(parent) ?? 0) & flag) === flag) continue;
      await paint(parent, flag);
    }
  }
  return { results, flags };
}

/** Whether `ancestor` is `descendant` or one of its ancestors (`git merge-base --is-ancestor`). */
export async function isAncestor(reader: ObjectReader, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  const { flags } = await paintDownToCommon(reader, ancestor, [descendant]);
  return ((flags.get(ancestor) ?? 0) & PARENT2) !== 0;
}

/**
 * The best common ancestors of `one` and the others (`git merge-base one two...`: with several
 * others, of `one` and a merge of them all), newest first; redundant ones (ancestors of another
 * result) left out.
 */
export async function mergeBases(reader: ObjectReader, one: string, others: string[]): Promise<string[]> {
  if (others.includes(one)) return [one];
  const { results } = await paintDownToCommon(reader, one, others);
  if (results.length <= 1) return results;
  const kept: string[] = [];
  for (const candidate of results) {
    const rest = results.filter((other) => other !== candidate);
    let redundant = false;
    for (const other of rest) {
      if (await isAncestor(reader, candidate, other)) {
        redundant = true;
        break;
      }
    }
    if (!redundant) kept.push(candidate);
  }
  return kept;
}

/**
 * The commits reachable from `head` and not from `base` (`git log base..head`), newest first, at
 * most `limit`. Commits reachable from `base` are marked as soon as they are met; the walk ends
 * when only marked commits remain queued (a few steps later, for skewed clocks, as git's SLOP).
 */
export async function commitsBetween(reader: ObjectReader, base: string | undefined, head: string, limit: number): Promise<CommitObject[]> {
  const uninteresting = new Set<string>();
  const queue = new DateQueue();
  const seen = new Set<string>();
  const enqueue = async (id: string, excluded: boolean) => {
    if (excluded) uninteresting.add(id);
    if (seen.has(id)) return;
    const links = await reader.commitLinks(id);
    if (!links) return;
    seen.add(id);
    queue.push(id, links.date);
  };
  if (base) await enqueue(base, true);
  await enqueue(head, false);
  const found: string[] = [];
  let slop = 5;
  while (queue.size > 0) {
    const id = queue.pop()!;
    const links = (await reader.commitLinks(id))!;
    const excluded = uninteresting.has(id);
    for (const parent of links.parents) {
      if (excluded) await markUninteresting(reader, parent, uninteresting, seen);
      await enqueue(parent, excluded);
    }
    if (!excluded) found.push(id);
    if (queue.ids().every((queued) => uninteresting.has(queued))) {
      if (--slop <= 0) break;
    } else {
      slop = 5;
    }
  }
  const result: CommitObject[] = [];
  for (const id of found) {
    if (uninteresting.has(id)) continue;
    result.push((await reader.commit(id))!);
    if (result.length >= limit) break;
  }
  return result;
}

/** Internal: marks a commit uninteresting, and the ancestors of it already met (git's `mark_parents_uninteresting`). */
async function markUninteresting(reader: ObjectReader, id: string, uninteresting: Set<string>, seen: Set<string>): Promise<void> {
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (uninteresting.has(next)) continue;
    uninteresting.add(next);
    // Only commits already read spread the mark further; the rest are marked when the walk reaches them.
    if (!seen.has(next)) continue;
    const links = await reader.commitLinks(next);
    if (links) for (const parent of links.parents) if (!uninteresting.has(parent)) stack.push(parent);
  }
}
