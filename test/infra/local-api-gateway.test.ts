import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProxyEvent, createApiServer, matchRoute, parseQuery, responseHeaders, splitUrl, type LocalRequest, type ProxyHandler, type RouteMatch } from '../../infra/local/api-gateway';
import { installStreamingRuntime } from '../../infra/local/lambda-streaming';
import { streamedResult, streamingHandler, withoutBody } from '../../shared/platform/streaming';
import { allRoutes, parseRouteKey } from '../../shared/catalog';

function request(overrides: Partial<LocalRequest> = {}): LocalRequest {
  return {
    method: 'GET',
    url: '/api/v4/users/5',
    headers: [
      ['Host', '127.0.0.1:3000'],
      ['PRIVATE-TOKEN', 'secret'],
    ],
    body: null,
    sourceIp: '127.0.0.1',
    ...overrides,
  };
}

/** The catalog without the web group, whose greedy root resource takes every otherwise unmatched GET. */
const API_ROUTES = allRoutes().filter((route) => route.group !== 'web');

function mustMatch(method: string, path: string): RouteMatch {
  const match = matchRoute(method, path);
  expect(match, `${method} ${path}`).toBeDefined();
  return match!;
}

/**
 * Internal: listens on a free loopback port for the describe block (closed after it); the
 * returned object's `url` is the base URL once listening.
 */
function listening(server: Server): { url: string } {
  const base = { url: '' };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return base;
}

describe('local API Gateway: route matching', () => {
  it('matches a parameterised route and names its parameter', () => {
    // Act
    const match = mustMatch('GET', '/api/v4/users/5');

    // Assert
    expect(match.route.resource).toBe('/api/v4/users/{id}');
    expect(match.route.group).toBe('users');
    expect(match.pathParameters).toEqual({ id: '5' });
  });

  it('keeps an encoded slash inside one still-encoded path parameter', () => {
    // Act
    const match = mustMatch('GET', '/api/v4/users/a%2Fb');

    // Assert
    expect(match.route.resource).toBe('/api/v4/users/{id}');
    expect(match.pathParameters).toEqual({ id: 'a%2Fb' });
  });

  it('matches a static route with no path parameters', () => {
    // Act
    const match = mustMatch('GET', '/api/v4/projects');

    // Assert
    expect(match.route.key).toBe('GET /projects');
    expect(match.pathParameters).toBeNull();
  });

  it('prefers a static sibling over a {param} sibling, like API Gateway', () => {
    // Arrange: a catalog where /things/mine and /things/{id} are siblings.
    const routes = [parseRouteKey('users', 'GET /things/:id'), parseRouteKey('users', 'GET /things/mine')];

    // Act
    const mine = matchRoute('GET', '/api/v4/things/mine', routes);
    const other = matchRoute('GET', '/api/v4/things/42', routes);

    // Assert
    expect(mine?.route.key).toBe('GET /things/mine');
    expect(other?.route.key).toBe('GET /things/:id');
    expect(other?.pathParameters).toEqual({ id: '42' });
  });

  it('matches several parameters', () => {
    // Act
    const match = mustMatch('DELETE', '/api/v4/projects/7/variables/DEPLOY_TOKEN');

    // Assert
    expect(match.route.resource).toBe('/api/v4/projects/{id}/variables/{key}');
    expect(match.pathParameters).toEqual({ id: '7', key: 'DEPLOY_TOKEN' });
  });

  it('finds nothing for an unknown path, a missing method or an empty parameter', () => {
    expect(matchRoute('GET', '/api/v4/nope', API_ROUTES)).toBeUndefined();
    expect(matchRoute('GET', '/api/v3/users', API_ROUTES)).toBeUndefined();
    expect(matchRoute('PATCH', '/api/v4/users/5')).toBeUndefined();
    expect(matchRoute('GET', '/api/v4/users//keys')).toBeUndefined();
    expect(matchRoute('GET', '/')).toBeUndefined();
  });

  it('compares static segments raw, without decoding them', () => {
    expect(matchRoute('GET', '/api/v4/%75sers/5', API_ROUTES)).toBeUndefined();
    expect(matchRoute('GET', '/api%2Fv4/users/5', API_ROUTES)).toBeUndefined();
  });

  it('ignores one trailing slash', () => {
    expect(mustMatch('GET', '/api/v4/users/').route.key).toBe('GET /users');
  });

  it('answers HEAD with the GET route of the resource, like the deployed API', () => {
    // Act
    const match = mustMatch('HEAD', '/api/v4/users/a%2Fb');

    // Assert
    expect(match.route.key).toBe('GET /users/:id');
    expect(match.pathParameters).toEqual({ id: 'a%2Fb' });
    expect(matchRoute('HEAD', '/api/v4/projects/1/uploads')).toBeUndefined();
  });
});

