/**
 * git-upload-pack over stateless RPC (smart HTTP): each POST carries the wants, the client's
 * shallow commits and deepen request, then a block of haves ending in a flush or `done`. The
 * answer replays what git's upload-pack.c writes for that one round — shallow info, ACK/NAK
 * lines — and says whether the pack follows and what it holds. Protocol v2's `fetch` command
 * is answered from the same pieces.
 */
import { MalformedObjectError } from '../objects/parse';
import type { ObjectType } from '../objects/types';
import { allReachable, knownShallows, MissingObjectError, ObjectGraph, objectsToSend, shallowUpdate, type ObjectReader, type ObjectsToSend, type ShallowUpdate } from '../walk';
import type { Ref } from './advertise';
import { ProtocolError } from './errors';
import { DELIM_PKT, FLUSH_PKT, PktLineReader, pktLine, pktLineText, pktText } from './pkt-line';

/** What the want/shallow/deepen lines ask for, in both protocol versions. */
export interface FetchWants {
  wants: string[];
  /** Commits the client has without their parents. */
  shallows: string[];
  /** `deepen <n>`. */
  depth?: number;
  /** `deepen-since <seconds>`. */
  deepenSince?: number;
  /** `deepen-not <ref>`: ref names, for the server to resolve. */
  deepenNot: string[];
  /** `deepen-relative`: `depth` counts from the client's shallow commits. */
  deepenRelative?: boolean;
}

/** A v0/v1 stateless upload-pack request. */
export interface UploadPackRequest extends FetchWants {
  /** The capabilities sent on the want lines. */
  capabilities: string[];
  haves: string[];
  /**
   * How the request ends: `done` (send the pack), `flush` (a negotiation round), or `eof` right
   * after the wants (a deepening client's first request, answered with the shallow info only).
   */
  end: 'done' | 'flush' | 'eof';
}

const OID = /^[0-9a-f]{40}$/;

function oidArgument(line: string, prefix: string): string {
  const oid = line.slice(prefix.length);
  if (!OID.test(oid)) throw new ProtocolError(`git upload-pack: expected an object id, got '${line}'`);
  return oid;
}

/** Reads one `shallow`/`deepen…` line into `wants`; false for another line. */
function readDeepenLine(line: string, wants: FetchWants): boolean {
  if (line === 'deepen-relative') wants.deepenRelative = true;
  else if (line.startsWith('shallow ')) wants.shallows.push(oidArgument(line, 'shallow '));
  else if (line.startsWith('deepen ')) wants.depth = positive(line, 'deepen ');
  else if (line.startsWith('deepen-since ')) wants.deepenSince = timestamp(line, 'deepen-since ');
  else if (line.startsWith('deepen-not ')) wants.deepenNot.push(line.slice('deepen-not '.length));
  else return false;
  return true;
}

function positive(line: string, prefix: string): number {
  const value = timestamp(line, prefix);
  if (value <= 0) throw new ProtocolError(`Invalid ${prefix.trim()}: ${line}`);
  return value;
}

function timestamp(line: string, prefix: string): number {
  const value = line.slice(prefix.length);
  if (!/^\d+$/.test(value)) throw new ProtocolError(`Invalid ${prefix.trim()}: ${line}`);
  return Number(value);
}

function checkDeepen(wants: FetchWants): void {
  if (wants.depth !== undefined && (wants.deepenSince !== undefined || wants.deepenNot.length > 0)) {
    throw new ProtocolError('git upload-pack: deepen and deepen-since (or deepen-not) cannot be used together');
  }
}

/** The text of the next packet: a line, or the kind of a special packet (undefined at the end). */
function nextLine(reader: PktLineReader): string | 'flush' | 'delim' | 'response-end' | undefined {
  const pkt = reader.read();
  return pkt?.kind === 'data' ? pktLineText(pkt.data) : pkt?.kind;
}

