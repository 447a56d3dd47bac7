/**
 * Membership rules against a mocked DynamoDB: which transaction each change writes, how failed
 * conditions map to GitLab's answers, and how a concurrent change makes an edit or removal decide
 * again from fresh state. (The HTTP behaviour is covered by test/members/members.integration.test.ts.)
 */
import { DynamoDBClient, TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/platform/config';
import { setClients } from '../../shared/platform/dynamo/client';
import { type MemberSource, membershipIndexKeys, membershipKeys } from '../../shared/auth/store/keys';
import { namespaceKeys } from '../../shared/namespaces/store/keys';
import { userKeys } from '../../shared/users/store/keys';
import { accessRequestKeys } from '../../shared/members/store/keys';
import { membershipToItem, type Membership } from '../../shared/auth/store/memberships';
import type { Item } from '../../shared/platform/dynamo/query';
import { LAST_OWNER_REASON, addMember, ownerCountDelta, removeAllMembershipsOf, removeMember, updateMember } from '../../shared/members/commands';
import { ConflictError, ForbiddenError, NotFoundError } from '../../shared/platform/http/errors';
import type { User } from '../../shared/users/store/users';
import { idsEndAt } from '../support/ids';
import { writerOperations } from '../support/mocked-table';

const TABLE = 'members-domain-test';
const ddbMock = mockClient(DynamoDBDocumentClient);
const GROUP: MemberSource = { kind: 'group', id: 100 };
const PROJECT: MemberSource = { kind: 'project', id: 200 };

/** Internal: items the mocked BatchGetItem answers with, by `PK SK`. */
let stored: Map<string, Item>;
const store = (item: Item) => stored.set(`${item.PK} ${item.SK}`, item);

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code): CancellationReason => ({ Code })),
  });

const userItem = (id: number): Item => ({ ...userKeys.user(id), id, username: `user${id}`, name: `User ${id}`, state: 'active' });

const membership = (source: MemberSource, userId: number, accessLevel: number): Membership => ({
  sourceKind: source.kind,
  sourceId: source.id,
  userId,
  accessLevel,
  expiresAt: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  createdById: 1,
});

/** The TransactItems of every TransactWriteItems call, in order. */
const transactions = () => ddbMock.commandCalls(TransactWriteCommand).map((call) => writerOperations(call.args[0].input));
/** The feed events written (each in its own transaction with checks of its project and author). */
const events = () => transactions().flatMap((items) => items.map((item) => item.Put?.Item)).filter((item) => item?.type === 'Event');

const actor = { id: 1 } as User;

beforeAll(() => {
  process.env.TABLE_NAME = TABLE;
  resetConfig();
  setClients({
    db: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } })),
  });
});

afterAll(() => {
  ddbMock.restore();
  delete process.env.TABLE_NAME;
  resetConfig();
});

beforeEach(() => {
  ddbMock.reset();
  stored = new Map();
  ddbMock.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const requested = input.RequestItems?.[TABLE]?.Keys ?? [];
    const found = requested.flatMap((key) => stored.get(`${key.PK} ${key.SK}`) ?? []);
    return { Responses: { [TABLE]: found } };
  });
  ddbMock.on(UpdateCommand).callsFake(idsEndAt(1)); // event ids
});

describe('ownerCountDelta', () => {
  it.each([
    [GROUP, null, 50, 1],
    [GROUP, 50, null, -1],
    [GROUP, 50, 40, -1],
    [GROUP, 30, 50, 1],
    [GROUP, 50, 50, 0],
    [GROUP, 10, 40, 0],
    [PROJECT, null, 40, 0],
  ] as const)('%o from %s to %s → %i', (source, from, to, delta) => {
    expect(ownerCountDelta(source, from, to)).toBe(delta);
  });
});

