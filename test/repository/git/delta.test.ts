import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../../shared/repository/git/pack/delta';
import { PackError } from '../../../shared/repository/git/pack/errors';

/** A delta's size varint. */
function size(value: number): number[] {
  const bytes: number[] = [];
  do {
    bytes.push((value % 128) | (value > 0x7f ? 0x80 : 0));
    value = Math.floor(value / 128);
  } while (value > 0);
  return bytes;
}

/** A copy instruction with only the non-zero offset and size bytes present, as git writes them. */
function copy(offset: number, length: number): number[] {
  let op = 0x80;
  const bytes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const byte = (offset >>> (8 * i)) & 0xff;
    if (byte) {
      op |= 1 << i;
      bytes.push(byte);
    }
  }
  for (let i = 0; i < 3; i++) {
    const byte = (length >>> (8 * i)) & 0xff;
    if (byte) {
      op |= 0x10 << i;
      bytes.push(byte);
    }
  }
  return [op, ...bytes];
}

function insert(text: string): number[] {
  return [text.length, ...Buffer.from(text)];
}

function delta(baseSize: number, resultSize: number, ...instructions: number[][]): Buffer {
  return Buffer.from([...size(baseSize), ...size(resultSize), ...instructions.flat()]);
}

describe('applyDelta', () => {
  const base = Buffer.from('The quick brown fox jumps over the lazy dog.\n');

  it('copies from the base and inserts literal data', () => {
    const result = applyDelta(base, delta(base.length, 32, copy(0, 10), insert('red'), copy(15, 19)));
    expect(result.toString()).toBe('The quick red fox jumps over the');
  });

  it('reads copies whose offset and size bytes are partly omitted, and size 0 as 0x10000', () => {
    const large = Buffer.alloc(0x30000);
    for (let i = 0; i < large.length; i++) large[i] = (i * 7) & 0xff;
    const sizeOmitted = copy(0x20000, 0);
    expect(sizeOmitted).toEqual([0x84, 0x02]); // only offset3 present: bits 16-23
    const result = applyDelta(large, delta(large.length, 0x10000 + 0x100, sizeOmitted, copy(0x10203, 0x100)));
    expect(result.subarray(0, 0x10000).equals(large.subarray(0x20000, 0x30000))).toBe(true);
    expect(result.subarray(0x10000).equals(large.subarray(0x10203, 0x10303))).toBe(true);
  });

  it('builds empty objects and uses multi-byte sizes', () => {
    expect(applyDelta(Buffer.alloc(0), delta(0, 0)).length).toBe(0);
    const text = 'x'.repeat(300);
    expect(applyDelta(Buffer.alloc(0), delta(0, 300, insert(text.slice(0, 127)), insert(text.slice(127, 254)), insert(text.slice(254)))).toString()).toBe(text);
  });

  it('rejects a base of another size', () => {
    expect(() => applyDelta(base, delta(base.length + 1, 3, insert('abc')))).toThrow(/base size/);
  });

  it('rejects a result of another size than announced', () => {
    expect(() => applyDelta(base, delta(base.length, 4, insert('abc')))).toThrow(/result size/);
    expect(() => applyDelta(base, delta(base.length, 2, insert('abc')))).toThrow(PackError);
    expect(() => applyDelta(base, delta(base.length, 5, copy(0, 10)))).toThrow(/larger than announced/);
  });

  it('rejects copies outside the base', () => {
    expect(() => applyDelta(base, delta(base.length, 10, copy(base.length - 5, 10)))).toThrow(/outside the base/);
  });

  it('rejects the reserved instruction and truncated deltas', () => {
    expect(() => applyDelta(base, delta(base.length, 1, [0]))).toThrow(/reserved/);
    expect(() => applyDelta(base, delta(base.length, 5, [5, 65, 66]))).toThrow(/truncated insert/);
    expect(() => applyDelta(base, delta(base.length, 5, [0x91]))).toThrow(/truncated/);
    expect(() => applyDelta(base, Buffer.from([0x80]))).toThrow(/truncated/);
    expect(() => applyDelta(base, Buffer.alloc(0))).toThrow(PackError);
  });

  it('rejects impossible result sizes before allocating them', () => {
    expect(() => applyDelta(base, delta(base.length, 2 ** 40, copy(0, 1)))).toThrow(/impossible/);
  });
});
