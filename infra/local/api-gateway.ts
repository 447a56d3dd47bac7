/**
 * A local stand-in for the deployed API Gateway REST API (v1, Lambda proxy integration, payload
 * format 1.0): it matches requests against the route catalog the stack deploys and invokes the
 * group's Lambda handler with the event API Gateway would build, so handlers run unchanged.
 *
 * Fidelity points that matter to the handlers (see infra/constructs/api.ts):
 * - path parameters stay URL-encoded, as a REST API delivers them: that is what keeps
 *   `group%2Fproject` a single `{id}`; the handlers decode them once themselves;
 * - every request body arrives base64-encoded (the stack declares `binaryMediaTypes: ['*\/*']`);
 * - HEAD reaches the GET route of a resource (the deployed definition adds a HEAD operation for
 *   every GET, `servingRoute` in shared/platform/http/route-matcher.ts), with `httpMethod: 'HEAD'`; the answer has no body;
 * - unknown routes or methods answer `404 {"error":"404 Not Found"}` (the stack's mapping of
 *   MISSING_AUTHENTICATION_TOKEN), a failing handler or a result over Lambda's 6 MB payload
 *   `502 {"message":"Internal server error"}`,
 *   a body over 10 MB, or an event over Lambda's 6 MB, `413`, and a handler slower than 29 s
 *   `504`, each with `X-Request-Id`.
 *
 * The matcher and the event builder are exported as pure functions for unit tests.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { gatewayRoutes, type GroupName, type RouteSpec } from '../../shared/catalog';
import { matchRoute as matchPlatformRoute, type RouteMatch as PlatformRouteMatch } from '../../shared/platform/http/route-matcher';
import { invokeStreaming, isStreamingHandler } from './lambda-streaming';

/** A Lambda proxy handler as the group modules export it (a middy handler). */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;


/** API Gateway's hard limit on request payloads. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** Lambda's synchronous invocation payload limit (event and result): exceeding it fails on AWS. */
export const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * The size of an event as Lambda counts it (its JSON). A base64 body needs no escaping, so it is
 * added by length instead of copying a push of several megabytes into one more string.
 */
function eventBytes(event: { body: string | null; isBase64Encoded: boolean }): number {
  if (!event.isBase64Encoded || event.body === null) return Buffer.byteLength(JSON.stringify(event));
  // `"body":"<base64>"` where the copy has `"body":null`: two quotes replace the four letters of null.
  return Buffer.byteLength(JSON.stringify({ ...event, body: null })) + event.body.length + 2 - 4;
}

/** API Gateway's default (and, for REST APIs, maximum without a quota raise) integration timeout. */
export const INTEGRATION_TIMEOUT_MS = 29_000;
/** The longest a streamed response may last (API Gateway's `STREAM` transfer mode). */
export const STREAMING_TIMEOUT_MS = 15 * 60_000;

const STAGE = 'local';

// ---------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------

export type RouteMatch = PlatformRouteMatch<RouteSpec>;

/**
 * Finds the deployed resource (and its route) for a RAW request path: the catalog's routes as
 * API Gateway is given them ({@link gatewayRoutes}: a subtree served by one greedy resource is
 * matched as that resource), or the given routes. See the platform's `matchRoute`.
 */
export function matchRoute(method: string, rawPath: string, routes?: readonly RouteSpec[]): RouteMatch | undefined {
  return matchPlatformRoute(method, rawPath, routes ?? (deployedRoutes ??= gatewayRoutes()));
}

let deployedRoutes: RouteSpec[] | undefined;

// ---------------------------------------------------------------------------------------------
// Event building
// ---------------------------------------------------------------------------------------------

/** What the event builder needs from an HTTP request. */
export interface LocalRequest {
  method: string;
  /** The raw request target, path and query, exactly as sent (`/api/v4/users/a%2Fb?x=1`). */
  url: string;
  /** Header name/value pairs in the order and case received (Node's `rawHeaders`, paired). */
  headers: ReadonlyArray<readonly [string, string]>;
  /** Raw body bytes; null or empty when there is none. */
  body: Buffer | null;
  sourceIp: string;
}

export interface EventOptions {
  requestId?: string;
  now?: Date;
}