/** Parses a v0/v1 request body (`application/x-git-upload-pack-request`). */
export function parseUploadPackRequest(body: Buffer): UploadPackRequest {
  const reader = new PktLineReader(body);
  const request: UploadPackRequest = { wants: [], shallows: [], deepenNot: [], capabilities: [], haves: [], end: 'eof' };
  for (let line = nextLine(reader); line !== 'flush'; line = nextLine(reader)) {
    if (line === undefined || line === 'delim' || line === 'response-end') throw new ProtocolError('git upload-pack: expected a flush after the wants');
    if (readDeepenLine(line, request)) continue;
    const want = /^want ([0-9a-f]{40})(?: (.*))?$/s.exec(line);
    if (!want) throw new ProtocolError(`git upload-pack: protocol error, expected to get object ID, not '${line}'`);
    request.wants.push(want[1]);
    request.capabilities.push(...(want[2]?.split(' ').filter(Boolean) ?? []));
  }
  checkDeepen(request);
  if (reader.atEnd) return request;
  for (let line = nextLine(reader); ; line = nextLine(reader)) {
    if (line === 'flush' || line === 'done') return { ...request, end: line };
    if (typeof line !== 'string' || !line.startsWith('have ')) throw new ProtocolError(`git upload-pack: expected SHA1 list, got '${line}'`);
    request.haves.push(oidArgument(line, 'have '));
  }
}

/** The ACK/NAK part of one stateless round. */
export interface Negotiation {
  /** The lines, without their LF, in order. */
  lines: string[];
  /** Whether the pack follows in this response. */
  sendPack: boolean;
  /** The haves the server has (git's have_obj): what they reach is left out of the pack. */
  common: string[];
}

type AckMode = 'multi_ack_detailed' | 'multi_ack' | 'single';

function ackMode(capabilities: readonly string[]): AckMode {
  if (capabilities.includes('multi_ack_detailed')) return 'multi_ack_detailed';
  return capabilities.includes('multi_ack') ? 'multi_ack' : 'single';
}

/**
 * upload-pack.c's view of the client's haves: THEY_HAVE commits, have_obj, oldest_have. Commits
 * in `grafts` (shallow boundaries git has registered) count as having no parents.
 */
class Haves {
  readonly theyHave = new Set<string>();
  readonly objects: string[] = [];
  oldest = 0;

  constructor(
    private readonly graph: ObjectGraph,
    private readonly grafts: ReadonlySet<string> = new Set(),
  ) {}

  private async parents(oid: string): Promise<string[]> {
    return this.grafts.has(oid) ? [] : (await this.graph.commit(oid)).parents;
  }

  /** Records a have the server has (do_got_oid): a commit already known as had is not added again. */
  async got(oid: string, type: ObjectType): Promise<void> {
    let known = false;
    if (type === 'commit') {
      const { date } = await this.graph.commit(oid);
      known = this.theyHave.has(oid);
      this.theyHave.add(oid);
      if (!this.oldest || date < this.oldest) this.oldest = date;
      for (const parent of await this.parents(oid)) this.theyHave.add(parent);
    }
    if (!known) this.objects.push(oid);
  }

  /**
   * ok_to_give_up (commit-reach.c's can_all_from_reach_with_flag): whether every want reaches a
   * commit the client has, walking no lower than the oldest have.
   */
  async enough(wants: readonly string[]): Promise<boolean> {
    if (this.objects.length === 0) return false;
    const roots: { oid: string; date: number }[] = [];
    for (const want of wants) {
      const peeled = await this.graph.peel(want);
      if (peeled?.type === 'commit') roots.push({ oid: peeled.oid, date: (await this.graph.commit(peeled.oid)).date });
    }
    roots.sort((a, b) => a.date - b.date);
    const visited = new Set<string>();
    const reached = new Set<string>();
    for (const { oid } of roots) {
      visited.add(oid);
      await this.search(oid, visited, reached);
      if (!this.theyHave.has(oid) && !reached.has(oid)) return false;
    }
    return true;
  }

