/**
 * The issue write transaction's fault paths, with aws-sdk-client-mock: which operations one write
 * carries, a label deleted under the write (dropped and retried), and how a failed condition is
 * named. The happy paths run for real in the integration suite.
 */
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { replaceIssue, writeIssues, type Issue } from '../../shared/issues/store/issues';
import { issueKeys } from '../../shared/issues/store/keys';
import { projectKeys } from '../../shared/projects/store/keys';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';
import { issueRecord, projectSubjectRecord } from '../support/records';
import { userRecord } from '../support/user-record';
import { idsEndAt } from '../support/ids';
import { createIssue } from '../../shared/issues/commands/issues';
import { ValidationError } from '../../shared/platform/http/errors';

const ddbMock = useMockedTable('issue-writes-test');

const issue = (overrides: Partial<Issue> = {}) => issueRecord({ title: 'Crash', description: null, ...overrides });

type Operation = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
const transactions = () => ddbMock.commandCalls(TransactWriteCommand).map((call) => writerOperations(call.args[0].input));
const labelUpdates = (operations: Operation[]) =>
  operations.filter((op) => op.Update && String(op.Update.Key?.SK).startsWith('LABEL#')).map((op) => op.Update!);

describe('an issue write', () => {
  it('closes in one transaction: project count -1, the issue put on its version, each label open -1 closed +1', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const before = issue();

    const written = await replaceIssue(before, { ...before, state: 'closed' });

    expect(written).toMatchObject({ state: 'closed', version: 5 });
    const [operations] = transactions();
    expect(operations[0].Update).toMatchObject({ Key: projectKeys.project(5), ExpressionAttributeValues: { ':delta': -1 } });
    expect(operations[1].Put).toMatchObject({ ConditionExpression: '#version = :version', ExpressionAttributeValues: { ':version': 4 } });
    expect(operations[1].Put!.Item).toMatchObject({ GSI1PK: 'PROJECT_ISSUES#5#closed', GSI4PK: 'PROJECT_ISSUES#5#closed' });
    expect(labelUpdates(operations)).toEqual([
      expect.objectContaining({ Key: issueKeys.label(5, 11), ExpressionAttributeValues: { ':open': -1, ':closed': 1, ':co': 0, ':cc': 0 } }),
      expect.objectContaining({ Key: issueKeys.label(5, 12), ExpressionAttributeValues: { ':open': -1, ':closed': 1, ':co': 0, ':cc': 0 } }),
    ]);
    // The list counts move in the same transaction: the project's and the author's.
    const counts = operations.filter((op) => String(op.Update?.Key?.SK).startsWith('ISSUE_COUNT#')).map((op) => [op.Update!.Key!.SK, op.Update!.ExpressionAttributeValues]);
    expect(counts).toEqual([
      [issueKeys.counts(5, 'all').SK, { ':o': -1, ':c': 1, ':co': 0, ':cc': 0 }],
      [issueKeys.counts(5, `author:${before.authorId}`).SK, { ':o': -1, ':c': 1, ':co': 0, ':cc': 0 }],
    ]);
  });

  it('touches no label and no count when only the title changes', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const before = issue();

    await replaceIssue(before, { ...before, title: 'Renamed' });

    const [operations] = transactions();
    expect(operations).toHaveLength(2);
    expect(operations[0].ConditionCheck).toMatchObject({ Key: projectKeys.project(5) });
  });

  it('drops a label deleted under the write and writes again without it', async () => {
    // The first attempt fails on label 12's update.
    let attempts = 0;
    ddbMock.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      if (attempts++ > 0) return {};
      throw cancelled((input.TransactItems ?? []).map((op) => (op.Update?.Key?.SK === issueKeys.label(5, 12).SK ? 'ConditionalCheckFailed' : 'None')));
    });
    const before = issue();

    const written = await replaceIssue(before, { ...before, state: 'closed' });

    expect(written).toMatchObject({ labelIds: [11], version: 5 });
    const [, retry] = transactions();
    expect(labelUpdates(retry).map((update) => update.Key)).toEqual([issueKeys.label(5, 11)]);
    expect(retry[1].Put!.Item).toMatchObject({ labelIds: [11] });
  });

  it('names a lost version race issue_changed and a gone project project_gone, writing nothing more', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled(['None', 'ConditionalCheckFailed', 'None', 'None']));
    expect(await replaceIssue(issue(), { ...issue(), state: 'closed' })).toBe('issue_changed');
    ddbMock.reset();
    ddbMock.on(BatchWriteCommand).resolves({});
    ddbMock.on(BatchGetCommand).resolves({ Responses: {} });
    ddbMock.on(TransactWriteCommand).rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None', 'None']));
    expect(await replaceIssue(issue(), { ...issue(), state: 'closed' })).toBe('project_gone');
    expect(transactions()).toHaveLength(1);
  });

  it('takes back the list entries it put ahead of the transaction when the project is gone (its sweep may have passed)', async () => {
    // Prepare: closing puts the issue's closed-state entries (label and author lists) before the transaction
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None', 'None', 'None']));
    ddbMock.on(DeleteCommand).resolves({});
    const before = issue();

    // Act
    const result = await replaceIssue(before, { ...before, state: 'closed' });

    // Assess: every entry put is deleted again, unless a newer write of the issue put it
    expect(result).toBe('project_gone');
    const put = ddbMock.commandCalls(BatchWriteCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems ?? {}).flat().map((request) => request.PutRequest?.Item)).filter((item) => item?.type === 'IssueEntry');
    expect(put.length).toBeGreaterThan(0);
    const deleted = ddbMock.commandCalls(DeleteCommand).map((call) => call.args[0].input);
    expect(deleted.map((input) => input.Key)).toEqual(put.map((item) => ({ PK: item!.PK, SK: item!.SK })));
    expect(deleted.every((input) => input.ExpressionAttributeValues?.[':version'] === 5)).toBe(true);
  });

  it('moves counts between projects in one transaction when an issue changes hands', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const original = issue();
    const moved = issue({ id: 71, iid: 1, projectId: 6, labelIds: [21], version: 0 });

    await writeIssues([{ next: moved }, { previous: original, next: { ...original, state: 'closed' } }]);

    const [operations] = transactions();
    expect(operations[0].Update).toMatchObject({ Key: projectKeys.project(6), ExpressionAttributeValues: { ':delta': 1 } });
    expect(operations[1].Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(PK)' });
    expect(labelUpdates(operations).map((update) => [update.Key, update.ExpressionAttributeValues])).toEqual([
      [issueKeys.label(6, 21), { ':open': 1, ':closed': 0, ':co': 0, ':cc': 0 }],
      [issueKeys.label(5, 11), { ':open': -1, ':closed': 1, ':co': 0, ':cc': 0 }],
      [issueKeys.label(5, 12), { ':open': -1, ':closed': 1, ':co': 0, ':cc': 0 }],
    ]);
    expect(operations.find((op) => op.Update?.Key?.PK === 'PROJECT#5' && op.Update.Key.SK === 'PROJECT')?.Update).toMatchObject({
      ExpressionAttributeValues: { ':delta': -1 },
    });
  });
});

describe('an issue create with a bad label name', () => {
  it('is refused before anything is read or written, a group milestone and an assignee given with it', async () => {
    // Prepare: a project of a group; the caller an admin (may set labels, milestone and assignee).
    ddbMock.on(UpdateCommand).callsFake(idsEndAt(70));
    const owner = userRecord({ id: 1, admin: true });
    const subject = projectSubjectRecord('group');

    // Act
    const refused = createIssue(subject, owner, { title: 'x', labels: ['ok', 'l'.repeat(256)], milestoneId: 31, assigneeIds: [2] });

    // Assess: refused, and nothing read (reads go out on the next turn) or written; only its
    // numbers were taken (a failed create spends them, as in GitLab).
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ddbMock.calls().map((call) => call.args[0].constructor.name)).toEqual(['UpdateCommand', 'UpdateCommand']);
  });
});
