/**
 * Indexing a received pack, as `git index-pack --fix-thin` does.
 *
 * 1. Scan: check the header and the trailing checksum, then walk the entries in order. Entries
 *    carry no compressed length, so each is inflated to find where it ends (zlib reports the
 *    input it used); its CRC32 is taken over its bytes, and a whole object is hashed at once.
 *    A delta's data is kept from this inflate for step 2, in one buffer bounded by
 *    {@link DELTA_CACHE_BYTES}; past that, deltas are inflated again when their base is at hand.
 * 2. Resolve: every whole object is the root of a tree of deltas (OFS_DELTA children by the
 *    base's entry, REF_DELTA children by the base's id, which may appear anywhere in the pack).
 *    Each tree is walked depth first, so only the objects of the current path are in memory, and
 *    each base is inflated or rebuilt once for all its deltas.
 * 3. Complete: REF_DELTAs still unresolved have their base outside the pack (a thin pack). Each
 *    such base is read through `readExternal` and appended to the pack as a whole object (its
 *    deltas resolved in turn), then the header's count and the trailing checksum are rewritten.
 *
 * Entries are kept in typed arrays, not one object each, and every object is built after room
 * for its `<type> <size>\0` header, so that its id is one SHA-1 of one buffer: a pack of tens of
 * thousands of small objects costs little more than inflating them.
 */
