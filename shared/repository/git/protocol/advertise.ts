/**
 * Ref advertisement (gitprotocol-http, gitprotocol-pack "Reference Discovery"): the body of
 * `GET info/refs?service=…` in protocol v0/v1, the v2 capability advertisement, and v2's
 * command framing and `ls-refs` command.
 */
import { ProtocolError } from './errors';
import { FLUSH_PKT, PktLineReader, pktLineText, pktText } from './pkt-line';

export type Service = 'git-upload-pack' | 'git-receive-pack';

export type ProtocolVersion = 0 | 1 | 2;

/** A ref; `peeled` is the object an annotated tag finally points at. */
export interface Ref {
  name: string;
  oid: string;
  peeled?: string;
}

/** What upload-pack offers (git's list, limited to what the server implements). */
export const UPLOAD_PACK_CAPABILITIES = [
  'thin-pack',
  'side-band',
  'side-band-64k',
  'ofs-delta',
  'shallow',
  'deepen-since',
  'deepen-not',
  'deepen-relative',
  'no-progress',
  'include-tag',
  'multi_ack_detailed',
  'no-done',
] as const;

/** What receive-pack offers. */
export const RECEIVE_PACK_CAPABILITIES = ['report-status', 'delete-refs', 'side-band-64k', 'quiet', 'atomic', 'ofs-delta', 'push-options'] as const;

export const ZERO_OID = '0'.repeat(40);

/**
 * The protocol version a client asks for in its `Git-Protocol` header (`version=2`, keys
 * separated by colons): the highest known version given, else 0.
 */
export function requestedVersion(gitProtocol: string | undefined): ProtocolVersion {
  const versions = (gitProtocol ?? '')
    .split(':')
    .map((entry) => /^version=([012])$/.exec(entry)?.[1])
    .filter((version) => version !== undefined)
    .map(Number);
  return Math.max(0, ...versions) as ProtocolVersion;
}

/** An agent string as a capability value: printable ASCII but space (git_user_agent_sanitized). */
function sanitizeAgent(agent: string): string {
  return agent.replace(/[^\x21-\x7e]/g, '.');
}

/** Names in C locale order: byte by byte. */
function byName(a: Ref, b: Ref): number {
  return Buffer.compare(Buffer.from(a.name, 'utf8'), Buffer.from(b.name, 'utf8'));
}

export interface RefAdvertisement {
  /** Every ref but HEAD, in any order. */
  refs: readonly Ref[];
  /** The ref HEAD points at (`refs/heads/main`); HEAD is advertised when that ref exists. */
  head?: string;
  /** This server's name and version, e.g. `git/2.39.5`. */
  agent: string;
  /** From {@link requestedVersion}; receive-pack answers v2 requests in v0, as git does. */
  version?: ProtocolVersion;
}

/** The v2 capability advertisement (no `# service` line: git's http-backend sends none in v2). */
export function advertiseV2(agent: string): Buffer {
  const capabilities = ['version 2', `agent=${sanitizeAgent(agent)}`, 'ls-refs=unborn', 'fetch=shallow', 'server-option', 'object-format=sha1'];
  return Buffer.concat([...capabilities.map(pktText), FLUSH_PKT]);
}

/** The ref lines of a v0/v1 advertisement, capabilities after a NUL on the first. */
function refLines(service: Service, advertisement: RefAdvertisement): string[] {
  const refs = [...advertisement.refs].sort(byName);
  const head = refs.find((ref) => ref.name === advertisement.head);
  const capabilities: string[] = service === 'git-upload-pack' ? [...UPLOAD_PACK_CAPABILITIES] : [...RECEIVE_PACK_CAPABILITIES];
  if (service === 'git-upload-pack' && head) capabilities.push(`symref=HEAD:${head.name}`);
  capabilities.push('object-format=sha1', `agent=${sanitizeAgent(advertisement.agent)}`);
  const listed = service === 'git-upload-pack' && head ? [{ ...head, name: 'HEAD' }, ...refs] : refs;
  const lines = listed.flatMap((ref) => [
    `${ref.oid} ${ref.name}`,
    ...(service === 'git-upload-pack' && ref.peeled ? [`${ref.peeled} ${ref.name}^{}`] : []),
  ]);
  if (lines.length === 0) lines.push(`${ZERO_OID} capabilities^{}`);
  lines[0] += `\0${capabilities.join(' ')}`;
  return lines;
}

/**
 * The body of `GET info/refs?service=<service>` (content type
 * `application/x-<service>-advertisement`): `# service=…` and a flush, `version 1` when asked,
 * HEAD then the refs in C locale order with peeled tags (upload-pack), a flush. For an empty
 * repository the capabilities go on a `capabilities^{}` line. Upload-pack answers a v2 request
 * with {@link advertiseV2}; receive-pack answers it in v0 but, as git's http-backend, without
 * the `# service` line.
 */
