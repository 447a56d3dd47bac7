/**
 * Graph walks over objects read one by one (from packs, S3, memory): which objects a fetch must
 * send (git rev-list --objects wants ^haves, as git's pack-objects computes it), the shallow
 * boundary of a shallow fetch (git's upload-pack), ancestry and merge bases.
 *
 * The commit walk follows git's revision.c: commits leave a queue newest first, haves spread
 * UNINTERESTING to their ancestors, and the walk stops a few commits (SLOP) after only
 * uninteresting ones remain — so a fetch reads a handful of commits however long the history.
 */
import { commitParents, entryKind, MalformedObjectError, parseCommitLinks, parseTag, parseTree, type CommitLinks, type TreeEntry } from './objects/parse';
import type { GitObject, ObjectType } from './objects/types';

/** Reads one object by id; undefined when the repository does not have it. */
export type ObjectReader = (oid: string) => Promise<GitObject | undefined>;

/** An object a walk needs that the reader does not have. */
export class MissingObjectError extends Error {
  constructor(readonly oid: string) {
    super(`missing object ${oid}`);
    this.name = 'MissingObjectError';
  }
}

/** The depth `git fetch --unshallow` asks for: everything. */
export const INFINITE_DEPTH = 0x7fffffff;

/** A reader that reads each object once (concurrent reads of one object share the promise). */
export function cachingReader(read: ObjectReader): ObjectReader {
  const objects = new Map<string, Promise<GitObject | undefined>>();
  return (oid) => {
    let object = objects.get(oid);
    if (!object) {
      object = read(oid);
      objects.set(oid, object);
    }
    return object;
  };
}

/** Reads `items` through `fn`, a bounded number at a time, keeping their order. */
async function mapBounded<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, bound = 32): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += bound) {
    results.push(...(await Promise.all(items.slice(start, start + bound).map(fn))));
  }
  return results;
}

/** An object with the tags in front of it peeled off (`tags` outermost first). */
export interface Peeled {
  oid: string;
  type: ObjectType;
  tags: string[];
}

/** What a tree entry names, for the object walks: a tree, a blob, or a submodule's commit. */
export interface TreeLink {
  oid: string;
  kind: 'tree' | 'blob' | 'commit';
}

/**
 * The entries of a tree body as {@link TreeLink}s, in order: what `parseTree` and `entryKind`
 * give, without the names (no buffer or string per name), for walks over every tree of a history.
 */
export function parseTreeLinks(body: Buffer): TreeLink[] {
  const links: TreeLink[] = [];
  const length = body.length;
  let offset = 0;
  while (offset < length) {
    let mode = 0;
    let at = offset;
    for (; at < length && body[at] !== 0x20; at++) {
      const digit = body[at] - 0x30;
      if (digit < 0 || digit > 7) throw new MalformedObjectError(`bad tree entry at byte ${offset}`);
      mode = mode * 8 + digit;
    }
    if (at === offset || at >= length) throw new MalformedObjectError(`truncated tree entry at byte ${offset}`);
    const nameStart = at + 1;
    let nul = nameStart;
    while (nul < length && body[nul] !== 0) nul++;
    if (nul >= length || nul + 21 > length) throw new MalformedObjectError(`truncated tree entry at byte ${offset}`);
    if (nul === nameStart) throw new MalformedObjectError(`bad tree entry at byte ${offset}`);
    const type = mode & 0o170000;
    links.push({ oid: body.toString('hex', nul + 1, nul + 21), kind: type === 0o040000 ? 'tree' : type === 0o160000 ? 'commit' : 'blob' });
    offset = nul + 21;
  }
  return links;
}

/** Objects of one repository, read once, with commits parsed to their links. */
export class ObjectGraph {
  private readonly links = new Map<string, CommitLinks>();
  readonly read: ObjectReader;
  /** The reader itself, for trees: the walks read each tree once, and keeping them all would hold a history's trees in memory. */
  private readonly readUncached: ObjectReader;

  constructor(read: ObjectReader) {
    this.read = cachingReader(read);
    this.readUncached = read;
  }

  /** The tree's entries as {@link TreeLink}s (not kept), or undefined when the reader does not have it. */
  async treeLinks(oid: string): Promise<TreeLink[] | undefined> {
    const object = await this.readUncached(oid);
    if (object && object.type !== 'tree') throw new MalformedObjectError(`${oid} is a ${object.type}, not a tree`);
    return object && parseTreeLinks(object.body);
  }

  /** Like {@link treeLinks}, throwing when the tree is missing. */
  async treeLinksOrThrow(oid: string): Promise<TreeLink[]> {
    const links = await this.treeLinks(oid);
    if (!links) throw new MissingObjectError(oid);
    return links;
  }

