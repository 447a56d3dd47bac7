/**
 * One pack file and its index, read in place from a Buffer (gitformat-pack(5)).
 *
 * A pack is a 12-byte header (`PACK`, version 2 or 3, object count), entries, and the SHA-1 of
 * all that as a trailer. An entry starts with its type (3 bits) and size (the inflated size, 4
 * bits then 7 bits a byte, MSB = more bytes follow); an OFS_DELTA then has the distance back to
 * its base's entry (7 bits a byte, most significant first, each continuation adding one), a
 * REF_DELTA its base's 20-byte id; then come the zlib-compressed data (the object, or the delta).
 *
 * Entries carry no length: an entry ends where the next one starts, which the index tells once
 * its offsets are sorted (the "reverse index", built on first use).
 */
import { constants as zlibConstants, crc32, Inflate, inflateSync } from 'node:zlib';
import { applyDelta } from './delta';
import { PackError } from './errors';
import { type PackIndex } from './idx';
import { type GitObject, type ObjectType } from '../objects/types';

export type EntryKind = ObjectType | 'ofs-delta' | 'ref-delta';

/** The type codes of pack entries; 0 and 5 are invalid. */
const KIND_CODES: Record<EntryKind, number> = { commit: 1, tree: 2, blob: 3, tag: 4, 'ofs-delta': 6, 'ref-delta': 7 };
const KINDS: (EntryKind | undefined)[] = [undefined, 'commit', 'tree', 'blob', 'tag', undefined, 'ofs-delta', 'ref-delta'];

export const PACK_HEADER_BYTES = 12;
export const PACK_TRAILER_BYTES = 20;
const SIGNATURE = 0x5041434b; // "PACK"

/** An entry's header, as parsed at its offset. */
export interface EntryHeader {
  kind: EntryKind;
  /** The inflated size of the object, or of the delta for a delta entry. */
  size: number;
  /** Where the header's type and size end: the start of the zlib data, or of the base reference. */
  headerEnd: number;
  /** Where the zlib data starts. */
  dataStart: number;
  /** The base's offset, for an OFS_DELTA. */
  baseOffset?: number;
  /** The base's id, for a REF_DELTA. */
  baseOid?: string;
}

/** An entry of a pack with its extent. */
export interface PackEntry extends EntryHeader {
  /** The offset right after the entry. */
  end: number;
}

export function isDelta(kind: EntryKind): kind is 'ofs-delta' | 'ref-delta' {
  return kind === 'ofs-delta' || kind === 'ref-delta';
}

/** Checks a pack's 12-byte header and returns its object count. */
export function readPackHeader(pack: Buffer): number {
  if (pack.length < PACK_HEADER_BYTES + PACK_TRAILER_BYTES) throw new PackError('pack: truncated');
  if (pack.readUInt32BE(0) !== SIGNATURE) throw new PackError('pack: bad signature');
  const version = pack.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw new PackError(`pack: unsupported version ${version}`);
  return pack.readUInt32BE(8);
}

