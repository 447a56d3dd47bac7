/**
 * Lambda's response streaming, locally: the `awslambda` global that Lambda's Node.js runtime
 * gives streaming handlers (`streamifyResponse`, `HttpResponseStream.from`), and what API
 * Gateway's `STREAM` transfer mode does with the stream — read the HTTP metadata (JSON, then
 * eight NUL bytes), answer with it, and pass the rest through as the body as it comes.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { StreamingMetadata, StreamingRuntime } from '../../shared/platform/streaming';

/** How Lambda's runtime marks a handler made with `streamifyResponse`. */
const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
const DELIMITER = Buffer.alloc(8);

type StreamingFunction = (event: APIGatewayProxyEvent, responseStream: Writable, context: Context) => Promise<void>;

const runtime: StreamingRuntime = {
  streamifyResponse(handler) {
    Object.defineProperty(handler, STREAMING, { value: 'response' });
    return handler;
  },
  HttpResponseStream: {
    from(responseStream, metadata) {
      responseStream.write(Buffer.concat([Buffer.from(JSON.stringify(metadata)), DELIMITER]));
      return responseStream;
    },
  },
};

/** Installs the global before handlers are loaded (they call `streamifyResponse` at import). */
export function installStreamingRuntime(): void {
  // Other libraries (Lambda's invoke store) may have created the global for their own members.
  const global = globalThis as unknown as { awslambda?: Partial<StreamingRuntime> };
  if (!global.awslambda?.streamifyResponse) global.awslambda = Object.assign(global.awslambda ?? {}, runtime);
}

export function isStreamingHandler(handler: unknown): handler is StreamingFunction {
  return typeof handler === 'function' && (handler as unknown as Record<symbol, unknown>)[STREAMING] === 'response';
}

export interface StreamedResponse extends StreamingMetadata {
  body: Readable;
  /** Settles when the handler returns (rejects when it fails after the metadata was sent). */
  done: Promise<void>;
}

/**
 * Invokes a streaming handler; resolves with the metadata as soon as it is written, the body
 * flowing after. Rejects when the handler fails (or ends) before writing its metadata.
 */
export function invokeStreaming(handler: StreamingFunction, event: APIGatewayProxyEvent, context: Context): Promise<StreamedResponse> {
  const stream = new PassThrough();
  const body = new PassThrough();
  const done = handler(event, stream, context).finally(() => stream.end());
  // A client gone mid-body never drains: let the handler's writes go on (they fail or are dropped).
  body.once('close', () => stream.resume());
  return new Promise((resolve, reject) => {
    let prelude = Buffer.alloc(0);
    let metadataRead = false;
    stream.on('data', (chunk: Buffer) => {
      if (metadataRead) {
        // The client's pace holds the handler back (its writes wait while `stream` is full).
        if (!body.write(chunk)) {
          stream.pause();
          body.once('drain', () => stream.resume());
        }
        return;
      }
      prelude = Buffer.concat([prelude, chunk]);
      const end = prelude.indexOf(DELIMITER);
      if (end < 0) return;
      metadataRead = true;
      try {
        const metadata = JSON.parse(prelude.subarray(0, end).toString('utf8')) as StreamingMetadata;
        resolve({ ...metadata, body, done });
      } catch (error) {
        reject(error);
        return;
      }
      const rest = prelude.subarray(end + DELIMITER.length);
      if (rest.length > 0) body.write(rest);
    });
    stream.on('end', () => {
      body.end();
      if (!metadataRead) reject(new Error('the streaming handler ended without writing its HTTP metadata'));
    });
    done.catch((error: unknown) => {
      if (!metadataRead) reject(error);
      else body.destroy(error as Error);
    });
  });
}