  private async search(root: string, visited: Set<string>, reached: Set<string>): Promise<void> {
    const stack = [root];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (this.theyHave.has(top) || reached.has(top)) {
        stack.pop();
        if (stack.length > 0) reached.add(stack[stack.length - 1]);
        continue;
      }
      const next = await this.unvisitedParent(top, visited, reached);
      if (next === undefined) stack.pop();
      else stack.push(next);
    }
  }

  /**
   * Marks `oid` reached when a parent is had or reached; returns its first unvisited parent not
   * older than the oldest have (the parents passed over count as visited).
   */
  private async unvisitedParent(oid: string, visited: Set<string>, reached: Set<string>): Promise<string | undefined> {
    for (const parent of await this.parents(oid)) {
      if (this.theyHave.has(parent) || reached.has(parent)) reached.add(oid);
      if (visited.has(parent)) continue;
      visited.add(parent);
      const date = await this.dateOf(parent);
      if (date !== undefined && date >= this.oldest) return parent;
    }
    return undefined;
  }

  private async dateOf(oid: string): Promise<number | undefined> {
    try {
      return (await this.graph.commit(oid)).date;
    } catch (error) {
      if (error instanceof MissingObjectError || error instanceof MalformedObjectError) return undefined;
      throw error;
    }
  }
}

/** What negotiating compares the haves with. */
export interface NegotiationContext {
  graph: ObjectGraph;
  /** git's want_obj: the wants, then the parents of commits unshallowed this round. */
  wants: readonly string[];
  /** The shallow boundaries (the client's and new ones), walked as root commits. */
  grafts: ReadonlySet<string>;
}

/**
 * One stateless round of upload-pack.c's get_common_commits: ACKs the haves the server has in
 * the client's ack mode, says `ready` once every want reaches a common commit, and ends the
 * round with NAK or the final ACK. A round ending in a flush sends no pack unless the client
 * allowed `no-done` and the server said ready.
 */
export async function negotiate(request: UploadPackRequest, { graph, wants, grafts }: NegotiationContext): Promise<Negotiation> {
  const mode = ackMode(request.capabilities);
  const haves = new Haves(graph, grafts);
  const lines: string[] = [];
  let gotCommon = false;
  let gotOther = false;
  let sentReady = false;
  let last = '';
  for (const have of request.haves) {
    const object = await graph.read(have);
    if (!object) {
      gotOther = true;
      if (mode !== 'single' && (await haves.enough(wants))) {
        sentReady ||= mode === 'multi_ack_detailed';
        lines.push(`ACK ${have} ${mode === 'multi_ack_detailed' ? 'ready' : 'continue'}`);
      }
      continue;
    }
    await haves.got(have, object.type);
    gotCommon = true;
    last = have;
    if (mode === 'multi_ack_detailed') lines.push(`ACK ${have} common`);
    else if (mode === 'multi_ack') lines.push(`ACK ${have} continue`);
    else if (haves.objects.length === 1) lines.push(`ACK ${have}`);
  }
  const common = haves.objects;
  if (request.end === 'done') {
    if (common.length === 0) lines.push('NAK');
    else if (mode !== 'single') lines.push(`ACK ${last}`);
    return { lines, sendPack: true, common };
  }
  if (mode === 'multi_ack_detailed' && gotCommon && !gotOther && (await haves.enough(wants))) {
    sentReady = true;
    lines.push(`ACK ${last} ready`);
  }
  if (common.length === 0 || mode !== 'single') lines.push('NAK');
  const sendPack = sentReady && request.capabilities.includes('no-done');
  if (sendPack) lines.push(`ACK ${last}`);
  return { lines, sendPack, common };
}

/** What answering a fetch needs besides the request. */
export interface UploadPackOptions {
  read: ObjectReader;
  /** The repository's refs: the tips wants must come from, tags for include-tag, names for `deepen-not`. */
  refs: readonly Ref[];
}

