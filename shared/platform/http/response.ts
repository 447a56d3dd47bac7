/**
 * What a route returns: a status, a JSON-serialisable body (or raw bytes) and extra headers.
 * The dispatcher turns it into API Gateway's proxy result.
 */
export interface HttpResult {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw bytes (downloads); sent base64-encoded with `contentType`. */
  binary?: { data: Buffer; contentType: string };
}

export const ok = (body: unknown, headers?: Record<string, string>): HttpResult => ({ statusCode: 200, body, headers });
export const created = (body: unknown): HttpResult => ({ statusCode: 201, body });
export const noContent = (): HttpResult => ({ statusCode: 204 });
/** 200 with an empty body (GitLab's idempotent deletes of something already gone). */
export const emptyOk = (): HttpResult => ({ statusCode: 200 });
