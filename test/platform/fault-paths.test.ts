import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { handler as metaHandler } from '../../functions/meta/handler';
import { handler as usersHandler } from '../../functions/users/handler';
import { resetConfig } from '../../shared/platform/config';
import { cancelled, useMockedTable } from '../support/mocked-table';
import { nextId, nextIds } from '../../shared/platform/dynamo/counters';
import { keys } from '../../shared/platform/dynamo/keys';
import { userKeys } from '../../shared/users/store/keys';
import { digestToken } from '../../shared/users/store/tokens';
import { ConditionFailed, transact, transactOr } from '../../shared/platform/dynamo/transactions';
import { recordActivity, userToItem, type User } from '../../shared/users/store/users';
import { userRecord } from '../support/user-record';
import { lambdaContext } from '../support/environment';

const TABLE = 'fault-paths-test';
const TOKEN = 'glpat-unit-test-token';
const ddbMock = useMockedTable(TABLE);

/** Internal: an API Gateway REST proxy event, as the users/meta Lambdas receive it. */
function proxyEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/api/v4/user',
    path: '/api/v4/user',
    httpMethod: 'GET',
    headers: { 'PRIVATE-TOKEN': TOKEN },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'req-1' } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
    ...overrides,
  };
}


const invoke = (fn: typeof usersHandler, event: APIGatewayProxyEvent) =>
  fn(event, lambdaContext('lambda-req', 'users') as never);

/** Internal: the JSON lines written to a spied stream. */
const jsonLines = (spy: MockInstance) =>
  spy.mock.calls.flatMap(([chunk]) =>
    String(chunk)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );


const user = userRecord;

let stderr: MockInstance;
let stdout: MockInstance;

beforeAll(() => {
  // Independent of the environment (the integration setup runs the local runtime quietly).
  process.env.LOG_LEVEL = 'info';
  resetConfig();
});

afterAll(() => {
  delete process.env.LOG_LEVEL;
  resetConfig();
});

beforeEach(() => {
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('handler: DynamoDB throttled during authentication', () => {
  it.each([
    ['ProvisionedThroughputExceededException', () => new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} })],
    ['ThrottlingException', () => new ThrottlingException({ message: 'Rate of requests exceeds the allowed throughput', $metadata: {} })],
  ])('answers GET /user with a 500 naming the request id when GetCommand throws %s', async (name, makeError) => {
    // Prepare
    ddbMock.on(GetCommand).rejects(makeError());

    // Act
    const response = await invoke(usersHandler, proxyEvent());

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"message":"500 Internal Server Error","request_id":"req-1"}');
    expect(response.body).not.toContain(name);
    expect(response.body).not.toMatch(/\bat\s|stack/);
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'req-1', 'Content-Type': 'application/json' });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddbMock.commandCalls(GetCommand)[0].args[0].input).toMatchObject({
      TableName: TABLE,
      Key: userKeys.tokenDigest(digestToken(TOKEN)),
    });
  });

  it('writes one structured error line to stderr with the request id and the error', async () => {
    // Prepare
    ddbMock.on(GetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }));

    // Act
    await invoke(usersHandler, proxyEvent());

    // Assess
    const errors = jsonLines(stderr);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      level: 'error',
      message: 'unhandled error',
      requestId: 'req-1',
      error: { name: 'ProvisionedThroughputExceededException', message: 'Rate exceeded' },
    });
    expect((errors[0].error as { stack?: string }).stack).toContain('ProvisionedThroughputExceededException');
  });

  it('still writes the access log line with status 500 to stdout', async () => {
    // Prepare
    ddbMock.on(GetCommand).rejects(new ThrottlingException({ message: 'slow down', $metadata: {} }));

    // Act
    await invoke(usersHandler, proxyEvent());

    // Assess
    const access = jsonLines(stdout).filter((line) => line.message === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'info', requestId: 'req-1', method: 'GET', route: 'GET /user', status: 500 });
  });
});