/** A pack header for `count` objects. */
export function packHeader(count: number): Buffer {
  const header = Buffer.alloc(PACK_HEADER_BYTES);
  header.writeUInt32BE(SIGNATURE, 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  return header;
}

/** Parses the header of the entry at `offset`, reading no further than `limit`. */
export function readEntryHeader(pack: Buffer, offset: number, limit: number): EntryHeader {
  // No closure here: this runs once per object of every pack read or written.
  let at = offset;
  if (at >= limit) throw truncatedHeader(offset);
  let byte = pack[at++];
  const kind = KINDS[(byte >> 4) & 7];
  if (!kind) throw new PackError(`pack: invalid object type ${(byte >> 4) & 7} at ${offset}`);
  let size = byte & 0x0f;
  for (let scale = 16; byte & 0x80; scale *= 128) {
    if (scale > 2 ** 46) throw new PackError(`pack: entry size too large at ${offset}`);
    if (at >= limit) throw truncatedHeader(offset);
    byte = pack[at++];
    size += (byte & 0x7f) * scale;
  }
  const headerEnd = at;
  if (kind === 'ofs-delta') {
    if (at >= limit) throw truncatedHeader(offset);
    byte = pack[at++];
    let distance = byte & 0x7f;
    while (byte & 0x80) {
      if (distance > 2 ** 45) throw new PackError(`pack: base offset too large at ${offset}`);
      if (at >= limit) throw truncatedHeader(offset);
      byte = pack[at++];
      distance = (distance + 1) * 128 + (byte & 0x7f);
    }
    const baseOffset = offset - distance;
    if (distance === 0 || baseOffset < PACK_HEADER_BYTES) throw new PackError(`pack: invalid base offset at ${offset}`);
    return { kind, size, headerEnd, dataStart: at, baseOffset };
  }
  if (kind === 'ref-delta') {
    if (at + 20 > limit) throw new PackError(`pack: truncated base id at ${offset}`);
    return { kind, size, headerEnd, dataStart: at + 20, baseOid: pack.toString('hex', at, at + 20) };
  }
  return { kind, size, headerEnd, dataStart: at };
}

function truncatedHeader(offset: number): PackError {
  return new PackError(`pack: truncated entry header at ${offset}`);
}

/** The type-and-size header of an entry. */
export function encodeEntryHeader(kind: EntryKind, size: number): Buffer {
  const bytes = [(KIND_CODES[kind] << 4) | (size % 16)];
  for (let rest = Math.floor(size / 16); rest > 0; rest = Math.floor(rest / 128)) {
    bytes[bytes.length - 1] |= 0x80;
    bytes.push(rest % 128);
  }
  return Buffer.from(bytes);
}

/** The OFS_DELTA encoding of the distance from an entry back to its base (see {@link readEntryHeader}). */
export function encodeOfsDistance(distance: number): Buffer {
  const bytes = [distance % 128];
  for (let rest = Math.floor(distance / 128); rest > 0; rest = Math.floor(rest / 128)) {
    rest -= 1;
    bytes.unshift(0x80 | rest % 128);
  }
  return Buffer.from(bytes);
}

/**
 * The parts of a zlib stream's native handle that a synchronous inflate uses (Node's own
 * `zlib.inflateSync` drives the same handle through them, then closes it).
 */
interface ZlibHandle {
  reset(): void;
  writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, output: Buffer, outOffset: number, outLength: number): void;
  onerror: (message: string, errno: number) => void;
}

/** A zlib inflate handle reused by every {@link inflateEntry} of the process (reset before each). */
let reusable: { handle: ZlibHandle; state: Uint32Array; failed: boolean } | undefined;

function reusableInflater(): typeof reusable {
  if (!reusable) {
    const stream = new Inflate() as unknown as { _handle?: ZlibHandle; _writeState?: Uint32Array };
    const { _handle: handle, _writeState: state } = stream;
    if (!handle || !state || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function') return undefined;
    const inflater = { handle, state, failed: false };
    handle.onerror = () => {
      inflater.failed = true;
    };
    reusable = inflater;
  }
  return reusable;
}

/**
 * Inflates with the reusable handle into `output` from `at`, when everything goes well: the stream
 * ends and yields exactly `size` bytes; answers the input bytes used. Anything else (corrupt data,
 * a truncated stream, a wrong size) answers undefined, and {@link inflateChecked} does it again
 * with `inflateSync` to report the error. Creating a zlib stream per object (what `inflateSync`
 * does: a native handle, its async-hook bookkeeping and a 16 KiB output chunk) cost more than
 * inflating the object itself.
 */
function inflateReusing(input: Buffer, size: number, output: Buffer, at: number): number | undefined {
  const inflater = reusableInflater();
  if (!inflater) return undefined;
  const { handle, state } = inflater;
  // One byte more than expected: an object that inflates larger fills it, and is refused.
  const room = size + 1;
  if (at + room > output.length) throw new RangeError(`inflate: no room for ${room} bytes at ${at}`);
  handle.reset();
  handle.writeSync(zlibConstants.Z_FINISH, input, 0, input.length, output, at, room);
  const [outputLeft, inputLeft] = state;
  if (inflater.failed) {
    // The handle reported an error: never trust it again.
    reusable = undefined;
    return undefined;
  }
  // zlib stops at the end of its stream; with output room left, Z_FINISH reached it (else it errors).
  if (outputLeft !== 1) return undefined;
  return input.length - inputLeft;
}

/** The output buffer of transient inflates, grown as needed (never shrunk below 1 MiB, dropped above). */
let scratch = Buffer.alloc(0);
const SCRATCH_KEPT_BYTES = 1024 * 1024;

function scratchBuffer(bytes: number): Buffer {
  if (bytes > SCRATCH_KEPT_BYTES) return Buffer.allocUnsafe(bytes);
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, 64 * 1024));
  return scratch;
}

