/**
 * Sends one webhook request, guarded against server-side request forgery the way GitLab's
 * `Gitlab::UrlBlocker` guards hooks: only `http`/`https` URLs, the host resolved once, the request
 * refused when any resolved address is on the local network (unless the caller allows it), and
 * the connection pinned to the address that was checked, so a DNS answer that changes between the
 * check and the connection (DNS rebinding) cannot redirect it. Redirects are not followed: a 3xx
 * is only a status, as in GitLab.
 *
 * Network and HTTP failures are results (`ok: false`), never exceptions: a receiver's failure must
 * not fail the caller's batch. Only programming errors throw.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Whether to check the receiver's TLS certificate (the hook's `enable_ssl_verification`). */
  verifySsl: boolean;
}

export type HookDeliveryResult =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; status?: number; error: string; durationMs: number };

export interface SendOptions {
  /** Whether the receiver may be on the local network (local runtime only). */
  allowLocalNetwork: boolean;
  /** The whole delivery, DNS included; 10 s by default (GitLab's `webhook_timeout`). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Receivers' answers are not kept; at most this much is read before the socket is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Errors are for logs; a receiver's long error text is cut. */
const MAX_ERROR_LENGTH = 200;

export const LOCAL_NETWORK_ERROR = 'Requests to the local network are not allowed';

/**
 * Internal: every range that is not the public internet. IPv4 rules also match the IPv4-mapped
 * IPv6 forms (`::ffff:127.0.0.1`, `::ffff:7f00:1`): `BlockList` checks those against them.
 * Translation and tunnel prefixes (NAT64, 6to4, Teredo) are refused whole, since they can carry
 * any IPv4 address, a local one included.
 */
const LOCAL_RANGES: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, the cloud metadata address included
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, 255.255.255.255 (broadcast) included
  ['::', 96, 'ipv6'], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b::', 96, 'ipv6'], // NAT64
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard
  ['2001::', 32, 'ipv6'], // Teredo
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const localRanges = new BlockList();
for (const [network, prefix, family] of LOCAL_RANGES) localRanges.addSubnet(network, prefix, family);

/**
 * Whether `ip` is an address a hook must not reach from the service: loopback, private,
 * link-local, shared (CGNAT), unspecified, multicast, broadcast or reserved, in IPv4, IPv6 or
 * IPv4-mapped IPv6 form. Anything that is not an IP address counts as local (refused).
 *
 * @example
 * isLocalNetworkAddress('169.254.169.254'); // true
 * isLocalNetworkAddress('::ffff:127.0.0.1'); // true
 * isLocalNetworkAddress('8.8.8.8'); // false
 */
export function isLocalNetworkAddress(ip: string): boolean {
  const address = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''); // brackets, IPv6 zone
  const family = isIP(address);
  if (family === 0) return true;
  return localRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Internal: this machine's own addresses (GitLab also refuses those, whatever their range). */
function ownAddresses(): Set<string> {
  return new Set(Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address)));
}

/** Internal: a failure thrown inside this module, carried to the result. */
class DeliveryError extends Error {}

/** Internal: a validated target: the URL without credentials, and the Basic credentials if any. */
interface Target {
  url: URL;
  /** The host as `dns.lookup` and `http.request` take it (IPv6 without brackets). */
  host: string;
  authorization?: string;
}

/** Internal: GitLab's URL checks (scheme, host, no line breaks); credentials become a header. */
function parseTarget(raw: string): Target {
  if (/[\r\n]/.test(raw)) throw new DeliveryError('URI is invalid');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DeliveryError('URI is invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DeliveryError('Only allowed schemes are http, https');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new DeliveryError('Hostname or IP address invalid');
  let authorization: string | undefined;
  if (url.username !== '' || url.password !== '') {
    try {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } catch {
      throw new DeliveryError('URI is invalid');
    }
    url.username = '';
    url.password = '';
  }
  return { url, host, authorization };
}

/** Internal: rejects with a timeout failure when `ms` pass first. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError('Request timed out')), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Internal: the one address the request will connect to, after checking every resolved one. */
async function resolveTarget(host: string, allowLocalNetwork: boolean, ms: number): Promise<{ address: string; family: number }> {
  let addresses: dns.LookupAddress[];
  try {
    addresses = await withDeadline(dns.promises.lookup(host, { all: true }), ms);
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    throw new DeliveryError('Host cannot be resolved or invalid');
  }
  if (addresses.length === 0) throw new DeliveryError('Host cannot be resolved or invalid');
  if (!allowLocalNetwork) {
    const own = ownAddresses();
    if (addresses.some(({ address }) => isLocalNetworkAddress(address) || own.has(address))) throw new DeliveryError(LOCAL_NETWORK_ERROR);
  }
  return addresses[0];
}

/**
 * Internal: a `lookup` that answers every query with the checked address, in both callback forms
 * (`net` asks for `all` when it tries address families in turn).
 */
function pinnedLookup(address: string, family: number): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (err: null, addresses: dns.LookupAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** Internal: a short, single-line error message. */
const shortMessage = (error: unknown) => String((error as Error)?.message ?? error).replace(/\s+/g, ' ').slice(0, MAX_ERROR_LENGTH);

/** Internal: POSTs to the pinned address; settles with the status, or a failure, within `ms`. */
function post(target: Target, pinned: { address: string; family: number }, request: HookRequest, ms: number): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: { status?: number; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const client = target.url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request({
        method: 'POST',
        host: target.host,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: {
          ...request.headers,
          'Content-Length': String(Buffer.byteLength(request.body)),
          ...(target.authorization ? { Authorization: target.authorization } : {}),
        },
        lookup: pinnedLookup(pinned.address, pinned.family),
        // A fresh connection: a pooled socket could have been opened for another address.
        agent: false,
        rejectUnauthorized: request.verifySsl,
      });
    } catch (error) {
      // Headers Node refuses (a value with a line break): the request cannot be made.
      resolve({ error: shortMessage(error) });
      return;
    }
    const timer = setTimeout(() => finish(status === undefined ? { error: 'Request timed out' } : { status }), ms);
    let status: number | undefined;
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish({ status });
      });
      res.on('end', () => finish({ status }));
      res.on('error', () => finish({ status }));
      res.on('aborted', () => finish({ status }));
    });
    req.on('error', (error) => finish(status === undefined ? { error: shortMessage(error) } : { status }));
    req.end(request.body);
  });
}

/**
 * Sends `request` as a POST unless its URL is refused; never throws for the receiver's failures.
 *
 * @example
 * const result = await sendHook(
 *   { url: hook.url, headers: hookHeaders('Issue Hook', { eventUuid }), body, verifySsl: true },
 *   { allowLocalNetwork: false },
 * );
 * if (!result.ok) logger.warn('webhook failed', result);
 */
export async function sendHook(request: HookRequest, options: SendOptions): Promise<HookDeliveryResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let outcome: { status?: number; error?: string };
  try {
    const target = parseTarget(request.url);
    const pinned = await resolveTarget(target.host, options.allowLocalNetwork, timeoutMs);
    outcome = await post(target, pinned, request, Math.max(1, timeoutMs - (performance.now() - started)));
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    outcome = { error: error.message };
  }
  const durationMs = elapsed();
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) return { ok: true, status: outcome.status, durationMs };
  if (outcome.status !== undefined) return { ok: false, status: outcome.status, error: `HTTP ${outcome.status}`, durationMs };
  return { ok: false, error: outcome.error ?? 'Request failed', durationMs };
}
