import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { apiHandler, type GroupRouteTable } from '../../functions/api';
import { createGroupHandler } from '../../shared/platform/group-handler';
import { ok } from '../../shared/platform/http/response';
import { route } from '../../shared/platform/http/route';
import { routeCatalog, type GroupName } from '../../shared/catalog';

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
      "group 'meta' does not implement its catalog: missing [GET /version, GET /openapi.json], extra [GET /versions]",
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