  /** The commit's tree, parents and committer date; throws when missing or not a commit. */
  async commit(oid: string): Promise<CommitLinks> {
    const known = this.links.get(oid);
    if (known) return known;
    const object = await this.read(oid);
    if (!object) throw new MissingObjectError(oid);
    if (object.type !== 'commit') throw new MalformedObjectError(`${oid} is a ${object.type}, not a commit`);
    const links = parseCommitLinks(object.body);
    this.links.set(oid, links);
    return links;
  }

  /** The tree's entries, or undefined when the reader does not have it. */
  async tree(oid: string): Promise<TreeEntry[] | undefined> {
    const object = await this.read(oid);
    if (object && object.type !== 'tree') throw new MalformedObjectError(`${oid} is a ${object.type}, not a tree`);
    return object && parseTree(object.body);
  }

  /** The tree's entries; throws when missing. */
  async treeOrThrow(oid: string): Promise<TreeEntry[]> {
    const entries = await this.tree(oid);
    if (!entries) throw new MissingObjectError(oid);
    return entries;
  }

  /** Follows annotated tags down to the object they point at; undefined when an object is missing. */
  async peel(oid: string): Promise<Peeled | undefined> {
    const tags: string[] = [];
    for (let current = oid; ; ) {
      const object = await this.read(current);
      if (!object) return undefined;
      if (object.type !== 'tag') return { oid: current, type: object.type, tags };
      tags.push(current);
      current = parseTag(object.body).object;
    }
  }

  /** Like {@link peel}, throwing when an object is missing. */
  async peelOrThrow(oid: string): Promise<Peeled> {
    const peeled = await this.peel(oid);
    if (!peeled) throw new MissingObjectError(oid);
    return peeled;
  }
}

/** Commits ordered newest first, equal dates in insertion order (git's commit_list_insert_by_date). */
class DateQueue {
  private heap: { oid: string; date: number; seq: number }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** The newest commit's date. */
  get topDate(): number {
    return this.heap[0].date;
  }

  push(oid: string, date: number): void {
    this.heap.push({ oid, date, seq: this.seq++ });
    for (let child = this.heap.length - 1; child > 0; ) {
      const parent = (child - 1) >> 1;
      if (!this.before(child, parent)) break;
      this.swap(child, parent);
      child = parent;
    }
  }

  pop(): string | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (this.heap.length > 0 && last) {
      this.heap[0] = last;
      this.siftDown();
    }
    return top?.oid;
  }

  private siftDown(): void {
    for (let index = 0; ; ) {
      const left = 2 * index + 1;
      const right = left + 1;
      let first = index;
      if (left < this.heap.length && this.before(left, first)) first = left;
      if (right < this.heap.length && this.before(right, first)) first = right;
      if (first === index) return;
      this.swap(index, first);
      index = first;
    }
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a];
    const y = this.heap[b];
    return x.date !== y.date ? x.date > y.date : x.seq < y.seq;
  }

  private swap(a: number, b: number): void {
    [this.heap[a], this.heap[b]] = [this.heap[b], this.heap[a]];
  }
}

/** How many extra commits the walk takes once only uninteresting ones are queued (git's SLOP). */
const SLOP = 5;

interface RevListInput {
  wants: readonly string[];
  haves: readonly string[];
  /** Commits walked as if they had no parents (shallow boundaries). */
  grafts: ReadonlySet<string>;
  /** Commits older than this (seconds) are cut off, as `rev-list --max-age`. */
  maxAge?: number;
}

/** The commit walk of `git rev-list wants --not haves` (revision.c's limit_list and get_revision). */
class RevWalk {
  readonly uninteresting = new Set<string>();
  /** Commits parsed by this walk (graft applied); the walk marks ancestors only through these. */
  readonly parsed = new Map<string, CommitLinks>();
  /** Cmdline objects that are not commits, in order: shown unless uninteresting. */
  readonly pending: Peeled[] = [];
  /** Cmdline commits marked uninteresting (the haves). */
  readonly bottoms: string[] = [];
  private readonly seen = new Set<string>();
  private readonly added = new Set<string>();
  private readonly queued = new Set<string>();
  private readonly queue = new DateQueue();
  private interestingQueued = 0;

  constructor(
    private readonly graph: ObjectGraph,
    private readonly input: RevListInput,
  ) {}

  /**
   * Walks the commits; returns those listed, newest first. Some may have turned uninteresting
   * after being listed: the caller skips them (but their trees are edges).
   */
  async walk(): Promise<string[]> {
    const start = await this.startingCommits();
    for (const oid of start) this.enqueue(oid);
    return this.bottoms.length > 0 ? this.limitList() : this.walkAll();
  }

  /** The interesting commits, newest first. */
  async commits(): Promise<string[]> {
    return (await this.walk()).filter((oid) => !this.uninteresting.has(oid));
  }

  private async parse(oid: string): Promise<CommitLinks> {
    const known = this.parsed.get(oid);
    if (known) return known;
    const links = await this.graph.commit(oid);
    const parsed = this.input.grafts.has(oid) ? { ...links, parents: [] } : links;
    this.parsed.set(oid, parsed);
    return parsed;
  }

