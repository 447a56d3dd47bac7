/**
 * Git's delta format (gitformat-pack(5), "Deltified representation"): the base's size and the
 * result's size (little-endian base-128 varints), then instructions. An instruction byte with
 * the MSB set copies from the base: its bits 0-3 say which of four little-endian offset bytes
 * follow, bits 4-6 which of three size bytes (size 0 means 0x10000). A byte 1-127 inserts that
 * many literal bytes that follow it; 0 is reserved. Every bound is checked, so a corrupt delta
 * fails with a {@link PackError} instead of producing a wrong object.
 */
import { constants } from 'node:buffer';
import { PackError } from './errors';

/** A cursor over a delta. */
interface Cursor {
  delta: Buffer;
  at: number;
}

function nextByte(cursor: Cursor): number {
  if (cursor.at >= cursor.delta.length) throw new PackError('delta: truncated');
  return cursor.delta[cursor.at++];
}

/** A size of the delta header: 7 bits a byte, least significant first, MSB = more bytes follow. */
function readSize(cursor: Cursor): number {
  let size = 0;
  for (let scale = 1; ; scale *= 128) {
    const byte = nextByte(cursor);
    size += (byte & 0x7f) * scale;
    if (!(byte & 0x80)) return size;
    if (scale > 2 ** 42) throw new PackError('delta: size too large');
  }
}

/** Reads the little-endian bytes of a copy instruction that its flag bits announce. */
function readPresentBytes(cursor: Cursor, flags: number, count: number): number {
  let value = 0;
  for (let i = 0; i < count; i++) {
    if (flags & (1 << i)) value += nextByte(cursor) * 2 ** (8 * i);
  }
  return value;
}

/**
 * Rebuilds an object from its base and a delta against that base, into `allocate(size)` (a new
 * buffer by default), which must answer a buffer of exactly `size` bytes (it may be a view of a
 * larger one, e.g. after room for the object's header, to hash both without a copy).
 */
export function applyDelta(base: Buffer, delta: Buffer, allocate: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
  const cursor: Cursor = { delta, at: 0 };
  const baseSize = readSize(cursor);
  if (baseSize !== base.length) throw new PackError(`delta: base size ${base.length} does not match the delta's ${baseSize}`);
  const resultSize = readSize(cursor);
  // Each instruction byte yields at most 0xffffff bytes: refuse impossible sizes before allocating.
  if (resultSize > (delta.length - cursor.at) * 0xffffff || resultSize > constants.MAX_LENGTH) {
    throw new PackError(`delta: impossible result size ${resultSize}`);
  }
  const result = allocate(resultSize);
  if (result.length !== resultSize) throw new RangeError(`delta: the result buffer holds ${result.length} bytes, not ${resultSize}`);
  let written = 0;
  while (cursor.at < delta.length) {
    const op = delta[cursor.at++];
    let length: number;
    if (op & 0x80) {
      const offset = readPresentBytes(cursor, op, 4);
      length = readPresentBytes(cursor, op >> 4, 3) || 0x10000;
      if (offset + length > base.length) throw new PackError('delta: copy outside the base object');
      if (written + length > resultSize) throw new PackError('delta: result larger than announced');
      base.copy(result, written, offset, offset + length);
    } else if (op) {
      length = op;
      if (cursor.at + length > delta.length) throw new PackError('delta: truncated insert');
      if (written + length > resultSize) throw new PackError('delta: result larger than announced');
      delta.copy(result, written, cursor.at, cursor.at + length);
      cursor.at += length;
    } else {
      throw new PackError('delta: reserved instruction 0');
    }
    written += length;
  }
  if (written !== resultSize) throw new PackError(`delta: result size ${written} does not match the announced ${resultSize}`);
  return result;
}