import { createHash, hash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { applyDelta } from './delta';
import { PackError } from './errors';
import { writePackIndexTables } from './idx';
import {
  PACK_HEADER_BYTES,
  PACK_TRAILER_BYTES,
  encodeEntryHeader,
  inflateEntry,
  inflateEntryInto,
  readEntryHeader,
  readPackHeader,
  type EntryKind,
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
  /** Bytes of inflated deltas kept from the scan for the resolution (default {@link DELTA_CACHE_BYTES}). */
  deltaCacheBytes?: number;
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

/**
 * Bytes of inflated deltas kept from the scan for the resolution, by default: a pack's deltas are
 * mostly small (the bench's 4 MB pack of 52,000 objects has 36,000 deltas), and keeping them
 * saves inflating each a second time.
 */
const DELTA_CACHE_BYTES = 16 * 1024 * 1024;

/** Entry kinds as stored in {@link Indexer}'s table: object types 1-4 as in the pack, then the deltas. */
const TYPES: readonly ObjectType[] = ['commit', 'tree', 'blob', 'tag'];
const TYPE_CODES: Record<EntryKind, number> = { commit: 1, tree: 2, blob: 3, tag: 4, 'ofs-delta': 6, 'ref-delta': 7 };
const OFS_DELTA = 6;
const REF_DELTA = 7;
const typeName = (code: number): ObjectType => TYPES[code - 1];

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

/** An object's body after its header: `frame` is both (what its id is the SHA-1 of), `buffer` all the room, the body starting at `at`. */
interface Framed {
  buffer: Buffer;
  at: number;
  frame: Buffer;
  body: Buffer;
}

/**
 * A buffer holding `<type> <size>\0` then room for the body (and `spare` bytes more, which the
 * inflater needs to detect a body larger than announced).
 */
function framed(type: ObjectType, size: number, spare: number): Framed {
  const header = `${type} ${size}\0`;
  const buffer = Buffer.allocUnsafe(header.length + size + spare);
  buffer.write(header, 0, 'latin1');
  return { buffer, at: header.length, frame: buffer.subarray(0, header.length + size), body: buffer.subarray(header.length, header.length + size) };
}

/** A base being resolved: its entry, its body, and the next of its children to look at. */
interface Base {
  entry: number;
  body: Buffer;
  next: number;
}

/** The entries of the pack, one row each of typed arrays (grown when a thin pack's bases are appended). */
class Indexer {
  /** Entries in the table. */
  private length = 0;
  private offsets: Float64Array;
  private ends: Float64Array;
  private dataStarts: Float64Array;
  private sizes: Float64Array;
  /** Entry kinds ({@link TYPE_CODES}), and object types (codes 1-4; 0 until the entry has its id). */
  private kinds: Uint8Array;
  private types: Uint8Array;
  private crcs: Uint32Array;
  private readonly oids: (string | undefined)[];
  /** The entry of an OFS_DELTA's base. */
  private readonly bases: Int32Array;
  /** The base's id of each REF_DELTA. */
  private readonly baseOids = new Map<number, string>();
  /** Where the scan kept a delta's data in {@link deltas} (-1: not kept). */
  private readonly deltaAt: Float64Array;
  private deltas: Buffer = Buffer.alloc(0);
  private deltaBytes = 0;
  private readonly deltaLimit: number;
  /** OFS_DELTA children of entry `i`: `ofsChildren[ofsFirst[i] .. ofsFirst[i + 1]]`, in pack order. */
  private ofsFirst = new Int32Array(0);
  private ofsChildren = new Int32Array(0);
  private readonly refChildren = new Map<string, number[]>();
  private readonly appended: Buffer[] = [];
  private appendedBytes = 0;
  private resolved = 0;

  constructor(
    private readonly pack: Buffer,
    private readonly count: number,
    private readonly options: IndexPackOptions,
  ) {
    this.offsets = new Float64Array(count);
    this.ends = new Float64Array(count);
    this.dataStarts = new Float64Array(count);
    this.sizes = new Float64Array(count);
    this.kinds = new Uint8Array(count);
    this.types = new Uint8Array(count);
    this.crcs = new Uint32Array(count);
    this.oids = new Array<string | undefined>(count).fill(undefined);
    this.bases = new Int32Array(count).fill(-1);
    this.deltaAt = new Float64Array(count).fill(-1);
    this.deltaLimit = options.deltaCacheBytes ?? DELTA_CACHE_BYTES;
  }

  /** Pass 1: finds every entry's extent, CRC32 and base; hashes whole objects, keeps deltas' data. */
  scan(): void {
    const pack = this.pack;
    const bodyEnd = pack.length - PACK_TRAILER_BYTES;
    let offset = PACK_HEADER_BYTES;
    for (let i = 0; i < this.count; i++) {
      if (offset >= bodyEnd) throw new PackError(`pack: truncated (${i} of ${this.count} objects)`);
      const header = readEntryHeader(pack, offset, bodyEnd);
      const kind = TYPE_CODES[header.kind];
      const input = pack.subarray(header.dataStart, bodyEnd);
      this.offsets[i] = offset;
      this.dataStarts[i] = header.dataStart;
      this.sizes[i] = header.size;
      this.kinds[i] = kind;
      this.length = i + 1;
      let consumed: number;
      let object: Framed | undefined;
      if (kind === OFS_DELTA || kind === REF_DELTA) {
        consumed = this.keepDelta(i, input, header.size, offset);
      } else {
        object = framed(typeName(kind), header.size, 1);
        consumed = inflateEntryInto(input, header.size, offset, object.buffer, object.at);
      }
      const end = header.dataStart + consumed;
      this.ends[i] = end;
      this.crcs[i] = crc32(pack.subarray(offset, end));
      if (kind === OFS_DELTA) {
        const base = this.entryAt(header.baseOffset!, i);
        if (base < 0) throw new PackError(`pack: the delta at ${offset} has no base at ${header.baseOffset}`);
        this.bases[i] = base;
      } else if (kind === REF_DELTA) {
        this.baseOids.set(i, header.baseOid!);
        push(this.refChildren, header.baseOid!, i);
      } else {
        this.identify(i, kind, object!);
      }
      offset = end;
    }
    if (offset !== bodyEnd) throw new PackError(`pack: ${bodyEnd - offset} unexpected bytes after the last object`);
    this.linkOfsChildren();
  }

  /** Pass 2: resolves the deltas of every whole object of the pack. */
  resolveInPack(): void {
    for (let i = 0; i < this.count; i++) {
      const kind = this.kinds[i];
      if (kind === OFS_DELTA || kind === REF_DELTA || !this.hasChildren(i)) continue;
      const size = this.sizes[i];
      const body = Buffer.allocUnsafe(size + 1);
      inflateEntryInto(this.pack.subarray(this.dataStarts[i], this.ends[i]), size, this.offsets[i], body, 0);
      this.resolveTree(i, body.subarray(0, size));
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
      const baseOid = this.baseOids.get(i);
      if (baseOid === undefined || this.oids[i] !== undefined || tried.has(baseOid)) continue;
      const base = await this.readBase(baseOid, tried);
      if (base) this.resolveTree(this.append(base, baseOid), base.body);
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
    const count = this.length;
    let unresolved = 0;
    let missing: string | undefined;
    for (let i = 0; i < count; i++) {
      if (this.oids[i] !== undefined) continue;
      unresolved++;
      missing ??= this.baseOids.get(i);
    }
    if (unresolved > 0) {
      throw new PackError(`pack: ${unresolved} deltas cannot be resolved${missing ? `: delta base ${missing} not found` : ''}`);
    }
    const { pack, checksum } = this.appended.length === 0 ? { pack: this.pack, checksum: receivedChecksum } : this.completedPack();
    const names = Buffer.allocUnsafe(count * 20);
    const objects: IndexedPack['objects'] = new Array(count);
    for (let i = 0; i < count; i++) {
      const oid = this.oids[i]!;
      names.write(oid, i * 20, 'hex');
      objects[i] = { oid, type: typeName(this.types[i]) };
    }
    const index = writePackIndexTables({ count, names, offsets: this.offsets.subarray(0, count), crcs: this.crcs.subarray(0, count) }, checksum);
    return { pack, index, name: checksum.toString('hex'), objects };
  }

  /**
   * Inflates a delta during the scan into {@link deltas} while they hold less than the limit
   * (grown by doubling), else into a transient buffer; answers the input bytes used.
   */
  private keepDelta(i: number, input: Buffer, size: number, offset: number): number {
    const room = size + 1;
    if (this.deltaBytes + room > this.deltaLimit) return inflateEntry(input, size, offset, { transient: true }).consumed;
    if (this.deltaBytes + room > this.deltas.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.deltaLimit, Math.max(2 * this.deltas.length, this.deltaBytes + room, 64 * 1024)));
      this.deltas.copy(grown, 0, 0, this.deltaBytes);
      this.deltas = grown;
    }
    const consumed = inflateEntryInto(input, size, offset, this.deltas, this.deltaBytes);
    this.deltaAt[i] = this.deltaBytes;
    this.deltaBytes += size;
    return consumed;
  }

  /** A delta's data: kept by the scan, or inflated again into a transient buffer. */
  private deltaData(i: number): Buffer {
    const at = this.deltaAt[i];
    if (at >= 0) return this.deltas.subarray(at, at + this.sizes[i]);
    return inflateEntry(this.pack.subarray(this.dataStarts[i], this.ends[i]), this.sizes[i], this.offsets[i], { transient: true }).data;
  }

  /** The entry among the first `before` that starts at `offset`, or -1 (entries are in offset order). */
  private entryAt(offset: number, before: number): number {
    let low = 0;
    let high = before;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const at = this.offsets[middle];
      if (at === offset) return middle;
      if (at < offset) low = middle + 1;
      else high = middle;
    }
    return -1;
  }

  /** Lists each entry's OFS_DELTA children, once all bases are known. */
  private linkOfsChildren(): void {
    const first = new Int32Array(this.count + 1);
    for (let i = 0; i < this.count; i++) if (this.bases[i] >= 0) first[this.bases[i] + 1]++;
    for (let i = 0; i < this.count; i++) first[i + 1] += first[i];
    const children = new Int32Array(first[this.count]);
    const next = first.slice(0, this.count);
    for (let i = 0; i < this.count; i++) if (this.bases[i] >= 0) children[next[this.bases[i]]++] = i;
    this.ofsFirst = first;
    this.ofsChildren = children;
  }

  /** Gives entry `i` its type and id; `object` is its body framed by its header. */
  private identify(i: number, type: number, object: Framed): void {
    const oid = hash('sha1', object.frame, 'hex');
    this.types[i] = type;
    this.oids[i] = oid;
    this.options.onObject?.(oid, typeName(type), object.body);
    this.options.onProgress?.(++this.resolved, this.count);
  }

  private hasChildren(i: number): boolean {
    return (i < this.count && this.ofsFirst[i + 1] > this.ofsFirst[i]) || this.refChildren.has(this.oids[i]!);
  }

  /** The next unresolved delta on `base` (OFS_DELTA children first), or -1. */
  private nextChild(base: Base): number {
    const { entry } = base;
    const first = entry < this.count ? this.ofsFirst[entry] : 0;
    const byOffset = entry < this.count ? this.ofsFirst[entry + 1] - first : 0;
    const byId = this.refChildren.get(this.oids[entry]!);
    const total = byOffset + (byId?.length ?? 0);
    while (base.next < total) {
      const k = base.next++;
      const child = k < byOffset ? this.ofsChildren[first + k] : byId![k - byOffset];
      if (this.oids[child] === undefined) return child;
    }
    return -1;
  }

  /** Resolves the deltas under entry `root` (identified), whose body is `body`, depth first. */
  private resolveTree(root: number, body: Buffer): void {
    const type = this.types[root];
    const name = typeName(type);
    let object: Framed | undefined;
    const allocate = (size: number) => {
      object = framed(name, size, 0);
      return object.body;
    };
    const stack: Base[] = [{ entry: root, body, next: 0 }];
    while (stack.length > 0) {
      const base = stack[stack.length - 1];
      const child = this.nextChild(base);
      if (child < 0) {
        stack.pop();
        continue;
      }
      applyDelta(base.body, this.deltaData(child), allocate);
      const resolved = object!;
      this.identify(child, type, resolved);
      if (this.hasChildren(child)) stack.push({ entry: child, body: resolved.body, next: 0 });
    }
  }

  /** Appends a base read from outside as a whole object after the pack's entries; returns its entry number. */
  private append(object: GitObject, oid: string): number {
    const header = encodeEntryHeader(object.type, object.body.length);
    const raw = Buffer.concat([header, deflateSync(object.body)]);
    const offset = this.pack.length - PACK_TRAILER_BYTES + this.appendedBytes;
    const i = this.length++;
    if (i >= this.offsets.length) this.grow(2 * i + 1);
    this.offsets[i] = offset;
    this.dataStarts[i] = offset + header.length;
    this.ends[i] = offset + raw.length;
    this.sizes[i] = object.body.length;
    this.kinds[i] = TYPE_CODES[object.type];
    this.types[i] = TYPE_CODES[object.type];
    this.crcs[i] = crc32(raw);
    this.oids[i] = oid;
    this.appended.push(raw);
    this.appendedBytes += raw.length;
    return i;
  }

  /** Room for `capacity` entries in the tables that appended entries use. */
  private grow(capacity: number): void {
    const grown = <T extends Float64Array | Uint8Array | Uint32Array>(table: T, make: (size: number) => T): T => {
      const copy = make(capacity);
      copy.set(table);
      return copy;
    };
    this.offsets = grown(this.offsets, (size) => new Float64Array(size));
    this.dataStarts = grown(this.dataStarts, (size) => new Float64Array(size));
    this.ends = grown(this.ends, (size) => new Float64Array(size));
    this.sizes = grown(this.sizes, (size) => new Float64Array(size));
    this.kinds = grown(this.kinds, (size) => new Uint8Array(size));
    this.types = grown(this.types, (size) => new Uint8Array(size));
    this.crcs = grown(this.crcs, (size) => new Uint32Array(size));
  }

  /** The pack with the appended entries, its object count and its checksum rewritten. */
  private completedPack(): { pack: Buffer; checksum: Buffer } {
    const body = this.pack.subarray(0, this.pack.length - PACK_TRAILER_BYTES);
    const pack = Buffer.concat([body, ...this.appended, Buffer.alloc(PACK_TRAILER_BYTES)]);
    pack.writeUInt32BE(this.length, 8);
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