  /** Reads the cmdline: tags are peeled, haves marked; returns the commits to start from. */
  private async startingCommits(): Promise<string[]> {
    const cmdline = [
      ...this.input.wants.map((oid) => ({ oid, bottom: false })),
      ...this.input.haves.map((oid) => ({ oid, bottom: true })),
    ];
    const peeled = await mapBounded(cmdline, ({ oid, bottom }) => (bottom ? this.graph.peel(oid) : this.graph.peelOrThrow(oid)));
    const commits: string[] = [];
    for (const [index, { bottom }] of cmdline.entries()) {
      const object = peeled[index];
      if (!object) continue;
      if (bottom) for (const tag of object.tags) this.uninteresting.add(tag);
      else for (const tag of object.tags) this.pending.push({ oid: tag, type: 'tag', tags: [] });
      if (object.type === 'commit') commits.push(object.oid);
      if (object.type === 'commit' && bottom) this.bottoms.push(object.oid);
      else if (object.type !== 'commit') await this.cmdlineObject(object, bottom);
    }
    for (const oid of commits) await this.parse(oid);
    for (const oid of this.bottoms) this.markUninteresting(oid);
    for (const oid of this.bottoms) this.markParentsUninteresting(oid);
    return commits;
  }

  private async cmdlineObject(object: Peeled, bottom: boolean): Promise<void> {
    if (!bottom) this.pending.push(object);
    else if (object.type === 'tree') await markTreesUninteresting(this.graph, [object.oid], this.uninteresting);
    else this.uninteresting.add(object.oid);
  }

  private enqueue(oid: string): void {
    if (this.seen.has(oid)) return;
    this.seen.add(oid);
    this.queued.add(oid);
    if (!this.uninteresting.has(oid)) this.interestingQueued++;
    this.queue.push(oid, this.parsed.get(oid)!.date);
  }

  private dequeue(): string | undefined {
    const oid = this.queue.pop();
    if (oid === undefined) return undefined;
    this.queued.delete(oid);
    if (!this.uninteresting.has(oid)) this.interestingQueued--;
    return oid;
  }

  private markUninteresting(oid: string): void {
    if (this.uninteresting.has(oid)) return;
    this.uninteresting.add(oid);
    if (this.queued.has(oid)) this.interestingQueued--;
  }

  /** Marks the ancestors of `oid` uninteresting, through the commits parsed so far. */
  private markParentsUninteresting(oid: string): void {
    const stack = [...(this.parsed.get(oid)?.parents ?? [])].reverse();
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (this.uninteresting.has(next)) continue;
      this.markUninteresting(next);
      stack.push(...(this.parsed.get(next)?.parents ?? []));
    }
  }

  private tooOld(oid: string): boolean {
    return this.input.maxAge !== undefined && this.parsed.get(oid)!.date < this.input.maxAge;
  }

  /** Without haves git walks lazily: every reachable commit (but those cut off by age). */
  private async walkAll(): Promise<string[]> {
    const list: string[] = [];
    for (let oid = this.dequeue(); oid !== undefined; oid = this.dequeue()) {
      if (this.tooOld(oid)) continue;
      await this.processParents(oid);
      list.push(oid);
    }
    return list;
  }

  /** revision.c's limit_list: stops SLOP commits after only uninteresting ones are left. */
  private async limitList(): Promise<string[]> {
    const list: string[] = [];
    let date = Infinity;
    let slop = SLOP;
    for (let oid = this.dequeue(); oid !== undefined; oid = this.dequeue()) {
      if (this.tooOld(oid)) this.markUninteresting(oid);
      await this.processParents(oid);
      if (this.uninteresting.has(oid)) {
        this.markParentsUninteresting(oid);
        slop = this.stillInteresting(date, slop);
        if (slop > 0) continue;
        break;
      }
      date = this.parsed.get(oid)!.date;
      list.push(oid);
    }
    return list;
  }

  private stillInteresting(date: number, slop: number): number {
    if (this.queue.size === 0) return 0;
    if (date <= this.queue.topDate || this.interestingQueued > 0) return SLOP;
    return slop - 1;
  }

  /** revision.c's process_parents: parses the parents and queues the new ones. */
  private async processParents(oid: string): Promise<void> {
    if (this.added.has(oid)) return;
    this.added.add(oid);
    const { parents } = this.parsed.get(oid)!;
    await Promise.all(parents.map((parent) => this.graph.commit(parent)));
    const bottom = this.uninteresting.has(oid);
    for (const parent of parents) {
      if (bottom) this.markUninteresting(parent);
      const links = await this.parse(parent);
      if (bottom && links.parents.length > 0) this.markParentsUninteresting(parent);
      this.enqueue(parent);
    }
  }
}