describe('local API Gateway: greedy path parameters', () => {
  it('gives a greedy parameter the raw remainder of the path, joined with /', () => {
    // Act
    const match = mustMatch('GET', '/group/sub/app/uploads/0123456789abcdef0123456789abcdef/a%20b.png');

    // Assert
    expect(match.route.group).toBe('web');
    expect(match.route.resource).toBe('/{path+}');
    expect(match.pathParameters).toEqual({ path: 'group/sub/app/uploads/0123456789abcdef0123456789abcdef/a%20b.png' });
  });

  it('matches a single segment', () => {
    expect(mustMatch('GET', '/nothing-here').pathParameters).toEqual({ path: 'nothing-here' });
  });

  it('prefers any resource without a greedy parameter', () => {
    // Act
    const user = mustMatch('GET', '/api/v4/users/5');
    const uploads = mustMatch('POST', '/api/v4/projects/a%2Fb/uploads');

    // Assert
    expect(user.route.key).toBe('GET /users/:id');
    expect(uploads.route.key).toBe('POST /projects/:id/uploads');
    expect(uploads.pathParameters).toEqual({ id: 'a%2Fb' });
  });

  it('falls back to the greedy resource for a GET no other resource matches', () => {
    expect(mustMatch('GET', '/nope/api/v4').route.group).toBe('web');
    // Under the API's root, the meta group's greedy resource takes what no other resource matches.
    expect(mustMatch('GET', '/api/v4/nope')).toMatchObject({ route: { group: 'meta' }, pathParameters: { proxy: 'nope' } });
    expect(mustMatch('GET', '/api/v4/namespaces/5/nope')).toMatchObject({ route: { group: 'meta' }, pathParameters: { proxy: 'namespaces/5/nope' } });
    // Under a subtree served by one function, that function's greedy resource takes it instead.
    expect(mustMatch('GET', '/api/v4/users/5/nope')).toMatchObject({ route: { group: 'users' }, pathParameters: { id: '5', proxy: 'nope' } });
    // Under a shared one, its group's greedy resource takes what no other group's resource matches.
    expect(mustMatch('GET', '/api/v4/groups/5/nope')).toMatchObject({ route: { group: 'groups' }, pathParameters: { id: '5', proxy: 'nope' } });
    expect(mustMatch('DELETE', '/api/v4/projects/7/share/12')).toMatchObject({ route: { group: 'projects' }, pathParameters: { id: '7', proxy: 'share/12' } });
    expect(mustMatch('GET', '/api/v4/projects/7/issues')).toMatchObject({ route: { group: 'issues', resource: '/api/v4/projects/{id}/issues' } });
  });

  it('chooses the resource first: a method it lacks is a 404, not the greedy route', () => {
    expect(matchRoute('GET', '/api/v4/projects/1/uploads')).toBeUndefined();
    expect(matchRoute('PUT', '/group/project')).toBeUndefined();
  });

  it('never matches empty segments with a greedy parameter', () => {
    expect(matchRoute('GET', '/a//b')).toBeUndefined();
    expect(matchRoute('GET', '//')).toBeUndefined();
  });

  it('prefers the greedy resource with the longer fixed prefix', () => {
    // Prepare
    const routes = [parseRouteKey('web', 'GET /:path+'), parseRouteKey('web', 'GET /files/:rest+'), parseRouteKey('web', 'GET /files/raw')];

    // Act
    const nested = matchRoute('GET', '/files/a/b', routes);
    const exact = matchRoute('GET', '/files/raw', routes);
    const other = matchRoute('GET', '/docs/a', routes);

    // Assert
    expect(nested?.route.key).toBe('GET /files/:rest+');
    expect(nested?.pathParameters).toEqual({ rest: 'a/b' });
    expect(exact?.route.key).toBe('GET /files/raw');
    expect(exact?.pathParameters).toBeNull();
    expect(other?.pathParameters).toEqual({ path: 'docs/a' });
  });

  it("matches a subtree's paths as API Gateway is given them: its one greedy resource", () => {
    // Act
    const match = matchRoute('GET', '/api/v4/projects/g%2Fp/repository/files/a%2Fb/raw');

    // Assert
    expect(match?.route).toMatchObject({ group: 'repository', resource: '/api/v4/projects/{id}/repository/{proxy+}' });
    expect(match?.pathParameters).toEqual({ id: 'g%2Fp', proxy: 'files/a%2Fb/raw' });
    expect(matchRoute('PATCH', '/api/v4/projects/1/repository/tree')).toBeUndefined();
  });

  it('refuses a greedy parameter that is not the last segment', () => {
    expect(() => matchRoute('GET', '/a/b/c', [parseRouteKey('web', 'GET /:path+/c')])).toThrow(/must be the last segment/);
  });
});

