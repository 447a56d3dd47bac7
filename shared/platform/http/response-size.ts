/**
 * The response size guard: no JSON body a route answers can make the function's response fail.
 *
 * A buffered Lambda response (the proxy result, the body escaped inside it as a JSON string) may
 * not exceed 6 MB: past it the invocation fails and API Gateway answers a 502, to every client
 * asking for the same page. A streamed one (the catalog's `streamsResponses`) carries the body
 * raw and may be larger, but is bounded here too. Two numbers per kind of function:
 *
 * - the **budget** (`RESPONSE_BUDGET_BYTES`, `STREAMED_RESPONSE_BUDGET_BYTES`): a list page whose
 *   body would take more is ended early, after the items that fit (always at least one), and its
 *   pagination headers are replaced by the page's {@link PageContinuation}'s, whose `rel="next"`
 *   resumes exactly at the first item left out (a keyset cursor, or an offset page with
 *   `page_shift`), so a client following `Link` never skips an item;
 * - the **ceiling** (what the platform can carry, less room for the headers): any body above it
 *   (a single item, or a body that is not one entry per page item) is answered
 *   `413 {"message":"413 Response Too Large"}` and logged, rather than failing as a 502. Fields are
 *   bounded by the features' validations, so no single resource reaches it in practice.
 *
 * Bytes are counted as the response carries them: escaped for a buffered result, raw when streamed.
 */
import { config } from '../config';
import type { Logger } from '../logger';
import { continuationOf, pageContinuation } from './pagination';

/** Lambda's limit on a synchronous invocation's response payload. */
export const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;
/** What the status, the headers (Link URLs included) and the proxy result's JSON may take beside the body. */
export const HEADERS_ALLOWANCE_BYTES = 64 * 1024;
/** The most a streamed JSON body may take (Lambda's documented streamed payload size, 20 MB). */
export const STREAMED_CEILING_BYTES = 20 * 1024 * 1024;

export interface ResponseLimits {
  /** A page past it is ended early. */
  budget: number;
  /** No body past it is sent. */
  ceiling: number;
  /** Whether the body travels escaped inside a JSON proxy result (buffered) or raw (streamed). */
  escaped: boolean;
}

/** The limits of a function answering buffered (`streamed: false`) or through response streaming. */
export function responseLimits(streamed: boolean): ResponseLimits {
  const ceiling = streamed ? STREAMED_CEILING_BYTES : LAMBDA_PAYLOAD_BYTES - HEADERS_ALLOWANCE_BYTES;
  const budget = streamed ? config().streamedResponseBudgetBytes : config().responseBudgetBytes;
  return { budget: Math.min(budget, ceiling), ceiling, escaped: !streamed };
}

/** The bytes a piece of JSON text takes in the response: raw, or escaped as a JSON string. */
export function responseBytes(text: string, escaped: boolean): number {
  return escaped ? Buffer.byteLength(JSON.stringify(text)) - 2 : Buffer.byteLength(text);
}

/** A JSON response as the guard lets it out: its status, its body's text and its headers. */
export interface BoundedJson {
  statusCode: number;
  text: string;
  headers: Record<string, string>;
}

/** The answer to a body that cannot be sent. */
export const RESPONSE_TOO_LARGE = { message: '413 Response Too Large' };

/**
 * Serialises a route's JSON body within `limits`: as is when it fits the budget, a page ended
 * early when it is a page that does not, as is when it is anything else that fits the ceiling,
 * and a 413 otherwise. `serialized`: the body's text when the route serialised it already.
 */
export function boundedJson(statusCode: number, body: unknown, headers: Record<string, string>, limits: ResponseLimits, log?: Logger, serialized?: string): BoundedJson {
  const plain = headersOnly(headers);
  const text = serialized ?? JSON.stringify(body);
  if (responseBytesWithin(text, limits.escaped, limits.budget)) return { statusCode, text, headers: plain };

  const continuation = continuationOf(headers);
  if (Array.isArray(body) && continuation && continuation.items === body.length && body.length > 1) {
    // Each item's share, once: escaping is per character, so the parts add up to the whole.
    let size = 2;
    let kept = 0;
    for (const item of body) {
      const share = responseBytes(JSON.stringify(item) ?? 'null', limits.escaped) + (kept > 0 ? 1 : 0);
      if (kept > 0 && size + share > limits.budget) break;
      size += share;
      kept++;
    }
    if (kept === body.length) return { statusCode, text, headers: plain };
    if (size <= limits.ceiling) {
      log?.info('page ended early to stay under the response budget', { items: body.length, kept, bytes: size, budget: limits.budget });
      return { statusCode, text: JSON.stringify(body.slice(0, kept)), headers: { ...plain, ...continuation.after(kept) } };
    }
  } else if (responseBytesWithin(text, limits.escaped, limits.ceiling)) {
    return { statusCode, text, headers: plain };
  }
  log?.warn('response body over the limit the function can answer', { statusCode, ceiling: limits.ceiling, rawBytes: Buffer.byteLength(text) });
  return { statusCode: 413, text: JSON.stringify(RESPONSE_TOO_LARGE), headers: {} };
}

/** Internal: whether a text fits `limit` bytes in the response. */
function responseBytesWithin(text: string, escaped: boolean, limit: number): boolean {
  // UTF-8 takes at least a byte per UTF-16 unit; JSON text holds no control characters, so
  // escaping it at most doubles it: the exact escaped size is only computed when that matters.
  if (text.length > limit) return false;
  const raw = Buffer.byteLength(text);
  if (raw > limit) return false;
  return !escaped || 2 * raw <= limit || responseBytes(text, true) <= limit;
}

/** Internal: the headers without the page mark (a symbol, never sent, but kept out of the result). */
function headersOnly(headers: Record<string, string>): Record<string, string> {
  if (!(pageContinuation in headers)) return headers;
  return Object.fromEntries(Object.entries(headers));
}
