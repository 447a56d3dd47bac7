import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSecret } from '../../shared/platform/crypto/secret-box';
import { cancelled } from '../support/mocked-table';
import { resetConfig } from '../../shared/platform/config';
import { setClients } from '../../shared/platform/dynamo/client';
import { DEFAULT_HOOK_TRIGGERS, deleteHook, insertHook, updateHook, type HookSettings, type ProjectHook } from '../../shared/hooks/store/hooks';
import { addHook, editHook } from '../../shared/hooks/commands';
import { openHookToken } from '../../shared/hooks/deliver';
import { presentHook } from '../../shared/hooks/presenters/hooks';
import { NotFoundError } from '../../shared/platform/http/errors';
import { HOOK_FIELDS } from '../support/records';
import { idsEndAt } from '../support/ids';

const TABLE = 'hooks-storage-test';
const TOKEN = 'plaintext-hook-token-4f9a';
const ddbMock = mockClient(DynamoDBDocumentClient);
const saved = { table: process.env.TABLE_NAME, key: process.env.SECRET_BOX_KEY };

const settings: HookSettings = { url: 'https://ci.example.com/hook', ...DEFAULT_HOOK_TRIGGERS };

/** Internal: the TransactItems of the only TransactWrite sent. */
function transaction(): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const calls = ddbMock.commandCalls(TransactWriteCommand);
  expect(calls).toHaveLength(1);
  return calls[0].args[0].input.TransactItems!;
}

/** Internal: every request sent to DynamoDB, serialized, to search for a plaintext. */
const everythingSent = () => JSON.stringify(ddbMock.calls().map((call) => call.args[0].input));


function storedHook(overrides: Partial<ProjectHook> = {}): ProjectHook {
  return { ...settings, id: 5, projectId: 7, hasToken: false, createdAt: '2024-01-01T00:00:00.000Z', ...overrides };
}

beforeAll(() => {
  process.env.TABLE_NAME = TABLE;
  process.env.SECRET_BOX_KEY = 'hooks-storage-unit-key';
  resetConfig();
  setClients({
    db: DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
    ),
  });
});

