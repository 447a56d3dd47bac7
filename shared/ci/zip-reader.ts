/**
 * One file out of a zip archive that is never read whole (a job's artifacts archive in S3 can be
 * far larger than a Lambda's memory): the end of central directory record is found in the
 * archive's tail, the central directory is read in bounded ranges until the entry is found, and
 * the entry's bytes are streamed from its local header on and inflated as they come (GitLab's
 * Workhorse does the same with `gitlab-zip-cat`, on a local copy). Pure: the bytes come from a
 * {@link ByteSource} (S3 ranged GETs in `store/blobs.ts`, a buffer in the tests).
 *
 * Supported: stored (0) and deflated (8) entries, data descriptors (sizes from the central
 * directory), zip64 archives and entries, data prepended to the archive. Refused
 * ({@link UnsupportedZipError}): encrypted entries, other compression methods, archives split
 * over several disks. The entry's size and CRC-32 are checked as it streams; a mismatch ends the
 * stream with an error (the response is cut short, never completed with wrong bytes).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';

/** Where an archive's bytes come from: its size, and byte ranges `[start, end)` read whole or streamed. */
export interface ByteSource {
  /** The archive's size in bytes, or undefined when it is gone. */
  size(): Promise<number | undefined>;
  read(start: number, end: number): Promise<Buffer>;
  stream(start: number, end: number): Promise<AsyncIterable<Uint8Array>>;
}

/** An archive that is no zip, or is damaged: it has no entries to serve. */
export class ZipFormatError extends Error {
  override name = 'ZipFormatError';
}

/** A zip this reader does not serve (encryption, a compression method other than stored and deflate, several disks). */
export class UnsupportedZipError extends Error {
  override name = 'UnsupportedZipError';
}

/** A file's record in the central directory. */
export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where its local header starts, in the archive (prepended data included). */
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIZE = 56;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
/** How much of the archive's end is read first: the end record with the longest comment, and most small archives' whole directory. */
const TAIL_BYTES = 128 * 1024;
/** The central directory is read this much at a time. */
const DIRECTORY_CHUNK = 1024 * 1024;

const u16 = (buffer: Buffer, at: number) => buffer.readUInt16LE(at);
const u32 = (buffer: Buffer, at: number) => buffer.readUInt32LE(at);
function u64(buffer: Buffer, at: number): number {
  const value = buffer.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError('zip64 value out of range');
  return Number(value);
}

/** Where the central directory is, and how many entries it lists. */
interface Directory {
  start: number;
  end: number;
  entries: number;
  /** Bytes prepended to the archive (a self-extractor's): every offset it records is shifted by them. */
  base: number;
  /** The archive's last bytes, read once: the directory is taken from them when it lies inside. */
  tail: { start: number; bytes: Buffer };
}

async function locateDirectory(source: ByteSource, size: number): Promise<Directory> {
  if (size < EOCD_SIZE) throw new ZipFormatError('too small for a zip archive');
  const tailStart = Math.max(0, size - Math.max(TAIL_BYTES, EOCD_SIZE + MAX_COMMENT + ZIP64_LOCATOR_SIZE));
  const tail = await source.read(tailStart, size);
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0 && i >= tail.length - EOCD_SIZE - MAX_COMMENT; i--) {
    if (u32(tail, i) === EOCD_SIGNATURE && i + EOCD_SIZE + u16(tail, i + 20) <= tail.length) {
      at = i;
      break;
    }
  }
  if (at === -1) throw new ZipFormatError('no end of central directory record');
  const disk = u16(tail, at + 4);
  const directoryDisk = u16(tail, at + 6);
  let entries = u16(tail, at + 10);
  let directorySize = u32(tail, at + 12);
  let directoryOffset = u32(tail, at + 16);
  let recordStart = tailStart + at;
  const zip64 = entries === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff;
  if (zip64) {
    const locator = at - ZIP64_LOCATOR_SIZE;
    if (locator < 0 || u32(tail, locator) !== ZIP64_LOCATOR_SIGNATURE) throw new ZipFormatError('zip64 end of central directory locator missing');
    if (u32(tail, locator + 16) > 1) throw new UnsupportedZipError('archives split over several disks are not supported');
    recordStart = u64(tail, locator + 8);
    if (recordStart + ZIP64_EOCD_SIZE > tailStart + at) throw new ZipFormatError('zip64 end of central directory out of range');
    const record = recordStart >= tailStart ? tail.subarray(recordStart - tailStart, recordStart - tailStart + ZIP64_EOCD_SIZE) : await source.read(recordStart, recordStart + ZIP64_EOCD_SIZE);
    if (u32(record, 0) !== ZIP64_EOCD_SIGNATURE) throw new ZipFormatError('zip64 end of central directory record missing');
    if (u32(record, 16) !== 0 || u32(record, 20) !== 0) throw new UnsupportedZipError('archives split over several disks are not supported');
    entries = u64(record, 32);
    directorySize = u64(record, 40);
    directoryOffset = u64(record, 48);
  } else if (disk !== 0 || directoryDisk !== 0) {
    throw new UnsupportedZipError('archives split over several disks are not supported');
  }
  const base = recordStart - directorySize - directoryOffset;
  if (base < 0) throw new ZipFormatError('central directory out of range');
  return { start: base + directoryOffset, end: base + directoryOffset + directorySize, entries, base, tail: { start: tailStart, bytes: tail } };
}

