import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../../shared/repository/git/protocol/errors';
import {
  DELIM_PKT,
  errorPkt,
  FLUSH_PKT,
  MAX_PKT_DATA,
  PktLineReader,
  pktLine,
  pktLineText,
  pktText,
  RESPONSE_END_PKT,
} from '../../../../shared/repository/git/protocol/pkt-line';

describe('pkt-line encoding', () => {
  it('writes the examples of gitprotocol-common', () => {
    expect(pktText('a').toString()).toBe('0006a\n');
    expect(pktLine('a').toString()).toBe('0005a');
    expect(pktText('foobar').toString()).toBe('000bfoobar\n');
    expect(pktLine('').toString()).toBe('0004');
  });

  it('writes the special packets and ERR', () => {
    expect([FLUSH_PKT, DELIM_PKT, RESPONSE_END_PKT].map(String)).toEqual(['0000', '0001', '0002']);
    expect(errorPkt('upload-pack: not our ref x').toString()).toBe('0022ERR upload-pack: not our ref x');
  });

  it('counts bytes, not characters, and is 8-bit clean', () => {
    expect(pktText('é').toString('latin1', 0, 4)).toBe('0007');
    const binary = Buffer.from([0, 1, 2, 255]);
    expect(pktLine(binary).subarray(4).equals(binary)).toBe(true);
  });

  it('refuses data longer than 65516 bytes', () => {
    expect(pktLine(Buffer.alloc(MAX_PKT_DATA)).length).toBe(65520);
    expect(pktLine(Buffer.alloc(MAX_PKT_DATA)).toString('latin1', 0, 4)).toBe('fff0');
    expect(() => pktLine(Buffer.alloc(MAX_PKT_DATA + 1))).toThrow(RangeError);
  });
});

describe('PktLineReader', () => {
  it('reads data and special packets and tells where the rest starts', () => {
    const body = Buffer.concat([pktText('want x'), FLUSH_PKT, pktLine('done'), DELIM_PKT, RESPONSE_END_PKT, Buffer.from('PACK....')]);
    const reader = new PktLineReader(body);
    const read = () => reader.read();
    expect(pktLineText((read() as { data: Buffer }).data)).toBe('want x');
    expect(read()).toEqual({ kind: 'flush' });
    expect(reader.peek()).toMatchObject({ kind: 'data' });
    expect(pktLineText((read() as { data: Buffer }).data)).toBe('done');
    expect(read()).toEqual({ kind: 'delim' });
    expect(read()).toEqual({ kind: 'response-end' });
    expect(body.toString('latin1', reader.offset)).toBe('PACK....');
  });

  it('starts at an offset, reads upper-case lengths, and an empty data packet', () => {
    const reader = new PktLineReader(Buffer.from('xx000Ahello\n0004'), 2);
    expect(pktLineText((reader.read() as { data: Buffer }).data)).toBe('hello');
    expect(reader.read()).toEqual({ kind: 'data', data: Buffer.alloc(0) });
    expect(reader.atEnd).toBe(true);
    expect(reader.read()).toBeUndefined();
  });

  it('strips one LF only', () => {
    expect(pktLineText(Buffer.from('a\n\n'))).toBe('a\n');
    expect(pktLineText(Buffer.from('a'))).toBe('a');
  });

  it.each([
    ['a length that is not hex', '00g1abc'],
    ['a length of 3', '0003'],
    ['a truncated packet', '000aabc'],
    ['a truncated length', '00'],
    ['a length over 65520', 'fff1'],
  ])('refuses %s', (_name, text) => {
    expect(() => new PktLineReader(Buffer.from(text)).read()).toThrow(ProtocolError);
  });
});
