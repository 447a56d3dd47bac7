/**
 * The request metrics (EMF lines on stdout) and the request's trace subsegment, written by the
 * platform's outermost middleware (`requestLogger` → `requestTelemetry`), through a real group
 * handler: its route resolution names the function and the route.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { Segment, type Subsegment } from 'aws-xray-sdk-core';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import * as z from 'zod';
import { createGroupHandler } from '../../shared/platform/group-handler';
import type { ApiContext } from '../../shared/platform/http/context';
import { NotFoundError } from '../../shared/platform/http/errors';
import { created, ok } from '../../shared/platform/http/response';
import { route } from '../../shared/platform/http/route';
import { requestLogger } from '../../shared/platform/middleware/request-logger';
import { statusClass } from '../../shared/platform/middleware/request-telemetry';
import { tracer } from '../../shared/platform/observability';
import { isolateEnvironment, setEnvironment } from '../support/environment';

type Line = Record<string, unknown> & { _aws?: { Timestamp: number; CloudWatchMetrics: unknown[] } };

/** Internal: what the platform reads, reset around every test. */
const VARIABLES = [
  'POWERTOOLS_METRICS_DISABLED',
  'POWERTOOLS_DEV',
  'METRICS_NAMESPACE',
  'POWERTOOLS_METRICS_NAMESPACE',
  'POWERTOOLS_METRICS_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_EXECUTION_ENV',
  'POWERTOOLS_TRACE_ENABLED',
  'SERVICE_NAME',
  'POWERTOOLS_SERVICE_NAME',
  'LOG_LEVEL',
] as const;

let stdout: MockInstance;

isolateEnvironment(VARIABLES);

beforeEach(() => {
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Internal: the EMF lines written to stdout (the access-log lines are left out). */
const emfLines = (): Line[] =>
  stdout.mock.calls
    .map(([chunk]) => String(chunk))
    .join('')
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Line);

/** Internal: a gate a route waits on, to hold a request open while another one runs. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Internal: a group `things` with an answered route, a 404 route, a failing route and one held open. */
function thingsHandler(held = gate()) {
  return createGroupHandler(
    { group: 'things', prefix: '/api/v4', keys: ['GET /things', 'GET /things/:id', 'POST /things', 'PUT /things/:id'] as const },
    {
      'GET /things': route({ params: z.object({}), anonymous: true, handler: async () => ok([]) }),
      'GET /things/:id': route({
        params: z.object({ id: z.string() }),
        anonymous: true,
        handler: async ({ params }) => {
          if (params.id === 'held') await held.opened;
          throw new NotFoundError('Thing');
        },
      }),
      'POST /things': route({
        params: z.object({}),
        anonymous: true,
        handler: async () => {
          throw new Error('the table is gone');
        },
      }),
      'PUT /things/:id': route({ params: z.object({ id: z.string() }), anonymous: true, handler: async () => created({}) }),
    },
    [],
  );
}

/** Internal: the REST proxy event of `method resource` (path parameters as API Gateway passes them). */
function event(method: string, resource: string, requestId: string, pathParameters: Record<string, string> | null = null): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters,
    stageVariables: null,
    requestContext: { requestId } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
  };
}

const context = (awsRequestId: string) => ({ awsRequestId, functionName: 'project-hosting-things' }) as Context & ApiContext;