/** Reads `[start, end)` of the source front to back, a bounded chunk at a time. */
class ChunkedReader {
  private buffer: Buffer = Buffer.alloc(0);
  private bufferStart = 0;

  constructor(
    private readonly source: ByteSource,
    private readonly end: number,
    preloaded?: { start: number; bytes: Buffer },
  ) {
    if (preloaded) {
      this.buffer = preloaded.bytes;
      this.bufferStart = preloaded.start;
    }
  }

  /** The `length` bytes at `at` (absolute), reading the next chunk when they are not at hand. */
  async bytes(at: number, length: number): Promise<Buffer> {
    if (at + length > this.end) throw new ZipFormatError('central directory record out of range');
    const offset = at - this.bufferStart;
    if (offset < 0 || offset + length > this.buffer.length) {
      this.buffer = await this.source.read(at, Math.min(this.end, at + Math.max(length, DIRECTORY_CHUNK)));
      this.bufferStart = at;
      return this.buffer.subarray(0, length);
    }
    return this.buffer.subarray(offset, offset + length);
  }
}

/** A record's zip64 extended information (extra field 0x0001) applied to the fields it overrides. */
function applyZip64(extra: Buffer, entry: ZipEntry, diskStart: number): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = u16(extra, at);
    const length = u16(extra, at + 2);
    const data = extra.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    if (id !== 0x0001) continue;
    let field = 0;
    const next = () => {
      if (field + 8 > data.length) throw new ZipFormatError('zip64 extra field too short');
      const value = u64(data, field);
      field += 8;
      return value;
    };
    if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = next();
    if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
    if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = next();
    if (diskStart === 0xffff && field + 4 <= data.length && u32(data, field) !== 0) throw new UnsupportedZipError('archives split over several disks are not supported');
    return;
  }
}

/**
 * The entry named `name` (a path inside the archive, as GitLab takes it: no leading `/`; an entry
 * stored as `./name` matches too), or undefined when the archive has none, or only a directory,
 * of that name. Reads the central directory until the entry is found.
 */
export async function findEntry(source: ByteSource, name: string): Promise<ZipEntry | undefined> {
  const size = await source.size();
  if (size === undefined) return undefined;
  if (name === '' || name.endsWith('/')) return undefined;
  const wanted = Buffer.from(name, 'utf8');
  const dotted = Buffer.from(`./${name}`, 'utf8');
  const directory = await locateDirectory(source, size);
  const inTail = directory.start >= directory.tail.start;
  const reader = new ChunkedReader(source, directory.end, inTail ? directory.tail : undefined);
  let at = directory.start;
  for (let i = 0; i < directory.entries && at < directory.end; i++) {
    const header = await reader.bytes(at, CENTRAL_SIZE);
    if (u32(header, 0) !== CENTRAL_SIGNATURE) throw new ZipFormatError('central directory record missing');
    const nameLength = u16(header, 28);
    const extraLength = u16(header, 30);
    const commentLength = u16(header, 32);
    const diskStart = u16(header, 34);
    const fields = { flags: u16(header, 8), method: u16(header, 10), crc32: u32(header, 16), compressedSize: u32(header, 20), uncompressedSize: u32(header, 24), localHeaderOffset: u32(header, 42) };
    const rest = Buffer.from(await reader.bytes(at + CENTRAL_SIZE, nameLength + extraLength));
    at += CENTRAL_SIZE + nameLength + extraLength + commentLength;
    const rawName = rest.subarray(0, nameLength);
    if (!rawName.equals(wanted) && !rawName.equals(dotted)) continue;
    const entry: ZipEntry = { name, ...fields };
    applyZip64(rest.subarray(nameLength), entry, diskStart);
    entry.localHeaderOffset += directory.base;
    return entry;
  }
  return undefined;
}