afterAll(() => {
  if (saved.table === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = saved.table;
  if (saved.key === undefined) delete process.env.SECRET_BOX_KEY;
  else process.env.SECRET_BOX_KEY = saved.key;
  resetConfig();
  ddbMock.restore();
});

beforeEach(() => {
  ddbMock.reset();
  ddbMock.on(UpdateCommand).callsFake(idsEndAt(5)); // nextId('hooks')
  ddbMock.on(TransactWriteCommand).resolves({});
  // A replacing write first reads the versions it replaces (read-your-writes journal): none here.
  ddbMock.on(BatchGetCommand).resolves({ Responses: {} });
});

describe('addHook / insertHook', () => {
  it('writes the hook in its project partition while the project is live, with the token sealed, never in clear', async () => {
    // Act
    const hook = await addHook(7, settings, TOKEN);

    // Assess
    const [check, put] = transaction();
    expect(check.ConditionCheck).toMatchObject({
      TableName: TABLE,
      Key: { PK: 'PROJECT#7', SK: 'PROJECT' },
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
    });
    expect(put.Put).toMatchObject({ TableName: TABLE, ConditionExpression: 'attribute_not_exists(PK)' });
    const item = put.Put!.Item!;
    expect(item).toMatchObject({ PK: 'PROJECT#7', SK: 'HOOK#000000000005', type: 'ProjectHook', id: 5, projectId: 7, hasToken: true });
    expect(item.tokenSealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(item).not.toHaveProperty('token');
    expect(everythingSent()).not.toContain(TOKEN);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
    expect(await openSecret(item.tokenSealed as string)).toBe(TOKEN);
    expect(hook).toMatchObject({ id: 5, projectId: 7, hasToken: true, tokenSealed: item.tokenSealed });
  });

  it.each([
    ['none is given', undefined],
    ['an empty one is given', ''],
  ])('writes no sealed token when %s', async (_case, token) => {
    // Act
    await addHook(7, settings, token);
    // Assess
    const item = transaction()[1].Put!.Item!;
    expect(item.hasToken).toBe(false);
    expect(item).not.toHaveProperty('tokenSealed');
  });

  it('stores the sealed value it is given, as it is (the store never seals nor opens)', async () => {
    // Act
    const hook = await insertHook(7, settings, 'v1:given:given:given');
    // Assess
    expect(transaction()[1].Put!.Item).toMatchObject({ hasToken: true, tokenSealed: 'v1:given:given:given' });
    expect(hook).toMatchObject({ hasToken: true, tokenSealed: 'v1:given:given:given' });
  });

  it("reports a project that is gone or being deleted, as the project's condition fails", async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    // Act / Assess
    await expect(insertHook(7, settings, undefined)).resolves.toBe('project_gone');
    await expect(addHook(7, settings, TOKEN)).rejects.toThrow(new NotFoundError('Project'));
  });
});

describe('editHook / updateHook', () => {
  it('keeps the sealed token when no token is given', async () => {
    // Prepare
    const hook = storedHook({ hasToken: true, tokenSealed: 'v1:kept:kept:kept' });
    // Act
    const updated = await editHook(hook, { ...settings, url: 'https://new.example.com' }, undefined);
    // Assess
    const put = transaction()[1].Put!;
    expect(put.ConditionExpression).toBe('attribute_exists(PK)');
    expect(put.Item).toMatchObject({ url: 'https://new.example.com', hasToken: true, tokenSealed: 'v1:kept:kept:kept' });
    expect(updated).toMatchObject({ url: 'https://new.example.com', tokenSealed: 'v1:kept:kept:kept' });
  });

  it('seals a new token, never sending it in clear', async () => {
    // Prepare
    const hook = storedHook({ hasToken: true, tokenSealed: 'v1:old:old:old' });
    // Act
    await editHook(hook, settings, TOKEN);
    // Assess
    const item = transaction()[1].Put!.Item!;
    expect(item.tokenSealed).not.toBe('v1:old:old:old');
    expect(await openSecret(item.tokenSealed as string)).toBe(TOKEN);
    expect(everythingSent()).not.toContain(TOKEN);
  });

  it('removes the token when given an empty one', async () => {
    // Prepare
    const hook = storedHook({ hasToken: true, tokenSealed: 'v1:old:old:old' });
    // Act
    await editHook(hook, settings, '');
    // Assess
    const item = transaction()[1].Put!.Item!;
    expect(item.hasToken).toBe(false);
    expect(item).not.toHaveProperty('tokenSealed');
  });

  it.each([
    ['project_gone', 'Project', ['ConditionalCheckFailed', 'None']],
    ['hook_gone', 'Project Hook', ['None', 'ConditionalCheckFailed']],
  ])('reports %s when that condition fails (404 %s)', async (expected, resource, codes) => {
    // Prepare
    ddbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    // Act / Assess
    await expect(updateHook(storedHook(), settings, undefined)).resolves.toBe(expected);
    await expect(editHook(storedHook(), settings, undefined)).rejects.toThrow(new NotFoundError(resource));
  });
});

describe('deleteHook', () => {
  it('deletes in one request and returns what was deleted', async () => {
    // Prepare
    ddbMock.on(DeleteCommand).resolves({ Attributes: { PK: 'PROJECT#7', SK: 'HOOK#000000000005', type: 'ProjectHook', ...storedHook() } });
    // Act
    const deleted = await deleteHook(7, 5);
    // Assess
    expect(ddbMock.commandCalls(DeleteCommand)[0].args[0].input).toMatchObject({
      Key: { PK: 'PROJECT#7', SK: 'HOOK#000000000005' },
      ReturnValues: 'ALL_OLD',
    });
    expect(deleted).toEqual(storedHook());
  });

  it('returns undefined when there was nothing to delete', async () => {
    ddbMock.on(DeleteCommand).resolves({});
    await expect(deleteHook(7, 5)).resolves.toBeUndefined();
  });
});

describe('hook token', () => {
  it('opens for deliveries, and is never presented', async () => {
    // Prepare
    const hook = await addHook(7, settings, TOKEN);
    // Act
    const presented = presentHook(hook);
    // Assess
    await expect(openHookToken(hook)).resolves.toBe(TOKEN);
    await expect(openHookToken(storedHook())).resolves.toBeNull();
    expect(Object.keys(presented).sort()).toEqual(HOOK_FIELDS);
    expect(JSON.stringify(presented)).not.toMatch(/token/i);
  });
});