/** Splits a raw request target into its raw path and raw query string (without the `?`). */
export function splitUrl(url: string): { path: string; query: string } {
  // Absolute-form targets (`GET http://host/path`) are legal HTTP; keep only the path.
  const withoutOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/' : url;
  const hash = withoutOrigin.indexOf('#');
  const target = hash === -1 ? withoutOrigin : withoutOrigin.slice(0, hash);
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/**
 * Query parameters as API Gateway passes them: decoded (URLSearchParams semantics, so `+` is a
 * space), the last value of a repeated name in the single-value map, all of them in the
 * multi-value map, and null for both when there are none.
 */
export function parseQuery(query: string): {
  queryStringParameters: Record<string, string> | null;
  multiValueQueryStringParameters: Record<string, string[]> | null;
} {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let any = false;
  for (const [name, value] of new URLSearchParams(query)) {
    any = true;
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  return any
    ? { queryStringParameters: single, multiValueQueryStringParameters: multi }
    : { queryStringParameters: null, multiValueQueryStringParameters: null };
}

/**
 * Headers in both of API Gateway's shapes. Names keep the case the client sent (the first
 * spelling seen, when a header is repeated with different case); the single-value map holds
 * the last value, as API Gateway does.
 */
function headerMaps(pairs: ReadonlyArray<readonly [string, string]>): {
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
} {
  const spelling = new Map<string, string>();
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [rawName, value] of pairs) {
    const lower = rawName.toLowerCase();
    let name = spelling.get(lower);
    if (name === undefined) {
      name = rawName;
      spelling.set(lower, name);
    }
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

/** `21/Nov/2025:10:11:12 +0000`, API Gateway's `requestTime` format. */
function requestTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${pad(now.getUTCDate())}/${months[now.getUTCMonth()]}/${now.getUTCFullYear()}:` +
    `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} +0000`
  );
}

/** The Lambda proxy event (REST API, payload format 1.0) API Gateway would send for `request`. */
export function buildProxyEvent(request: LocalRequest, match: RouteMatch, options: EventOptions = {}): APIGatewayProxyEvent {
  const requestId = options.requestId ?? randomUUID();
  const now = options.now ?? new Date();
  const { path, query } = splitUrl(request.url);
  const { headers, multiValueHeaders } = headerMaps(request.headers);
  const header = (name: string) => request.headers.findLast(([n]) => n.toLowerCase() === name)?.[1];
  const hasBody = request.body !== null && request.body.length > 0;

  return {
    resource: match.route.resource,
    path,
    httpMethod: request.method.toUpperCase(),
    headers,
    multiValueHeaders,
    ...parseQuery(query),
    pathParameters: match.pathParameters,
    stageVariables: null,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: undefined,
      domainName: header('host') ?? '127.0.0.1',
      domainPrefix: (header('host') ?? '127.0.0.1').split('.')[0],
      extendedRequestId: requestId,
      httpMethod: request.method.toUpperCase(),
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent: header('user-agent') ?? null,
        userArn: null,
      },
      path: `/${STAGE}${path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: requestTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: match.route.resource,
      stage: STAGE,
    },
    // binaryMediaTypes `*/*`: every body reaches Lambda base64-encoded, whatever its type.
    body: hasBody ? request.body!.toString('base64') : null,
    isBase64Encoded: hasBody,
  };
}

/** A minimal Lambda context for one invocation of the group's function. */
export function lambdaContext(group: GroupName, requestId: string, timeoutMs = INTEGRATION_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  const functionName = `local-${group}`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/**
 * Merges `headers` and `multiValueHeaders` as API Gateway does: both lists are combined and a
 * name/value pair present in both appears once. Length and framing headers are left to Node.
 */
export function responseHeaders(result: APIGatewayProxyResult): Map<string, { name: string; values: string[] }> {
  const merged = new Map<string, { name: string; values: string[] }>();
  const add = (name: string, value: string, dedupe: boolean) => {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') return;
    let entry = merged.get(lower);
    if (!entry) {
      entry = { name, values: [] };
      merged.set(lower, entry);
    }
    if (!dedupe || !entry.values.includes(value)) entry.values.push(value);
  };
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    for (const value of values ?? []) add(name, String(value), false);
  }
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (value !== undefined) add(name, String(value), true);
  }
  return merged;
}

