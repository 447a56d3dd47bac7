/**
 * Notes, subscriptions, todos and time tracking on a noteable other than an issue (a merge
 * request, whose item the merge-requests feature owns and describes as a `Noteable`), with
 * aws-sdk-client-mock: which keys and items each write touches, that the noteable's own item is the
 * one the caller gave (with the index sort keys its owner stamps), and that issues keep the keys
 * and items they always had. The happy paths against DynamoDB Local are in
 * noteables.integration.test.ts.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createNote, createSystemNote, deleteNote } from '../../shared/issues/commands/notes';
import { markTodo, subscribe, trackTime, unsubscribe } from '../../shared/issues/commands/noteable-actions';
import { issueNoteable } from '../../shared/issues/store/issues';
import { issueKeys } from '../../shared/issues/store/keys';
import type { Noteable } from '../../shared/issues/store/noteables';
import { newNote, noteTarget, type Note } from '../../shared/issues/store/notes';
import { markTodoDone } from '../../shared/issues/store/todos';
import type { ApiError } from '../../shared/platform/http/errors';
import { projectKeys } from '../../shared/projects/store/keys';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';
import { issueRecord } from '../support/records';
import { userRecord } from '../support/user-record';
import { idsEndAt } from '../support/ids';

const ddbMock = useMockedTable('noteables-test');

const transactions = () => ddbMock.commandCalls(TransactWriteCommand).map((call) => writerOperations(call.args[0].input));

/** The key a merge-requests feature would give: not one the issues feature builds. */
const MR_KEY = { PK: 'PROJECT#5', SK: 'MR#000000000003' };

/** Merge request !3 (id 90) of project 5 by user 1, assigned to user 2, as its owner describes it. */
const mergeRequest: Noteable = {
  type: 'MergeRequest',
  projectId: 5,
  iid: 3,
  id: 90,
  authorId: 1,
  assigneeIds: [2],
  item: { key: MR_KEY, touched: (at) => ({ GSI4SK: `MR:${at}` }) },
};

const user = userRecord({ id: 7 });

/** Answers every `ADD` of a sequence with `value` (the next id). */
const nextIdIs = (value: number) => ddbMock.on(UpdateCommand).callsFake(idsEndAt(value));

/** The error a command threw (undefined when it did not). */
async function thrown(promise: Promise<unknown>): Promise<ApiError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error as ApiError;
  }
}

