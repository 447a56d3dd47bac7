/**
 * pkt-lines (gitprotocol-common): four hex digits giving the line's length (header included),
 * then its data. Lengths 0000, 0001 and 0002 are the flush, delimiter (v2) and response-end (v2)
 * packets.
 */
import { ProtocolError } from './errors';

/** The largest pkt-line, its four length digits included. */
export const MAX_PKT_LENGTH = 65520;

/** The most data one pkt-line can carry. */
export const MAX_PKT_DATA = MAX_PKT_LENGTH - 4;

/** `0000`: ends a list or a message. */
export const FLUSH_PKT = Buffer.from('0000', 'latin1');

/** `0001`: separates the sections of a protocol v2 message. */
export const DELIM_PKT = Buffer.from('0001', 'latin1');

/** `0002`: ends a protocol v2 response over a stateless connection. */
export const RESPONSE_END_PKT = Buffer.from('0002', 'latin1');

/** One packet read from a buffer. */
export type Pkt =
  | { kind: 'data'; data: Buffer }
  | { kind: 'flush' }
  | { kind: 'delim' }
  | { kind: 'response-end' };

/** A data pkt-line carrying `data` as is (a string is encoded as UTF-8). */
export function pktLine(data: string | Buffer): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length > MAX_PKT_DATA) throw new RangeError(`pkt-line data of ${bytes.length} bytes exceeds ${MAX_PKT_DATA}`);
  return Buffer.concat([Buffer.from((bytes.length + 4).toString(16).padStart(4, '0'), 'latin1'), bytes]);
}

/** A data pkt-line carrying one line of text, with the LF git's senders add. */
export function pktText(line: string): Buffer {
  return pktLine(`${line}\n`);
}

/** An `ERR` packet: tells the client why the server gives up (gitprotocol-pack); as git, without LF. */
export function errorPkt(message: string): Buffer {
  return pktLine(`ERR ${message}`);
}

/** The text of a data packet: UTF-8, one trailing LF removed (receivers must accept either). */
export function pktLineText(data: Buffer): string {
  const end = data.length > 0 && data[data.length - 1] === 0x0a ? data.length - 1 : data.length;
  return data.toString('utf8', 0, end);
}

const SPECIAL: Record<number, Pkt> = { 0: { kind: 'flush' }, 1: { kind: 'delim' }, 2: { kind: 'response-end' } };

/** Reads pkt-lines one by one from a buffer; `offset` is where the next packet (or the pack) starts. */
export class PktLineReader {
  constructor(
    private readonly buffer: Buffer,
    public offset = 0,
  ) {}

  /** Whether every byte has been read. */
  get atEnd(): boolean {
    return this.offset >= this.buffer.length;
  }

  /** The next packet without consuming it; undefined at the end of the buffer. */
  peek(): Pkt | undefined {
    return this.decode()?.pkt;
  }

  /** The next packet; undefined at the end of the buffer. */
  read(): Pkt | undefined {
    const next = this.decode();
    if (next) this.offset = next.end;
    return next?.pkt;
  }

  private decode(): { pkt: Pkt; end: number } | undefined {
    if (this.atEnd) return undefined;
    const length = this.lengthAt(this.offset);
    const special = SPECIAL[length];
    if (special) return { pkt: special, end: this.offset + 4 };
    if (length < 4) throw new ProtocolError(`protocol error: bad line length ${length}`);
    if (length > MAX_PKT_LENGTH) throw new ProtocolError(`protocol error: bad line length ${length}`);
    const end = this.offset + length;
    if (end > this.buffer.length) throw new ProtocolError('protocol error: pkt-line truncated');
    return { pkt: { kind: 'data', data: this.buffer.subarray(this.offset + 4, end) }, end };
  }

  private lengthAt(offset: number): number {
    const digits = this.buffer.toString('latin1', offset, offset + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) {
      throw new ProtocolError(`protocol error: bad line length character: ${JSON.stringify(digits)}`);
    }
    return parseInt(digits, 16);
  }
}