/** The part of a fetch response before the pack, and the pack's content when one follows. */
export interface UploadPackAnswer {
  /** pkt-lines: in v0 the shallow info then the ACK/NAK lines; in v2 every section up to `packfile`. */
  head: Buffer;
  /**
   * What to pack when the response carries a pack. It then follows `head` — on band 1 with the
   * client's side-band mode (always side-band-64k in v2), progress on band 2 unless
   * `no-progress` — and the response ends with a flush when multiplexed.
   */
  pack?: ObjectsToSend;
}

/**
 * Refuses wants the repository lacks and, as git's stateless upload-pack, wants that are neither
 * a ref tip nor a commit reachable from one (the error names the first want that is no tip). v2
 * gets the same check, stricter than git's, so a shared object store never leaks other objects.
 */
async function checkWants(graph: ObjectGraph, wants: readonly string[], refs: UploadPackOptions['refs']): Promise<void> {
  const notOurRef = (oid: string) => new ProtocolError(`upload-pack: not our ref ${oid}`);
  for (const want of wants) if (!(await graph.read(want))) throw notOurRef(want);
  const tips = refs.map((ref) => ref.oid);
  const others = wants.filter((want) => !tips.includes(want));
  if (others.length > 0 && !(await allReachable(graph.read, others, tips))) throw notOurRef(others[0]);
}

/** How git's expand_ref looks a short name up (the first rules of ref_rev_parse_rules). */
const REF_RULES = ['%s', 'refs/%s', 'refs/tags/%s', 'refs/heads/%s', 'refs/remotes/%s', 'refs/remotes/%s/HEAD'];

/** The id a `deepen-not` ref names; it must name exactly one ref. */
function resolveDeepenNot(name: string, refs: UploadPackOptions['refs']): string {
  const found = REF_RULES.map((rule) => refs.find((ref) => ref.name === rule.replace('%s', name))).filter((ref) => ref !== undefined);
  if (found.length !== 1) throw new ProtocolError(`git upload-pack: ambiguous deepen-not: deepen-not ${name}`);
  return found[0].oid;
}

function isDeepening(wants: FetchWants): boolean {
  return (wants.depth ?? 0) > 0 || wants.deepenSince !== undefined || wants.deepenNot.length > 0;
}

/** The request as the walks take it. */
function walkRequest(wants: FetchWants, options: UploadPackOptions, graph: ObjectGraph) {
  return {
    read: graph.read,
    wants: wants.wants,
    clientShallows: wants.shallows,
    depth: wants.depth,
    deepenRelative: wants.deepenRelative,
    deepenSince: wants.deepenSince,
    deepenNot: wants.deepenNot.map((name) => resolveDeepenNot(name, options.refs)),
  };
}

function shallowLines(update: ShallowUpdate): Buffer[] {
  return [...update.shallows.map((oid) => pktLine(`shallow ${oid}`)), ...update.unshallows.map((oid) => pktLine(`unshallow ${oid}`))];
}

/** The pack's objects; `features` are the capabilities (v0) or arguments (v2) the client sent. */
async function packFor(wants: FetchWants, haves: readonly string[], features: readonly string[], options: UploadPackOptions, graph: ObjectGraph): Promise<ObjectsToSend> {
  const tags = options.refs.filter((ref) => ref.name.startsWith('refs/tags/')).map((ref) => ref.oid);
  return objectsToSend({
    ...walkRequest(wants, options, graph),
    haves,
    thin: features.includes('thin-pack'),
    ...(features.includes('include-tag') && { includeTags: tags }),
  });
}

/**
 * Answers one v0/v1 stateless request as git's upload-pack: the shallow info when deepening
 * (every round repeats it), then the negotiation round; throws a ProtocolError (to send as an
 * `ERR` packet) for a want the repository lacks.
 */
