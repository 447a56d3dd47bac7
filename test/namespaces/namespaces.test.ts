/**
 * Group writes against a mocked DynamoDB: which operations each transaction writes, in which
 * order, and how a failed condition, named after its transaction entry, becomes the store's
 * result. (The HTTP behaviour is covered by test/groups/groups.integration.test.ts.)
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Membership } from '../../shared/auth/store/memberships';
import { namespaceKeys, redirectRouteKeys } from '../../shared/namespaces/store/keys';
import { insertGroup, namespaceToItem, removeGroupRecord, updateGroupSettings, type Namespace } from '../../shared/namespaces/store/namespaces';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';

const TABLE = 'groups-store-test';
const ddb = useMockedTable(TABLE);

const group = (fields: Partial<Namespace>): Namespace => ({
  id: 10,
  kind: 'group',
  name: 'Backend',
  path: 'backend',
  fullPath: 'platform/backend',
  parentId: 2,
  ancestorIds: [2, 1],
  ownerId: null,
  description: '',
  visibility: 'private',
  lfsEnabled: true,
  requestAccessEnabled: false,
  ownerCount: 1,
  projectCount: 0,
  subgroupCount: 0,
  createdAt: '2024-05-06T00:00:00.000Z',
  updatedAt: '2024-05-06T00:00:00.000Z',
  version: 1,
  ...fields,
});
const parent = group({ id: 2, name: 'Platform', path: 'platform', fullPath: 'platform', parentId: 1, ancestorIds: [1], subgroupCount: 1 });
const owner: Membership = { sourceKind: 'group', sourceId: 10, userId: 5, accessLevel: 50, expiresAt: null, createdAt: '2024-05-06T00:00:00.000Z', createdById: 5 };

/** The TransactItems of every TransactWriteItems call, in order. */
const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => writerOperations(call.args[0].input));

/** Reasons with `ConditionalCheckFailed` at the given positions of a transaction of `size` operations. */
const failingAt = (size: number, ...positions: number[]) =>
  cancelled(Array.from({ length: size }, (_, i) => (positions.includes(i) ? 'ConditionalCheckFailed' : 'None')));

describe('insertGroup', () => {
  it('writes the group, its path claim (dropping a redirect there) and owner, then the parent count, the parent’s project path and each ancestor', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});
    // Act
    const result = await insertGroup(group({}), owner, parent);
    // Assess
    expect(result).toBe('done');
    const [items] = transactions();
    expect(items.map((item) => Object.keys(item)[0])).toEqual(['Put', 'Put', 'Delete', 'Put', 'Update', 'ConditionCheck', 'ConditionCheck', 'Delete']);
    expect(items[0].Put?.Item).toEqual(namespaceToItem(group({})));
    expect(items[1].Put?.Item).toMatchObject({ ...namespaceKeys.claims.namespacePath('platform/backend'), namespaceId: 10, kind: 'group' });
    expect(items[2].Delete?.Key).toEqual(redirectRouteKeys.redirectRoute('platform/backend'));
    expect(items[3].Put?.Item).toMatchObject({ PK: 'NAMESPACE#10', SK: 'MEMBER#000000000005', accessLevel: 50 });
    expect(items[4].Update).toMatchObject({ Key: namespaceKeys.namespace(2), UpdateExpression: 'ADD subgroupCount :one' });
    expect(items[5].ConditionCheck).toMatchObject({ Key: namespaceKeys.claims.projectPath(2, 'backend') });
    expect(items[6].ConditionCheck).toMatchObject({ Key: namespaceKeys.namespace(1) });
    expect(items[7].Delete?.Key).toEqual(redirectRouteKeys.legacyRedirectRoute('platform/backend'));
  });

  it('writes a top-level group without parent guards', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await insertGroup(group({ parentId: null, ancestorIds: [], fullPath: 'backend' }), owner, null);

    expect(transactions()[0]).toHaveLength(5);
  });

  it.each([
    [[1], 'path_taken'],
    [[5], 'path_taken'],
    [[4], 'parent_changed'],
    [[6], 'parent_changed'],
    [[1, 4], 'parent_changed'],
  ])('answers a failure at %o with %s', async (positions, expected) => {
    ddb.on(TransactWriteCommand).rejects(failingAt(8, ...positions));

    expect(await insertGroup(group({}), owner, parent)).toBe(expected);
  });
});

