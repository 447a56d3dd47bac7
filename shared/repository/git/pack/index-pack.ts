/**
 * Indexing a received pack, as `git index-pack --fix-thin` does.
 *
 * 1. Scan: check the header and the trailing checksum, then walk the entries in order. Entries
 *    carry no compressed length, so each is inflated to find where it ends (zlib reports the
 *    input it used); its CRC32 is taken over its bytes, and a whole object is hashed at once.
 * 2. Resolve: every whole object is the root of a tree of deltas (OFS_DELTA children by the
 *    base's entry, REF_DELTA children by the base's id, which may appear anywhere in the pack).
 *    Each tree is walked depth first, so only the objects of the current path are in memory;
 *    each delta is inflated again when its base is at hand.
 * 3. Complete: REF_DELTAs still unresolved have their base outside the pack (a thin pack). Each
 *    such base is read through `readExternal` and appended to the pack as a whole object (its
 *    deltas resolved in turn), then the header's count and the trailing checksum are rewritten.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { applyDelta } from './delta';
import { PackError } from './errors';
import { writePackIndex } from './idx';
import {
  PACK_HEADER_BYTES,
  PACK_TRAILER_BYTES,
  encodeEntryHeader,
  inflateEntry,
  isDelta,
  readEntryHeader,
  readPackHeader,
  type EntryHeader,
} from './pack-file';
import { hashObject, type GitObject, type ObjectType } from '../objects/types';

export interface IndexPackOptions {
  /** Reads a delta base the pack does not hold (from the repository receiving it). */
  readExternal(oid: string): Promise<GitObject | undefined>;
  /** Called each time an object of the received pack gets its id. */
  onProgress?(done: number, total: number): void;
  /**
   * Called with each object of the pack once resolved (bases a thin pack lacked included): lets
   * the caller keep what it will read next (a push's connectivity walk reads its commits and
   * trees) without inflating and resolving them again. `body` must not be modified.
   */
  onObject?(oid: string, type: ObjectType, body: Buffer): void;
}

export interface IndexedPack {
  /** The pack, completed with the bases it lacked (the input itself when it lacked none). */
  pack: Buffer;
  /** Its v2 index. */
  index: Buffer;
  /** Its checksum, hex. */
  name: string;
  /** Its objects, in pack order. */
  objects: { oid: string; type: ObjectType }[];
}

/** An entry while indexing: once resolved it has its id and type. */
interface Entry extends EntryHeader {
  offset: number;
  end: number;
  crc32: number;
  oid?: string;
  type?: ObjectType;
}

/** Indexes a pack, completing it first when it is thin; see the module comment. */
export async function indexPack(pack: Buffer, options: IndexPackOptions): Promise<IndexedPack> {
  const count = readPackHeader(pack);
  const bodyEnd = pack.length - PACK_TRAILER_BYTES;
  const checksum = createHash('sha1').update(pack.subarray(0, bodyEnd)).digest();
  if (!checksum.equals(pack.subarray(bodyEnd))) throw new PackError('pack: checksum mismatch (corrupt or truncated)');
  const indexer = new Indexer(pack, count, options);
  indexer.scan();
  indexer.resolveInPack();
  await indexer.completeThin();
  return indexer.result(checksum);
}

class Indexer {
  private readonly entries: Entry[] = [];
  private readonly byOffset = new Map<number, number>();
  private readonly ofsChildren = new Map<number, number[]>();
  private readonly refChildren = new Map<string, number[]>();
  private readonly appended: Buffer[] = [];
  private appendedBytes = 0;
  private resolved = 0;

  constructor(
    private readonly pack: Buffer,
    private readonly count: number,
    private readonly options: IndexPackOptions,
  ) {}

  /** Pass 1: finds every entry's extent, CRC32 and base; hashes whole objects. */
  scan(): void {
    const bodyEnd = this.pack.length - PACK_TRAILER_BYTES;
    let offset = PACK_HEADER_BYTES;
    for (let i = 0; i < this.count; i++) {
      if (offset >= bodyEnd) throw new PackError(`pack: truncated (${i} of ${this.count} objects)`);
      const header = readEntryHeader(this.pack, offset, bodyEnd);
      // A delta is only measured here (inflated again once its base is known): no buffer of its own.
      const delta = isDelta(header.kind);
      const { data, consumed } = inflateEntry(this.pack.subarray(header.dataStart, bodyEnd), header.size, offset, { transient: delta });
      const end = header.dataStart + consumed;
      // The header becomes the entry (no copy: one object less per entry).
      const entry = header as Entry;
      entry.offset = offset;
      entry.end = end;
      entry.crc32 = crc32(this.pack.subarray(offset, end));
      this.byOffset.set(offset, i);
      this.entries.push(entry);
      if (isDelta(header.kind)) this.link(i, entry);
      else this.identify(i, header.kind, data);
      offset = end;
    }
    if (offset !== bodyEnd) throw new PackError(`pack: ${bodyEnd - offset} unexpected bytes after the last object`);
  }

  /** Pass 2: resolves the deltas of every whole object of the pack. */
  resolveInPack(): void {
    for (let i = 0; i < this.count; i++) {
      const entry = this.entries[i];
      if (isDelta(entry.kind) || !this.hasChildren(i)) continue;
      this.resolveTree(i, { type: entry.type!, body: this.inflate(entry) });
    }
  }

