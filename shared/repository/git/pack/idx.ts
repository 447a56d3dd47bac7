/**
 * Pack index, version 2 (gitformat-pack(5)): the magic `\377tOc` and version 2; a fan-out table
 * of 256 counts (objects whose first id byte is <= i); the sorted object ids; their CRC32s (of
 * the entry's bytes in the pack); their offsets as 4-byte values, where a set MSB makes the low
 * 31 bits an index into a table of 8-byte offsets that follows; then the pack's checksum and the
 * SHA-1 of everything before it. Git writes an offset to the 8-byte table when it needs 32 bits
 * or more (offset >= 2^31), in id order, which {@link writePackIndex} does too, so its output is
 * byte-identical to `git index-pack`'s.
 */
import { createHash } from 'node:crypto';
import { PackError } from './errors';

const MAGIC = 0xff744f63;
const VERSION = 2;
const OID_BYTES = 20;
const HEADER_BYTES = 8;
const FANOUT_BYTES = 256 * 4;
const TRAILER_BYTES = 2 * OID_BYTES;
const LARGE_OFFSET = 0x80000000;
/** Ids are written lower-case only, so that sorting their hex strings sorts their bytes. */
const OID_PATTERN = /^[0-9a-f]{40}$/;

/** One object of a pack as its index records it. */
export interface PackIndexEntry {
  oid: string;
  offset: number;
  crc32: number;
}

/** An object id as its 20 bytes, or `undefined` when it is not 40 hex digits. */
export function oidBytes(oid: string): Buffer | undefined {
  if (oid.length !== 2 * OID_BYTES) return undefined;
  const bytes = Buffer.from(oid, 'hex');
  return bytes.length === OID_BYTES ? bytes : undefined;
}

/** The id being searched for, as bytes (one buffer for every search: no allocation per lookup). */
const SEARCH_KEY = Buffer.alloc(OID_BYTES);

/** A parsed v2 pack index; positions `0..count-1` follow the sorted object ids. */
export class PackIndex {
  readonly count: number;
  /** The checksum of the pack this index describes (the pack's name), hex. */
  readonly packChecksum: string;
  private readonly names = HEADER_BYTES + FANOUT_BYTES;
  private readonly crcs: number;
  private readonly offsets: number;
  private readonly largeOffsets: number;
  private readonly largeCount: number;

  /** Use {@link parsePackIndex}, which validates the buffer first. */
  constructor(private readonly data: Buffer) {
    this.count = data.readUInt32BE(HEADER_BYTES + FANOUT_BYTES - 4);
    this.crcs = this.names + this.count * OID_BYTES;
    this.offsets = this.crcs + this.count * 4;
    this.largeOffsets = this.offsets + this.count * 4;
    this.largeCount = (data.length - TRAILER_BYTES - this.largeOffsets) / 8;
    this.packChecksum = data.toString('hex', data.length - TRAILER_BYTES, data.length - OID_BYTES);
  }

  /** Bytes held by this index. */
  get byteLength(): number {
    return this.data.length;
  }

  /** The position of an object, found by binary search within its fan-out bucket. */
  position(oid: string): number | undefined {
    if (oid.length !== 2 * OID_BYTES || SEARCH_KEY.write(oid, 'hex') !== OID_BYTES) return undefined;
    const key = SEARCH_KEY;
    let low = key[0] === 0 ? 0 : this.fanout(key[0] - 1);
    let high = this.fanout(key[0]);
    const data = this.data;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = this.names + middle * OID_BYTES;
      // Compared here rather than with Buffer#compare: the first bytes nearly always decide, and
      // a native call per step cost more than the comparison.
      let order = 0;
      for (let i = 0; i < OID_BYTES && order === 0; i++) order = data[start + i] - key[i];
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return undefined;
  }

  /** The pack offset of an object, or `undefined` when the pack does not hold it. */
  find(oid: string): number | undefined {
    const position = this.position(oid);
    return position === undefined ? undefined : this.offsetAt(position);
  }

  oidAt(position: number): string {
    const start = this.names + this.checked(position) * OID_BYTES;
    return this.data.toString('hex', start, start + OID_BYTES);
  }

  offsetAt(position: number): number {
    const small = this.data.readUInt32BE(this.offsets + this.checked(position) * 4);
    if (small < LARGE_OFFSET) return small;
    const large = small - LARGE_OFFSET;
    if (large >= this.largeCount) throw new PackError(`pack index: 64-bit offset ${large} out of range`);
    return Number(this.data.readBigUInt64BE(this.largeOffsets + large * 8));
  }

  crc32At(position: number): number {
    return this.data.readUInt32BE(this.crcs + this.checked(position) * 4);
  }

  private fanout(byte: number): number {
    return this.data.readUInt32BE(HEADER_BYTES + byte * 4);
  }

  private checked(position: number): number {
    if (!Number.isInteger(position) || position < 0 || position >= this.count) {
      throw new PackError(`pack index: position ${position} out of range`);
    }
    return position;
  }
}

/** Reads a v2 pack index, checking its header, fan-out table, size and trailing checksum. */
export function parsePackIndex(data: Buffer): PackIndex {
  if (data.length < HEADER_BYTES + FANOUT_BYTES + TRAILER_BYTES) throw new PackError('pack index: truncated');
  if (data.readUInt32BE(0) !== MAGIC) throw new PackError('pack index: not a version 2 index (bad signature)');
  const version = data.readUInt32BE(4);
  if (version !== VERSION) throw new PackError(`pack index: unsupported version ${version}`);
  for (let byte = 1, previous = data.readUInt32BE(HEADER_BYTES); byte < 256; byte++) {
    const current = data.readUInt32BE(HEADER_BYTES + byte * 4);
    if (current < previous) throw new PackError('pack index: fan-out table is not monotonic');
    previous = current;
  }
  const count = data.readUInt32BE(HEADER_BYTES + FANOUT_BYTES - 4);
  const large = data.length - (HEADER_BYTES + FANOUT_BYTES + count * (OID_BYTES + 8) + TRAILER_BYTES);
  if (large < 0 || large % 8 !== 0) throw new PackError('pack index: size does not match its object count');
  const checksum = createHash('sha1').update(data.subarray(0, data.length - OID_BYTES)).digest();
  if (!checksum.equals(data.subarray(data.length - OID_BYTES))) throw new PackError('pack index: checksum mismatch');
  return new PackIndex(data);
}