describe('updateGroupSettings', () => {
  const next = (path: string) => ({
    name: 'Backend',
    path,
    fullPath: `platform/${path}`,
    description: '',
    visibility: 'private' as const,
    lfsEnabled: true,
    requestAccessEnabled: false,
    updatedAt: '2024-05-07T00:00:00.000Z',
  });

  it.each([
    [[1], 'path_taken'],
    [[2], 'conflict'],
    [[0], 'conflict'],
    [[5], 'parent_changed'],
    [[6], 'path_taken'],
    [[7], 'parent_changed'],
  ])('renames a subgroup: group, new claim, old claim, redirect from the old path, none left at the new one, parent guards; a failure at %o is %s', async (positions, expected) => {
    ddb.on(TransactWriteCommand).rejects(failingAt(9, ...positions));

    expect(await updateGroupSettings(group({}), next('services'), parent)).toBe(expected);

    const [items] = transactions();
    expect(items.map((item) => Object.keys(item)[0])).toEqual(['Update', 'Put', 'Delete', 'Put', 'Delete', 'ConditionCheck', 'ConditionCheck', 'ConditionCheck', 'Delete']);
    expect(items[3].Put?.Item).toMatchObject({ ...redirectRouteKeys.redirectRoute('platform/backend'), kind: 'namespace', targetId: 10 });
    expect(items[4].Delete?.Key).toEqual(redirectRouteKeys.redirectRoute('platform/services'));
  });

  it('holds the old path while subgroups move (no release of the old claim)', async () => {
    ddb.on(TransactWriteCommand).rejects(failingAt(8, 4));

    expect(await updateGroupSettings(group({ subgroupCount: 2 }), next('services'), parent)).toBe('parent_changed');

    const [items] = transactions();
    expect(items.map((item) => Object.keys(item)[0])).toEqual(['Update', 'Put', 'Put', 'Delete', 'ConditionCheck', 'ConditionCheck', 'ConditionCheck', 'Delete']);
    expect(items[0].Update?.ExpressionAttributeValues).toMatchObject({ ':moving': ['platform/backend'] });
  });

  it('tells a parent failure from a taken path when only the case of the path changes (the claim stays)', async () => {
    ddb.on(TransactWriteCommand).rejects(failingAt(4, 1));

    expect(await updateGroupSettings(group({}), next('Backend'), parent)).toBe('parent_changed');

    expect(transactions()[0].map((item) => Object.keys(item)[0])).toEqual(['Update', 'ConditionCheck', 'ConditionCheck', 'ConditionCheck']);
  });
});

describe('removeGroupRecord', () => {
  it('removes the group, its claims and counts it out of its parent', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    expect(await removeGroupRecord(group({ movingFrom: ['platform/old'] }))).toBe('done');

    const [items] = transactions();
    expect(items.map((item) => Object.keys(item)[0])).toEqual(['Delete', 'Delete', 'Delete', 'Update']);
    expect(items[3].Update).toMatchObject({ Key: namespaceKeys.namespace(2), ExpressionAttributeValues: { ':minusOne': -1 } });
  });

  it.each([
    [{ Item: namespaceToItem(group({ subgroupCount: 1 })) }, 'not_empty'],
    [{}, 'gone'],
  ])('reads the group again when its condition failed: %o is %s', async (read, expected) => {
    ddb.on(TransactWriteCommand).rejects(failingAt(3, 0));
    ddb.on(GetCommand).resolves(read);

    expect(await removeGroupRecord(group({ parentId: null, ancestorIds: [] }))).toBe(expected);
  });

  it('does not hide a failure of another entry', async () => {
    ddb.on(TransactWriteCommand).rejects(failingAt(3, 1));

    await expect(removeGroupRecord(group({}))).rejects.toMatchObject({ name: 'ConditionFailed', failed: ['paths'] });
  });
});
