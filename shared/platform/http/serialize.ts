import type { APIGatewayProxyResult } from 'aws-lambda';
import { streamedResult } from '../streaming';
import type { HttpResult } from './response';

/** A JSON response in API Gateway's proxy format; no body for 204/304 or an undefined body. */
export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  const empty = body === undefined || statusCode === 204 || statusCode === 304;
  return {
    statusCode,
    headers: { ...(empty ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: empty ? '' : JSON.stringify(body),
    isBase64Encoded: false,
  };
}

export function toProxyResult(result: HttpResult): APIGatewayProxyResult {
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
  return jsonResponse(result.statusCode, result.body, result.headers);
}