describe('notes on a merge request', () => {
  it('are written under MR_NOTE#, counted and stamped on the item the caller gave, with the effects it built', async () => {
    // Prepare
    nextIdIs(41);
    ddbMock.on(TransactWriteCommand).resolves({});
    const event = { Put: { TableName: 't', Item: { PK: 'PROJECT#5', SK: 'EVENT#1' } } };

    // Act
    const note = await createNote(mergeRequest, user, 'Looks good', async (written, at) => {
      expect(written).toMatchObject({ id: 41, noteableType: 'MergeRequest', mergeRequestIid: 3, mergeRequestId: 90 });
      expect(at).toBe(written.createdAt);
      return { event };
    });

    // Assess
    expect(note).toMatchObject({ id: 41, projectId: 5, noteableType: 'MergeRequest', mergeRequestIid: 3, mergeRequestId: 90, body: 'Looks good', authorId: 7, system: false });
    expect(noteTarget(note)).toEqual({ type: 'MergeRequest', projectId: 5, iid: 3, id: 90 });
    const [write, ...others] = transactions();
    expect(write[0].ConditionCheck).toMatchObject({ Key: projectKeys.project(5) });
    expect(write[1].Update).toMatchObject({
      Key: MR_KEY,
      UpdateExpression: 'SET updatedAt = :touch_updatedAt, GSI4SK = :touch_GSI4SK ADD userNotesCount :delta, #version :one',
      ExpressionAttributeValues: { ':delta': 1, ':touch_updatedAt': note.createdAt, ':touch_GSI4SK': `MR:${note.createdAt}` },
    });
    expect(write[2].Put!.Item).toMatchObject({ ...issueKeys.mergeRequestNote(5, 3, 41), type: 'Note', noteableType: 'MergeRequest' });
    expect(write[2].Put!.Item).not.toHaveProperty('issueIid');
    expect(write[3]).toEqual(event);
    // The commenter becomes a participant of the merge request, not of issue 3, in the same
    // transaction, without overwriting a record they have.
    expect(others).toEqual([]);
    expect(write[4].Update).toMatchObject({ Key: issueKeys.mergeRequestSubscription(5, 3, 7) });
    expect(write[4].Update!.UpdateExpression).toMatch(/^SET (#a\d+ = if_not_exists\(#a\d+, :v\d+\)(, )?)+$/);
    expect(Object.values(write[4].Update!.ExpressionAttributeValues!)).toEqual(expect.arrayContaining(['MergeRequestSubscription', true]));
  });

  it('answers 404 Merge Request Not Found when the item went (or was deleted) under the comment', async () => {
    nextIdIs(42);
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None']));

    const error = await thrown(createNote(mergeRequest, user, 'Late'));

    expect(error).toMatchObject({ statusCode: 404, body: { message: '404 Merge Request Not Found' } });
  });

  it('adds a system note alone with a liveness check of the item, neither counted nor stamping it', async () => {
    nextIdIs(43);
    ddbMock.on(TransactWriteCommand).resolves({});

    const note = await createSystemNote(mergeRequest, user, 'merged');

    expect(note).toMatchObject({ system: true, body: 'merged', noteableType: 'MergeRequest' });
    const [write] = transactions();
    expect(write).toHaveLength(3);
    expect(write[1].ConditionCheck).toMatchObject({ Key: MR_KEY });
    expect(write[2].Put!.Item).toMatchObject(issueKeys.mergeRequestNote(5, 3, 43));
  });

  it('deletes a user note under its own key, the item counting one fewer', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const note = newNote(mergeRequest, { id: 44, body: 'Oops', authorId: 7, system: false, createdAt: 'x', updatedAt: 'x' });
    const subject = { kind: 'project', access: 0 } as never;

    await deleteNote(subject, user, mergeRequest, note);

    const [write] = transactions();
    expect(write[1].Update).toMatchObject({ Key: MR_KEY, ExpressionAttributeValues: { ':delta': -1 } });
    expect(write[1].Update!.UpdateExpression).toBe('ADD userNotesCount :delta, #version :one');
    expect(write[2].Delete).toMatchObject({ Key: issueKeys.mergeRequestNote(5, 3, 44) });
  });

  it('keeps an issue note in the form issue notes always had (no noteableType, issueIid, issueId)', () => {
    const issue = issueNoteable(issueRecord());
    const note: Note = newNote(issue, { id: 45, body: 'Hi', authorId: 7, system: false, createdAt: 'x', updatedAt: 'x' });
    expect(note).toEqual({ id: 45, projectId: 5, issueIid: 3, issueId: 70, body: 'Hi', authorId: 7, system: false, createdAt: 'x', updatedAt: 'x' });
    expect(noteTarget(note)).toEqual({ type: 'Issue', projectId: 5, iid: 3, id: 70 });
    expect(issue.item.key).toEqual(issueKeys.issue(5, 3));
    expect(issue.item.touched('2026-01-02T00:00:00.000Z')).toEqual({
      GSI4SK: '2026-01-02T00:00:00.000Z#000000000070',
      GSI5SK: '2026-01-02T00:00:00.000Z#000000000070',
      GSI6SK: '2026-01-02T00:00:00.000Z#000000000070',
      GSI8SK: '2026-01-02T00:00:00.000Z#000000000070',
    });
  });
});

describe('subscriptions and todos on a merge request', () => {
  it('subscribes under MR_SUBSCRIPTION#, and answers false when nothing changes (the route answers 304)', async () => {
    ddbMock.on(GetCommand).resolves({});
    ddbMock.on(TransactWriteCommand).resolves({});

    // Not a participant: subscribing changes something; the author is subscribed already.
    expect(await subscribe(mergeRequest, user)).toBe(true);
    expect(await subscribe(mergeRequest, userRecord({ id: 1 }))).toBe(false);
    expect(await unsubscribe(mergeRequest, userRecord({ id: 2 }))).toBe(true);

    const [first, second] = transactions();
    expect(first[1].Put!.Item).toMatchObject({ ...issueKeys.mergeRequestSubscription(5, 3, 7), type: 'MergeRequestSubscription', subscribed: true });
    expect(second[1].Put!.Item).toMatchObject({ ...issueKeys.mergeRequestSubscription(5, 3, 2), subscribed: false });
    expect(ddbMock.commandCalls(GetCommand)[0].args[0].input.Key).toEqual(issueKeys.mergeRequestSubscription(5, 3, 7));
  });

  it('marks a todo with target_type MergeRequest under MR_TODO#; one pending already: undefined (304)', async () => {
    nextIdIs(31);
    ddbMock.on(TransactWriteCommand).resolvesOnce({}).rejects(cancelled(['None', 'ConditionalCheckFailed']));

    const todo = await markTodo(mergeRequest, user);
    const again = await markTodo(mergeRequest, user);

    expect(todo).toMatchObject({ id: 31, targetType: 'MergeRequest', targetIid: 3, targetId: 90, userId: 7, state: 'pending', actionName: 'marked' });
    expect(again).toBeUndefined();
    const [write] = transactions();
    expect(write[1].Put!.Item).toMatchObject({ ...issueKeys.mergeRequestTodo(5, 3, 7), GSI1PK: 'USER_TODOS#7#pending', GSI1SK: '000000000031' });
  });

  it('marks a merge request todo done: its MR_TODO# key deleted, DONE_TODO# put', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const todo = { id: 31, projectId: 5, userId: 7, authorId: 7, actionName: 'marked', targetType: 'MergeRequest', targetIid: 3, targetId: 90, state: 'pending', createdAt: 'x' } as const;

    expect(await markTodoDone(todo)).toMatchObject({ state: 'done' });

    const [write] = transactions();
    expect(write[1].Delete).toMatchObject({ Key: issueKeys.mergeRequestTodo(5, 3, 7) });
    expect(write[2].Put!.Item).toMatchObject({ ...issueKeys.doneTodo(5, 31), GSI1PK: 'USER_TODOS#7#done' });
  });
});

