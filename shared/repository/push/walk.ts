/**
 * The commits a push brought: those reachable from the new tip and from none of the excluded tips
 * (`git rev-list <after> --not <excluded...>`), newest first, walked as git's `limit_list` does so
 * that a short push to a long branch reads only a few commits.
 *
 * The walk pops commits from a queue ordered by committer date (newest first; equal dates in the
 * order they were queued), reading a commit's parents when it is popped. Every commit reachable
 * from an excluded tip is marked uninteresting as soon as it is met (and the mark spreads to the
 * ancestors already read), and the walk stops once only uninteresting commits remain queued, after
 * a few more steps (`SLOP`, as git) in case committer dates are skewed. A commit that turned out
 * uninteresting after it was popped is left out of the result.
 */
import type { GitObject } from '../git/objects/types';
import { parseCommit, parseCommitLinks, parseTag, type Commit } from '../git/objects/parse';

/** How objects are read: the repository's `read`, or a test's in-memory reader. */
export type ReadObject = (oid: string) => Promise<GitObject | undefined>;

/** A commit as the walk answers it. */
export type ParsedCommit = Commit;

export interface WalkedCommit {
  id: string;
  commit: ParsedCommit;
}

export interface PushedCommits {
  /** The newest `limit` commits, newest first. */
  commits: WalkedCommit[];
  /** How many commits there are in all. */
  total: number;
}

/** Extra steps once only uninteresting commits remain (git's `SLOP`), for skewed committer dates. */
const SLOP = 5;

/** How deep annotated tags are followed to their commit. */
const MAX_PEEL = 10;

interface Node {
  id: string;
  date: number;
  parents: string[];
  uninteresting: boolean;
  /** The commit's body, dropped once the walk no longer needs it (a long walk keeps only a few). */
  body?: Buffer;
  /** Queue order among equal dates. */
  seq: number;
  /** Whether it is in the queue now. */
  queued: boolean;
}

/** A max-heap on (date, then first queued). */
class CommitQueue {
  private heap: Node[] = [];
  /** How many queued commits are interesting (kept by the walk as it marks them). */
  interesting = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Whether every queued commit is uninteresting. */
  everyUninteresting(): boolean {
    return this.interesting === 0;
  }

  peek(): Node | undefined {
    return this.heap[0];
  }

  push(node: Node): void {
    const heap = this.heap;
    node.queued = true;
    if (!node.uninteresting) this.interesting++;
    heap.push(node);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  pop(): Node | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top) {
      top.queued = false;
      if (!top.uninteresting) this.interesting--;
    }
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const [left, right] = [2 * i + 1, 2 * i + 2];
        let first = i;
        if (left < heap.length && before(heap[left], heap[first])) first = left;
        if (right < heap.length && before(heap[right], heap[first])) first = right;
        if (first === i) break;
        [heap[i], heap[first]] = [heap[first], heap[i]];
        i = first;
      }
    }
    return top;
  }
}

const before = (a: Node, b: Node) => a.date > b.date || (a.date === b.date && a.seq < b.seq);

/** Internal: the id and body of the commit an object id names, following annotated tags. */
async function peelCommitBody(read: ReadObject, oid: string): Promise<{ id: string; body: Buffer } | undefined> {
  let id = oid;
  for (let depth = 0; depth <= MAX_PEEL; depth++) {
    const object = await read(id);
    if (!object) return undefined;
    if (object.type === 'commit') return { id, body: object.body };
    if (object.type !== 'tag') return undefined;
    id = parseTag(object.body).object;
  }
  return undefined;
}

/**
 * The commit an object id names, following annotated tags (`undefined` when it names no commit, or
 * an object that cannot be read).
 */
export async function peelToCommit(read: ReadObject, oid: string): Promise<WalkedCommit | undefined> {
  const found = await peelCommitBody(read, oid);
  return found && { id: found.id, commit: parseCommit(found.body) };
}

/**
 * The commits reachable from `tip` and from none of `excluded` (commits or tags; ids that name
 * nothing readable are ignored): the newest `limit` of them, newest first, and their number.
 *
 * @example
 * const { commits, total } = await pushedCommits(repository.read.bind(repository), after, [before], 20);
 */
export async function pushedCommits(read: ReadObject, tip: string, excluded: string[], limit: number): Promise<PushedCommits> {
  const nodes = new Map<string, Node>();
  const queue = new CommitQueue();
  let seq = 0;

  /** Marks a commit and its ancestors already read uninteresting. */
  const markUninteresting = (start: Node) => {
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.uninteresting) continue;
      node.uninteresting = true;
      if (node.queued) queue.interesting--;
      for (const parent of node.parents) {
        const known = nodes.get(parent);
        if (known && !known.uninteresting) stack.push(known);
      }
    }
  };

  /** Queues a commit the walk meets; one already met is only marked. */
  const enqueue = (id: string, body: Buffer, uninteresting: boolean) => {
    const known = nodes.get(id);
    if (known) {
      if (uninteresting) markUninteresting(known);
      return;
    }
    const { date, parents } = parseCommitLinks(body);
    const node: Node = { id, date, parents, uninteresting, body, seq: seq++, queued: false };
    nodes.set(id, node);
    queue.push(node);
  };

  /** Reads a parent the walk meets (unless already met) and queues it; a missing one (a shallow history) ends that line. */
  const meet = async (id: string, uninteresting: boolean) => {
    const known = nodes.get(id);
    if (known) {
      if (uninteresting) markUninteresting(known);
      return;
    }
    const object = await read(id);
    if (object?.type === 'commit') enqueue(id, object.body, uninteresting);
  };

  /** A tip: a commit, or a tag of one. */
  const start = async (id: string, uninteresting: boolean) => {
    const found = await peelCommitBody(read, id);
    if (found) enqueue(found.id, found.body, uninteresting);
  };

  for (const id of excluded) await start(id, true);
  await start(tip, false);

  // Interesting commits in the order popped; the bodies of the first few are kept.
  const popped: Node[] = [];
  const keep = Math.max(limit * 2, limit + 20);
  let lastDate = Number.POSITIVE_INFINITY;
  let slop = SLOP;
  while (queue.size > 0) {
    const node = queue.pop()!;
    for (const parent of node.parents) await meet(parent, node.uninteresting);
    if (node.uninteresting) {
      // Its parents were marked as they were met.
      node.body = undefined;
      slop = stillInteresting(queue, lastDate, slop);
      if (slop > 0) continue;
      break;
    }
    lastDate = node.date;
    if (popped.length >= keep) node.body = undefined;
    popped.push(node);
  }

  const result = popped.filter((node) => !node.uninteresting);
  const commits: WalkedCommit[] = [];
  for (const node of result.slice(0, limit)) {
    const body = node.body ?? (await read(node.id))?.body;
    if (body) commits.push({ id: node.id, commit: parseCommit(body) });
  }
  return { commits, total: result.length };
}

/** git's `still_interesting`: how many more steps the walk takes (0: stop). */
function stillInteresting(queue: CommitQueue, lastDate: number, slop: number): number {
  const next = queue.peek();
  if (!next) return 0;
  // An interesting commit older than the next queued one: definitely not done.
  if (lastDate <= next.date) return SLOP;
  if (!queue.everyUninteresting()) return SLOP;
  return slop - 1;
}
