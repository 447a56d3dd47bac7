/**
 * Writing packs for clients, reusing stored entries as `git pack-objects` does.
 *
 * The planned objects are emitted grouped by the pack that stores them, in stored offset order,
 * then the loose ones. A stored whole object is copied as is (its bytes checked against the
 * index's CRC32). A stored delta is copied too, its compressed delta untouched, when its base is
 * usable by the client:
 * - the base is emitted in this pack: as an OFS_DELTA with the distance in the new pack when the
 *   client accepts those and the base was emitted earlier from the same stored pack (always so
 *   for a stored OFS_DELTA, whose base precedes it), otherwise as a REF_DELTA (valid in any order);
 * - the pack is thin and the client has the base: as a REF_DELTA.
 * Otherwise the object is resolved and written whole, deflated at zlib's default level (git's
 * default `pack.compression`).
 *
 * Each object is taken from the first pack holding it. Stored packs are self-contained, so going
 * from an entry to its base never leads to a later pack, and the written deltas cannot form a cycle.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PackError } from './errors';
import { encodeEntryHeader, encodeOfsDistance, isDelta, packHeader, type PackFile } from './pack-file';
import { type PackSet } from './pack-set';
import { type GitObject } from '../objects/types';

export interface WritePackOptions {
  /** The client accepts OFS_DELTA entries (capability `ofs-delta`). */
  ofsDelta: boolean;
  /** The pack may be thin: deltas against objects the client has (capability `thin-pack`). */
  thin: boolean;
  /** Whether the client has an object (it is then a valid base of a thin pack). */
  clientHas(oid: string): boolean;
  /** Called after each object is written. */
  onProgress?(done: number, total: number): void;
}

export type PackSink = (chunk: Buffer) => void | Promise<void>;

/** A planned object with where it is stored (no pack: a loose object). */
interface Planned {
  oid: string;
  pack?: PackFile;
  offset: number;
}

type Stored = Planned & { pack: PackFile };

/** Chunks handed to the sink are gathered up to this size. */
const CHUNK_BYTES = 64 * 1024;

/** The output: counts bytes, hashes them for the trailer, and hands them to the sink in chunks. */
class PackOutput {
  position = 0;
  private readonly hash = createHash('sha1');
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly sink: PackSink) {}

  async write(...parts: Buffer[]): Promise<void> {
    for (const part of parts) {
      this.hash.update(part);
      this.pending.push(part);
      this.pendingBytes += part.length;
      this.position += part.length;
    }
    if (this.pendingBytes >= CHUNK_BYTES) await this.flush();
  }

  /** Writes the trailing checksum and flushes; returns the checksum. */
  async finish(): Promise<Buffer> {
    const checksum = this.hash.digest();
    this.pending.push(checksum);
    this.position += checksum.length;
    await this.flush();
    return checksum;
  }

  private async flush(): Promise<void> {
    const chunk = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await this.sink(chunk);
  }
}

/** A whole (non-delta) entry of an object. */
function wholeEntry(object: GitObject): Buffer[] {
  return [encodeEntryHeader(object.type, object.body.length), deflateSync(object.body)];
}

/** The planned objects, each once, in emission order: by stored pack and offset, then the loose ones. */
function emissionOrder(plan: readonly { oid: string }[], packs: PackSet): Planned[] {
  const rank = new Map(packs.packs.map((pack, i) => [pack, i]));
  const planned: Planned[] = [];
  for (const oid of new Set(plan.map((object) => object.oid))) {
    const location = packs.locate(oid);
    if (!location && !packs.looseObject(oid)) throw new PackError(`pack writer: object ${oid} not found`);
    planned.push({ oid, pack: location?.pack, offset: location?.offset ?? 0 });
  }
  const packRank = (object: Planned) => (object.pack ? rank.get(object.pack)! : packs.packs.length);
  return planned.sort((a, b) => packRank(a) - packRank(b) || a.offset - b.offset);
}

/** Streams a pack of exactly the planned objects to `sink`; see the module comment. */
export async function writePack(
  plan: readonly { oid: string }[],
  packs: PackSet,
  options: WritePackOptions,
  sink: PackSink,
): Promise<{ count: number; checksum: string }> {
  const order = emissionOrder(plan, packs);
  const emitted = new Set(order.map((object) => object.oid));
  const output = new PackOutput(sink);
  await output.write(packHeader(order.length));
  /** Where each entry of the current stored pack went in the output, by stored offset. */
  let written = new Map<number, number>();
  let currentPack: PackFile | undefined;
  for (const [done, object] of order.entries()) {
    if (object.pack !== currentPack) {
      currentPack = object.pack;
      written = new Map();
    }
    const position = output.position;
    if (object.pack) {
      await output.write(...(await storedEntry(object as Stored, position, written, { emitted, options, packs })));
      written.set(object.offset, position);
    } else {
      await output.write(...wholeEntry(packs.looseObject(object.oid)!));
    }
    options.onProgress?.(done + 1, order.length);
  }
  return { count: order.length, checksum: (await output.finish()).toString('hex') };
}

/** The entry for a stored object: its stored bytes, its stored delta with another base reference, or the whole object. */
async function storedEntry(
  { pack, offset }: Stored,
  position: number,
  written: ReadonlyMap<number, number>,
  context: { emitted: ReadonlySet<string>; options: WritePackOptions; packs: PackSet },
): Promise<Buffer[]> {
  const entry = pack.entry(offset);
  if (!isDelta(entry.kind)) return [pack.rawEntry(offset, entry)];
  const { emitted, options } = context;
  // The common case of a clone: an OFS_DELTA whose base went out just before from the same pack.
  const emittedBase = entry.baseOffset === undefined ? undefined : written.get(entry.baseOffset);
  if (options.ofsDelta && emittedBase !== undefined) {
    const delta = pack.rawEntry(offset, entry).subarray(entry.dataStart - offset);
    return [encodeEntryHeader('ofs-delta', entry.size), encodeOfsDistance(position - emittedBase), delta];
  }
  const baseOid = entry.baseOid ?? pack.oidAt(entry.baseOffset!)!;
  if (emitted.has(baseOid) || (options.thin && options.clientHas(baseOid))) {
    const delta = pack.rawEntry(offset, entry).subarray(entry.dataStart - offset);
    const baseOffset = entry.baseOffset ?? pack.offsetOf(baseOid);
    const basePosition = baseOffset === undefined ? undefined : written.get(baseOffset);
    if (options.ofsDelta && basePosition !== undefined) {
      return [encodeEntryHeader('ofs-delta', entry.size), encodeOfsDistance(position - basePosition), delta];
    }
    return [encodeEntryHeader('ref-delta', entry.size), Buffer.from(baseOid, 'hex'), delta];
  }
  const object = await pack.readAt(offset, (base) => context.packs.read(base));
  return wholeEntry(object);
}

/** A pack of whole objects (no deltas), for objects the service creates itself. */
export function buildPack(objects: readonly GitObject[]): Buffer {
  const parts = [packHeader(objects.length), ...objects.flatMap(wholeEntry)];
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}