describe('time tracking on a merge request', () => {
  const record = { id: 90, iid: 3, version: 4, updatedAt: 'then', timeEstimate: 0, totalTimeSpent: 1800 };
  const options = { noteable: () => mergeRequest, reread: async () => record };

  it('updates the item the caller gave on its version, with the system note and the owner hook in the transaction', async () => {
    nextIdIs(46);
    ddbMock.on(TransactWriteCommand).resolves({});
    const hook = { Put: { TableName: 't', Item: { PK: 'PROJECT#5', SK: 'HOOK_EVENT#1' } } };

    const written = await trackTime(record, user, { kind: 'spend', duration: '1h' }, { ...options, hook: async (previous, next) => {
      expect(previous).toBe(record);
      expect(next).toMatchObject({ totalTimeSpent: 5400, version: 5 });
      return hook;
    } });

    expect(written).toMatchObject({ id: 90, totalTimeSpent: 5400, timeEstimate: 0, version: 5 });
    const [write] = transactions();
    expect(write[0].Update).toMatchObject({
      Key: MR_KEY,
      ConditionExpression: '#version = :version',
      ExpressionAttributeValues: { ':spent': 5400, ':version': 4, ':next': 5, ':touch_GSI4SK': `MR:${written.updatedAt}` },
    });
    expect(write[1]).toEqual(hook);
    expect(write[2].Put!.Item).toMatchObject({ ...issueKeys.mergeRequestNote(5, 3, 46), body: 'added 1h of time spent', system: true });
  });

  it('answers as issues do: 400 for a bad duration or subtracting too much; 409 mentioning the merge request after lost races', async () => {
    expect(await thrown(trackTime(record, user, { kind: 'estimate', duration: 'soon' }, options))).toMatchObject({
      statusCode: 400,
      body: { message: { time_estimate: ['has an invalid format'] } },
    });
    expect(await thrown(trackTime(record, user, { kind: 'spend', duration: '-1h' }, options))).toMatchObject({
      statusCode: 400,
      body: { message: { base: ['Time to subtract exceeds the total time spent'] } },
    });
    nextIdIs(47);
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    expect(await thrown(trackTime(record, user, { kind: 'reset_spent' }, options))).toMatchObject({
      statusCode: 409,
      body: { message: 'The merge request was modified by another request; try again' },
    });
    expect(transactions()).toHaveLength(8);
  });
});
