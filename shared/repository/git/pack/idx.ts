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
  if (packChecksum.length !== OID_BYTES) throw new PackError('pack index: the pack checksum must be 20 bytes');
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const large = sorted.filter((entry) => entry.offset >= LARGE_OFFSET).length;
  const count = sorted.length;
  const names = HEADER_BYTES + FANOUT_BYTES;
  const crcs = names + count * OID_BYTES;
  const offsets = crcs + count * 4;
  const largeOffsets = offsets + count * 4;
  const trailer = largeOffsets + large * 8;
  const out = Buffer.alloc(trailer + TRAILER_BYTES);
  out.writeUInt32BE(MAGIC, 0);
  out.writeUInt32BE(VERSION, 4);
  const buckets = new Uint32Array(256);
  let nextLarge = 0;
  sorted.forEach((entry, position) => {
    if (!OID_PATTERN.test(entry.oid)) throw new PackError(`pack index: invalid object id ${JSON.stringify(entry.oid)}`);
    buckets[parseInt(entry.oid.slice(0, 2), 16)]++;
    out.write(entry.oid, names + position * OID_BYTES, 'hex');
    out.writeUInt32BE(entry.crc32 >>> 0, crcs + position * 4);
    if (entry.offset < LARGE_OFFSET) {
      out.writeUInt32BE(entry.offset, offsets + position * 4);
    } else {
      out.writeUInt32BE(LARGE_OFFSET + nextLarge, offsets + position * 4);
      out.writeBigUInt64BE(BigInt(entry.offset), largeOffsets + nextLarge++ * 8);
    }
  });
  for (let byte = 0, total = 0; byte < 256; byte++) {
    total += buckets[byte];
    out.writeUInt32BE(total, HEADER_BYTES + byte * 4);
  }
  packChecksum.copy(out, trailer);
  createHash('sha1').update(out.subarray(0, trailer + OID_BYTES)).digest().copy(out, trailer + OID_BYTES);
  return out;
}
