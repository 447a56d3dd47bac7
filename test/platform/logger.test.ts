import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { ApiContext } from '../../shared/platform/http/context';
import { createLogger, logger, loggerForInvocation } from '../../shared/platform/logger';
import { requestLogger } from '../../shared/platform/middleware/request-logger';
import { isolateEnvironment, lambdaContext as supportContext, setEnvironment } from '../support/environment';

/** Internal: a Lambda context like the one Lambda (and the local runtime) passes. */
const lambdaContext = (awsRequestId = 'lambda-req-1'): Context => supportContext(awsRequestId, 'project-hosting-users');

let stdout: MockInstance;
let stderr: MockInstance;

/** Internal: what a spied stream received, as raw text. */
const written = (spy: MockInstance) => spy.mock.calls.map(([chunk]) => String(chunk)).join('');

/** Internal: the lines a spied stream received, each parsed as one JSON object. */
const lines = (spy: MockInstance) =>
  written(spy)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const VARIABLES = ['LOG_LEVEL', 'SERVICE_NAME', 'AWS_LAMBDA_INITIALIZATION_TYPE', 'POWERTOOLS_LOGGER_LOG_EVENT'] as const;

isolateEnvironment(VARIABLES);

beforeEach(() => {
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('logger: line shape', () => {
  it('writes one JSON object per line: level, time, message, service, then the fields', () => {
    // Act
    logger.info('webhook delivered', { hookId: 3, durationMs: 12 });
    logger.info('second');

    // Assess
    const text = written(stdout);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
    const [first] = lines(stdout);
    expect(first).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: 'webhook delivered',
      service: 'project-hosting',
      hookId: 3,
      durationMs: 12,
    });
    expect(Object.keys(first).slice(0, 4)).toEqual(['level', 'time', 'message', 'service']);
  });

  it('names the service from SERVICE_NAME', () => {
    // Prepare
    setEnvironment({ SERVICE_NAME: 'hosting-test' });

    // Act
    logger.info('hello');

    // Assess
    expect(lines(stdout)[0]).toMatchObject({ service: 'hosting-test' });
  });

  it('writes error lines to stderr and the others to stdout', () => {
    // Prepare
    setEnvironment({ LOG_LEVEL: 'debug' });

    // Act
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');

    // Assess
    expect(lines(stdout).map((line) => line.level)).toEqual(['debug', 'info']);
    expect(lines(stderr).map((line) => line.level)).toEqual(['warn', 'error']);
  });

  it('serialises an error as name, message, stack and an Error cause, nothing else', () => {
    // Prepare
    const cause = Object.assign(new TypeError('socket hang up'), { $response: { headers: { 'x-amz-id': '1' } } });
    const error = Object.assign(new Error('could not read the table', { cause }), { name: 'ThrottlingException', $metadata: { attempts: 3 } });

    // Act
    logger.error('unhandled error', { error });

    // Assess
    expect(lines(stderr)[0].error).toEqual({
      name: 'ThrottlingException',
      message: 'could not read the table',
      stack: expect.stringContaining('could not read the table'),
      cause: { name: 'TypeError', message: 'socket hang up', stack: expect.stringContaining('socket hang up') },
    });
  });

  it('leaves out a cause that is not an Error (middy\'s body parsers put the raw body there)', () => {
    // Prepare
    const error = new Error('Invalid or malformed JSON was provided', { cause: { data: '{"password":"hunter2"' } });

    // Act
    logger.error('unhandled error', { error });

    // Assess
    expect(lines(stderr)[0].error).toEqual({ name: 'Error', message: 'Invalid or malformed JSON was provided', stack: expect.any(String) });
    expect(written(stderr)).not.toContain('hunter2');
  });

  it('keeps the fields of every ancestor in a child', () => {
    // Act
    createLogger({ component: 'stream-poller' }).child({ shard: 'a' }).info('records read', { count: 2 });

    // Assess
    expect(lines(stdout)[0]).toMatchObject({ component: 'stream-poller', shard: 'a', count: 2 });
  });
});

describe('logger: LOG_LEVEL', () => {
  const messages = () => [...lines(stdout), ...lines(stderr)].map((line) => line.message).sort();

  it.each([
    [undefined, ['error', 'info', 'warn']],
    ['debug', ['debug', 'error', 'info', 'warn']],
    ['info', ['error', 'info', 'warn']],
    ['warn', ['error', 'warn']],
    ['error', ['error']],
    ['WARN', ['error', 'warn']],
    ['verbose', ['error', 'info', 'warn']],
  ])('with LOG_LEVEL=%s writes %j', (level, expected) => {
    // Prepare
    setEnvironment({ LOG_LEVEL: level });
    const log = loggerForInvocation(lambdaContext(), { requestId: 'req-1' });

    // Act
    for (const write of [logger, log]) {
      write.debug('debug');
      write.info('info');
      write.warn('warn');
      write.error('error');
    }

    // Assess
    expect(messages()).toEqual(expected.flatMap((message) => [message, message]));
  });
});