  /**
   * Pass 3: appends the bases a thin pack lacks, in the order of the first delta needing each. A
   * base the repository does not have may be a delta of this pack based on another missing base:
   * it is then resolved later in the loop, and {@link result} rejects what stays unresolved.
   */
  async completeThin(): Promise<void> {
    const tried = new Set<string>();
    for (let i = 0; i < this.count; i++) {
      const { kind, baseOid, oid } = this.entries[i];
      if (kind !== 'ref-delta' || oid !== undefined || tried.has(baseOid!)) continue;
      const base = await this.readBase(baseOid!, tried);
      if (base) this.resolveTree(this.append(base, baseOid!), base);
    }
  }

  /** A base read from the repository (each id asked once), checked against its id. */
  private async readBase(oid: string, tried: Set<string>): Promise<GitObject | undefined> {
    tried.add(oid);
    const base = await this.options.readExternal(oid);
    if (base && hashObject(base.type, base.body) !== oid) throw new PackError(`pack: the object read for ${oid} has another id`);
    return base;
  }

  result(receivedChecksum: Buffer): IndexedPack {
    const unresolved = this.entries.filter((entry) => entry.oid === undefined);
    if (unresolved.length > 0) {
      const missing = unresolved.find((entry) => entry.kind === 'ref-delta')?.baseOid;
      throw new PackError(`pack: ${unresolved.length} deltas cannot be resolved${missing ? `: delta base ${missing} not found` : ''}`);
    }
    const { pack, checksum } = this.appended.length === 0 ? { pack: this.pack, checksum: receivedChecksum } : this.completedPack();
    const index = writePackIndex(
      this.entries.map((entry) => ({ oid: entry.oid!, offset: entry.offset, crc32: entry.crc32 })),
      checksum,
    );
    const objects = this.entries.map((entry) => ({ oid: entry.oid!, type: entry.type! }));
    return { pack, index, name: checksum.toString('hex'), objects };
  }

  /** Records a delta as a child of its base (by entry for OFS_DELTA, by id for REF_DELTA). */
  private link(i: number, entry: Entry): void {
    if (entry.kind === 'ofs-delta') {
      const base = this.byOffset.get(entry.baseOffset!);
      if (base === undefined) throw new PackError(`pack: the delta at ${entry.offset} has no base at ${entry.baseOffset}`);
      push(this.ofsChildren, base, i);
    } else {
      push(this.refChildren, entry.baseOid!, i);
    }
  }

  private identify(i: number, type: ObjectType, body: Buffer): void {
    const entry = this.entries[i];
    entry.type = type;
    entry.oid = hashObject(type, body);
    this.options.onObject?.(entry.oid, type, body);
    this.options.onProgress?.(++this.resolved, this.count);
  }

  private hasChildren(i: number): boolean {
    return this.ofsChildren.has(i) || this.refChildren.has(this.entries[i].oid!);
  }

  /** The unresolved deltas based on entry `i` (already identified). */
  private children(i: number): number[] {
    const byId = this.refChildren.get(this.entries[i].oid!) ?? [];
    return [...(this.ofsChildren.get(i) ?? []), ...byId].filter((child) => this.entries[child].oid === undefined);
  }

  /** Resolves the deltas under entry `i`, whose object is `root`, depth first. */
  private resolveTree(i: number, root: GitObject): void {
    const stack = [{ object: root, children: this.children(i), next: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next === frame.children.length) {
        stack.pop();
        continue;
      }
      const child = frame.children[frame.next++];
      if (this.entries[child].oid !== undefined) continue;
      const object = { type: frame.object.type, body: applyDelta(frame.object.body, this.inflate(this.entries[child], true)) };
      this.identify(child, object.type, object.body);
      const children = this.children(child);
      if (children.length > 0) stack.push({ object, children, next: 0 });
    }
  }

  private inflate(entry: Entry, transient = false): Buffer {
    return inflateEntry(this.pack.subarray(entry.dataStart, entry.end), entry.size, entry.offset, { transient }).data;
  }

  /** Appends a base read from outside as a whole object after the pack's entries; returns its entry number. */
  private append(object: GitObject, oid: string): number {
    const header = encodeEntryHeader(object.type, object.body.length);
    const raw = Buffer.concat([header, deflateSync(object.body)]);
    const offset = this.pack.length - PACK_TRAILER_BYTES + this.appendedBytes;
    const i = this.entries.length;
    this.entries.push({
      kind: object.type,
      size: object.body.length,
      headerEnd: offset + header.length,
      dataStart: offset + header.length,
      offset,
      end: offset + raw.length,
      crc32: crc32(raw),
      type: object.type,
      oid,
    });
    this.appended.push(raw);
    this.appendedBytes += raw.length;
    return i;
  }

  /** The pack with the appended entries, its object count and its checksum rewritten. */
  private completedPack(): { pack: Buffer; checksum: Buffer } {
    const body = this.pack.subarray(0, this.pack.length - PACK_TRAILER_BYTES);
    const pack = Buffer.concat([body, ...this.appended, Buffer.alloc(PACK_TRAILER_BYTES)]);
    pack.writeUInt32BE(this.entries.length, 8);
    const checksum = createHash('sha1').update(pack.subarray(0, pack.length - PACK_TRAILER_BYTES)).digest();
    checksum.copy(pack, pack.length - PACK_TRAILER_BYTES);
    return { pack, checksum };
  }
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
