/**
 * What the runner API reads outside the parameters a route sees: GitLab takes the job token from
 * the `JOB-TOKEN` header as well as the `token` parameter, the trace's `Content-Range` from its
 * header, and a trace chunk is the raw request body. The Lambda entry passes each on as a
 * parameter (`token`, `content_range`, `chunk`: the body base64-encoded) before dispatching.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

const header = (event: APIGatewayProxyEvent, name: string) =>
  Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1] ?? undefined;

function withQuery(event: APIGatewayProxyEvent, extra: Record<string, string>): APIGatewayProxyEvent {
  const single = { ...(event.queryStringParameters ?? {}), ...extra };
  const multi = { ...(event.multiValueQueryStringParameters ?? {}) };
  for (const [key, value] of Object.entries(extra)) multi[key] = [value];
  return { ...event, queryStringParameters: single, multiValueQueryStringParameters: multi };
}

export function runnerRequest(event: APIGatewayProxyEvent): APIGatewayProxyEvent {
  const extra: Record<string, string> = {};
  const jobToken = header(event, 'job-token');
  if (jobToken && !event.queryStringParameters?.token) extra.token = jobToken;
  const isTrace = event.httpMethod === 'PATCH' && /\/jobs\/[^/]+\/trace$/.test(event.path ?? '');
  if (!isTrace) return Object.keys(extra).length ? withQuery(event, extra) : event;
  const range = header(event, 'content-range');
  if (range) extra.content_range = range;
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).filter(([key]) => key.toLowerCase() !== 'content-type'));
  return {
    ...withQuery(event, extra),
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ chunk: raw.toString('base64') }),
    isBase64Encoded: false,
  };
}