/**
 * Inflates the zlib stream at the start of `input`, which must produce exactly `size` bytes, and
 * says how many input bytes it used. zlib stops at the end of its stream, so `input` may run on
 * into the next entries: the engine's `bytesWritten` (what `info: true` exposes) is then the
 * compressed length, which is how an indexer finds where the next entry starts. The output is
 * capped at `size` so a corrupt entry cannot inflate into an unbounded buffer.
 *
 * `transient`: the data is used before the next inflate and not kept (a delta about to be applied,
 * an entry only measured): it is then written into a buffer shared by such calls, not allocated.
 */
export function inflateEntry(input: Buffer, size: number, offset: number, options: { transient?: boolean } = {}): { data: Buffer; consumed: number } {
  const output = options.transient ? scratchBuffer(size + 1) : Buffer.allocUnsafe(size + 1);
  const consumed = inflateReusing(input, size, output, 0);
  if (consumed !== undefined) return { data: output.subarray(0, size), consumed };
  return inflateChecked(input, size, offset);
}

/**
 * {@link inflateEntry} into `output` from `at`, which must have room for `size + 1` bytes (one
 * more than expected, to detect an entry that inflates larger): no buffer of its own. Answers the
 * input bytes used.
 */
export function inflateEntryInto(input: Buffer, size: number, offset: number, output: Buffer, at: number): number {
  const consumed = inflateReusing(input, size, output, at);
  if (consumed !== undefined) return consumed;
  const { data, consumed: used } = inflateChecked(input, size, offset);
  data.copy(output, at);
  return used;
}

/** Inflates with `inflateSync`, which reports what went wrong. */
function inflateChecked(input: Buffer, size: number, offset: number): { data: Buffer; consumed: number } {
  let result: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // The option `info` makes inflateSync return the engine too; Node's types do not model it.
    result = inflateSync(input, { info: true, maxOutputLength: Math.max(size, 1) }) as unknown as typeof result;
  } catch (error) {
    throw new PackError(`pack: corrupt or truncated data of the entry at ${offset}`, { cause: error });
  }
  if (result.buffer.length !== size) {
    throw new PackError(`pack: the entry at ${offset} inflates to ${result.buffer.length} bytes, not ${size}`);
  }
  return { data: result.buffer, consumed: result.engine.bytesWritten };
}

/** Resolved objects by offset, least recently used first, bounded by the bytes of their bodies. */
class ObjectCache {
  private readonly objects = new Map<number, GitObject>();
  private bytes = 0;

  constructor(private readonly limit: number) {}

  get(offset: number): GitObject | undefined {
    const object = this.objects.get(offset);
    if (object) {
      this.objects.delete(offset);
      this.objects.set(offset, object);
    }
    return object;
  }

  set(offset: number, object: GitObject): void {
    if (object.body.length > this.limit || this.objects.has(offset)) return;
    this.objects.set(offset, object);
    this.bytes += object.body.length;
    for (const [oldest, evicted] of this.objects) {
      if (this.bytes <= this.limit) break;
      this.objects.delete(oldest);
      this.bytes -= evicted.body.length;
    }
  }
}

/** Reads an object that is not in this pack (the base of a REF_DELTA in a thin or multi-pack setting). */
export type ExternalReader = (oid: string) => Promise<GitObject | undefined>;

/** Sorted offsets of the entries, and the index position of each. */
interface ReverseIndex {
  offsets: Float64Array;
  positions: Uint32Array;
}

/** The default bound of a pack's cache of resolved objects. */
const DEFAULT_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A pack and its index. Objects it returns may be shared with its cache of delta bases: callers
 * must not modify their bodies.
 */
export class PackFile {
  /** The pack's checksum, hex: its name. */
  readonly name: string;
  private reverse?: ReverseIndex;
  private readonly cache: ObjectCache;

  /** `data` is the whole pack file; `cacheBytes` bounds the cache of resolved objects (default 16 MiB). */
  constructor(
    readonly data: Buffer,
    readonly index: PackIndex,
    options: { cacheBytes?: number } = {},
  ) {
    const count = readPackHeader(data);
    if (count !== index.count) throw new PackError(`pack: holds ${count} objects but its index ${index.count}`);
    this.name = data.toString('hex', data.length - PACK_TRAILER_BYTES);
    if (this.name !== index.packChecksum) throw new PackError('pack: its checksum does not match its index');
    this.cache = new ObjectCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  }

  /** Bytes held by the pack and its index. */
  get byteLength(): number {
    return this.data.length + this.index.byteLength;
  }

  has(oid: string): boolean {
    return this.index.position(oid) !== undefined;
  }

  offsetOf(oid: string): number | undefined {
    return this.index.find(oid);
  }