/** A gateway-generated JSON response (404, 413, 502, 504), with the request id like the stack's. */
function gatewayResponse(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': payload.length,
    'X-Request-Id': requestId,
    'x-amzn-RequestId': requestId,
  });
  res.end(payload);
}

function isProxyResult(value: unknown): value is APIGatewayProxyResult {
  return typeof value === 'object' && value !== null && Number.isInteger((value as { statusCode?: unknown }).statusCode);
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  const headers = responseHeaders(result);
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  // API Gateway's default for proxy responses that name no type.
  if (!headers.has('content-type') && body.length > 0) headers.set('content-type', { name: 'Content-Type', values: ['application/json'] });
  if (!headers.has('x-amzn-requestid')) headers.set('x-amzn-requestid', { name: 'x-amzn-RequestId', values: [requestId] });
  res.statusCode = result.statusCode;
  for (const { name, values } of headers.values()) res.setHeader(name, values.length === 1 ? values[0] : values);
  res.end(body);
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export interface ApiServerOptions {
  /** Each group's handler: a proxy handler, or a streaming one (made by `streamifyResponse`, told apart at run time). */
  handlers: Partial<Record<GroupName, ProxyHandler>>;
  /** Defaults to the whole catalog. */
  routes?: readonly RouteSpec[];
  /** Integration timeout; default 29 s like API Gateway. */
  timeoutMs?: number;
  /**
   * Requests wait for this before being served: lets the server listen (and so learn its port,
   * which EXTERNAL_URL needs) before the handlers are loaded.
   */
  ready?: Promise<unknown>;
}

class PayloadTooLarge extends Error {}

/**
 * Serves a streaming handler as the `STREAM` transfer mode does: the status and headers it writes
 * first, then its body as it comes, with no 6 MB or 29 s limit (15 minutes at most). A handler
 * failing before its metadata is a 502; after it, the connection is cut, as on AWS.
 */
async function serveStreaming(
  res: ServerResponse,
  handler: Parameters<typeof invokeStreaming>[0],
  event: APIGatewayProxyEvent,
  context: Context,
  requestId: string,
): Promise<number> {
  let response: Awaited<ReturnType<typeof invokeStreaming>>;
  try {
    response = await invokeStreaming(handler, event, context);
  } catch (error) {
    warn('handler failed', { requestId, error: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) });
    gatewayResponse(res, 502, { message: 'Internal server error' }, requestId);
    return 502;
  }
  res.writeHead(response.statusCode, { ...response.headers, 'X-Request-Id': requestId });
  const timer = setTimeout(() => res.destroy(), STREAMING_TIMEOUT_MS);
  response.body.on('error', () => res.destroy());
  response.body.pipe(res);
  await new Promise<void>((resolve) => res.once('close', resolve));
  clearTimeout(timer);
  await response.done.catch((error: unknown) => warn('streaming handler failed after its metadata', { requestId, error: String(error) }));
  return response.statusCode;
}

/**
 * Reads the body, failing as soon as it exceeds API Gateway's limit. The rest of an oversized
 * body is drained, not the socket destroyed, so the client still receives the 413.
 */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_REQUEST_BYTES) {
      req.resume();
      reject(new PayloadTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        failed = true;
        chunks.length = 0;
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (!failed) resolve(size === 0 ? null : Buffer.concat(chunks, size));
    });
    req.once('error', (error) => {
      if (!failed) reject(error);
    });
  });
}

function pairs(rawHeaders: string[]): Array<[string, string]> {
  const result: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) result.push([rawHeaders[i], rawHeaders[i + 1]]);
  return result;
}

/** The forwarding headers API Gateway adds in front of the integration. */
function withForwardingHeaders(headers: Array<[string, string]>, sourceIp: string, port: number | undefined): Array<[string, string]> {
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  const added: Array<[string, string]> = [];
  if (!has('x-forwarded-for')) added.push(['X-Forwarded-For', sourceIp]);
  if (!has('x-forwarded-proto')) added.push(['X-Forwarded-Proto', 'http']);
  if (!has('x-forwarded-port') && port !== undefined) added.push(['X-Forwarded-Port', String(port)]);
  return [...headers, ...added];
}

