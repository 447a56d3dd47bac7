/**
 * Time tracking on the issue item (`PROJECT#<pid>` / `ISSUE#<iid>`): `timeEstimate` and
 * `totalTimeSpent` in seconds. A change is one transaction: an UpdateItem of the issue conditioned
 * on the `version` read (so its system note and webhook event describe exactly the totals
 * written; a racing change makes the caller re-read and apply it again, so two people logging
 * time at once both count), plus the `extra` operations. It also stamps `updatedAt`, re-sorting
 * the issue in the update-ordered lists (`touchIssue`).
 */
import { config } from '../../platform/config';
import type { TimeTracked } from '../time-tracking';
import { touchIssue, type Issue, type TransactItem } from './issues';
import { issueKeys } from './keys';
import { TransactionConditionFailed, transactWrite } from '../../platform/dynamo/transactions';

/** An issue with its time-tracking fields. */
export type TrackedIssue = Issue & TimeTracked;

export type TimeChange =
  | { kind: 'estimate'; seconds: number }
  | { kind: 'spend'; seconds: number }
  | { kind: 'reset_spent' };

/** Why a time update did not happen: the issue changed (or went) since it was read. */
export type TimeWriteFailure = 'issue_changed';

/** The issue as `change` leaves it (not yet written). */
export function withTimeChange(issue: TrackedIssue, change: TimeChange, at: string): TrackedIssue {
  const spent = issue.totalTimeSpent ?? 0;
  const times =
    change.kind === 'estimate'
      ? { timeEstimate: change.seconds }
      : { totalTimeSpent: change.kind === 'reset_spent' ? 0 : spent + change.seconds };
  return { ...issue, ...times, updatedAt: at, version: issue.version + 1 };
}

/**
 * Writes `next` (from {@link withTimeChange}) over `previous`, with `extra` operations, while
 * `previous` is still what is stored.
 */
export async function updateIssueTime(previous: TrackedIssue, next: TrackedIssue, extra: TransactItem[] = []): Promise<TrackedIssue | TimeWriteFailure> {
  const touch = touchIssue(next.id, next.updatedAt);
  try {
    await transactWrite([
      {
        Update: {
          TableName: config().tableName,
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
      ...extra,
    ]);
    return next;
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failed.includes(0)) return 'issue_changed';
    throw error;
  }
}
