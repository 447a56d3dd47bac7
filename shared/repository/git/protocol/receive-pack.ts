/**
 * git-receive-pack over smart HTTP (gitprotocol-pack "Pushing Data To a Server"): the request
 * is the ref update commands (capabilities after a NUL on the first), a flush, the push options
 * when negotiated, then the pack; the answer is the report-status, multiplexed on band 1 when
 * the client asked for side-band-64k.
 */
import { ZERO_OID } from './advertise';
import { ProtocolError } from './errors';
import { FLUSH_PKT, PktLineReader, pktLineText, pktText } from './pkt-line';
import { sideband } from './sideband';

/** One ref update: create (old is zero), delete (new is zero) or update. */
export interface RefUpdateCommand {
  oldOid: string;
  newOid: string;
  ref: string;
}

export interface ReceivePackRequest {
  commands: RefUpdateCommand[];
  /** The capabilities sent after the NUL. */
  capabilities: string[];
  /** `shallow` lines: the client's shallow commits. */
  shallows: string[];
  /** The push options, when `push-options` was negotiated. */
  pushOptions: string[];
  /** Where the pack starts in the body (the body's end when there is none). */
  packOffset: number;
}

const COMMAND = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/s;

/** Parses one command line, collecting the capabilities after its NUL. */
function parseCommand(line: string, capabilities: string[]): RefUpdateCommand {
  const nul = line.indexOf('\0');
  const command = nul < 0 ? line : line.slice(0, nul);
  if (nul >= 0) capabilities.push(...line.slice(nul + 1).split(' ').filter(Boolean));
  if (command === 'push-cert') throw new ProtocolError('push certificates are not supported');
  const match = COMMAND.exec(command);
  if (!match) throw new ProtocolError(`protocol error: expected old/new/ref, got '${command}'`);
  return { oldOid: match[1], newOid: match[2], ref: match[3] };
}

function checkObjectFormat(capabilities: readonly string[]): void {
  const format = capabilities.find((capability) => capability.startsWith('object-format='))?.slice('object-format='.length);
  if (format !== undefined && format !== 'sha1') throw new ProtocolError(`error: unsupported object format '${format}'`);
}

/** The data lines up to the next flush. */
function linesToFlush(reader: PktLineReader): string[] {
  const lines: string[] = [];
  for (let pkt = reader.read(); pkt?.kind !== 'flush'; pkt = reader.read()) {
    if (pkt?.kind !== 'data') throw new ProtocolError('protocol error: expected a flush');
    lines.push(pktLineText(pkt.data));
  }
  return lines;
}

/** Parses a request body (`application/x-git-receive-pack-request`); push certificates are refused. */
export function parseReceivePackRequest(body: Buffer): ReceivePackRequest {
  const reader = new PktLineReader(body);
  const request: ReceivePackRequest = { commands: [], capabilities: [], shallows: [], pushOptions: [], packOffset: 0 };
  for (const line of linesToFlush(reader)) {
    const shallow = /^shallow ([0-9a-f]{40})$/.exec(line);
    if (shallow) request.shallows.push(shallow[1]);
    else if (line.startsWith('shallow ')) throw new ProtocolError(`protocol error: expected shallow sha, got '${line.slice(8)}'`);
    else request.commands.push(parseCommand(line, request.capabilities));
  }
  checkObjectFormat(request.capabilities);
  if (request.capabilities.includes('push-options')) request.pushOptions = linesToFlush(reader);
  return { ...request, packOffset: reader.offset };
}

/** Whether every command deletes its ref: then no pack is sent. */
export function deletesOnly(request: ReceivePackRequest): boolean {
  return request.commands.every((command) => command.newOid === ZERO_OID);
}

/**
 * What receive-pack reports after `unpack ` when the pack's header is bad (git's
 * parse_pack_header), undefined when it is a version 2 or 3 pack.
 */
export function packHeaderError(body: Buffer, offset: number): string | undefined {
  if (body.length - offset < 12) return 'eof before pack header was fully read';
  if (body.toString('latin1', offset, offset + 4) !== 'PACK') return 'protocol error (pack signature mismatch detected)';
  const version = body.readUInt32BE(offset + 4);
  return version === 2 || version === 3 ? undefined : 'protocol error (pack version unsupported)';
}

/** How one command went: `error` set when it was refused (the reason after `ng <ref>`). */
export interface RefUpdateResult {
  ref: string;
  error?: string;
}

/** The report-status: `unpack ok` or `unpack <error>`, `ok <ref>` / `ng <ref> <reason>` lines, a flush. */
export function reportStatus(unpackError: string | undefined, results: readonly RefUpdateResult[]): Buffer {
  const lines = [`unpack ${unpackError ?? 'ok'}`, ...results.map(({ ref, error }) => (error === undefined ? `ok ${ref}` : `ng ${ref} ${error}`))];
  return Buffer.concat([...lines.map(pktText), FLUSH_PKT]);
}

/**
 * The response body (`application/x-git-receive-pack-result`): the report when the client asked
 * for report-status (or report-status-v2, whose report is the same when no ref is rewritten), on
 * band 1 then a flush when it asked for side-band-64k (the server may have sent progress on
 * band 2 before); empty for a request without commands.
 */
export function receivePackResponse(request: ReceivePackRequest, unpackError: string | undefined, results: readonly RefUpdateResult[]): Buffer {
  if (request.commands.length === 0) return Buffer.alloc(0);
  const reports = request.capabilities.includes('report-status') || request.capabilities.includes('report-status-v2');
  const report = reports ? reportStatus(unpackError, results) : Buffer.alloc(0);
  if (!request.capabilities.includes('side-band-64k')) return report;
  return Buffer.concat([sideband(1, report, 'side-band-64k'), FLUSH_PKT]);
}
