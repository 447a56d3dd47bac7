import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Logger } from '../logger';
import { streamedResult } from '../streaming';
import type { HttpResult } from './response';
import { boundedJson, type ResponseLimits } from './response-size';

/** A JSON response in API Gateway's proxy format; no body for 204/304 or an undefined body. */
export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}, serialized?: string): APIGatewayProxyResult {
  const empty = body === undefined || statusCode === 204 || statusCode === 304;
  return {
    statusCode,
    headers: { ...(empty ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: empty ? '' : (serialized ?? JSON.stringify(body)),
    isBase64Encoded: false,
  };
}

/**
 * A route's result in API Gateway's proxy format. With `limits`, a JSON body goes through the
 * response size guard (`response-size.ts`): a page too large is ended early, a body that cannot
 * be sent is a 413.
 */
export function toProxyResult(result: HttpResult, guard?: { limits: ResponseLimits; log?: Logger }): APIGatewayProxyResult {
  if (result.stream) {
    const { chunks, contentType, length } = result.stream;
    return streamedResult(result.statusCode, { 'Content-Type': contentType, ...(length === undefined ? {} : { 'Content-Length': String(length) }), ...result.headers }, chunks);
  }
  if (result.binary) {
    return {
      statusCode: result.statusCode,
      headers: { 'Content-Type': result.binary.contentType, ...result.headers },
      body: result.binary.data.toString('base64'),
      isBase64Encoded: true,
    };
  }
  const empty = result.body === undefined || result.statusCode === 204 || result.statusCode === 304;
  if (!guard || empty) return jsonResponse(result.statusCode, result.body, result.headers, result.serialized);
  const { statusCode, text, headers } = boundedJson(result.statusCode, result.body, result.headers ?? {}, guard.limits, guard.log, result.serialized);
  return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body: text, isBase64Encoded: false };
}