describe('handler: activity tracking', () => {
  /** Internal: mocks a successful token lookup for `owner`. */
  function mockTokenLookup(owner: User) {
    const tokenSK = `TOKEN#${'1'.padStart(12, '0')}`;
    ddbMock.on(GetCommand, { Key: userKeys.tokenDigest(digestToken(TOKEN)) }).resolves({
      Item: { ...userKeys.tokenDigest(digestToken(TOKEN)), userId: owner.id, childSK: tokenSK },
    });
    ddbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          userToItem(owner),
          {
            PK: `USER#${owner.id}`,
            SK: tokenSK,
            type: 'AccessToken',
            id: 1,
            userId: owner.id,
            name: 'unit',
            scopes: ['api'],
            impersonation: false,
            revoked: false,
            expiresAt: null,
            createdAt: '2024-01-01T00:00:00.000Z',
            digest: digestToken(TOKEN),
          },
        ],
      },
    });
  }

  it('answers GET /user even when recording the activity is throttled, and logs a warning', async () => {
    // Prepare
    mockTokenLookup(user());
    ddbMock.on(UpdateCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} }));

    // Act
    const response = await invoke(usersHandler, proxyEvent());

    // Assess
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ id: 7, username: 'alice', last_activity_on: null });
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
    // Warnings go to stderr, as Node's console.warn (and Powertools' Logger) write them.
    const warnings = jsonLines(stderr).filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: 'could not record activity', requestId: 'req-1', userId: 7 });
    expect([...jsonLines(stdout), ...jsonLines(stderr)].filter((line) => line.level === 'error')).toEqual([]);
  });
});

describe('handler: request shape errors', () => {
  it('answers an event.resource outside the group with 404 {"error":"404 Not Found"}', async () => {
    // Act
    const response = await invoke(metaHandler, proxyEvent({ resource: '/api/v4/user', path: '/api/v4/user' }));

    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('{"error":"404 Not Found"}');
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'req-1' });
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('answers a method the group does not route for that resource with 404', async () => {
    // Act
    const response = await invoke(usersHandler, proxyEvent({ httpMethod: 'PATCH' }));

    // Assess
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ error: '404 Not Found' });
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('answers malformed JSON on POST /users with 400 and writes nothing', async () => {
    // Prepare
    const event = proxyEvent({
      resource: '/api/v4/users',
      path: '/api/v4/users',
      httpMethod: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: '{"email": "a@example.com", "username": ',
    });

    // Act
    const response = await invoke(usersHandler, event);

    // Assess
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'Invalid or malformed JSON was provided' });
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'req-1' });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(jsonLines(stderr)).toEqual([]);
  });
});

describe('handler: JSON bodies that are not objects', () => {
  it.each([['[1, 2]'], ['123'], ['true']])('answers POST /users with body %s with 400 body is invalid and writes nothing', async (body) => {
    // Prepare
    const event = proxyEvent({
      resource: '/api/v4/users',
      path: '/api/v4/users',
      httpMethod: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body,
    });

    // Act
    const response = await invoke(usersHandler, event);

    // Assess
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'body is invalid' });
    expect(ddbMock.calls()).toHaveLength(0);
  });
});