describe('request metrics', () => {
  it('writes one EMF line per request: Requests and Latency by function and status class, and by function', async () => {
    // Prepare
    setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
    const handler = thingsHandler();

    // Act
    const response = await handler(event('GET', '/api/v4/things', 'req-1'), context('l-1'));

    // Assess
    expect(response.statusCode).toBe(200);
    expect(emfLines()).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [
            {
              Namespace: 'ProjectHosting',
              Dimensions: [
                ['service', 'function', 'statusClass'],
                ['service', 'function'],
              ],
              Metrics: [
                { Name: 'Requests', Unit: 'Count' },
                { Name: 'Latency', Unit: 'Milliseconds' },
              ],
            },
          ],
        },
        service: 'project-hosting',
        function: 'things',
        statusClass: '2xx',
        route: 'GET /things',
        requestId: 'req-1',
        Requests: 1,
        Latency: expect.any(Number),
      },
    ]);
    const [line] = emfLines();
    expect(line.Latency).toBeGreaterThanOrEqual(0);
    expect(line.Latency).toBeLessThan(5_000);
  });

  it('names the namespace with METRICS_NAMESPACE, else POWERTOOLS_METRICS_NAMESPACE (the stack sets it)', async () => {
    // Prepare
    const handler = thingsHandler();
    const namespaceOfNextRequest = async () => {
      stdout.mockClear();
      await handler(event('GET', '/api/v4/things', 'req'), context('l'));
      return (emfLines()[0]._aws!.CloudWatchMetrics[0] as { Namespace: string }).Namespace;
    };

    // Act / Assess
    setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_METRICS_NAMESPACE: 'FromTheStack' });
    expect(await namespaceOfNextRequest()).toBe('FromTheStack');
    setEnvironment({ METRICS_NAMESPACE: 'Chosen' });
    expect(await namespaceOfNextRequest()).toBe('Chosen');
  });

  it('counts client errors as 4xx and failures as 5xx, flushed although the route threw', async () => {
    // Prepare
    setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
    const handler = thingsHandler();

    // Act
    const notFound = await handler(event('GET', '/api/v4/things/{id}', 'req-404', { id: '7' }), context('l-1'));
    const failed = await handler(event('POST', '/api/v4/things', 'req-500'), context('l-2'));
    const createdThing = await handler(event('PUT', '/api/v4/things/{id}', 'req-201', { id: '7' }), context('l-3'));

    // Assess
    expect([notFound.statusCode, failed.statusCode, createdThing.statusCode]).toEqual([404, 500, 201]);
    expect(emfLines().map((line) => [line.requestId, line.route, line.statusClass, line.Requests])).toEqual([
      ['req-404', 'GET /things/:id', '4xx', 1],
      ['req-500', 'POST /things', '5xx', 1],
      ['req-201', 'PUT /things/:id', '2xx', 1],
    ]);
  });

  it('counts a request whose error no middleware answers as a 5xx, and lets the error through', async () => {
    // Prepare: the request logger alone, without the error responder.
    setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
    const bare = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>()
      .use(requestLogger())
      .handler(async () => {
        throw new Error('unanswered');
      });

    // Act / Assess
    await expect(bare(event('GET', '/api/v4/things', 'req-raw'), context('l-raw'))).rejects.toThrow('unanswered');
    expect(emfLines()).toEqual([
      expect.objectContaining({ function: 'unknown', route: 'unmatched', statusClass: '5xx', requestId: 'req-raw', Requests: 1 }),
    ]);
  });

  it('keeps concurrent invocations apart: each line carries only its own request', async () => {
    // Prepare: the first request waits inside its route until the second has finished.
    setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
    const held = gate();
    const handler = thingsHandler(held);

    // Act
    const first = handler(event('GET', '/api/v4/things/{id}', 'req-held', { id: 'held' }), context('l-held'));
    const second = await handler(event('GET', '/api/v4/things', 'req-quick'), context('l-quick'));
    const linesWhileHeld = emfLines();
    held.open();
    const firstResponse = await first;

    // Assess
    expect([firstResponse.statusCode, second.statusCode]).toEqual([404, 200]);
    expect(linesWhileHeld).toHaveLength(1);
    const lines = emfLines();
    expect(lines).toEqual([
      expect.objectContaining({ requestId: 'req-quick', route: 'GET /things', statusClass: '2xx', Requests: 1 }),
      expect.objectContaining({ requestId: 'req-held', route: 'GET /things/:id', statusClass: '4xx', Requests: 1 }),
    ]);
    // One value each: nothing of one request was buffered into the other's line.
    for (const line of lines) expect(typeof line.Latency).toBe('number');
  });

  it('keeps many interleaved invocations apart', async () => {
    // Prepare
    setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
    const handler = thingsHandler();
    const ids = Array.from({ length: 20 }, (_, i) => `req-${i}`);

    // Act: all in flight at once, on two routes.
    await Promise.all(
      ids.map((id, i) =>
        i % 2 === 0
          ? handler(event('GET', '/api/v4/things', id), context(id))
          : handler(event('GET', '/api/v4/things/{id}', id, { id: String(i) }), context(id)),
      ),
    );

    // Assess
    const lines = emfLines();
    expect(lines).toHaveLength(ids.length);
    for (const line of lines) {
      const i = Number(String(line.requestId).slice('req-'.length));
      expect(line).toMatchObject(i % 2 === 0 ? { route: 'GET /things', statusClass: '2xx', Requests: 1 } : { route: 'GET /things/:id', statusClass: '4xx', Requests: 1 });
    }
    expect(new Set(lines.map((line) => line.requestId)).size).toBe(ids.length);
  });

  it('writes a ColdStart line by function on the first invocation of an on-demand sandbox only', async () => {
    // Prepare: Lambda sets AWS_LAMBDA_INITIALIZATION_TYPE (and AWS_LAMBDA_FUNCTION_NAME, which turns metrics on).
    setEnvironment({ AWS_LAMBDA_FUNCTION_NAME: 'project-hosting-things', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' });
    const handler = thingsHandler();

    // Act
    await handler(event('GET', '/api/v4/things', 'req-1'), context('l-1'));
    await handler(event('GET', '/api/v4/things', 'req-2'), context('l-2'));

    // Assess
    const coldStarts = emfLines().filter((line) => 'ColdStart' in line);
    expect(coldStarts).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [{ Namespace: 'ProjectHosting', Dimensions: [['service', 'function']], Metrics: [{ Name: 'ColdStart', Unit: 'Count' }] }],
        },
        service: 'project-hosting',
        function: 'things',
        ColdStart: 1,
      },
    ]);
    expect(emfLines().filter((line) => 'Requests' in line)).toHaveLength(2);
  });

  it('writes no ColdStart line for a provisioned sandbox', async () => {
    // Prepare
    setEnvironment({ AWS_LAMBDA_FUNCTION_NAME: 'project-hosting-things', AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency' });
    const handler = thingsHandler();

    // Act
    await handler(event('GET', '/api/v4/things', 'req-1'), context('l-1'));

    // Assess
    expect(emfLines().filter((line) => 'ColdStart' in line)).toEqual([]);
    expect(emfLines()).toHaveLength(1);
  });

  it.each([
    ['outside Lambda, by default (tests, local runtime)', {}],
    ['when POWERTOOLS_METRICS_DISABLED=true, even on Lambda', { POWERTOOLS_METRICS_DISABLED: 'true', AWS_LAMBDA_FUNCTION_NAME: 'f' }],
    ['when POWERTOOLS_METRICS_DISABLED is not a boolean (Powertools would refuse it)', { POWERTOOLS_METRICS_DISABLED: 'maybe', AWS_LAMBDA_FUNCTION_NAME: 'f' }],
  ] as const)('writes nothing %s', async (_, variables) => {
    // Prepare
    setEnvironment(variables);
    const handler = thingsHandler();

    // Act
    const response = await handler(event('GET', '/api/v4/things', 'req-1'), context('l-1'));

    // Assess: the access-log line only.
    expect(response.statusCode).toBe(200);
    expect(emfLines()).toEqual([]);
    expect(stdout.mock.calls.map(([chunk]) => String(chunk)).join('')).toContain('"message":"request"');
  });

  it('turns status codes into bounded classes', () => {
    expect([200, 201, 204, 304, 400, 404, 429, 500, 503].map(statusClass)).toEqual(['2xx', '2xx', '2xx', '3xx', '4xx', '4xx', '4xx', '5xx', '5xx']);
  });
});