/** Marks trees and everything in them uninteresting (git's mark_tree_uninteresting). */
async function markTreesUninteresting(graph: ObjectGraph, roots: readonly string[], uninteresting: Set<string>): Promise<void> {
  const fresh = (oid: string) => !uninteresting.has(oid) && Boolean(uninteresting.add(oid));
  for (let level = [...roots]; level.length > 0; ) {
    const trees = await mapBounded(level.filter(fresh), (oid) => graph.treeLinks(oid));
    level = [];
    for (const entries of trees) {
      for (const { oid, kind } of entries ?? []) {
        if (kind === 'tree') level.push(oid);
        else if (kind === 'blob') uninteresting.add(oid);
      }
    }
  }
}

/** Lists `blobs` and the trees and blobs under `roots` that are neither uninteresting nor listed already. */
async function listTreesAndBlobs(graph: ObjectGraph, roots: readonly string[], blobs: readonly string[], walk: RevWalk): Promise<string[]> {
  const listed: string[] = [];
  const shown = new Set<string>();
  const show = (oid: string): boolean => {
    if (walk.uninteresting.has(oid) || shown.has(oid)) return false;
    shown.add(oid);
    listed.push(oid);
    return true;
  };
  blobs.forEach(show);
  for (let level = roots.filter(show); level.length > 0; ) {
    const trees = await mapBounded(level, (oid) => graph.treeLinksOrThrow(oid));
    level = [];
    for (const entries of trees) {
      for (const { oid, kind } of entries) {
        if (kind === 'tree' && show(oid)) level.push(oid);
        else if (kind === 'blob') show(oid);
      }
    }
  }
  return listed;
}

interface RevListObjectsInput extends RevListInput {
  /** Also leave out what the haves' trees hold, not only their parents' (`--objects-edge-aggressive`). */
  aggressive: boolean;
}

/** `git rev-list --objects wants --not haves`: commits, tags, trees and blobs. */
async function revListObjects(graph: ObjectGraph, input: RevListObjectsInput): Promise<string[]> {
  const walk = new RevWalk(graph, input);
  const listed = await walk.walk();
  await markTreesUninteresting(graph, edgeTrees(walk, listed, input.aggressive), walk.uninteresting);
  const commits = listed.filter((oid) => !walk.uninteresting.has(oid));
  const pending = (type: ObjectType) => [...new Set(walk.pending.filter((object) => object.type === type).map(({ oid }) => oid))];
  const tags = pending('tag').filter((oid) => !walk.uninteresting.has(oid));
  const roots = [...pending('tree'), ...commits.map((oid) => walk.parsed.get(oid)!.tree)];
  return [...commits, ...tags, ...(await listTreesAndBlobs(graph, roots, pending('blob'), walk))];
}

/**
 * The trees whose contents the client has (list-objects.c's mark_edges_uninteresting): those of
 * listed commits that turned uninteresting and of uninteresting parents of the others.
 */
function edgeTrees(walk: RevWalk, listed: readonly string[], aggressive: boolean): string[] {
  const edges = new Set(aggressive ? walk.bottoms : []);
  for (const oid of listed) {
    if (walk.uninteresting.has(oid)) edges.add(oid);
    else for (const parent of walk.parsed.get(oid)!.parents) if (walk.uninteresting.has(parent)) edges.add(parent);
  }
  return [...edges].map((oid) => walk.parsed.get(oid)!.tree);
}

/** What a shallow fetch tells the client: new shallow boundaries and boundaries it can drop. */
export interface ShallowUpdate {
  shallows: string[];
  unshallows: string[];
}

export interface ShallowRequest {
  read: ObjectReader;
  wants: readonly string[];
  /** The commits the client has without their parents (its `shallow` lines). */
  clientShallows?: readonly string[];
  /** `deepen <n>`: n commits from each want. */
  depth?: number;
  /** `deepen-relative`: the depth counts from the client's shallow commits, not from the wants. */
  deepenRelative?: boolean;
  /** `deepen-since <seconds>`: commits not older than this. */
  deepenSince?: number;
  /** `deepen-not`: commits not reachable from these (resolved ref ids). */
  deepenNot?: readonly string[];
}

export interface ObjectsToSendRequest extends ShallowRequest {
  /** The common commits negotiation found (client haves the server has). */
  haves: readonly string[];
  /**
   * For `include-tag`: the ids the `refs/tags/*` refs point at; annotated tags among them whose
   * (peeled) object is sent are sent too.
   */
  includeTags?: readonly string[];
  /**
   * The client asked for a thin pack: with shallow commits involved git then leaves out what the
   * haves' own trees hold too (`pack-objects --shallow --thin`).
   */
  thin?: boolean;
}

export interface ObjectsToSend extends ShallowUpdate {
  /** Commits, tags, trees and blobs for the pack. */
  oids: string[];
}

/** The client's shallow commits the server has, in request order (git ignores unknown ones). */
export async function knownShallows(graph: ObjectGraph, clientShallows: readonly string[]): Promise<string[]> {
  const unique = [...new Set(clientShallows)];
  const objects = await mapBounded(unique, (oid) => graph.read(oid));
  return unique.filter((oid, index) => {
    const object = objects[index];
    if (object && object.type !== 'commit') throw new MalformedObjectError(`invalid shallow object ${oid}`);
    return object !== undefined;
  });
}