describe('local API Gateway: proxy event', () => {
  it('builds a REST API (payload 1.0) proxy event', () => {
    // Arrange
    const now = new Date('2025-01-02T03:04:05Z');

    // Act
    const event = buildProxyEvent(request(), mustMatch('GET', '/api/v4/users/5'), { requestId: 'req-1', now });

    // Assert
    expect(event).toMatchObject({
      resource: '/api/v4/users/{id}',
      path: '/api/v4/users/5',
      httpMethod: 'GET',
      headers: { Host: '127.0.0.1:3000', 'PRIVATE-TOKEN': 'secret' },
      multiValueHeaders: { Host: ['127.0.0.1:3000'], 'PRIVATE-TOKEN': ['secret'] },
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: { id: '5' },
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        requestId: 'req-1',
        stage: 'local',
        resourcePath: '/api/v4/users/{id}',
        httpMethod: 'GET',
        path: '/local/api/v4/users/5',
        identity: { sourceIp: '127.0.0.1' },
        requestTimeEpoch: now.getTime(),
        requestTime: '02/Jan/2025:03:04:05 +0000',
      },
    });
  });

  it('passes the encoded path parameter and raw path through', () => {
    // Act
    const event = buildProxyEvent(request({ url: '/api/v4/users/a%2Fb' }), mustMatch('GET', '/api/v4/users/a%2Fb'));

    // Assert
    expect(event.path).toBe('/api/v4/users/a%2Fb');
    expect(event.pathParameters).toEqual({ id: 'a%2Fb' });
  });

  it('decodes query parameters into single- and multi-value maps', () => {
    // Arrange
    const url = '/api/v4/users?a=1&a=2&b[]=x&b%5B%5D=y&c=hello+world&d=%C3%A9%20e';

    // Act
    const event = buildProxyEvent(request({ url }), mustMatch('GET', splitUrl(url).path));

    // Assert
    expect(event.path).toBe('/api/v4/users');
    expect(event.multiValueQueryStringParameters).toEqual({
      a: ['1', '2'],
      'b[]': ['x', 'y'],
      c: ['hello world'],
      d: ['é e'],
    });
    expect(event.queryStringParameters).toEqual({ a: '2', 'b[]': 'y', c: 'hello world', d: 'é e' });
  });

  it('treats an empty query string as no parameters', () => {
    expect(parseQuery('')).toEqual({ queryStringParameters: null, multiValueQueryStringParameters: null });
  });

  it('always sends a body base64-encoded, whatever its type', () => {
    // Arrange
    const json = Buffer.from('{"name":"ünïcode"}');
    const binary = Buffer.from([0, 255, 1, 254]);

    // Act
    const jsonEvent = buildProxyEvent(
      request({ method: 'POST', url: '/api/v4/users', body: json, headers: [['Content-Type', 'application/json']] }),
      mustMatch('POST', '/api/v4/users'),
    );
    const binaryEvent = buildProxyEvent(
      request({ method: 'POST', url: '/api/v4/users', body: binary }),
      mustMatch('POST', '/api/v4/users'),
    );

    // Assert
    expect(jsonEvent.isBase64Encoded).toBe(true);
    expect(Buffer.from(jsonEvent.body!, 'base64').equals(json)).toBe(true);
    expect(binaryEvent.isBase64Encoded).toBe(true);
    expect(Buffer.from(binaryEvent.body!, 'base64').equals(binary)).toBe(true);
  });

  it('keeps every value of a repeated header, the last one in the single-value map', () => {
    // Act
    const event = buildProxyEvent(
      request({ headers: [['Accept', 'a'], ['accept', 'b']] }),
      mustMatch('GET', '/api/v4/users/5'),
    );

    // Assert
    expect(event.multiValueHeaders).toEqual({ Accept: ['a', 'b'] });
    expect(event.headers).toEqual({ Accept: 'b' });
  });
});

