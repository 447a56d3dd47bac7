/**
 * The data migration that gives notes written before discussions existed their place among their
 * noteable's discussions (GSI1): each unindexed note becomes its own discussion, indexed notes are
 * left alone, and a note deleted meanwhile is skipped.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { indexProjectNoteThreads } from '../../shared/issues/store/notes';
import { useMockedTable } from '../support/mocked-table';

const TABLE = 'notes-migration-test';
const ddb = useMockedTable(TABLE);

const note = (sk: string, fields: Record<string, unknown>) => ({
  PK: 'PROJECT#5',
  SK: sk,
  type: 'Note',
  projectId: 5,
  body: 'x',
  authorId: 1,
  system: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('indexProjectNoteThreads', () => {
  it('indexes each note without a discussion place as its own discussion, of issues and merge requests', async () => {
    // Prepare
    const old = note('NOTE#000000000003#000000000041', { id: 41, issueIid: 3, issueId: 70 });
    const indexed = note('NOTE#000000000003#000000000042', { id: 42, issueIid: 3, issueId: 70, GSI1PK: 'NOTE_THREADS#5#Issue#3', GSI1SK: 'x' });
    const onMergeRequest = note('MR_NOTE#000000000002#000000000043', { id: 43, noteableType: 'MergeRequest', mergeRequestIid: 2, mergeRequestId: 80 });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'PROJECT#5', ':prefix': 'NOTE#' } }).resolves({ Items: [old, indexed] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'PROJECT#5', ':prefix': 'MR_NOTE#' } }).resolves({ Items: [onMergeRequest] });
    ddb.on(UpdateCommand).resolves({});

    // Act
    const count = await indexProjectNoteThreads(5);

    // Assess
    expect(count).toBe(2);
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toEqual([
      expect.objectContaining({ TableName: TABLE, Key: { PK: 'PROJECT#5', SK: old.SK }, UpdateExpression: 'SET GSI1PK = :v0, GSI1SK = :v1', ExpressionAttributeValues: { ':v0': 'NOTE_THREADS#5#Issue#3', ':v1': '000000000041#000000000041' } }),
      expect.objectContaining({ Key: { PK: 'PROJECT#5', SK: onMergeRequest.SK }, ExpressionAttributeValues: { ':v0': 'NOTE_THREADS#5#MergeRequest#2', ':v1': '000000000043#000000000043' } }),
    ]);
  });

  it('skips a note deleted meanwhile', async () => {
    // Prepare
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'PROJECT#5', ':prefix': 'NOTE#' } }).resolves({ Items: [note('NOTE#000000000003#000000000041', { id: 41, issueIid: 3, issueId: 70 })] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'PROJECT#5', ':prefix': 'MR_NOTE#' } }).resolves({ Items: [] });
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'gone', $metadata: {} }));

    // Act / Assess
    expect(await indexProjectNoteThreads(5)).toBe(0);
  });
});
