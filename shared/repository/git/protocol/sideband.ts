/**
 * Side-band multiplexing (gitprotocol-pack, "Packfile Data"): each pkt-line carries a band byte —
 * 1 pack data, 2 progress, 3 fatal error — then data. `side-band` packets are at most 1000 bytes,
 * `side-band-64k` ones 65520, length digits and band byte included (git's send_sideband).
 */
import { pktLine } from './pkt-line';

/** The two multiplexing capabilities. */
export type SidebandMode = 'side-band' | 'side-band-64k';

/** 1: pack data, 2: progress messages, 3: a fatal error just before the stream ends. */
export type Band = 1 | 2 | 3;

/** The largest packet of each mode, its four length digits and band byte included. */
export const SIDEBAND_PACKET_MAX: Record<SidebandMode, number> = { 'side-band': 1000, 'side-band-64k': 65520 };

/** The mode a client asked for (side-band-64k wins, as in git), or undefined for none. */
export function sidebandMode(capabilities: readonly string[]): SidebandMode | undefined {
  if (capabilities.includes('side-band-64k')) return 'side-band-64k';
  return capabilities.includes('side-band') ? 'side-band' : undefined;
}

/** `data` on `band`, split into as many packets as the mode needs (nothing for empty data). */
export function sideband(band: Band, data: string | Buffer, mode: SidebandMode): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const chunk = SIDEBAND_PACKET_MAX[mode] - 5;
  const packets: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunk) {
    packets.push(pktLine(Buffer.concat([Buffer.from([band]), bytes.subarray(start, start + chunk)])));
  }
  return Buffer.concat(packets);
}

/**
 * A progress line as git's progress meter prints it: `Title: 42% (21/50)\r` while counting,
 * `Title: 100% (50/50), done.\n` at the end; without a total just the count.
 */
export function progressLine(title: string, count: number, total?: number, done = false): string {
  const counters = total ? `${String(Math.floor((count * 100) / total)).padStart(3)}% (${count}/${total})` : String(count);
  return `${title}: ${counters}${done ? ', done.\n' : '\r'}`;
}
