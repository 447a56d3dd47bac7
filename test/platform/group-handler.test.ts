import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { apiHandler, type GroupRouteTable } from '../../functions/api';
import { createGroupHandler } from '../../shared/platform/group-handler';
import { isStreamedResult, type StreamedResult } from '../../shared/platform/streaming';
import { ok } from '../../shared/platform/http/response';
import { route } from '../../shared/platform/http/route';
import { routeCatalog, routeKeysOf, type GroupName } from '../../shared/catalog';

const stub = route({ params: z.object({}), handler: async () => ok({}) });

describe('apiHandler', () => {
  it.each(Object.keys(routeCatalog) as GroupName[])('loads the %s handler, which implements its whole catalog', async (group) => {
    // Act: importing builds the handler, which checks its routes against the catalog.
    const module = (await import(`../../functions/${group}/handler.ts`)) as { handler: unknown };
    // Assess
    expect(typeof module.handler).toBe('function');
  });

  it('refuses a group whose routes do not match the catalog', () => {
    // Prepare: a route key that is not in the catalog, and one missing.
    const routes = { 'GET /versions': stub } as unknown as GroupRouteTable<'meta'>;
    // Act / Assess
    expect(() => apiHandler('meta', routes)).toThrow(
      `group 'meta' does not implement its catalog: missing [${routeKeysOf('meta').join(', ')}], extra [GET /versions]`,
    );
  });
});

describe('createGroupHandler and HEAD', () => {
  const things = createGroupHandler(
    { group: 'things', prefix: '/api/v4', keys: ['GET /things'] as const },
    { 'GET /things': route({ params: z.object({}), anonymous: true, handler: async () => ok([{ id: 1 }], { 'X-Total': '1' }) }) },
    [],
  );
  const event = (httpMethod: string): APIGatewayProxyEvent => ({
    resource: '/api/v4/things',
    path: '/api/v4/things',
    httpMethod,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'req-head' } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
  });
  const context = { awsRequestId: 'lambda-head', functionName: 'things' } as Parameters<typeof things>[1];

  it('answers HEAD with the GET route\'s status and headers and no body', async () => {
    // Act
    const get = await things(event('GET'), context);
    const head = await things(event('HEAD'), context);

    // Assess
    expect(get.body).toBe('[{"id":1}]');
    expect(head).toMatchObject({ statusCode: 200, body: '' });
    expect(head.headers?.['X-Total']).toBe('1');
    expect(head.headers?.['Content-Type']).toBe(get.headers?.['Content-Type']);
  });

  it('answers HEAD on a method the resource does not serve 404 without a body', async () => {
    // Act
    const head = await things({ ...event('HEAD'), resource: '/api/v4/others' }, context);

    // Assess
    expect(head).toMatchObject({ statusCode: 404, body: '' });
  });
});

describe('createGroupHandler and a streamed body', () => {
  let produced = 0;
  async function* chunks() {
    for (const part of ['zip', 'bytes']) {
      produced += 1;
      yield Buffer.from(part);
    }
  }
  const downloads = createGroupHandler(
    { group: 'downloads', prefix: '/api/v4', keys: ['GET /download'] as const },
    {
      'GET /download': route({
        params: z.object({}),
        anonymous: true,
        handler: async () => ({ statusCode: 200, headers: { 'Content-Disposition': 'attachment; filename="a.zip"' }, stream: { chunks: chunks(), contentType: 'application/zip', length: 8 } }),
      }),
    },
    [],
  );
  const event = (httpMethod: string) =>
    ({ resource: '/api/v4/download', path: '/api/v4/download', httpMethod, headers: {}, multiValueHeaders: {}, queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null, requestContext: { requestId: 'req-stream' }, body: null, isBase64Encoded: false }) as unknown as APIGatewayProxyEvent;
  const context = { awsRequestId: 'lambda-stream', functionName: 'downloads' } as Parameters<typeof downloads>[1];

  it('hands the chunks on unread, with the length and type as headers; HEAD drops them', async () => {
    // Act
    const get = (await downloads(event('GET'), context)) as StreamedResult;
    const head = await downloads(event('HEAD'), context);

    // Assess
    expect(produced).toBe(0);
    expect(get.headers).toMatchObject({ 'Content-Type': 'application/zip', 'Content-Length': '8', 'Content-Disposition': 'attachment; filename="a.zip"' });
    const body: Buffer[] = [];
    for await (const chunk of get.stream) body.push(Buffer.from(chunk));
    expect(Buffer.concat(body).toString()).toBe('zipbytes');
    expect(isStreamedResult(head)).toBe(false);
    expect(head).toMatchObject({ statusCode: 200, body: '' });
    expect(head.headers?.['Content-Length']).toBe('8');
  });
});

describe('createGroupHandler and a subtree served by one greedy resource', () => {
  const seen: unknown[] = [];
  const files = createGroupHandler(
    { group: 'files', prefix: '/api/v4', keys: ['GET /projects/:id/files/:file_path/raw', 'GET /projects/:id/files/:file_path'] as const },
    {
      'GET /projects/:id/files/:file_path/raw': route({
        anonymous: true,
        params: z.object({ id: z.string(), file_path: z.string() }),
        handler: async ({ params }) => {
          seen.push(['raw', params]);
          return ok({});
        },
      }),
      'GET /projects/:id/files/:file_path': route({
        anonymous: true,
        params: z.object({ id: z.string(), file_path: z.string() }),
        handler: async ({ params }) => {
          seen.push(['file', params]);
          return ok({});
        },
      }),
    },
    [],
  );
  const event = (httpMethod: string, proxy: string): APIGatewayProxyEvent => ({
    resource: '/api/v4/projects/{id}/{proxy+}',
    path: `/api/v4/projects/a%2Fb/${proxy}`,
    httpMethod,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: 'a%2Fb', proxy },
    stageVariables: null,
    requestContext: { requestId: 'req-subtree' } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
  });
  const context = { awsRequestId: 'lambda-subtree', functionName: 'files' } as Parameters<typeof files>[1];

  it('finds the route from the raw path and decodes its own parameters', async () => {
    // Act
    seen.length = 0;
    const raw = await files(event('GET', 'files/docs%2Fa.md/raw'), context);
    const file = await files(event('HEAD', 'files/docs%2Fa.md'), context);

    // Assess
    expect([raw.statusCode, file.statusCode]).toEqual([200, 200]);
    expect(seen).toEqual([
      ['raw', { id: 'a/b', file_path: 'docs/a.md' }],
      ['file', { id: 'a/b', file_path: 'docs/a.md' }],
    ]);
  });

  it('answers the 404 of an unknown route for a path or method none of its routes has', async () => {
    // Act
    const unknownPath = await files(event('GET', 'files/x/raw/more'), context);
    const unknownMethod = await files(event('POST', 'files/x'), context);

    // Assess
    expect([unknownPath.statusCode, unknownPath.body]).toEqual([404, '{"error":"404 Not Found"}']);
    expect([unknownMethod.statusCode, unknownMethod.body]).toEqual([404, '{"error":"404 Not Found"}']);
  });
});
