import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createGroupHandler } from '../../shared/platform/group-handler';
import { p } from '../../shared/platform/http/params';
import { ok } from '../../shared/platform/http/response';
import { route } from '../../shared/platform/http/route';

/** What the handler saw: it must never run for a malformed request. */
const seen: unknown[] = [];
const things = createGroupHandler(
  { group: 'things', prefix: '/api/v4', keys: ['POST /things/:id'] as const },
  {
    'POST /things/:id': route({
      anonymous: true,
      params: z.object({ id: p.string(), name: p.string(), tags: p.array(z.string()), meta: z.unknown().optional() }),
      handler: async ({ params }) => {
        seen.push(params);
        return ok({ ok: true });
      },
    }),
  },
  [],
);

function post(options: { path?: string; id?: string; body?: Buffer; contentType?: string; headers?: Record<string, string>; query?: Record<string, string> }) {
  const id = options.id ?? '1';
  const event: APIGatewayProxyEvent = {
    resource: '/api/v4/things/{id}',
    path: options.path ?? `/api/v4/things/${id}`,
    httpMethod: 'POST',
    headers: { ...(options.contentType ? { 'Content-Type': options.contentType } : {}), ...options.headers },
    multiValueHeaders: {},
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: { id },
    stageVariables: null,
    requestContext: { requestId: 'req-malformed' } as APIGatewayProxyEvent['requestContext'],
    body: options.body ? options.body.toString('base64') : null,
    isBase64Encoded: Boolean(options.body),
  };
  return things(event, { awsRequestId: 'lambda', functionName: 'things' } as Parameters<typeof things>[1]);
}

const json = (value: string) => ({ body: Buffer.from(value, 'utf8'), contentType: 'application/json' });

describe('malformed strings (GitLab HandleMalformedStrings)', () => {
  it.each([
    ['a NUL in a JSON string', json('{"name":"a\\u0000b"}')],
    ['a NUL nested in a JSON array', json('{"tags":["ok","x\\u0000"]}')],
    ['a NUL two levels down', json('{"meta":{"a":{"b":"\\u0000"}}}')],
    ['invalid UTF-8 in a JSON body', { body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]), contentType: 'application/json' }],
    ['an escaped NUL in a form', { body: Buffer.from('name=a%00b'), contentType: 'application/x-www-form-urlencoded' }],
    ['an escape of invalid UTF-8 in a form', { body: Buffer.from('name=%C3%28'), contentType: 'application/x-www-form-urlencoded' }],
    ['a NUL in a query parameter', { query: { name: 'a\0b' } }],
    ['a NUL in the path', { id: 'a%00b' }],
    ['invalid UTF-8 in the path', { id: '%C3%28' }],
    ['a NUL in the token', { headers: { 'PRIVATE-TOKEN': 'glpat-\0' } }],
    ['invalid UTF-8 in Basic credentials', { headers: { Authorization: `Basic ${Buffer.from([0x75, 0x3a, 0xff]).toString('base64')}` } }],
  ])('answers 400 Bad Request, as plain text, for %s, and runs nothing', async (_, request) => {
    // Act
    seen.length = 0;
    const response = await post(request);

    // Assess
    expect(response).toMatchObject({ statusCode: 400, body: 'Bad Request', headers: { 'Content-Type': 'text/plain' } });
    expect(seen).toEqual([]);
  });

  it('accepts well-formed strings, multibyte characters and a NUL deeper than GitLab looks', async () => {
    // Act
    seen.length = 0;
    const unicode = await post(json('{"name":"ünïcødé ✓ \\ud83d\\ude00","tags":["a"]}'));
    const deep = await post(json('{"meta":{"a":{"b":{"c":"\\u0000"}}}}'));
    const form = await post({ body: Buffer.from('name=caf%C3%A9+ok'), contentType: 'application/x-www-form-urlencoded' });

    // Assess
    expect([unicode.statusCode, deep.statusCode, form.statusCode]).toEqual([200, 200, 200]);
    expect(seen).toHaveLength(3);
  });
});