/** Writes the v2 index of a pack from its objects (in any order) and the pack's trailing checksum. */
export function writePackIndex(entries: readonly PackIndexEntry[], packChecksum: Buffer): Buffer {
  const count = entries.length;
  const names = Buffer.allocUnsafe(count * OID_BYTES);
  const offsets = new Float64Array(count);
  const crcs = new Uint32Array(count);
  entries.forEach((entry, i) => {
    if (!OID_PATTERN.test(entry.oid)) throw new PackError(`pack index: invalid object id ${JSON.stringify(entry.oid)}`);
    names.write(entry.oid, i * OID_BYTES, 'hex');
    offsets[i] = entry.offset;
    crcs[i] = entry.crc32;
  });
  return writePackIndexTables({ count, names, offsets, crcs }, packChecksum);
}

/** A pack's objects (in any order) as tables: entry `i` has the id at `names[20 i .. 20 i + 20]`, `offsets[i]` and `crcs[i]`. */
export interface PackIndexTables {
  count: number;
  names: Buffer;
  offsets: ArrayLike<number>;
  crcs: ArrayLike<number>;
}

/** {@link writePackIndex} from tables (no object, and no string, per object: what an indexer gives). */
export function writePackIndexTables(tables: PackIndexTables, packChecksum: Buffer): Buffer {
  if (packChecksum.length !== OID_BYTES) throw new PackError('pack index: the pack checksum must be 20 bytes');
  const { count, names, offsets: entryOffsets, crcs: entryCrcs } = tables;
  const order = sortByName(names, count);
  let large = 0;
  for (let i = 0; i < count; i++) if (entryOffsets[i] >= LARGE_OFFSET) large++;
  const ids = HEADER_BYTES + FANOUT_BYTES;
  const crcs = ids + count * OID_BYTES;
  const offsets = crcs + count * 4;
  const largeOffsets = offsets + count * 4;
  const trailer = largeOffsets + large * 8;
  const out = Buffer.alloc(trailer + TRAILER_BYTES);
  out.writeUInt32BE(MAGIC, 0);
  out.writeUInt32BE(VERSION, 4);
  const buckets = new Uint32Array(256);
  let nextLarge = 0;
  for (let position = 0; position < count; position++) {
    const entry = order[position];
    buckets[names[entry * OID_BYTES]]++;
    names.copy(out, ids + position * OID_BYTES, entry * OID_BYTES, (entry + 1) * OID_BYTES);
    out.writeUInt32BE(entryCrcs[entry] >>> 0, crcs + position * 4);
    const offset = entryOffsets[entry];
    if (offset < LARGE_OFFSET) {
      out.writeUInt32BE(offset, offsets + position * 4);
    } else {
      out.writeUInt32BE(LARGE_OFFSET + nextLarge, offsets + position * 4);
      out.writeBigUInt64BE(BigInt(offset), largeOffsets + nextLarge++ * 8);
    }
  }
  for (let byte = 0, total = 0; byte < 256; byte++) {
    total += buckets[byte];
    out.writeUInt32BE(total, HEADER_BYTES + byte * 4);
  }
  packChecksum.copy(out, trailer);
  createHash('sha1').update(out.subarray(0, trailer + OID_BYTES)).digest().copy(out, trailer + OID_BYTES);
  return out;
}

/**
 * The entries ordered by id (equal ids keep their order): a counting sort on the first two bytes,
 * as ids are uniformly spread, then each bucket (about `count / 65536` ids) by insertion.
 */
function sortByName(names: Buffer, count: number): Uint32Array {
  const key = (entry: number) => (names[entry * OID_BYTES] << 8) | names[entry * OID_BYTES + 1];
  const starts = new Uint32Array(65536 + 1);
  for (let entry = 0; entry < count; entry++) starts[key(entry) + 1]++;
  for (let bucket = 0; bucket < 65536; bucket++) starts[bucket + 1] += starts[bucket];
  const order = new Uint32Array(count);
  const next = starts.slice(0, 65536);
  for (let entry = 0; entry < count; entry++) order[next[key(entry)]++] = entry;
  for (let bucket = 0; bucket < 65536; bucket++) {
    const start = starts[bucket];
    const end = starts[bucket + 1];
    if (end - start < 2) continue;
    if (end - start > 32) {
      order.subarray(start, end).sort((a, b) => compareNames(names, a, b) || a - b);
      continue;
    }
    for (let i = start + 1; i < end; i++) {
      const entry = order[i];
      let j = i;
      for (; j > start && compareNames(names, order[j - 1], entry) > 0; j--) order[j] = order[j - 1];
      order[j] = entry;
    }
  }
  return order;
}

/** Compares the ids of two entries (their first two bytes are equal, being in one bucket). */
function compareNames(names: Buffer, a: number, b: number): number {
  const at = a * OID_BYTES;
  const bt = b * OID_BYTES;
  for (let i = 2; i < OID_BYTES; i++) {
    const order = names[at + i] - names[bt + i];
    if (order !== 0) return order;
  }
  return 0;
}
