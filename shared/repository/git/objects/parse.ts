/**
 * The bodies of commit, tree and tag objects, parsed into fields and serialized back byte for byte
 * as git writes them. Text is read as UTF-8 (a message in another `encoding` is not kept
 * byte for byte); tree entry names stay bytes.
 */
import type { ObjectType } from './types';

/** A commit, tree or tag body that does not have git's layout. */
export class MalformedObjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedObjectError';
  }
}

/** An author, committer or tagger line: `Name <email> 1700000000 +0200`. */
export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** The zone as git writes it, e.g. `+0200` or `-0530`. */
  timezone: string;
  /** The same zone in minutes east of UTC (120, -330). */
  timezoneOffset: number;
}

/** What serializing a signature needs: the offset in minutes is derived from `timezone`. */
export type SignatureInput = Omit<Signature, 'timezoneOffset'>;

/** A header other than the ones parsed into fields (`encoding`, `mergetag`, …), in body order. */
export interface ExtraHeader {
  name: string;
  /** Multi-line values are joined with LF (without the continuation space). */
  value: string;
}

export interface Commit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** Headers after `committer`, but for a last `gpgsig`. */
  extraHeaders: ExtraHeader[];
  /** The signature, which git writes as the last header. */
  gpgsig?: string;
  message: string;
}

export type CommitInput = Omit<Commit, 'author' | 'committer' | 'extraHeaders'> & {
  author: SignatureInput;
  committer: SignatureInput;
  extraHeaders?: ExtraHeader[];
};

export interface Tag {
  object: string;
  type: ObjectType;
  tag: string;
  /** Absent on some very old tags. */
  tagger?: Signature;
  extraHeaders: ExtraHeader[];
  message: string;
}

export type TagInput = Omit<Tag, 'tagger' | 'extraHeaders'> & { tagger?: SignatureInput; extraHeaders?: ExtraHeader[] };

/** One tree entry; `name` holds the raw bytes, `path` their UTF-8 reading. */
export interface TreeEntry {
  mode: string;
  name: Buffer;
  path: string;
  oid: string;
}

/** A tree entry to serialize: a string name is encoded as UTF-8. */
export interface TreeEntryInput {
  mode: string;
  name: Buffer | string;
  oid: string;
}

/** What a tree entry's mode points at: a tree, a blob, or a commit (a submodule, "gitlink"). */
export function entryKind(mode: string): 'tree' | 'blob' | 'commit' {
  const type = parseInt(mode, 8) & 0o170000;
  if (type === 0o040000) return 'tree';
  return type === 0o160000 ? 'commit' : 'blob';
}

const OID = /^[0-9a-f]{40}$/;

function oid(value: string | undefined, what: string): string {
  if (value === undefined || !OID.test(value)) throw new MalformedObjectError(`bad ${what} object id: ${value}`);
  return value;
}

/** Headers and message of a commit or tag body: headers end at the first empty line. */
function splitBody(body: Buffer): { headers: ExtraHeader[]; message: string } {
  const end = body.indexOf('\n\n');
  const head = body.toString('utf8', 0, end < 0 ? body.length : end);
  const message = end < 0 ? '' : body.toString('utf8', end + 2);
  const headers: ExtraHeader[] = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length > 0) headers[headers.length - 1].value += `\n${line.slice(1)}`;
    else if (line !== '') headers.push(headerOf(line));
  }
  return { headers, message };
}

function headerOf(line: string): ExtraHeader {
  const space = line.indexOf(' ');
  if (space <= 0) throw new MalformedObjectError(`bad header line: ${line}`);
  return { name: line.slice(0, space), value: line.slice(space + 1) };
}

function headerText({ name, value }: ExtraHeader): string {
  return `${name} ${value.split('\n').join('\n ')}\n`;
}

/** Takes the next header if it has `name`. */
function take(headers: ExtraHeader[], name: string): string | undefined {
  return headers[0]?.name === name ? headers.shift()!.value : undefined;
}