export function advertiseRefs(service: Service, advertisement: RefAdvertisement): Buffer {
  const version = advertisement.version ?? 0;
  if (version === 2 && service === 'git-upload-pack') return advertiseV2(advertisement.agent);
  const lines = [...(version === 1 ? ['version 1'] : []), ...refLines(service, advertisement)];
  const header = version === 2 ? [] : [pktText(`# service=${service}`), FLUSH_PKT];
  return Buffer.concat([...header, ...lines.map(pktText), FLUSH_PKT]);
}

/** A protocol v2 request: `command=…`, capabilities, a delimiter, the command's arguments. */
export interface CommandRequest {
  command: 'ls-refs' | 'fetch';
  /** `agent=…`, `server-option=…`, `object-format=…` lines, as sent. */
  capabilities: string[];
  args: string[];
}

const COMMANDS: readonly string[] = ['ls-refs', 'fetch'];

/** Checks one capability line of a v2 request against what {@link advertiseV2} offers. */
function checkCapability(line: string): void {
  const [key, value] = line.split(/=(.*)/s);
  if (key === 'object-format' && value !== 'sha1') throw new ProtocolError(`mismatched object format: server sha1; client ${value}`);
  if (!['agent', 'server-option', 'object-format'].includes(key)) throw new ProtocolError(`unknown capability '${line}'`);
}

/** Parses a v2 request body; undefined for the empty request (a lone flush). */
export function parseCommandRequest(body: Buffer): CommandRequest | undefined {
  const reader = new PktLineReader(body);
  let command: string | undefined;
  const capabilities: string[] = [];
  for (let pkt = reader.read(); ; pkt = reader.read()) {
    if (pkt === undefined || pkt.kind === 'response-end') throw new ProtocolError('expected flush after command request');
    if (pkt.kind !== 'data') {
      if (pkt.kind === 'flush' && command === undefined && capabilities.length === 0) return undefined;
      if (command === undefined) throw new ProtocolError('no command requested');
      return { command: command as CommandRequest['command'], capabilities, args: pkt.kind === 'delim' ? commandArgs(reader) : [] };
    }
    const line = pktLineText(pkt.data);
    if (!line.startsWith('command=')) {
      checkCapability(line);
      capabilities.push(line);
    } else if (command !== undefined) throw new ProtocolError(`command '${line.slice(8)}' requested after already requesting command '${command}'`);
    else if (!COMMANDS.includes(line.slice(8))) throw new ProtocolError(`invalid command '${line.slice(8)}'`);
    else command = line.slice(8);
  }
}

/** The argument lines up to the flush. */
function commandArgs(reader: PktLineReader): string[] {
  const args: string[] = [];
  for (let pkt = reader.read(); pkt?.kind !== 'flush'; pkt = reader.read()) {
    if (pkt?.kind !== 'data') throw new ProtocolError('expected flush after command arguments');
    args.push(pktLineText(pkt.data));
  }
  return args;
}

/** The arguments of `ls-refs`. */
export interface LsRefsRequest {
  symrefs: boolean;
  peel: boolean;
  unborn: boolean;
  refPrefixes: string[];
}

export function parseLsRefsArgs(args: readonly string[]): LsRefsRequest {
  const request: LsRefsRequest = { symrefs: false, peel: false, unborn: false, refPrefixes: [] };
  for (const arg of args) {
    if (arg === 'symrefs' || arg === 'peel' || arg === 'unborn') request[arg] = true;
    else if (arg.startsWith('ref-prefix ')) request.refPrefixes.push(arg.slice('ref-prefix '.length));
    else throw new ProtocolError(`unexpected line: '${arg}'`);
  }
  return request;
}

/**
 * The `ls-refs` response (ls-refs.c): HEAD first (or `unborn HEAD` when its branch does not
 * exist yet and the client asked), then the refs in C locale order that match a prefix, each
 * with `symref-target:`/`peeled:` attributes when asked; a flush.
 */
export function lsRefs(request: LsRefsRequest, refs: readonly Ref[], head: string | undefined): Buffer {
  const matches = (name: string) => request.refPrefixes.length === 0 || request.refPrefixes.some((prefix) => name.startsWith(prefix));
  const lines: string[] = [];
  const target = refs.find((ref) => ref.name === head);
  const symref = request.symrefs && head ? ` symref-target:${head}` : '';
  if (matches('HEAD') && target) lines.push(`${target.oid} HEAD${symref}${peeled(request, target)}`);
  else if (matches('HEAD') && head && request.unborn && request.symrefs) lines.push(`unborn HEAD${symref}`);
  for (const ref of [...refs].sort(byName)) {
    if (matches(ref.name)) lines.push(`${ref.oid} ${ref.name}${peeled(request, ref)}`);
  }
  return Buffer.concat([...lines.map(pktText), FLUSH_PKT]);
}

function peeled(request: LsRefsRequest, ref: Ref): string {
  return request.peel && ref.peeled ? ` peeled:${ref.peeled}` : '';
}