/** The commits (tags peeled) among the wants, each once, in order. */
async function wantedCommits(graph: ObjectGraph, wants: readonly string[]): Promise<string[]> {
  const peeled = await mapBounded([...new Set(wants)], (oid) => graph.peelOrThrow(oid));
  return peeled.filter(({ type }) => type === 'commit').map(({ oid }) => oid);
}

/**
 * shallow.c's get_shallow_commits: walks `depth` commits down from each want, keeping each
 * commit's least distance; commits at the limit become shallow, unless also reached closer.
 */
async function shallowByDepth(graph: ObjectGraph, heads: readonly string[], depth: number): Promise<{ boundary: string[]; within: Set<string> }> {
  const distance = new Map<string, number>();
  const boundary: string[] = [];
  const within = new Set<string>();
  const stack: string[] = [];
  let next = 0;
  for (let commit: string | undefined, current = 0; commit !== undefined || next < heads.length || stack.length > 0; ) {
    if (commit === undefined) {
      if (next < heads.length) {
        commit = heads[next++];
        distance.set(commit, 0);
      } else commit = stack.pop()!;
      current = distance.get(commit)!;
    }
    const { parents } = await graph.commit(commit);
    current++;
    if (current >= depth) {
      boundary.unshift(commit);
      commit = undefined;
      continue;
    }
    within.add(commit);
    commit = undefined;
    for (const [index, parent] of parents.entries()) {
      const known = distance.get(parent);
      if (known !== undefined && current >= known) continue;
      distance.set(parent, current);
      if (index < parents.length - 1) stack.push(parent);
      else commit = parent;
    }
  }
  return { boundary, within };
}

/** shallow.c's get_shallow_commits_by_rev_list: the listed commits with a parent left out. */
async function shallowByRevList(graph: ObjectGraph, heads: readonly string[], request: ShallowRequest): Promise<{ boundary: string[]; within: Set<string> }> {
  const listed = await new RevWalk(graph, {
    wants: heads,
    haves: request.deepenNot ?? [],
    grafts: new Set(),
    maxAge: request.deepenSince,
  }).commits();
  if (listed.length === 0) throw new MalformedObjectError('no commits selected for shallow requests');
  const included = new Set(listed);
  const parents = await Promise.all(listed.map(async (oid) => (await graph.commit(oid)).parents));
  const boundary = listed.filter((_, index) => parents[index].some((parent) => !included.has(parent)));
  const border = new Set(boundary);
  return { boundary, within: new Set(listed.filter((oid) => !border.has(oid))) };
}

async function shallowUpdateIn(graph: ObjectGraph, request: ShallowRequest, clientShallows: readonly string[]): Promise<ShallowUpdate> {
  const byDepth = request.depth !== undefined && request.depth > 0;
  if (byDepth && request.depth === INFINITE_DEPTH) return { shallows: [], unshallows: [...clientShallows] };
  if (!byDepth && request.deepenSince === undefined && !request.deepenNot?.length) return { shallows: [], unshallows: [] };
  // deepen-relative: git's upload-pack deepens from the client's shallow commits by depth + 1.
  const relative = byDepth && request.deepenRelative && clientShallows.length > 0;
  const heads = relative ? [...clientShallows] : await wantedCommits(graph, request.wants);
  const depth = relative ? request.depth! + 1 : request.depth!;
  const { boundary, within } = byDepth ? await shallowByDepth(graph, heads, depth) : await shallowByRevList(graph, heads, request);
  const known = new Set(clientShallows);
  return {
    shallows: boundary.filter((oid) => !known.has(oid) && !within.has(oid)),
    unshallows: clientShallows.filter((oid) => within.has(oid)),
  };
}

/**
 * The `shallow`/`unshallow` lines upload-pack sends for a request that deepens (`deepen`,
 * `deepen-since`, `deepen-not`); empty for other requests.
 */
export async function shallowUpdate(request: ShallowRequest): Promise<ShallowUpdate> {
  const graph = new ObjectGraph(request.read);
  return shallowUpdateIn(graph, request, await knownShallows(graph, request.clientShallows ?? []));
}

/**
 * What to pack for a fetch: `git rev-list --objects wants --not haves`, cut at the client's
 * shallow commits and at the new shallow boundary; the parents of commits that stop being
 * shallow are sent too. Tags among the wants are sent with what they point at.
 */
export async function objectsToSend(request: ObjectsToSendRequest): Promise<ObjectsToSend> {
  const graph = new ObjectGraph(request.read);
  const clientShallows = await knownShallows(graph, request.clientShallows ?? []);
  const { shallows, unshallows } = await shallowUpdateIn(graph, request, clientShallows);
  const unshallowParents = await Promise.all(unshallows.map(async (oid) => (await graph.commit(oid)).parents));
  const grafts = new Set([...clientShallows, ...shallows]);
  const oids = await revListObjects(graph, {
    wants: [...request.wants, ...unshallowParents.flat()],
    haves: [...request.haves, ...unshallows],
    grafts,
    aggressive: request.thin === true && grafts.size > 0,
  });
  if (request.includeTags && oids.length > 0) oids.push(...(await tagsPointingInto(graph, request.includeTags, oids)));
  return { oids, shallows, unshallows };
}