function required(headers: ExtraHeader[], name: string, what: string): string {
  const value = take(headers, name);
  if (value === undefined) throw new MalformedObjectError(`${what} without ${name} header`);
  return value;
}

/** Parses `Name <email> 1700000000 +0200`. */
export function parseSignature(line: string): Signature {
  const match = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/s.exec(line);
  if (!match) throw new MalformedObjectError(`bad signature: ${line}`);
  const [, name, email, timestamp, sign, hours, minutes] = match;
  const offset = Number(hours) * 60 + Number(minutes);
  return {
    name,
    email,
    timestamp: Number(timestamp),
    timezone: `${sign}${hours}${minutes}`,
    timezoneOffset: sign === '-' ? -offset : offset,
  };
}

export function serializeSignature(signature: SignatureInput): string {
  return `${signature.name} <${signature.email}> ${signature.timestamp} ${signature.timezone}`;
}

/** The zone string git writes for an offset in minutes east of UTC (120 → `+0200`). */
export function formatTimezone(offsetMinutes: number): string {
  const absolute = Math.abs(offsetMinutes);
  const digits = `${String(Math.floor(absolute / 60)).padStart(2, '0')}${String(absolute % 60).padStart(2, '0')}`;
  return `${offsetMinutes < 0 ? '-' : '+'}${digits}`;
}

export function parseCommit(body: Buffer): Commit {
  const { headers, message } = splitBody(body);
  const tree = oid(required(headers, 'tree', 'commit'), 'tree');
  const parents: string[] = [];
  for (let parent = take(headers, 'parent'); parent !== undefined; parent = take(headers, 'parent')) {
    parents.push(oid(parent, 'parent'));
  }
  const author = parseSignature(required(headers, 'author', 'commit'));
  const committer = parseSignature(required(headers, 'committer', 'commit'));
  const gpgsig = headers.at(-1)?.name === 'gpgsig' ? headers.pop()!.value : undefined;
  return { tree, parents, author, committer, extraHeaders: headers, ...(gpgsig !== undefined && { gpgsig }), message };
}

export function serializeCommit(commit: CommitInput): Buffer {
  const headers: ExtraHeader[] = [
    { name: 'tree', value: commit.tree },
    ...commit.parents.map((parent) => ({ name: 'parent', value: parent })),
    { name: 'author', value: serializeSignature(commit.author) },
    { name: 'committer', value: serializeSignature(commit.committer) },
    ...(commit.extraHeaders ?? []),
    ...(commit.gpgsig !== undefined ? [{ name: 'gpgsig', value: commit.gpgsig }] : []),
  ];
  return Buffer.from(`${headers.map(headerText).join('')}\n${commit.message}`, 'utf8');
}

const OBJECT_TYPES: readonly string[] = ['commit', 'tree', 'blob', 'tag'];

export function parseTag(body: Buffer): Tag {
  const { headers, message } = splitBody(body);
  const object = oid(required(headers, 'object', 'tag'), 'tagged');
  const type = required(headers, 'type', 'tag');
  if (!OBJECT_TYPES.includes(type)) throw new MalformedObjectError(`bad tag type: ${type}`);
  const tag = required(headers, 'tag', 'tag');
  const tagger = take(headers, 'tagger');
  return {
    object,
    type: type as ObjectType,
    tag,
    ...(tagger !== undefined && { tagger: parseSignature(tagger) }),
    extraHeaders: headers,
    message,
  };
}

export function serializeTag(tag: TagInput): Buffer {
  const headers: ExtraHeader[] = [
    { name: 'object', value: tag.object },
    { name: 'type', value: tag.type },
    { name: 'tag', value: tag.tag },
    ...(tag.tagger ? [{ name: 'tagger', value: serializeSignature(tag.tagger) }] : []),
    ...(tag.extraHeaders ?? []),
  ];
  return Buffer.from(`${headers.map(headerText).join('')}\n${tag.message}`, 'utf8');
}