describe('addMember', () => {
  it('writes a new group owner with the owner-count increment, conditioned on a live group and user, ending their access request', async () => {
    // Prepare
    store(userItem(5));
    ddbMock.on(TransactWriteCommand).resolves({});

    // Act
    const member = await addMember(GROUP, { userId: 5, accessLevel: 50, expiresAt: null }, actor);

    // Assess
    expect(member.membership).toMatchObject({ sourceKind: 'group', sourceId: 100, userId: 5, accessLevel: 50, createdById: 1 });
    const [items] = transactions();
    expect(items).toHaveLength(4);
    expect(items[0].Update).toMatchObject({
      Key: namespaceKeys.namespace(100),
      UpdateExpression: 'ADD ownerCount :delta',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
      ExpressionAttributeValues: { ':delta': 1 },
    });
    expect(items[1].ConditionCheck).toMatchObject({ Key: userKeys.user(5) });
    expect(items[2].Put).toMatchObject({ Item: { ...membershipKeys.member(GROUP, 5), accessLevel: 50 }, ConditionExpression: 'attribute_not_exists(PK)' });
    // The user's pending access request, if any, ends with the membership.
    expect(items[3].Delete).toEqual({ TableName: expect.any(String), Key: accessRequestKeys.request(GROUP, 5) });
    expect(events()).toHaveLength(0); // group changes record no event
  });

  it('checks that a group stays live without counting a non-owner', async () => {
    store(userItem(5));
    ddbMock.on(TransactWriteCommand).resolves({});

    await addMember(GROUP, { userId: 5, accessLevel: 30, expiresAt: null }, actor);

    expect(transactions()[0][0].ConditionCheck).toMatchObject({ Key: namespaceKeys.namespace(100) });
  });

  it('records a "joined" event authored by the new project member', async () => {
    store(userItem(5));
    ddbMock.on(TransactWriteCommand).resolves({});

    await addMember(PROJECT, { userId: 5, accessLevel: 30, expiresAt: null }, actor);

    const [event] = events();
    expect(event).toMatchObject({ projectId: 200, authorId: 5, actionName: 'joined', targetType: null });
  });

  it.each([
    [['ConditionalCheckFailed', 'None', 'None'], NotFoundError, '404 Project Not Found'],
    [['None', 'ConditionalCheckFailed', 'None'], NotFoundError, '404 User Not Found'],
    [['None', 'None', 'ConditionalCheckFailed'], ConflictError, 'Member already exists'],
  ])('maps the failed conditions %o to %s', async (codes, type, message) => {
    store(userItem(5));
    ddbMock.on(TransactWriteCommand).rejects(cancelled(codes));

    const result = addMember(PROJECT, { userId: 5, accessLevel: 30, expiresAt: null }, actor);

    await expect(result).rejects.toBeInstanceOf(type);
    await expect(result).rejects.toMatchObject({ body: { message } });
  });

  it('answers 404 User Not Found without writing when the user does not exist', async () => {
    await expect(addMember(PROJECT, { userId: 6, accessLevel: 30, expiresAt: null }, actor)).rejects.toMatchObject({
      statusCode: 404,
      body: { message: '404 User Not Found' },
    });
    expect(transactions()).toHaveLength(0);
  });
});

describe('updateMember', () => {
  it('re-reads after a concurrent change and decides the owner count from the fresh level', async () => {
    // Prepare: read as an owner, but someone demotes them before our write lands.
    store(userItem(5));
    store(membershipToItem(membership(GROUP, 5, 50)));
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None']))
      .callsFake(() => ({}));
    ddbMock.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
      const attempt = transactions().length;
      const level = attempt === 0 ? 50 : 30;
      const items = [userItem(5), membershipToItem(membership(GROUP, 5, level))];
      const wanted = new Set((input.RequestItems?.[TABLE]?.Keys ?? []).map((k) => `${k.PK} ${k.SK}`));
      return { Responses: { [TABLE]: items.filter((i) => wanted.has(`${i.PK} ${i.SK}`)) } };
    });

    // Act
    const member = await updateMember(GROUP, 5, { accessLevel: 20 });

    // Assess
    expect(member.membership.accessLevel).toBe(20);
    const [first, second] = transactions();
    expect(first).toHaveLength(2); // demotion of an owner: membership + owner count -1
    expect(first[1].Update).toMatchObject({ ExpressionAttributeValues: { ':delta': -1, ':one': 1 } });
    expect(first[0].Update).toMatchObject({ ExpressionAttributeValues: { ':level': 50 } });
    expect(second).toHaveLength(1); // 30 → 20 does not touch the count
    expect(second[0].Update).toMatchObject({ ExpressionAttributeValues: { ':level': 30, ':accessLevel': 20 } });
  });

  it('refuses to demote the last owner (the owner count condition fails)', async () => {
    store(userItem(5));
    store(membershipToItem(membership(GROUP, 5, 50)));
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));

    const result = updateMember(GROUP, 5, { accessLevel: 40 });

    await expect(result).rejects.toBeInstanceOf(ForbiddenError);
    await expect(result).rejects.toMatchObject({ body: { message: `403 Forbidden - ${LAST_OWNER_REASON}` } });
  });

  it('keeps the expiry when none is given and clears it with null', async () => {
    store(userItem(5));
    store(membershipToItem({ ...membership(PROJECT, 5, 30), expiresAt: '2999-01-01' }));
    ddbMock.on(TransactWriteCommand).resolves({});

    const kept = await updateMember(PROJECT, 5, { accessLevel: 20 });
    const cleared = await updateMember(PROJECT, 5, { accessLevel: 20, expiresAt: null });

    expect(kept.membership.expiresAt).toBe('2999-01-01');
    expect(cleared.membership.expiresAt).toBeNull();
  });

  it('answers 409 after repeated concurrent changes instead of looping', async () => {
    store(userItem(5));
    store(membershipToItem(membership(PROJECT, 5, 30)));
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed']));

    await expect(updateMember(PROJECT, 5, { accessLevel: 20 })).rejects.toBeInstanceOf(ConflictError);
    expect(transactions()).toHaveLength(5);
  });
});