describe('loggerForInvocation', () => {
  it('puts the request id and the Lambda function on every line, its children\'s included', () => {
    // Prepare
    const log = loggerForInvocation(lambdaContext('lambda-req-9'), { requestId: 'api-req-9' });

    // Act
    log.info('request', { status: 200 });
    log.child({ component: 'activity' }).warn('could not record activity');

    // Assess
    const expected = {
      requestId: 'api-req-9',
      functionName: 'project-hosting-users',
      functionRequestId: 'lambda-req-9',
      coldStart: false,
    };
    expect(lines(stdout)[0]).toMatchObject({ ...expected, message: 'request', status: 200 });
    expect(lines(stderr)[0]).toMatchObject({ ...expected, message: 'could not record activity', component: 'activity' });
  });

  it('does not mix up concurrent invocations', () => {
    // Prepare
    const first = loggerForInvocation({ ...lambdaContext('l-1'), functionName: 'project-hosting-users' }, { requestId: 'r-1' });
    const second = loggerForInvocation({ ...lambdaContext('l-2'), functionName: 'project-hosting-projects' }, { requestId: 'r-2' });

    // Act
    second.info('b');
    first.info('a');

    // Assess
    expect(lines(stdout)).toEqual([
      expect.objectContaining({ message: 'b', requestId: 'r-2', functionName: 'project-hosting-projects', functionRequestId: 'l-2' }),
      expect.objectContaining({ message: 'a', requestId: 'r-1', functionName: 'project-hosting-users', functionRequestId: 'l-1' }),
    ]);
  });

  it('reports a cold start on the first on-demand invocation of the sandbox only', () => {
    // Prepare: Lambda sets AWS_LAMBDA_INITIALIZATION_TYPE; a new configuration starts a new root logger.
    setEnvironment({ AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' });

    // Act
    const first = loggerForInvocation(lambdaContext('l-1'), { requestId: 'r-1' });
    first.info('first');
    first.child({ component: 'x' }).info('first, child');
    loggerForInvocation(lambdaContext('l-2'), { requestId: 'r-2' }).info('second');

    // Assess
    expect(lines(stdout).map((line) => [line.message, line.coldStart])).toEqual([
      ['first', true],
      ['first, child', true],
      ['second', false],
    ]);
  });
});

describe('logger: secrets', () => {
  it('never writes the value of a secret-named key, at any depth', () => {
    // Act
    logger.warn('unexpected request', {
      headers: { Authorization: 'Bearer glpat-secret-1', 'PRIVATE-TOKEN': 'glpat-secret-2', 'User-Agent': 'curl' },
      query: { private_token: 'glpat-secret-3', page: '2' },
      hook: { token: 'hook-secret', url: 'https://example.com' },
      user: { password: 'hunter2' },
    });

    // Assess
    const text = written(stderr);
    expect(text).not.toMatch(/glpat-secret|hook-secret|hunter2/);
    expect(lines(stderr)[0]).toMatchObject({
      headers: { Authorization: '[REDACTED]', 'PRIVATE-TOKEN': '[REDACTED]', 'User-Agent': 'curl' },
      query: { private_token: '[REDACTED]', page: '2' },
      hook: { token: '[REDACTED]', url: 'https://example.com' },
    });
  });
});

describe('requestLogger middleware', () => {
  /** Internal: a handler with only the request logger, answering `status`. */
  const handlerAnswering = (status: number) =>
    middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>()
      .use(requestLogger())
      .handler(async () => ({ statusCode: status, body: '{}' }));

  /** Internal: a request carrying a token in every place GitLab accepts one. */
  const event = {
    resource: '/api/v4/user',
    path: '/api/v4/user',
    httpMethod: 'GET',
    headers: { 'PRIVATE-TOKEN': 'glpat-header-secret', Authorization: 'Bearer glpat-bearer-secret' },
    multiValueHeaders: {},
    queryStringParameters: { private_token: 'glpat-query-secret' },
    multiValueQueryStringParameters: { private_token: ['glpat-query-secret'] },
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'api-req-1' } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
  } as APIGatewayProxyEvent;

  it('writes one access line with the request id and the function, and echoes the id', async () => {
    // Act
    const response = await handlerAnswering(204)(event, lambdaContext() as ApiContext);

    // Assess
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'api-req-1' });
    const access = lines(stdout);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 'info',
      message: 'request',
      requestId: 'api-req-1',
      functionName: 'project-hosting-users',
      functionRequestId: 'lambda-req-1',
      method: 'GET',
      status: 204,
      durationMs: expect.any(Number),
    });
  });

  it('writes no token the request carried, even asked to log events (the event is never logged)', async () => {
    // Prepare
    setEnvironment({ LOG_LEVEL: 'debug', POWERTOOLS_LOGGER_LOG_EVENT: 'true' });

    // Act
    await handlerAnswering(401)(event, lambdaContext() as ApiContext);

    // Assess
    expect(written(stdout) + written(stderr)).not.toMatch(/glpat-/);
  });
});