export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let offset = 0;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    const nul = space < 0 ? -1 : body.indexOf(0, space);
    if (nul < 0 || nul + 21 > body.length) throw new MalformedObjectError(`truncated tree entry at byte ${offset}`);
    const name = Buffer.from(body.subarray(space + 1, nul));
    const mode = body.toString('latin1', offset, space);
    if (!/^[0-7]+$/.test(mode) || name.length === 0) throw new MalformedObjectError(`bad tree entry at byte ${offset}`);
    entries.push({ mode, name, path: name.toString('utf8'), oid: body.toString('hex', nul + 1, nul + 21) });
    offset = nul + 21;
  }
  return entries;
}

/** git's tree order: names compared as bytes, a directory's name as if it ended with `/`. */
function sortKey(entry: { mode: string; name: Buffer }): Buffer {
  return entryKind(entry.mode) === 'tree' ? Buffer.concat([entry.name, Buffer.from('/')]) : entry.name;
}

/** A tree body; entries are sorted in git's order, and two entries with one name are refused. */
export function serializeTree(entries: readonly TreeEntryInput[]): Buffer {
  const named = entries.map((entry) => ({ ...entry, name: Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8') }));
  const keyed = named.map((entry) => ({ entry, key: sortKey(entry) })).sort((a, b) => Buffer.compare(a.key, b.key));
  const chunks: Buffer[] = [];
  keyed.forEach(({ entry }, index) => {
    if (index > 0 && keyed[index - 1].entry.name.equals(entry.name)) {
      throw new MalformedObjectError(`duplicate tree entry: ${entry.name.toString('utf8')}`);
    }
    chunks.push(Buffer.from(`${entry.mode} `, 'latin1'), entry.name, Buffer.from([0]), Buffer.from(oid(entry.oid, 'tree entry'), 'hex'));
  });
  return Buffer.concat(chunks);
}

/** What graph walks need of a commit, read without parsing signatures or the message. */
export interface CommitLinks {
  tree: string;
  parents: string[];
  /** The committer time, 0 when unreadable (as git's parse_commit_date). */
  date: number;
}

export function parseCommitLinks(body: Buffer): CommitLinks {
  const end = body.indexOf('\n\n');
  const lines = body.toString('utf8', 0, end < 0 ? body.length : end).split('\n');
  const tree = lines[0]?.startsWith('tree ') ? oid(lines[0].slice(5), 'tree') : undefined;
  if (!tree) throw new MalformedObjectError('commit without tree header');
  const parents = lines.filter((line) => line.startsWith('parent ')).map((line) => oid(line.slice(7), 'parent'));
  return { tree, parents, date: committerDate(lines.find((line) => line.startsWith('committer ')) ?? '') };
}

const TREE_HEADER = Buffer.from('tree ');
const PARENT_HEADER = Buffer.from('parent ');

/**
 * A commit's parent ids, read straight from the bytes: git writes `tree <oid>\n` first and the
 * `parent <oid>\n` lines right after it, so a walk that needs only the graph (counting commits)
 * skips decoding the headers. Anything laid out otherwise goes through {@link parseCommitLinks}.
 */
export function commitParents(body: Buffer): string[] {
  if (body.compare(TREE_HEADER, 0, 5, 0, 5) !== 0 || body[45] !== 0x0a) return parseCommitLinks(body).parents;
  const parents: string[] = [];
  for (let at = 46; body.length >= at + 48 && body.compare(PARENT_HEADER, 0, 7, at, at + 7) === 0 && body[at + 47] === 0x0a; at += 48) {
    parents.push(oid(body.toString('latin1', at + 7, at + 47), 'parent'));
  }
  return parents;
}

function committerDate(line: string): number {
  const match = /^\s*(\d+)/.exec(line.slice(line.lastIndexOf('>') + 1));
  return match ? Number(match[1]) : 0;
}