describe('local API Gateway: responses', () => {
  it('merges headers and multiValueHeaders, a pair present in both once', () => {
    // Act
    const merged = responseHeaders({
      statusCode: 200,
      body: '',
      headers: { 'Content-Type': 'application/json', Link: '<a>', 'Content-Length': '99' },
      multiValueHeaders: { Link: ['<a>', '<b>'], 'Set-Cookie': ['x=1', 'y=2'] },
    });

    // Assert
    expect(Object.fromEntries([...merged.values()].map((h) => [h.name, h.values]))).toEqual({
      'Content-Type': ['application/json'],
      Link: ['<a>', '<b>'],
      'Set-Cookie': ['x=1', 'y=2'],
    });
  });
});

describe('local API Gateway: server', () => {
  const routes = [
    parseRouteKey('users', 'POST /echo/:id'),
    parseRouteKey('users', 'GET /mirror/:id'),
    parseRouteKey('meta', 'GET /boom'),
    parseRouteKey('meta', 'GET /bytes'),
    parseRouteKey('meta', 'GET /huge'),
  ];
  let seen: APIGatewayProxyEvent | undefined;
  const server = createApiServer({
    routes,
    handlers: {
      users: async (event) => {
        seen = event;
        return { statusCode: 201, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'from-handler' }, body: '{"ok":true}' };
      },
      meta: async (event) => {
        if (event.resource === '/api/v4/boom') throw new Error('boom');
        if (event.resource === '/api/v4/huge') return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify('x'.repeat(6 * 1024 * 1024)) };
        return { statusCode: 200, headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from([1, 2, 255]).toString('base64'), isBase64Encoded: true };
      },
    },
  });
  const base = listening(server);

  it('invokes the group handler with the proxy event and writes its result', async () => {
    // Act
    const response = await fetch(`${base.url}/api/v4/echo/a%2Fb?x=1+2`, { method: 'POST', body: 'raw body', headers: { 'Content-Type': 'text/plain' } });

    // Assert
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('from-handler');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toMatchObject({
      resource: '/api/v4/echo/{id}',
      path: '/api/v4/echo/a%2Fb',
      httpMethod: 'POST',
      pathParameters: { id: 'a%2Fb' },
      queryStringParameters: { x: '1 2' },
      isBase64Encoded: true,
    });
    expect(Buffer.from(seen!.body!, 'base64').toString()).toBe('raw body');
    const contentType = Object.entries(seen!.headers).find(([name]) => name.toLowerCase() === 'content-type');
    expect(contentType?.[1]).toBe('text/plain');
    expect(seen!.headers['X-Forwarded-For']).toBe('127.0.0.1');
  });

  it('serves HEAD from the GET route: the event says HEAD, the answer has no body', async () => {
    // Act
    const response = await fetch(`${base.url}/api/v4/mirror/7`, { method: 'HEAD' });

    // Assert
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('');
    expect(seen).toMatchObject({ resource: '/api/v4/mirror/{id}', path: '/api/v4/mirror/7', httpMethod: 'HEAD', pathParameters: { id: '7' } });
  });

  it('decodes a base64 result to bytes', async () => {
    // Act
    const response = await fetch(`${base.url}/api/v4/bytes`);

    // Assert
    expect(response.status).toBe(200);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 255]);
  });

  it('answers 404 {"error":"404 Not Found"} for an unknown route, with a request id', async () => {
    // Act
    const response = await fetch(`${base.url}/api/v4/echo/1`);

    // Assert
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual({ error: '404 Not Found' });
  });

  it('answers 502 {"message":"Internal server error"} when the handler throws', async () => {
    // Arrange: the gateway reports the failure on stderr; keep the test output clean.
    const write = process.stderr.write;
    process.stderr.write = (() => true);

    // Act
    let response: Response;
    try {
      response = await fetch(`${base.url}/api/v4/boom`);
    } finally {
      process.stderr.write = write;
    }

    // Assert
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: 'Internal server error' });
  });

  it("answers 502 as AWS does when a handler's result exceeds Lambda's 6 MB payload limit", async () => {
    // Arrange: the gateway reports the failure on stderr; keep the test output clean.
    const write = process.stderr.write;
    process.stderr.write = (() => true);

    // Act
    let response: Response;
    try {
      response = await fetch(`${base.url}/api/v4/huge`);
    } finally {
      process.stderr.write = write;
    }

    // Assert
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: 'Internal server error' });
  });

  it('answers 413 for a body over 10 MB', async () => {
    // Act
    const response = await fetch(`${base.url}/api/v4/echo/1`, { method: 'POST', body: Buffer.alloc(10 * 1024 * 1024 + 1) });

    // Assert
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request Too Long' });
  });
});