describe('transact', () => {
  const put = (key: string) => ({ Put: { TableName: TABLE, Item: { PK: key, SK: key }, ConditionExpression: 'attribute_not_exists(PK)' } });
  const items = [put('A'), put('B')];
  const named = { first: items[0], second: items[1] };

  beforeEach(() => {
    // No backoff wait: the jitter is Math.random() * 20 * 2 ** attempt milliseconds.
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });

  it('sends the items in one TransactWriteCommand', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});

    // Act
    await transact(named);

    // Assess
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input).toEqual({ TransactItems: items });
  });

  it('retries a TransactionConflict cancellation and succeeds on a later attempt', async () => {
    // Prepare
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['None', 'TransactionConflict']))
      .rejectsOnce(cancelled(['TransactionConflict', 'None']))
      .resolves({});

    // Act
    await transact(named);

    // Assess
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(3);
    for (const call of ddbMock.commandCalls(TransactWriteCommand)) {
      expect(call.args[0].input).toEqual({ TransactItems: items });
    }
  });

  it('gives up after 8 conflicting attempts and rethrows the cancellation', async () => {
    // Prepare
    const conflict = cancelled(['TransactionConflict', 'None']);
    ddbMock.on(TransactWriteCommand).rejects(conflict);

    // Act
    const result = transact(named);

    // Assess
    await expect(result).rejects.toBe(conflict);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(8);
  });

  it('reports ConditionalCheckFailed reasons as ConditionFailed with the names of their entries, without retrying', async () => {
    // Prepare: a list entry fails under its one name.
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed']));

    // Act
    const error = await transact({ project: put('P'), claims: [put('C1'), put('C2')], label: put('L') }).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ConditionFailed);
    expect((error as ConditionFailed).failed).toEqual(['claims', 'label']);
    expect((error as ConditionFailed).failedOn('claims')).toBe(true);
    expect((error as ConditionFailed).failedOn('project')).toBe(false);
    expect((error as Error).message).toBe('transaction condition failed: claims, label');
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('reports a failed condition even when another item of the same transaction conflicted', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['TransactionConflict', 'ConditionalCheckFailed']));

    // Act
    const error = await transact(named).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ConditionFailed);
    expect((error as ConditionFailed).failed).toEqual(['second']);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('leaves out entries that are undefined or false, and sends list entries in order', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).resolves({});

    // Act
    await transact({ a: put('A'), skipped: undefined, off: false, list: [put('B'), put('C')] });

    // Assess
    expect(ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input).toEqual({ TransactItems: [put('A'), put('B'), put('C')] });
  });

  it('rethrows other errors at once', async () => {
    // Prepare
    const throttled = new ProvisionedThroughputExceededException({ message: 'Rate exceeded', $metadata: {} });
    ddbMock.on(TransactWriteCommand).rejects(throttled);

    // Act
    const result = transact(named);

    // Assess
    await expect(result).rejects.toBe(throttled);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('transactOr answers the failure of the first listed entry whose condition failed, else `otherwise`, else rethrows', async () => {
    const entries = { project: put('P'), claim: put('C'), item: put('I') };
    const failures = [
      ['project', 'project_gone'],
      ['claim', 'taken'],
    ] as const;
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await transactOr(entries, failures)).toBeUndefined();
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'ConditionalCheckFailed']));
    expect(await transactOr(entries, failures)).toBe('taken');
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'ConditionalCheckFailed', 'None']));
    expect(await transactOr(entries, failures)).toBe('project_gone');
    // An entry not listed: `otherwise`, or the ConditionFailed itself.
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'None', 'ConditionalCheckFailed']));
    expect(await transactOr(entries, failures, 'changed')).toBe('changed');
    const error = await transactOr(entries, failures).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConditionFailed);
    expect((error as ConditionFailed).failed).toEqual(['item']);
  });
});

describe('recordActivity', () => {
  const DAY = '2024-05-06';

  it('sets the day and the activity index keys, conditioned on the day not being recorded yet', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).resolves({});

    // Act
    await recordActivity(user({ lastActivityOn: '2024-05-05' }), DAY);

    // Assess
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
    const input = ddbMock.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input).toEqual({
      TableName: TABLE,
      Key: { PK: 'USER#7', SK: 'USER' },
      UpdateExpression: 'SET lastActivityOn = :day, GSI3PK = :gsi3pk, GSI3SK = :gsi3sk',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastActivityOn) OR lastActivityOn <> :day)',
      ExpressionAttributeValues: { ':day': DAY, ':gsi3pk': 'USER_ACTIVITY', ':gsi3sk': '2024-05-06#000000000007' },
    });
  });

  it('swallows ConditionalCheckFailedException (another request already recorded today)', async () => {
    // Prepare
    ddbMock
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    // Act
    const result = recordActivity(user(), DAY);

    // Assess
    await expect(result).resolves.toBeUndefined();
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('does not write when the user already has today as lastActivityOn', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).resolves({});

    // Act
    await recordActivity(user({ lastActivityOn: DAY }), DAY);

    // Assess
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('rethrows other errors', async () => {
    // Prepare
    const throttled = new ThrottlingException({ message: 'slow down', $metadata: {} });
    ddbMock.on(UpdateCommand).rejects(throttled);

    // Act
    const result = recordActivity(user(), DAY);

    // Assess
    await expect(result).rejects.toBe(throttled);
  });
});

describe('nextId', () => {
  it('fails every request of the turn when the shared counter update fails, and the next turn asks again', async () => {
    // Prepare
    const throttled = new ThrottlingException({ message: 'slow down', $metadata: {} });
    ddbMock.on(UpdateCommand).rejectsOnce(throttled).resolves({ Attributes: { users: 8 } });

    // Act
    const first = await Promise.allSettled([nextId('users'), nextIds('users', 2)]);
    const next = await nextId('users');

    // Assess
    expect(first.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(next).toBe(8);
    expect(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([keys.counter('ids'), keys.counter('ids')]);
  });
});