/** pack-objects' `--include-tag`: each annotated tag (with the tags it points through) whose object is sent. */
async function tagsPointingInto(graph: ObjectGraph, tags: readonly string[], sent: readonly string[]): Promise<string[]> {
  const included = new Set(sent);
  const added: string[] = [];
  for (const peeled of await mapBounded(tags, (oid) => graph.peelOrThrow(oid))) {
    if (!included.has(peeled.oid)) continue;
    for (const tag of peeled.tags.filter((oid) => !included.has(oid))) {
      included.add(tag);
      added.push(tag);
    }
  }
  return added;
}

/**
 * Whether each of `oids` is a commit reachable from `tips` (upload-pack's check of wants that are
 * not ref tips: `git rev-list oids --not tips` lists nothing). Other objects count as unreachable.
 */
export async function allReachable(read: ObjectReader, oids: readonly string[], tips: readonly string[]): Promise<boolean> {
  const graph = new ObjectGraph(read);
  const objects = await mapBounded(oids, (oid) => graph.read(oid));
  if (objects.some((object) => object?.type !== 'commit')) return false;
  const walk = new RevWalk(graph, { wants: oids, haves: tips, grafts: new Set() });
  return (await walk.commits()).length === 0;
}

/** Flags of merge-base painting (commit-reach.c). */
const PARENT1 = 1;
const PARENT2 = 2;
const STALE = 4;
const RESULT = 8;

/**
 * commit-reach.c's paint_down_to_common: paints the ancestors of `one` and of `twos` newest
 * first until only commits reachable from both (stale) are queued; returns the painting and
 * the common commits found, newest first.
 */
async function paintDownToCommon(graph: ObjectGraph, one: string, twos: readonly string[]): Promise<{ flags: Map<string, number>; result: string[] }> {
  const flags = new Map<string, number>();
  const queue = new DateQueue();
  const result: { oid: string; date: number }[] = [];
  const queuedCount = new Map<string, number>();
  let nonStale = 0;
  const put = async (oid: string, add: number) => {
    const before = flags.get(oid) ?? 0;
    flags.set(oid, before | add);
    if (add & STALE && !(before & STALE)) nonStale -= queuedCount.get(oid) ?? 0;
    queuedCount.set(oid, (queuedCount.get(oid) ?? 0) + 1);
    if (!((before | add) & STALE)) nonStale++;
    queue.push(oid, (await graph.commit(oid)).date);
  };
  await put(one, PARENT1);
  for (const two of twos) await put(two, PARENT2);
  while (nonStale > 0) {
    const oid = queue.pop()!;
    queuedCount.set(oid, queuedCount.get(oid)! - 1);
    let paint = flags.get(oid)! & (PARENT1 | PARENT2 | STALE);
    if (!(paint & STALE)) nonStale--;
    const commit = await graph.commit(oid);
    if (paint === (PARENT1 | PARENT2)) {
      if (!(flags.get(oid)! & RESULT)) {
        flags.set(oid, flags.get(oid)! | RESULT);
        insertByDate(result, { oid, date: commit.date });
      }
      paint |= STALE;
    }
    for (const parent of commit.parents) {
      if (((flags.get(parent) ?? 0) & paint) !== paint) await put(parent, paint);
    }
  }
  return { flags, result: result.map(({ oid }) => oid) };
}

/** Inserts after the entries at least as new (git's commit_list_insert_by_date). */
function insertByDate(list: { oid: string; date: number }[], entry: { oid: string; date: number }): void {
  const index = list.findIndex(({ date }) => date < entry.date);
  list.splice(index < 0 ? list.length : index, 0, entry);
}

/** Whether `ancestor` is reachable from `descendant` (or is it), as `git merge-base --is-ancestor`. */
export async function isAncestor(read: ObjectReader, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  const { flags } = await paintDownToCommon(new ObjectGraph(read), ancestor, [descendant]);
  return ((flags.get(ancestor) ?? 0) & PARENT2) !== 0;
}

/** Every best common ancestor of two commits, newest first (`git merge-base --all`). */
export async function mergeBases(read: ObjectReader, a: string, b: string): Promise<string[]> {
  if (a === b) return [a];
  const graph = new ObjectGraph(read);
  const { flags, result } = await paintDownToCommon(graph, a, [b]);
  const bases = result.filter((oid) => !((flags.get(oid) ?? 0) & STALE));
  return bases.length > 1 ? removeRedundant(graph, bases) : bases;
}

