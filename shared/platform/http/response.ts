/**
 * What a route returns: a status, a JSON-serialisable body (or raw bytes) and extra headers.
 * The dispatcher turns it into API Gateway's proxy result. The body's type is kept (`B`), so a
 * route's response type is its presenter's (`ResponseOf` in `route.ts`).
 */
export interface HttpResult<B = unknown> {
  statusCode: number;
  body?: B;
  headers?: Record<string, string>;
  /** Raw bytes (downloads); sent base64-encoded with `contentType`. */
  binary?: { data: Buffer; contentType: string };
  /**
   * A body sent while it is read (an S3 object of any size): only in groups answered through
   * response streaming (the catalog's `streamsResponses`), never held in memory whole.
   */
  stream?: { chunks: AsyncIterable<Uint8Array>; contentType: string; length?: number };
  /**
   * `body` already serialised (`JSON.stringify(body)`), by a route that had to measure it: sent
   * as it is rather than serialised again ({@link withSerializedBody}).
   */
  serialized?: string;
}

export const ok = <B>(body: B, headers?: Record<string, string>): HttpResult<B> => ({ statusCode: 200, body, headers });
export const created = <B>(body: B): HttpResult<B> => ({ statusCode: 201, body });
/** 202: the work goes on after the answer (GitLab's `status :accepted`). */
export const accepted = <B>(body: B): HttpResult<B> => ({ statusCode: 202, body });
export const noContent = (): HttpResult<never> => ({ statusCode: 204 });
/** 200 with an empty body (GitLab's idempotent deletes of something already gone). */
export const emptyOk = (): HttpResult<never> => ({ statusCode: 200 });

/**
 * A result whose JSON body is serialised once, here, for a route that needs its text before
 * answering (to check its size): the text is what is sent. Answers the result and the text.
 */
export function withSerializedBody<B>(result: HttpResult<B>): { result: HttpResult<B>; text: string } {
  const text = JSON.stringify(result.body);
  return { result: { ...result, serialized: text }, text };
}
