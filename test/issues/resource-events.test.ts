/**
 * The resource events an issue write records in its transaction (`store/resource-events.ts`),
 * with aws-sdk-client-mock: one item per kind whatever the number of labels, consecutive ids from
 * one `ADD` per kind, none without an actor or for a deletion. The reads run for real in the
 * integration suite (`resource-events.integration.test.ts`).
 */
import { TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { writeIssues, type Issue } from '../../shared/issues/store/issues';
import { issueKeys } from '../../shared/issues/store/keys';
import { useMockedTable } from '../support/mocked-table';
import { issueRecord } from '../support/records';
import { idsEndAt } from '../support/ids';

const ddbMock = useMockedTable('resource-events-test');

const issue = (overrides: Partial<Issue> = {}) => issueRecord({ title: 'Crash', description: null, ...overrides });

type Operation = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
const eventPuts = () =>
  (ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems as Operation[]).filter((op) => String(op.Put?.Item?.SK).startsWith('ISSUE_EVENT#')).map((op) => op.Put!);

/** Answers each sequence `ADD` as if the sequence stood at 100 before it. */
const sequencesAt100 = () =>
  ddbMock.on(UpdateCommand).callsFake(idsEndAt((_, count) => 100 + count));

describe('resource events of an issue write', () => {
  it('records every label added and removed in one item, with consecutive ids, and a state and a milestone event', async () => {
    // Arrange
    ddbMock.on(TransactWriteCommand).resolves({});
    sequencesAt100();
    const before = issue({ labelIds: [11, 12], milestoneId: null });

    // Act
    await writeIssues([{ previous: before, next: { ...before, labelIds: [12, 13, 14], milestoneId: 7, state: 'closed' }, effects: { actor: { userId: 3, sourceMergeRequestId: 9 } } }]);

    // Assert
    const puts = eventPuts();
    expect(puts.map((put) => put.Item!.kind)).toEqual(['label', 'state', 'milestone']);
    const [labels, state, milestone] = puts;
    expect(labels.Item).toMatchObject({
      ...issueKeys.resourceEvents({ type: 'Issue', projectId: before.projectId, iid: before.iid }, 'label', 101),
      userId: 3,
      issueId: before.id,
      events: [
        { id: 101, action: 'add', labelId: 13 },
        { id: 102, action: 'add', labelId: 14 },
        { id: 103, action: 'remove', labelId: 11 },
      ],
    });
    expect(labels.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(state.Item).toMatchObject({ sourceMergeRequestId: 9, events: [{ id: 101, state: 'closed' }] });
    expect(milestone.Item).toMatchObject({ events: [{ id: 101, action: 'add', milestoneId: 7, issueState: 'closed' }] });
  });

  it('records a removed milestone as `remove` of the old one, and no state event on create', async () => {
    // Arrange
    ddbMock.on(TransactWriteCommand).resolves({});
    sequencesAt100();
    const before = issue({ labelIds: [], milestoneId: 7 });

    // Act
    await writeIssues([{ previous: before, next: { ...before, milestoneId: null }, effects: { actor: { userId: 3 } } }]);

    // Assert
    expect(eventPuts().map((put) => put.Item!.events)).toEqual([[{ id: 101, action: 'remove', milestoneId: 7, issueState: before.state }]]);
  });

  it('leaves the events out rather than exceed the 100 operations of a transaction', async () => {
    // Arrange
    ddbMock.on(TransactWriteCommand).resolves({});
    sequencesAt100();
    const before = issue({ labelIds: Array.from({ length: 40 }, (_, i) => i + 1), milestoneId: null });
    const next = { ...before, labelIds: Array.from({ length: 40 }, (_, i) => i + 41), milestoneId: 7 };
    const notes = Array.from({ length: 17 }, (_, i) => ({ Put: { TableName: 't', Item: { PK: 'PROJECT#5', SK: `NOTE#${i}` } } }));

    // Act
    await writeIssues([{ previous: before, next, effects: { actor: { userId: 3 }, notes } }]);
    const crowded = eventPuts();
    ddbMock.resetHistory();
    await writeIssues([{ previous: before, next, effects: { actor: { userId: 3 } } }]);

    // Assert
    expect(crowded).toEqual([]);
    expect(eventPuts().map((put) => put.Item!.kind)).toEqual(['label', 'milestone']);
    expect(eventPuts()[0].Item!.events).toHaveLength(80);
  });

  it('records nothing without an actor, nor for a deletion', async () => {
    // Arrange
    ddbMock.on(TransactWriteCommand).resolves({});
    sequencesAt100();
    const before = issue({ labelIds: [11] });

    // Act
    await writeIssues([{ previous: before, next: { ...before, labelIds: [] } }]);
    const [withoutActor] = [eventPuts()];
    ddbMock.resetHistory();
    await writeIssues([{ previous: before, next: { ...before, labelIds: [], deletedAt: '2030-01-01T00:00:00.000Z' }, effects: { actor: { userId: 3 } } }]);

    // Assert
    expect(withoutActor).toEqual([]);
    expect(eventPuts()).toEqual([]);
  });
});
