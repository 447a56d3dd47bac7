/**
 * The ghost user is made once (`shared/users/ghost.ts`): of concurrent makers the one whose
 * pointer claim failed reads the winner's ghost, a taken `ghost` username makes `ghost1`, and
 * presenters read nothing for it while every author exists. DynamoDB Local cannot lose a race on
 * demand, so a mocked table answers.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type GetCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureGhostUser, forgetGhostUser, withGhost } from '../../shared/users/ghost';
import type { User } from '../../shared/users/store/users';
import { cancelled, useMockedTable } from '../support/mocked-table';
import { userRecord } from '../support/user-record';
import { idsEndAt } from '../support/ids';

const mock = useMockedTable('users-ghost-test');

type Operation = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
const pkOf = (operation: Operation): string => String(operation.Put?.Item?.PK ?? operation.Delete?.Key?.PK ?? operation.Update?.Key?.PK);

/** The ghost another process made: user 99. */
const winner = userRecord({ id: 99, username: 'ghost', name: 'Ghost User', ghost: true });

beforeEach(() => {
  forgetGhostUser();
  let next = 41;
  mock.on(UpdateCommand).callsFake(idsEndAt(() => next++));
});

describe('ensureGhostUser', () => {
  it("reads the winner's ghost when its own pointer claim failed", async () => {
    // Prepare: no pointer at first; the transaction loses on the pointer (and the username).
    let pointer: { userId: number } | undefined;
    mock.on(GetCommand).callsFake((input: GetCommandInput) => {
      if (input.Key?.PK === 'UNIQUE#INTERNAL_USER#ghost') return { Item: pointer };
      if (input.Key?.PK === 'USER#99') return { Item: { PK: 'USER#99', SK: 'USER', ...winner } };
      return {};
    });
    let transactions = 0;
    mock.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      transactions++;
      pointer = { userId: 99 };
      throw cancelled((input.TransactItems ?? []).map((op) => (/^UNIQUE#(INTERNAL_USER|NAMESPACE_PATH)#/.test(pkOf(op)) ? 'ConditionalCheckFailed' : 'None')));
    });

    // Act
    const ghost = await ensureGhostUser();

    // Assess
    expect(ghost).toMatchObject({ id: 99, username: 'ghost', ghost: true });
    expect(transactions).toBe(1);
  });

  it('makes ghost1 when the username ghost belongs to someone else, with the pointer in the same transaction', async () => {
    // Prepare
    mock.on(GetCommand).resolves({});
    const written: Operation[][] = [];
    mock.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      const operations = input.TransactItems ?? [];
      written.push(operations);
      const taken = (op: Operation) => written.length === 1 && pkOf(op) === 'UNIQUE#NAMESPACE_PATH#ghost';
      if (operations.some(taken)) throw cancelled(operations.map((op) => (taken(op) ? 'ConditionalCheckFailed' : 'None')));
      return {};
    });

    // Act
    const ghost = await ensureGhostUser();

    // Assess
    expect(ghost).toMatchObject({ username: 'ghost1', email: 'ghost@example.com', name: 'Ghost User', ghost: true, passwordDigest: null });
    expect(written).toHaveLength(2);
    const pointer = written[1].find((op) => pkOf(op) === 'UNIQUE#INTERNAL_USER#ghost');
    expect(pointer?.Put).toMatchObject({ Item: { userId: ghost.id }, ConditionExpression: 'attribute_not_exists(PK)' });
  });
});

describe('withGhost', () => {
  const author = userRecord({ id: 7 });
  const found = (id: number): User | undefined => (id === 7 ? author : undefined);

  it('reads nothing while every author exists', async () => {
    const authorOf = await withGhost(found, [7, 7]);
    expect(authorOf(7)).toBe(author);
    expect(mock.commandCalls(GetCommand)).toHaveLength(0);
  });

  it("shows the ghost for a deleted author, and nobody when there is no ghost yet", async () => {
    // Prepare
    mock.on(GetCommand).callsFake((input: GetCommandInput) =>
      input.Key?.PK === 'UNIQUE#INTERNAL_USER#ghost' ? { Item: { userId: 99 } } : input.Key?.PK === 'USER#99' ? { Item: { PK: 'USER#99', SK: 'USER', ...winner } } : {},
    );
    // Act
    const authorOf = await withGhost(found, [7, 8]);
    // Assess
    expect(authorOf(8)).toMatchObject({ id: 99, name: 'Ghost User' });
    expect(authorOf(7)).toBe(author);

    forgetGhostUser();
    mock.on(GetCommand).resolves({});
    expect((await withGhost(found, [8]))(8)).toBeUndefined();
  });
});
