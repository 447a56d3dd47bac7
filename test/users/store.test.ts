/**
 * The users store names what made a transaction fail (a taken claim, a user gone or changed), and
 * the commands answer GitLab's errors for it. DynamoDB Local cannot be made to fail a chosen
 * operation on demand, so a mocked table cancels the transaction on the operations whose key
 * starts with a given prefix, wherever they stand in it.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createUser, updateUser } from '../../shared/users/commands/users';
import { changeUserState } from '../../shared/users/commands/user-states';
import { ApiError } from '../../shared/platform/http/errors';
import { insertChild } from '../../shared/users/store/children';
import { userKeys } from '../../shared/users/store/keys';
import { createToken } from '../../shared/users/store/tokens';
import { insertUser, removeUser, replaceUser, userToItem, type User } from '../../shared/users/store/users';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';
import { userRecord } from '../support/user-record';
import { idsEndAt } from '../support/ids';

const mock = useMockedTable('users-store-test');

type Operation = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The partition key an operation of a transaction writes or checks. */
const pkOf = (operation: Operation): string =>
  String(operation.Put?.Item?.PK ?? operation.Delete?.Key?.PK ?? operation.Update?.Key?.PK ?? operation.ConditionCheck?.Key?.PK);

/** Cancels every transaction: the conditions of the operations under any of `prefixes` fail. */
function failConditionsOn(...prefixes: string[]) {
  mock.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
    throw cancelled(
      (input.TransactItems ?? []).map((operation) =>
        prefixes.some((prefix) => pkOf(operation).startsWith(prefix)) ? 'ConditionalCheckFailed' : 'None',
      ),
    );
  });
}

/** Counters answer ids 41, 42, ... (users and namespaces sequences). */
function countFrom(first: number) {
  let next = first;
  mock.on(UpdateCommand).callsFake(idsEndAt(() => next++));
}

/** User 7 with an LDAP identity, in namespace 8. */
const user = (overrides: Partial<User> = {}): User =>
  userRecord({ identities: [{ provider: 'ldap', externUid: 'uid=alice' }], namespaceId: 8, ...overrides });

/** What an ApiError answers: its status and body. */
async function answer(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.statusCode, body: error.body };
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('insertUser', () => {
  it.each([
    ['UNIQUE#NAMESPACE_PATH#', 'username_taken'],
    ['UNIQUE#EMAIL#', 'email_taken'],
    ['UNIQUE#IDENTITY#', 'extern_uid_taken'],
    ['USER#', 'id_taken'],
    ['NAMESPACE#', 'id_taken'],
  ])('answers which claim failed: %s → %s', async (prefix, expected) => {
    // Prepare
    failConditionsOn(prefix);
    // Act
    const result = await insertUser(user());
    // Assess
    expect(result).toBe(expected);
  });

  it('names the username first, then the email, when several claims are taken', async () => {
    failConditionsOn('UNIQUE#IDENTITY#', 'UNIQUE#EMAIL#', 'UNIQUE#NAMESPACE_PATH#');
    expect(await insertUser(user())).toBe('username_taken');
    failConditionsOn('UNIQUE#IDENTITY#', 'UNIQUE#EMAIL#');
    expect(await insertUser(user())).toBe('email_taken');
  });

  it('writes the user, its namespace, its claims and the totals in one transaction', async () => {
    // Prepare
    mock.on(TransactWriteCommand).resolves({});
    // Act
    const result = await insertUser(user());
    // Assess
    expect(result).toBe('created');
    const operations = writerOperations(mock.commandCalls(TransactWriteCommand)[0].args[0].input);
    expect(operations.map(pkOf).sort()).toEqual(
      [
        'NAMESPACE#8',
        'STATS#USERS',
        'UNIQUE#EMAIL#alice@example.com',
        'UNIQUE#IDENTITY#ldap#uid=alice',
        'UNIQUE#NAMESPACE_PATH#alice',
        'USER#7',
        // A redirect left at the username by an earlier holder is dropped (in both key formats).
        'REDIRECT_ROUTE#alice',
        'REDIRECT_ROUTE#alice',
      ].sort(),
    );
  });
});

