/**
 * Time tracking on the noteable's own item (an issue's `PROJECT#<pid>` / `ISSUE#<iid>`, a merge
 * request's item as its owner gives it): `timeEstimate` and `totalTimeSpent` in seconds. A change
 * is one transaction: an UpdateItem of the item conditioned on the `version` read (so its system
 * note and webhook event describe exactly the totals written; a racing change makes the caller
 * re-read and apply it again, so two people logging time at once both count), plus the write's
 * effects. It also stamps `updatedAt`, re-sorting the item in its update-ordered lists
 * (`touchClause`).
 */
import { tableName } from '../../platform/dynamo/client';
import { transactOr } from '../../platform/dynamo/transactions';
import type { Issue } from './issues';
import { touchClause, type NoteableItem, type WriteEffects } from './noteables';

/** What an issue (or MR) stores about time tracking, in seconds; absent on records that never tracked time. */
export interface TimeTracked {
  timeEstimate?: number;
  totalTimeSpent?: number;
}

/** A record whose time is tracked on its item: its times, the `version` writes are conditioned on, and `updatedAt`. */
export interface TimeTrackedRecord extends TimeTracked {
  version: number;
  updatedAt: string;
}

/** An issue with its time-tracking fields. */
export type TrackedIssue = Issue & TimeTracked;

/** Why a time update did not happen: the record changed (or went) since it was read. */
export type TimeWriteFailure = 'changed';

/**
 * Writes the time tracking of `next` (and its `version`, `updatedAt`) on `item` over `previous`,
 * with the write's effects, while `previous` (its `version`) is still what is stored.
 */
export async function updateTimeTracking<T extends TimeTrackedRecord>(
  item: NoteableItem,
  previous: TimeTrackedRecord,
  next: T,
  effects: WriteEffects = {},
): Promise<T | TimeWriteFailure> {
  const touch = touchClause(item, next.updatedAt);
  const failure = await transactOr(
    {
      noteable: {
        Update: {
          TableName: tableName(),
          Key: item.key,
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
    },
    [['noteable', 'changed' as const]],
  );
  return failure ?? next;
}