/** Internal: `first`, then the iterator's chunks, exactly `length` bytes of them; then stops the read. */
async function* slice(iterator: AsyncIterator<Uint8Array>, first: Buffer, length: number): AsyncGenerator<Uint8Array> {
  let left = length;
  try {
    let chunk: Buffer | undefined = first;
    while (left > 0) {
      if (!chunk) {
        const next = await iterator.next();
        if (next.done) throw new ZipFormatError('archive ends inside an entry');
        chunk = Buffer.from(next.value);
      }
      const taken = chunk.subarray(0, left);
      left -= taken.length;
      if (taken.length > 0) yield taken;
      chunk = undefined;
    }
  } finally {
    // Stops the ranged read (the body's stream is destroyed).
    await iterator.return?.();
  }
}

/** Internal: inflates raw deflate chunks as they come. */
async function* inflated(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const inflater = createInflateRaw();
  const fed = pipeline(Readable.from(chunks, { objectMode: false }), inflater);
  fed.catch(() => undefined); // its failure surfaces through the inflater's stream below
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
    await fed;
  } finally {
    inflater.destroy();
  }
}

/** Internal: passes the entry's bytes on, failing when their length or CRC-32 is not the directory's. */
async function* checked(chunks: AsyncIterable<Uint8Array>, entry: ZipEntry): AsyncGenerator<Uint8Array> {
  let length = 0;
  let crc = 0;
  for await (const chunk of chunks) {
    length += chunk.length;
    if (length > entry.uncompressedSize) throw new ZipFormatError(`entry ${entry.name} is larger than its directory record says`);
    crc = crc32(chunk, crc);
    yield chunk;
  }
  if (length !== entry.uncompressedSize) throw new ZipFormatError(`entry ${entry.name} is shorter than its directory record says`);
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new ZipFormatError(`entry ${entry.name} fails its CRC-32 check`);
}

/**
 * The entry's content, streamed: one ranged read from its local header on (its header checked
 * before this answers), inflated when deflated.
 * @example
 * const entry = await findEntry(source, 'out/report.txt');
 * if (entry) for await (const chunk of await openEntry(source, entry)) write(chunk);
 */
export async function openEntry(source: ByteSource, entry: ZipEntry): Promise<AsyncIterable<Uint8Array>> {
  if (entry.flags & 0x1) throw new UnsupportedZipError('encrypted entries are not supported');
  if (entry.method !== 0 && entry.method !== 8) throw new UnsupportedZipError(`compression method ${entry.method} is not supported`);
  const size = await source.size();
  if (size === undefined) throw new ZipFormatError('archive gone');
  const start = entry.localHeaderOffset;
  // The local header's name and extra field may differ from the directory's: read up to their largest.
  const end = Math.min(size, start + LOCAL_SIZE + 2 * 0xffff + entry.compressedSize);
  if (start + LOCAL_SIZE > size) throw new ZipFormatError('local header out of range');
  const iterator = (await source.stream(start, end))[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let dataAt = -1;
  try {
    while (dataAt === -1 || head.length < dataAt) {
      const next = await iterator.next();
      if (next.done) throw new ZipFormatError('archive ends inside a local header');
      head = Buffer.concat([head, next.value]);
      if (dataAt === -1 && head.length >= LOCAL_SIZE) {
        if (u32(head, 0) !== LOCAL_SIGNATURE) throw new ZipFormatError('local header missing');
        dataAt = LOCAL_SIZE + u16(head, 26) + u16(head, 28);
      }
    }
  } catch (error) {
    await iterator.return?.();
    throw error;
  }
  const raw = slice(iterator, head.subarray(dataAt), entry.compressedSize);
  return checked(entry.method === 8 ? inflated(raw) : raw, entry);
}