describe('replaceUser', () => {
  it('answers the field of a newly claimed value that is taken', async () => {
    failConditionsOn('UNIQUE#EMAIL#');
    expect(await replaceUser(user(), user({ email: 'bob@example.com' }))).toBe('email_taken');
    failConditionsOn('UNIQUE#NAMESPACE_PATH#');
    expect(await replaceUser(user(), user({ username: 'bob' }))).toBe('username_taken');
  });

  it('answers conflict when the user changed, or a released claim is no longer its own', async () => {
    failConditionsOn('USER#');
    expect(await replaceUser(user(), user({ name: 'Alice B.' }))).toBe('conflict');
    // The old email claim is deleted only if it is still the user's.
    mock.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw cancelled((input.TransactItems ?? []).map((operation) => (operation.Delete ? 'ConditionalCheckFailed' : 'None')));
    });
    expect(await replaceUser(user(), user({ email: 'bob@example.com' }))).toBe('conflict');
  });
});

describe('removeUser', () => {
  it('answers gone when the user item is no longer there (a concurrent deletion won)', async () => {
    failConditionsOn('USER#');
    expect(await removeUser(user())).toBe('gone');
  });
});

describe('children of a user', () => {
  it('answers user_gone when the user is gone or being deleted, claim_taken when the claim is held', async () => {
    const key = userKeys.email(7, 3);
    failConditionsOn('USER#7');
    expect(await insertChild(7, key, { type: 'Email' }, [userKeys.claims.email('a@example.com')])).toBe('user_gone');
    failConditionsOn('UNIQUE#EMAIL#');
    expect(await insertChild(7, key, { type: 'Email' }, [userKeys.claims.email('a@example.com')])).toBe('claim_taken');
  });

  it('creates a token for a user gone meanwhile without throwing: the result says so', async () => {
    // Prepare
    countFrom(5);
    failConditionsOn('USER#7');
    // Act
    const created = await createToken(7, { name: 't', scopes: ['api'], impersonation: true, expiresAt: null });
    // Assess
    expect(created.result).toBe('user_gone');
  });
});

describe('user commands map the store results to GitLab errors', () => {
  it.each([
    ['UNIQUE#NAMESPACE_PATH#', 'Username has already been taken'],
    ['UNIQUE#EMAIL#', 'Email has already been taken'],
    ['UNIQUE#IDENTITY#', 'Extern uid has already been taken'],
  ])('createUser: a taken claim %s is a 409 %s', async (prefix, message) => {
    // Prepare
    countFrom(41);
    failConditionsOn(prefix);
    // Act
    const response = await answer(
      createUser({ username: 'carol', email: 'carol@example.com', name: 'Carol', password: 'long-enough', extern_uid: 'uid=carol', provider: 'ldap' }),
    );
    // Assess
    expect(response).toEqual({ status: 409, body: { message } });
  });

  it('updateUser: a taken value is a 404 with the reason; a concurrent change is a 409', async () => {
    failConditionsOn('UNIQUE#IDENTITY#');
    expect(await answer(updateUser(user(), { extern_uid: 'uid=bob', provider: 'ldap' }))).toEqual({
      status: 404,
      body: { message: '404 Extern uid has already been taken' },
    });
    failConditionsOn('USER#');
    expect(await answer(updateUser(user(), { name: 'Alice B.' }))).toEqual({
      status: 409,
      body: { message: 'The user was modified by another request; try again' },
    });
  });

  it('changeUserState: a change that loses to a concurrent write is decided again on the user as re-read', async () => {
    failConditionsOn('USER#');
    // The re-read finds the user blocked meanwhile: blocking again answers GitLab's `null`, unchanged.
    mock.on(GetCommand).resolves({ Item: userToItem(user({ state: 'blocked', version: 2 })) });
    expect(await changeUserState(user(), 'block')).toEqual({ status: 201, body: null });
  });
});
