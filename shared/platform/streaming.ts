/**
 * Lambda response streaming for a group whose responses may exceed Lambda's 6 MB payload or API
 * Gateway's 29 s (API Gateway's `STREAM` transfer mode invokes the function with
 * `InvokeWithResponseStream`): the function writes the HTTP metadata, then the body, to the
 * response stream Lambda gives it. Lambda's Node.js runtime provides the `awslambda` global that
 * does this; the local runtime installs an equivalent one (`infra/local/lambda-streaming.ts`)
 * before it loads the handlers, so the same code path runs in both.
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/** The HTTP metadata API Gateway reads before the streamed body. */
export interface StreamingMetadata {
  statusCode: number;
  headers: Record<string, string>;
}

/** The part of Lambda's `awslambda` global a streaming handler uses. */
export interface StreamingRuntime {
  streamifyResponse(handler: (event: APIGatewayProxyEvent, responseStream: Writable, context: Context) => Promise<void>): unknown;
  HttpResponseStream: { from(responseStream: Writable, metadata: StreamingMetadata): Writable };
}


/**
 * A response whose body is produced while it is sent: a proxy result with an empty `body` and the
 * body's chunks in `stream`. A streaming handler writes the chunks to Lambda's response stream as
 * the iterable yields them (waiting while the stream is full), so the whole body is never in
 * memory and the client gets the first bytes before the last are made. It passes through
 * middlewares as any proxy result (they may add headers).
 */
export interface StreamedResult extends APIGatewayProxyResult {
  /** The body's chunks; an error thrown after the first one aborts the response. */
  stream: AsyncIterable<Uint8Array>;
}

/** A {@link StreamedResult}. */
export function streamedResult(statusCode: number, headers: Record<string, string>, stream: AsyncIterable<Uint8Array>): StreamedResult {
  return { statusCode, headers, body: '', isBase64Encoded: false, stream };
}

export function isStreamedResult(result: APIGatewayProxyResult): result is StreamedResult {
  return (result as Partial<StreamedResult>).stream !== undefined;
}

/** The result without its body (a HEAD request's answer); a streamed body is not produced at all. */
export function withoutBody(result: APIGatewayProxyResult): APIGatewayProxyResult {
  const { stream: _stream, ...rest } = result as Partial<StreamedResult> & APIGatewayProxyResult;
  return { ...rest, body: '', isBase64Encoded: false };
}

/** Ends a stream, resolving once everything written has been flushed. */
function finish(stream: Writable, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(body, () => resolve());
  });
}

/**
 * A streaming Lambda handler answering what a proxy handler answers: its status and headers as
 * the metadata, then its body (decoded when base64), or the chunks of a {@link StreamedResult}'s
 * stream as they come. Loaded where no `awslambda` global exists (the OpenAPI generator and the
 * CDK app read the module for its routes), it is a function that fails when invoked.
 */
export function streamingHandler<C extends Context>(handler: (event: APIGatewayProxyEvent, context: C) => Promise<APIGatewayProxyResult>): unknown {
  const runtime = (globalThis as unknown as { awslambda?: Partial<StreamingRuntime> }).awslambda;
  if (!runtime?.streamifyResponse || !runtime.HttpResponseStream) {
    return async () => {
      throw new Error("response streaming needs Lambda's awslambda global (the local runtime installs one before loading handlers)");
    };
  }
  const { HttpResponseStream } = runtime;
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    // Lambda's context, marked as streamed (the response size guard allows more); the handler's
    // own middlewares add what they need to it.
    const result = await handler(event, Object.assign(context as C, { responseStreamed: true }));
    const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]));
    const stream = HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
    if (isStreamedResult(result)) {
      await pipeline(Readable.from(result.stream, { objectMode: false }), stream);
      return;
    }
    await finish(stream, Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8'));
  });
}
