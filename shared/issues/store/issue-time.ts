/**
 * Time tracking on the issue item (`PROJECT#<pid>` / `ISSUE#<iid>`): `timeEstimate` and
 * `totalTimeSpent` in seconds. A change is one transaction: an UpdateItem of the issue conditioned
 * on the `version` read (so its system note and webhook event describe exactly the totals
 * written; a racing change makes the caller re-read and apply it again, so two people logging
 * time at once both count), plus the write's effects. It also stamps `updatedAt`, re-sorting the
 * issue in the update-ordered lists (`touchIssue`).
 */
import { tableName } from '../../platform/dynamo/client';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { touchIssue, type Issue, type IssueEffects } from './issues';
import { issueKeys } from './keys';

/** What an issue (or MR) stores about time tracking, in seconds; absent on records that never tracked time. */
export interface TimeTracked {
  timeEstimate?: number;
  totalTimeSpent?: number;
}

/** An issue with its time-tracking fields. */
export type TrackedIssue = Issue & TimeTracked;

/** Why a time update did not happen: the issue changed (or went) since it was read. */
export type TimeWriteFailure = 'issue_changed';

/**
 * Writes the time tracking of `next` (and its `version`, `updatedAt`) over `previous`, with the
 * write's effects, while `previous` is still what is stored.
 */
export async function updateIssueTime(previous: TrackedIssue, next: TrackedIssue, effects: IssueEffects = {}): Promise<TrackedIssue | TimeWriteFailure> {
  const touch = touchIssue(next.id, next.updatedAt);
  try {
    await transact({
      issue: {
        Update: {
          TableName: tableName(),
          Key: issueKeys.issue(previous.projectId, previous.iid),
          UpdateExpression: `SET timeEstimate = :estimate, totalTimeSpent = :spent, #version = :next, ${touch.clause}`,
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: {
            ':estimate': next.timeEstimate ?? 0,
            ':spent': next.totalTimeSpent ?? 0,
            ':version': previous.version,
            ':next': next.version,
            ...touch.values,
          },
        },
      },
      ...effects,
    });
    return next;
  } catch (error) {
    if (error instanceof ConditionFailed && error.failedOn('issue')) return 'issue_changed';
    throw error;
  }
}