/** The best common ancestor `git merge-base a b` prints; undefined for unrelated histories. */
export async function mergeBase(read: ObjectReader, a: string, b: string): Promise<string | undefined> {
  return (await mergeBases(read, a, b))[0];
}

/** Drops the bases that are ancestors of other bases (commit-reach.c's remove_redundant). */
async function removeRedundant(graph: ObjectGraph, bases: readonly string[]): Promise<string[]> {
  const redundant = new Set<string>();
  for (const base of bases) {
    if (redundant.has(base)) continue;
    const others = bases.filter((other) => other !== base && !redundant.has(other));
    const { flags } = await paintDownToCommon(graph, base, others);
    if ((flags.get(base) ?? 0) & PARENT2) redundant.add(base);
    for (const other of others) if ((flags.get(other) ?? 0) & PARENT1) redundant.add(other);
  }
  return bases.filter((base) => !redundant.has(base));
}

// ---------------------------------------------------------------------------------------------
// Commit walks for the repository API and push events: `git rev-list` / `git log` as an async
// generator, merge bases of several commits, and paths in trees. (Added after the protocol's walks
// above and built on them: a walk that excludes commits is RevWalk's limit_list.)
// ---------------------------------------------------------------------------------------------

/** What {@link revList} walks and lists (git rev-list's options of the same names). */
export interface RevListOptions {
  /** The commits to start from; tags are peeled, ids naming nothing readable or no commit are ignored. */
  include: readonly string[];
  /**
   * `--not`: commits reachable from these are left out (tags peeled, ids naming nothing readable
   * ignored). Such a walk is limited (revision.c's limit_list): it reads until only excluded commits
   * are left (and SLOP more), then lists; it takes neither `path` nor `firstParent`.
   */
  exclude?: readonly string[];
  /** `--max-count`: at most this many commits are listed. */
  limit?: number;
  /** `--max-age` / `--since` (seconds): older commits are neither listed nor walked past. */
  since?: number;
  /** `--first-parent`: only the first parent of each commit is followed. */
  firstParent?: boolean;
  /**
   * `-- <path>`: only commits that change the path (a file or a directory), with git's default
   * history simplification (a commit the same as one parent there follows only that parent).
   */
  path?: string;
  /** `topo`: no commit before all its children (`--topo-order`, which reads the whole walk first); otherwise newest first by committer date. */
  order?: 'date' | 'topo';
}

/** A commit a walk went through: the parents it goes on to, and whether it is listed. */
interface WalkStep {
  oid: string;
  parents: readonly string[];
  shown: boolean;
}

/**
 * `git rev-list` (or `git log`'s walk): the ids of the commits listed, newest first by committer
 * date (ties in the order met) unless `order` is `topo`. Without `exclude` and in date order the walk
 * is lazy: each commit is read when the walk reaches it, so a consumer that stops early (`limit`,
 * or `break`) reads only as far back as it went, however long the history. Missing parents throw
 * {@link MissingObjectError}.
 *
 * @example
 * for await (const oid of revList(read, { include: [after], exclude: [before] })) pushed.push(oid);
 */
export async function* revList(read: ObjectReader, options: RevListOptions): AsyncGenerator<string> {
  const limit = options.limit ?? Infinity;
  if (limit <= 0) return;
  const graph = new ObjectGraph(read);
  const peeled = await mapBounded([...new Set(options.include)], (oid) => graph.peel(oid));
  const tips = peeled.flatMap((object) => (object?.type === 'commit' ? [object.oid] : []));
  if (tips.length === 0) return;
  const steps = options.exclude?.length ? limitedWalk(graph, tips, options) : lazyWalk(graph, tips, options);
  let listed = 0;
  for await (const { oid, shown } of options.order === 'topo' ? topoOrder(steps) : steps) {
    if (!shown) continue;
    yield oid;
    if (++listed >= limit) return;
  }
}

/** revision.c's limit_list through {@link RevWalk}: every listed commit is known before the first is given. */
async function* limitedWalk(graph: ObjectGraph, tips: string[], options: RevListOptions): AsyncGenerator<WalkStep> {
  if (options.path !== undefined || options.firstParent) throw new Error('revList: path and firstParent walk without exclude');
  const walk = new RevWalk(graph, { wants: tips, haves: options.exclude ?? [], grafts: new Set(), maxAge: options.since });
  for (const oid of await walk.commits()) yield { oid, parents: walk.parsed.get(oid)!.parents, shown: true };
}

/** revision.c's get_revision without limiting: pops the newest commit, queues its parents, gives it. */
async function* lazyWalk(graph: ObjectGraph, tips: string[], options: RevListOptions): AsyncGenerator<WalkStep> {
  const path = options.path === undefined ? [] : pathSegments(options.path);
  const queue = new DateQueue();
  const seen = new Set<string>();
  const enqueue = async (oids: readonly string[]) => {
    for (const oid of oids) {
      if (seen.has(oid)) continue;
      seen.add(oid);
      queue.push(oid, (await graph.commit(oid)).date);
    }
  };
  await enqueue(tips);
  for (let oid = queue.pop(); oid !== undefined; oid = queue.pop()) {
    const step = await simplified(graph, oid, options, path);
    await enqueue(step.parents);
    yield step;
  }
}