export async function answerUploadPack(request: UploadPackRequest, options: UploadPackOptions): Promise<UploadPackAnswer> {
  if (request.wants.length === 0) return { head: Buffer.alloc(0) };
  const graph = new ObjectGraph(options.read);
  await checkWants(graph, request.wants, options.refs);
  const head: Buffer[] = [];
  let update: ShallowUpdate = { shallows: [], unshallows: [] };
  if (isDeepening(request)) {
    update = await shallowUpdate(walkRequest(request, options, graph));
    head.push(...shallowLines(update), FLUSH_PKT);
  }
  if (request.end === 'eof') return { head: Buffer.concat(head) };
  const unshallowParents = await Promise.all(update.unshallows.map(async (oid) => (await graph.commit(oid)).parents));
  const negotiation = await negotiate(request, {
    graph,
    wants: [...new Set([...request.wants, ...unshallowParents.flat()])],
    grafts: new Set([...(await knownShallows(graph, request.shallows)), ...update.shallows]),
  });
  head.push(...negotiation.lines.map(pktText));
  if (!negotiation.sendPack) return { head: Buffer.concat(head) };
  const pack = await packFor(request, negotiation.common, request.capabilities, options, graph);
  return { head: Buffer.concat(head), pack };
}

/** A protocol v2 `fetch` command's arguments. */
export interface FetchRequest extends FetchWants {
  haves: string[];
  done: boolean;
  /** The flags sent: `thin-pack`, `ofs-delta`, `no-progress`, `include-tag`. */
  features: string[];
}

const FETCH_FEATURES = ['thin-pack', 'ofs-delta', 'no-progress', 'include-tag'];

/** Parses the arguments of a v2 `fetch` command (after its delimiter). */
export function parseFetchArgs(args: readonly string[]): FetchRequest {
  const request: FetchRequest = { wants: [], haves: [], shallows: [], deepenNot: [], done: false, features: [] };
  for (const arg of args) {
    if (arg.startsWith('want ')) request.wants.push(oidArgument(arg, 'want '));
    else if (arg.startsWith('have ')) request.haves.push(oidArgument(arg, 'have '));
    else if (arg === 'done') request.done = true;
    else if (FETCH_FEATURES.includes(arg)) request.features.push(arg);
    else if (!readDeepenLine(arg, request)) throw new ProtocolError(`unexpected line: '${arg}'`);
  }
  checkDeepen(request);
  return request;
}

/**
 * Answers a v2 `fetch` as upload_pack_v2: with haves and without `done`, an acknowledgments
 * section (ending the response unless ready); then shallow-info when the client is or becomes
 * shallow, and the packfile section.
 */
export async function answerFetch(request: FetchRequest, options: UploadPackOptions): Promise<UploadPackAnswer> {
  if (request.wants.length === 0) return { head: Buffer.alloc(0) };
  const graph = new ObjectGraph(options.read);
  await checkWants(graph, request.wants, options.refs);
  const haves = new Haves(graph);
  const common: string[] = [];
  for (const have of request.haves) {
    const object = await graph.read(have);
    if (!object) continue;
    common.push(have);
    await haves.got(have, object.type);
  }
  const head: Buffer[] = [];
  if (request.haves.length > 0 && !request.done) {
    const ready = await haves.enough(request.wants);
    const acks = common.length > 0 ? common.map((oid) => `ACK ${oid}`) : ['NAK'];
    head.push(...['acknowledgments', ...acks, ...(ready ? ['ready'] : [])].map(pktText), ready ? DELIM_PKT : FLUSH_PKT);
    if (!ready) return { head: Buffer.concat(head) };
  }
  if (isDeepening(request) || request.shallows.length > 0) {
    const update = await shallowUpdate(walkRequest(request, options, graph));
    head.push(pktText('shallow-info'), ...shallowLines(update), DELIM_PKT);
  }
  head.push(pktText('packfile'));
  const pack = await packFor(request, haves.objects, request.features, options, graph);
  return { head: Buffer.concat(head), pack };
}
