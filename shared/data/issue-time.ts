/**
 * Time tracking on the issue item (`PROJECT#<pid>` / `ISSUE#<iid>`): `timeEstimate` and
 * `totalTimeSpent` in seconds, changed by single UpdateItem calls (`SET` / `ADD`) rather than a
 * read-modify-put, so two people logging time at once both count. Each update also bumps
 * `version`, so an issue edit racing with it (a Put conditioned on the version it read) retries
 * on the new values instead of overwriting them. Each also stamps `updatedAt`, re-sorting the issue
 * in the update-ordered lists (`touchIssue`).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { getIssue, issueFromItem, touchIssue, type Issue } from './issues';
import { keys } from './keys';
import type { TimeTracked } from '../domain/time-tracking';

/** An issue with its time-tracking fields. */
export type TrackedIssue = Issue & TimeTracked;

export type TimeChange =
  | { kind: 'estimate'; seconds: number }
  | { kind: 'spend'; seconds: number }
  | { kind: 'reset_spent' };

/** Why a time update did not happen. */
export type TimeWriteFailure = 'issue_gone' | 'exceeds_spent';

/** The issue exists and is not soft-deleted (`deletedAt` is stored as null while live). */
const LIVE = 'attribute_exists(PK) AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :nullType))';

/**
 * Applies one time-tracking change atomically and returns the issue as written. A negative
 * `spend` is refused (`exceeds_spent`) when it would take the total below zero.
 */
export async function updateIssueTime(issue: Issue, change: TimeChange): Promise<TrackedIssue | TimeWriteFailure> {
  const { projectId, iid } = issue;
  const touch = touchIssue(issue.id, new Date().toISOString());
  const values: Record<string, unknown> = { ':nullType': 'NULL', ':one': 1, ...touch.values };
  let update: string;
  let condition = LIVE;
  if (change.kind === 'estimate') {
    update = `SET timeEstimate = :seconds, ${touch.clause} ADD version :one`;
    values[':seconds'] = change.seconds;
  } else if (change.kind === 'reset_spent') {
    update = `SET totalTimeSpent = :zero, ${touch.clause} ADD version :one`;
    values[':zero'] = 0;
  } else {
    update = `SET ${touch.clause} ADD totalTimeSpent :seconds, version :one`;
    values[':seconds'] = change.seconds;
    if (change.seconds < 0) {
      condition += ' AND totalTimeSpent >= :needed';
      values[':needed'] = -change.seconds;
    }
  }
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.issue(projectId, iid),
        UpdateExpression: update,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return issueFromItem(Attributes!) as TrackedIssue;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    // Which condition failed: read the item again (rare path).
    const current = await getIssue(projectId, iid);
    return current && !current.deletedAt && change.kind === 'spend' ? 'exceeds_spent' : 'issue_gone';
  }
}