/** One commit of a lazy walk: cut off by `since`, reduced to its first parent, simplified by the path. */
async function simplified(graph: ObjectGraph, oid: string, options: RevListOptions, path: readonly Buffer[]): Promise<WalkStep> {
  const { date, tree, parents: all } = await graph.commit(oid);
  if (options.since !== undefined && date < options.since) return { oid, parents: [], shown: false };
  const parents = options.firstParent ? all.slice(0, 1) : all;
  if (path.length === 0) return { oid, parents, shown: true };
  if (parents.length === 0) return { oid, parents, shown: (await entryAtPath(graph, tree, path)) !== undefined };
  for (const parent of parents) {
    if (await sameAtPath(graph, tree, (await graph.commit(parent)).tree, path)) return { oid, parents: [parent], shown: false };
  }
  return { oid, parents, shown: true };
}

/** git's sort_in_topological_order with a LIFO queue: tips in walk order, then each parent once all its children are out. */
async function* topoOrder(steps: AsyncIterable<WalkStep>): AsyncGenerator<WalkStep> {
  const walked = new Map<string, WalkStep>();
  for await (const step of steps) walked.set(step.oid, step);
  const children = new Map<string, number>();
  for (const { parents } of walked.values()) for (const parent of parents) if (walked.has(parent)) children.set(parent, (children.get(parent) ?? 0) + 1);
  const stack = [...walked.keys()].filter((oid) => !children.has(oid)).reverse();
  for (let oid = stack.pop(); oid !== undefined; oid = stack.pop()) {
    const step = walked.get(oid)!;
    for (const parent of step.parents) {
      if (!walked.has(parent)) continue;
      const left = children.get(parent)! - 1;
      children.set(parent, left);
      if (left === 0) stack.push(parent);
    }
    yield step;
  }
}

/**
 * `git rev-list --count <tip>`: how many commits `tip` (a commit) reaches, walked through the
 * parent links alone, with no order and nothing kept but the ids seen. Missing commits throw
 * {@link MissingObjectError}.
 */
export async function countReachableCommits(read: ObjectReader, tip: string): Promise<number> {
  const seen = new Set<string>([tip]);
  const stack = [tip];
  for (let oid = stack.pop(); oid !== undefined; oid = stack.pop()) {
    const object = await read(oid);
    if (!object) throw new MissingObjectError(oid);
    if (object.type !== 'commit') throw new MalformedObjectError(`${oid} is a ${object.type}, not a commit`);
    for (const parent of commitParents(object.body)) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      stack.push(parent);
    }
  }
  return seen.size;
}

/**
 * The best common ancestors of `one` and the others (`git merge-base --all one two...`: with several
 * others, of `one` and a merge of them all), newest first.
 */
export async function mergeBasesOf(read: ObjectReader, one: string, others: readonly string[]): Promise<string[]> {
  if (others.includes(one)) return [one];
  const graph = new ObjectGraph(read);
  const { flags, result } = await paintDownToCommon(graph, one, others);
  const bases = result.filter((oid) => !((flags.get(oid) ?? 0) & STALE));
  return bases.length > 1 ? removeRedundant(graph, bases) : bases;
}

/** What reads trees: an {@link ObjectGraph}, or any reader with the same `tree`. */
export interface TreeReader {
  tree(oid: string): Promise<TreeEntry[] | undefined>;
}

/** A path's components as bytes (`a/b/c.txt`); leading, trailing and doubled slashes are ignored. */
export const pathSegments = (path: string): Buffer[] =>
  path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => Buffer.from(segment, 'utf8'));

/** The entry at a path of a tree (a file, a directory, a submodule), or `undefined`. */
export async function entryAtPath(trees: TreeReader, tree: string, path: string | readonly Buffer[]): Promise<TreeEntry | undefined> {
  const segments = typeof path === 'string' ? pathSegments(path) : path;
  let entries = await trees.tree(tree);
  let found: TreeEntry | undefined;
  for (const [index, segment] of segments.entries()) {
    found = entries?.find((entry) => entry.name.equals(segment));
    if (!found) return undefined;
    if (index < segments.length - 1) {
      if (entryKind(found.mode) !== 'tree') return undefined;
      entries = await trees.tree(found.oid);
    }
  }
  return found;
}

/** Whether two trees hold the same thing at a path (git's TREESAME). */
async function sameAtPath(trees: TreeReader, tree: string, parentTree: string, path: readonly Buffer[]): Promise<boolean> {
  if (tree === parentTree) return true;
  const [a, b] = await Promise.all([entryAtPath(trees, tree, path), entryAtPath(trees, parentTree, path)]);
  return a === undefined ? b === undefined : b !== undefined && a.oid === b.oid && a.mode === b.mode;
}