describe('request trace subsegment', () => {
  /** Internal: runs `work` with Lambda's (facade) segment active, as the X-Ray SDK does on Lambda. */
  async function withFacadeSegment(work: (facade: Segment) => Promise<void>): Promise<Segment> {
    const facade = new Segment('project-hosting-things');
    await tracer()
      .provider.getNamespace()
      .runPromise(async () => {
        tracer().setSegment(facade);
        await work(facade);
      });
    return facade;
  }

  it('is a subsegment of Lambda\'s segment annotated with the route and the status, flagged from the status', async () => {
    // Prepare: tracing on, as on Lambda (Powertools checks AWS_EXECUTION_ENV; the platform AWS_LAMBDA_FUNCTION_NAME).
    setEnvironment({ AWS_LAMBDA_FUNCTION_NAME: 'project-hosting-things', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_METRICS_DISABLED: 'true' });
    expect(tracer().isTracingEnabled()).toBe(true);
    const handler = thingsHandler();

    // Act
    const facade = await withFacadeSegment(async (active) => {
      await handler(event('GET', '/api/v4/things', 'req-ok'), context('l-1'));
      await handler(event('GET', '/api/v4/things/{id}', 'req-404', { id: '7' }), context('l-2'));
      await handler(event('POST', '/api/v4/things', 'req-500'), context('l-3'));
      // Each request gave Lambda's segment back when it ended.
      expect(tracer().getSegment()).toBe(active);
    });

    // Assess
    const subsegments = facade.subsegments ?? [];
    expect(subsegments.map((subsegment) => subsegment.name)).toEqual(['## handler', '## handler', '## handler']);
    // What the subsegment sends to X-Ray (the SDK's types do not declare its annotations).
    const annotations = (subsegment: Subsegment) => (subsegment as unknown as { annotations?: Record<string, unknown> }).annotations;
    expect(subsegments.map(annotations)).toEqual([
      { ColdStart: false, Service: 'project-hosting', route: 'GET /things', status: 200 },
      { ColdStart: false, Service: 'project-hosting', route: 'GET /things/:id', status: 404 },
      { ColdStart: false, Service: 'project-hosting', route: 'POST /things', status: 500 },
    ]);
    const flags = (subsegment: Subsegment) => {
      const { error, fault } = subsegment as unknown as { error?: boolean; fault?: boolean };
      return { error: error ?? false, fault: fault ?? false };
    };
    expect(subsegments.map(flags)).toEqual([
      { error: false, fault: false },
      { error: true, fault: false },
      { error: false, fault: true },
    ]);
    expect(subsegments.every((subsegment) => subsegment.isClosed())).toBe(true);
  });

  it('is not opened where tracing is off (tests, local runtime)', async () => {
    // Prepare
    setEnvironment({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_TRACE_ENABLED: 'false' });
    const handler = thingsHandler();

    // Act
    const facade = await withFacadeSegment(async () => {
      await handler(event('GET', '/api/v4/things', 'req-ok'), context('l-1'));
    });

    // Assess
    expect(tracer().isTracingEnabled()).toBe(false);
    expect(facade.subsegments ?? []).toEqual([]);
  });
});