  /** The id of the object whose entry starts at `offset`. */
  oidAt(offset: number): string | undefined {
    const rank = this.rank(offset);
    return rank === undefined ? undefined : this.index.oidAt(this.reverseIndex().positions[rank]);
  }

  /** The entry starting at `offset` (which must be the offset of an object of the index). */
  entry(offset: number): PackEntry {
    const rank = this.rank(offset);
    if (rank === undefined) throw new PackError(`pack ${this.name}: no entry at offset ${offset}`);
    const { offsets } = this.reverseIndex();
    const end = rank + 1 < offsets.length ? offsets[rank + 1] : this.data.length - PACK_TRAILER_BYTES;
    const header = readEntryHeader(this.data, offset, end);
    if (header.baseOffset !== undefined && this.rank(header.baseOffset) === undefined) {
      throw new PackError(`pack ${this.name}: the entry at ${offset} has no base at ${header.baseOffset}`);
    }
    return { ...header, end };
  }

  /**
   * The stored bytes of an entry (header, base reference, compressed data), checked against the
   * index's CRC32. `entry`: the entry at `offset`, when the caller has it already.
   */
  rawEntry(offset: number, entry: PackEntry = this.entry(offset)): Buffer {
    const raw = this.data.subarray(offset, entry.end);
    const position = this.reverseIndex().positions[this.rank(offset)!];
    if (crc32(raw) !== this.index.crc32At(position)) throw new PackError(`pack ${this.name}: CRC mismatch at offset ${offset}`);
    return raw;
  }

  /** Reads an object of this pack, or `undefined` when the pack does not hold it. */
  async read(oid: string, external?: ExternalReader): Promise<GitObject | undefined> {
    const offset = this.offsetOf(oid);
    return offset === undefined ? undefined : this.readAt(offset, external);
  }

  /**
   * Reads the object at `offset`: follows its delta chain down to a whole object (a cached one,
   * a non-delta entry, or a REF_DELTA base read through `external` when this pack does not hold
   * it), then applies the deltas back up, caching every object met on the way as it may be the
   * base of the next read.
   */
  async readAt(offset: number, external?: ExternalReader): Promise<GitObject> {
    const chain: { offset: number; entry: PackEntry }[] = [];
    let object = this.cache.get(offset);
    for (let at = offset; !object; object = this.cache.get(at)) {
      const entry = this.entry(at);
      if (!isDelta(entry.kind)) {
        object = { type: entry.kind, body: this.inflate(at, entry) };
        if (chain.length > 0) this.cache.set(at, object);
        break;
      }
      if (chain.length > this.index.count) throw new PackError(`pack ${this.name}: delta cycle at offset ${offset}`);
      chain.push({ offset: at, entry });
      const base = entry.baseOffset ?? this.offsetOf(entry.baseOid!);
      if (base === undefined) {
        object = await this.readExternal(entry.baseOid!, external);
        break;
      }
      at = base;
    }
    for (const link of chain.reverse()) {
      object = { type: object.type, body: applyDelta(object.body, this.inflate(link.offset, link.entry, true)) };
      this.cache.set(link.offset, object);
    }
    return object;
  }

  private async readExternal(oid: string, external: ExternalReader | undefined): Promise<GitObject> {
    const base = await external?.(oid);
    if (!base) throw new PackError(`pack ${this.name}: delta base ${oid} not found`);
    return base;
  }

  private inflate(offset: number, entry: PackEntry, transient = false): Buffer {
    return inflateEntry(this.data.subarray(entry.dataStart, entry.end), entry.size, offset, { transient }).data;
  }

  /** The rank of an entry offset among the sorted offsets, or `undefined` when no entry starts there. */
  private rank(offset: number): number | undefined {
    const { offsets } = this.reverseIndex();
    let low = 0;
    let high = offsets.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (offsets[middle] === offset) return middle;
      if (offsets[middle] < offset) low = middle + 1;
      else high = middle;
    }
    return undefined;
  }

  private reverseIndex(): ReverseIndex {
    if (!this.reverse) {
      const count = this.index.count;
      const byPosition = new Float64Array(count);
      for (let position = 0; position < count; position++) byPosition[position] = this.index.offsetAt(position);
      const positions = new Uint32Array(count).map((_, position) => position).sort((a, b) => byPosition[a] - byPosition[b]);
      const offsets = new Float64Array(count).map((_, rank) => byPosition[positions[rank]]);
      this.reverse = { offsets, positions };
    }
    return this.reverse;
  }
}
