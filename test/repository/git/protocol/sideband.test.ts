import { describe, expect, it } from 'vitest';
import { PktLineReader } from '../../../../shared/repository/git/protocol/pkt-line';
import { progressLine, sideband, sidebandMode } from '../../../../shared/repository/git/protocol/sideband';

/** The packets of a multiplexed stream: band and data length. */
function packets(stream: Buffer): Array<[number, number]> {
  const reader = new PktLineReader(stream);
  const result: Array<[number, number]> = [];
  for (let pkt = reader.read(); pkt; pkt = reader.read()) {
    if (pkt.kind === 'data') result.push([pkt.data[0], pkt.data.length - 1]);
  }
  return result;
}

describe('side-band multiplexing', () => {
  it('splits side-band-64k data into packets of at most 65520 bytes', () => {
    const data = Buffer.alloc(65515 * 2 + 10, 7);
    const stream = sideband(1, data, 'side-band-64k');
    expect(packets(stream)).toEqual([[1, 65515], [1, 65515], [1, 10]]);
    expect(stream.toString('latin1', 0, 4)).toBe('fff0');
    expect(stream.length).toBe(data.length + 3 * 5);
  });

  it('splits side-band data into packets of at most 1000 bytes', () => {
    const stream = sideband(2, 'x'.repeat(2000), 'side-band');
    expect(packets(stream)).toEqual([[2, 995], [2, 995], [2, 10]]);
    expect(stream.toString('latin1', 0, 5)).toBe('03e8\u0002');
  });

  it('writes nothing for empty data, and any band', () => {
    expect(sideband(1, Buffer.alloc(0), 'side-band-64k').length).toBe(0);
    expect(sideband(3, 'fatal: oops\n', 'side-band').toString()).toBe('0011\u0003fatal: oops\n');
  });

  it('picks the mode the client asked for', () => {
    expect(sidebandMode(['side-band', 'side-band-64k'])).toBe('side-band-64k');
    expect(sidebandMode(['ofs-delta', 'side-band'])).toBe('side-band');
    expect(sidebandMode(['ofs-delta'])).toBeUndefined();
  });
});

describe('progress lines', () => {
  it('reads like git progress meter', () => {
    expect(progressLine('Counting objects', 1, 3)).toBe('Counting objects:  33% (1/3)\r');
    expect(progressLine('Counting objects', 3, 3, true)).toBe('Counting objects: 100% (3/3), done.\n');
    expect(progressLine('Enumerating objects', 12)).toBe('Enumerating objects: 12\r');
    expect(progressLine('Enumerating objects', 12, undefined, true)).toBe('Enumerating objects: 12, done.\n');
  });
});
