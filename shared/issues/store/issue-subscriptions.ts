/**
 * Users' subscription records on issues: one item per (issue, user) in the project's partition
 * (`PROJECT#<pid>` / `SUBSCRIPTION#<iid>#<userId>`), so deleting the project deletes them.
 *
 * As in GitLab's `Subscribable`, a record's `subscribed` overrides participation: without one, a
 * participant (author, assignee, commenter) is subscribed and anyone else is not; unsubscribing a
 * participant therefore writes `subscribed: false` rather than deleting. Items written before the
 * attribute existed meant "subscribed", so a missing `subscribed` reads as true.
 *
 * Writes are conditioned on the record's state read before, so two concurrent requests can't
 * both act on the same state (e.g. two subscribes both answering 201): the loser re-reads.
 */
import { tableName } from '../../platform/dynamo/client';
import { getItem } from '../../platform/dynamo/query';
import { projectIsLive } from '../../projects';
import { issueKeys } from './keys';
import { transactOr } from './transact';

/** Internal: the stored item of a subscription record. */
const subscriptionItem = (projectId: number, iid: number, userId: number, subscribed: boolean) => ({
  ...issueKeys.issueSubscription(projectId, iid, userId),
  type: 'IssueSubscription',
  projectId,
  iid,
  userId,
  subscribed,
  updatedAt: new Date().toISOString(),
});

/**
 * The user's explicit choice on the issue (consistent read), or undefined without a record
 * (then participation decides).
 */
export async function subscriptionOf(projectId: number, iid: number, userId: number): Promise<boolean | undefined> {
  const item = await getItem(issueKeys.issueSubscription(projectId, iid, userId));
  return item === undefined ? undefined : item.subscribed !== false;
}

/**
 * Internal: the condition that the record is still as read: absent (`expected` undefined), or
 * its `subscribed` equal to `expected` (a missing attribute counting as true).
 */
function unchangedSince(expected: boolean | undefined) {
  if (expected === undefined) return { ConditionExpression: 'attribute_not_exists(PK)' };
  return {
    ConditionExpression: expected
      ? 'attribute_exists(PK) AND (attribute_not_exists(subscribed) OR subscribed = :expected)'
      : 'subscribed = :expected',
    ExpressionAttributeValues: { ':expected': expected },
  };
}

/**
 * Records the user's choice while the project is live, provided the record is still in the
 * state `expected` that the caller read ({@link subscriptionOf}).
 * @returns false when that condition failed (another request changed the record, or the project
 *   is being deleted): re-read and decide again.
 * @example
 * const explicit = await subscriptionOf(pid, iid, uid);
 * const written = await setSubscription(pid, iid, uid, false, explicit);
 */
export async function setSubscription(
  projectId: number,
  iid: number,
  userId: number,
  subscribed: boolean,
  expected: boolean | undefined,
): Promise<boolean> {
  const entries = {
    project: projectIsLive(projectId),
    subscription: { Put: { TableName: tableName(), Item: subscriptionItem(projectId, iid, userId, subscribed), ...unchangedSince(expected) } },
  };
  return (await transactOr(entries, [], 'not_written')) === undefined;
}

/**
 * Makes the user a participant of the issue (e.g. a commenter) by recording `subscribed: true`
 * unless they already have a record: an earlier explicit unsubscribe must win over commenting
 * again, as in GitLab.
 */
export async function recordParticipant(projectId: number, iid: number, userId: number): Promise<void> {
  // With the project check, a deletion that already swept the partition cannot be left a stray item.
  // A failed condition (a record exists, or the project is going) leaves things as they are.
  await transactOr(
    {
      project: projectIsLive(projectId),
      subscription: { Put: { TableName: tableName(), Item: subscriptionItem(projectId, iid, userId, true), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [],
    'not_written',
  );
}