describe('removeMember', () => {
  it('refuses to remove the last owner', async () => {
    store(userItem(5));
    store(membershipToItem(membership(GROUP, 5, 50)));
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));

    await expect(removeMember(GROUP, 5)).rejects.toMatchObject({ statusCode: 403, body: { message: `403 Forbidden - ${LAST_OWNER_REASON}` } });
  });

  it('answers 404 Member Not Found when the member was removed concurrently', async () => {
    store(userItem(5));
    store(membershipToItem(membership(PROJECT, 5, 30)));
    ddbMock.on(TransactWriteCommand).callsFake(() => {
      stored.delete(`${membershipKeys.member(PROJECT, 5).PK} ${membershipKeys.member(PROJECT, 5).SK}`);
      throw cancelled(['ConditionalCheckFailed']);
    });

    await expect(removeMember(PROJECT, 5)).rejects.toMatchObject({ statusCode: 404, body: { message: '404 Member Not Found' } });
    expect(events()).toHaveLength(0); // no "left" event
  });

  it('records a "left" event authored by the removed project member', async () => {
    store(userItem(5));
    store(membershipToItem(membership(PROJECT, 5, 30)));
    ddbMock.on(TransactWriteCommand).resolves({});

    await removeMember(PROJECT, 5);

    const [items] = transactions();
    expect(items).toEqual([
      {
        Delete: {
          TableName: TABLE,
          Key: membershipKeys.member(PROJECT, 5),
          ConditionExpression: 'attribute_exists(PK) AND accessLevel = :level',
          ExpressionAttributeValues: { ':level': 30 },
        },
      },
    ]);
    const [event] = events();
    expect(event).toMatchObject({ projectId: 200, authorId: 5, actionName: 'left' });
  });
});

describe('removeAllMembershipsOf', () => {
  it('deletes every membership; an owner is uncounted without the last-owner condition', async () => {
    // Prepare
    const owned = membership(GROUP, 5, 50);
    const developer = membership({ kind: 'group', id: 101 }, 5, 30);
    const inProject = membership(PROJECT, 5, 20);
    for (const m of [owned, developer, inProject]) store(membershipToItem(m));
    ddbMock.on(QueryCommand).resolves({
      Items: [owned, developer, inProject].map((m) => ({
        ...membershipToItem(m),
        ...membershipIndexKeys.userMembership(5, { kind: m.sourceKind, id: m.sourceId }),
      })),
    });
    ddbMock.on(TransactWriteCommand).resolves({});

    // Act
    const removed = await removeAllMembershipsOf(5);

    // Assess
    expect(removed).toBe(3);
    expect(ddbMock.commandCalls(QueryCommand)[0].args[0].input).toMatchObject({
      IndexName: 'GSI1',
      ExpressionAttributeValues: { ':pk': 'USER_MEMBERSHIPS#5' },
    });
    const writes = transactions();
    expect(writes.map((items) => items.length).sort()).toEqual([1, 1, 2]);
    const withCount = writes.find((items) => items.length === 2)!;
    expect(withCount[1].Update).toEqual({
      TableName: TABLE,
      Key: namespaceKeys.namespace(100),
      UpdateExpression: 'ADD ownerCount :minusOne',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':minusOne': -1 },
    });
    expect(events()).toHaveLength(0); // no "left" events for a deleted user
  });

  it('removes a stray membership of a deleted group without counting', async () => {
    const owned = membership(GROUP, 5, 50);
    store(membershipToItem(owned));
    ddbMock.on(QueryCommand).resolves({ Items: [membershipToItem(owned)] });
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled(['None', 'ConditionalCheckFailed'])).resolves({});

    expect(await removeAllMembershipsOf(5)).toBe(1);

    const [first, second] = transactions();
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
  });

  it('counts nothing when the membership is already gone', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [membershipToItem(membership(PROJECT, 5, 20))] });

    expect(await removeAllMembershipsOf(5)).toBe(0);
    expect(transactions()).toHaveLength(0);
  });
});