describe('local API Gateway: response streaming', () => {
  installStreamingRuntime();
  const payload = Buffer.alloc(7 * 1024 * 1024, 7);
  /** Internal: the streamed body's producer, paused after its first chunk until `release` is called. */
  let release: () => void = () => undefined;
  let produced = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    yield Buffer.from('first;');
    produced = 1;
    await new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < 64; i++) {
      yield Buffer.alloc(256 * 1024, i);
      produced++;
    }
  }
  async function* failing(): AsyncGenerator<Buffer> {
    yield Buffer.from('partial');
    throw new Error('broken mid-stream');
  }
  const handler = streamingHandler(async (event) => {
    if (event.path.endsWith('/boom')) throw new Error('boom');
    if (event.path.endsWith('/chunks')) return streamedResult(200, { 'Content-Type': 'application/x-chunks' }, chunks());
    if (event.path.endsWith('/broken')) return streamedResult(200, { 'Content-Type': 'application/x-chunks' }, failing());
    if (event.path.endsWith('/head')) return withoutBody(streamedResult(200, { 'Content-Type': 'application/x-chunks' }, chunks()));
    return { statusCode: 202, headers: { 'Content-Type': 'application/x-test' }, body: payload.toString('base64'), isBase64Encoded: true };
  });
  const server = createApiServer({ routes: [parseRouteKey('web', 'GET /:path+')], handlers: { web: handler as ProxyHandler } });
  const base = listening(server);

  it('answers with the metadata the handler streams, then its body, past the 6 MB of a buffered response', async () => {
    // Act
    const response = await fetch(`${base.url}/big/file`);

    // Assert
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('application/x-test');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(Buffer.from(await response.arrayBuffer()).equals(payload)).toBe(true);
  });

  it('sends a streamed body as the handler produces it, at the pace the client reads it', async () => {
    // Act: the first chunk arrives while the producer still waits.
    const response = await fetch(`${base.url}/stream/chunks`);
    const reader = response.body!.getReader();
    const first = await reader.read();

    // Assert
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-chunks');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(Buffer.from(first.value ?? []).toString()).toBe('first;');
    expect(produced).toBe(1);

    // Act: the rest, 16 MiB, once released; a client that does not read holds the producer back.
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const producedBeforeReading = produced;
    let bytes = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.length;

    // Assert
    expect(producedBeforeReading).toBeLessThan(65);
    expect(bytes).toBe(64 * 256 * 1024);
    expect(produced).toBe(65);
  });

  it('aborts the response when a streamed body fails after its first bytes', async () => {
    // Act
    const response = await fetch(`${base.url}/stream/broken`);

    // Assert: the status was sent; the body breaks off.
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('answers a streamed result without its body when asked so (HEAD)', async () => {
    // Act
    const response = await fetch(`${base.url}/stream/head`);

    // Assert
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 502 when the handler fails before its metadata', async () => {
    // Act
    const response = await fetch(`${base.url}/any/boom`);

    // Assert
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: 'Internal server error' });
  });
});

describe("local API Gateway: Lambda's 6 MB request payload", () => {
  let invoked = false;
  const server = createApiServer({
    routes: [parseRouteKey('users', 'POST /sink')],
    handlers: {
      users: async () => {
        invoked = true;
        return { statusCode: 201, body: '' };
      },
    },
  });
  const base = listening(server);

  it('refuses with 413 a body whose event would exceed 6 MB, without invoking the handler, and serves one under it', async () => {
    // Act: 4.8 MB is under API Gateway's 10 MB but over Lambda's 6 MB once base64-encoded.
    const over = await fetch(`${base.url}/api/v4/sink`, { method: 'POST', body: Buffer.alloc(4_800_000, 1) });
    const overInvoked = invoked;
    const under = await fetch(`${base.url}/api/v4/sink`, { method: 'POST', body: Buffer.alloc(4_000_000, 1) });

    // Assess
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ message: 'Request Too Long' });
    expect(overInvoked).toBe(false);
    expect(under.status).toBe(201);
  });
});