function debugLog(fields: Record<string, unknown>): void {
  if (process.env.LOG_LEVEL !== 'debug') return;
  process.stdout.write(`${JSON.stringify({ level: 'debug', time: new Date().toISOString(), message: 'gateway', ...fields })}\n`);
}

function warn(message: string, fields: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ level: 'warn', time: new Date().toISOString(), message, ...fields })}\n`);
}

/** The HTTP server emulating the API; listen on it yourself (127.0.0.1 only). */
export function createApiServer(options: ApiServerOptions): Server {
  const timeoutMs = options.timeoutMs ?? INTEGRATION_TIMEOUT_MS;

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const started = Date.now();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const { path } = splitUrl(url);
    let status = 0;
    let group: GroupName | undefined;
    try {
      if (options.ready) await options.ready;
      // As on AWS, an unknown route is answered without reading further.
      const match = matchRoute(method, path, options.routes);
      if (!match) {
        req.resume();
        status = 404;
        gatewayResponse(res, 404, { error: '404 Not Found' }, requestId);
        return;
      }
      group = match.route.group;

      let body: Buffer | null;
      try {
        body = await readBody(req);
      } catch (error) {
        if (!(error instanceof PayloadTooLarge)) throw error;
        status = 413;
        res.setHeader('Connection', 'close');
        gatewayResponse(res, 413, { message: 'Request Too Long' }, requestId);
        return;
      }

      const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
      const event = buildProxyEvent(
        { method, url, headers: withForwardingHeaders(pairs(req.rawHeaders), sourceIp, req.socket.localPort), body, sourceIp },
        match,
        { requestId, now: new Date(started) },
      );
      // Lambda refuses an invocation whose event exceeds 6 MB (a body of about 4.5 MB, base64-encoded):
      // refused here too, with GitLab's 413, so that local runs meet AWS's limit.
      if (eventBytes(event) > LAMBDA_PAYLOAD_BYTES) {
        status = 413;
        gatewayResponse(res, 413, { message: 'Request Too Long' }, requestId);
        return;
      }

      const handler = options.handlers[group];
      if (isStreamingHandler(handler)) {
        status = await serveStreaming(res, handler, event, lambdaContext(group, requestId, STREAMING_TIMEOUT_MS), requestId);
        return;
      }
      let result: unknown;
      try {
        if (!handler) throw new Error(`no handler for group '${group}'`);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((done) => {
          timer = setTimeout(() => done('timeout'), timeoutMs);
        });
        try {
          result = await Promise.race([handler(event, lambdaContext(group, requestId, timeoutMs)), timedOut]);
        } finally {
          clearTimeout(timer);
        }
      } catch (error) {
        // On AWS an unhandled Lambda error becomes a 502 and the details go to the function's log.
        warn('handler failed', { requestId, group, error: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) });
        status = 502;
        gatewayResponse(res, 502, { message: 'Internal server error' }, requestId);
        return;
      }
      if (result === 'timeout') {
        status = 504;
        gatewayResponse(res, 504, { message: 'Endpoint request timed out' }, requestId);
        return;
      }
      if (!isProxyResult(result)) {
        warn('handler returned a malformed proxy result', { requestId, group });
        status = 502;
        gatewayResponse(res, 502, { message: 'Internal server error' }, requestId);
        return;
      }
      const resultSize = Buffer.byteLength(JSON.stringify(result));
      if (resultSize > LAMBDA_PAYLOAD_BYTES) {
        // Lambda fails such an invocation ("Response payload size exceeded"), which API Gateway answers 502.
        warn('response exceeds the Lambda 6 MB payload limit', { requestId, group, resultBytes: resultSize });
        status = 502;
        gatewayResponse(res, 502, { message: 'Internal server error' }, requestId);
        return;
      }
      status = result.statusCode;
      writeResult(res, result, requestId);
    } catch (error) {
      warn('local gateway error', { requestId, error: error instanceof Error ? error.message : String(error) });
      status = 502;
      gatewayResponse(res, 502, { message: 'Internal server error' }, requestId);
    } finally {
      debugLog({ requestId, method, path, group, status, durationMs: Date.now() - started });
    }
  };

  return createServer((req, res) => {
    void serve(req, res);
  });
}
