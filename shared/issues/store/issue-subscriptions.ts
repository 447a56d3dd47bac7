/**
 * Users' subscription records on noteables: one item per (noteable, user) in the project's
 * partition (an issue's `PROJECT#<pid>` / `SUBSCRIPTION#<iid>#<userId>`, a merge request's
 * `MR_SUBSCRIPTION#<iid>#<userId>`), so deleting the project deletes them.
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
import { type TransactItem, transactOr } from '../../platform/dynamo/transactions';
import { getItem } from '../../platform/dynamo/query';
import { projectIsLive } from '../../projects';
import { noteableKeys, type NoteableKeyed } from './keys';

/** Internal: the stored item of a subscription record (`IssueSubscription`, `MergeRequestSubscription`). */
const subscriptionItem = (noteable: NoteableKeyed, userId: number, subscribed: boolean) => ({
  ...noteableKeys.subscription(noteable, userId),
  type: `${noteable.type}Subscription`,
  projectId: noteable.projectId,
  iid: noteable.iid,
  userId,
  subscribed,
  updatedAt: new Date().toISOString(),
});

/**
 * The user's explicit choice on the noteable (consistent read), or undefined without a record
 * (then participation decides).
 */
export async function subscriptionOf(noteable: NoteableKeyed, userId: number): Promise<boolean | undefined> {
  const item = await getItem(noteableKeys.subscription(noteable, userId));
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
 * const explicit = await subscriptionOf(noteable, uid);
 * const written = await setSubscription(noteable, uid, false, explicit);
 */
export async function setSubscription(noteable: NoteableKeyed, userId: number, subscribed: boolean, expected: boolean | undefined): Promise<boolean> {
  const entries = {
    project: projectIsLive(noteable.projectId),
    subscription: { Put: { TableName: tableName(), Item: subscriptionItem(noteable, userId, subscribed), ...unchangedSince(expected) } },
  };
  return (await transactOr(entries, [], 'not_written')) === undefined;
}

/**
 * The transaction item that makes the user a participant of the noteable (e.g. a commenter, in
 * the note's own transaction): `subscribed: true` unless they already have a record (each
 * attribute only where missing, so an earlier explicit unsubscribe wins over commenting again, as
 * in GitLab). It has no condition: it never fails the write it is part of.
 */
export function participantUpsert(noteable: NoteableKeyed, userId: number): TransactItem {
  const fields = subscriptionItem(noteable, userId, true);
  const { PK: _pk, SK: _sk, ...attributes } = fields;
  const names = Object.keys(attributes);
  return {
    Update: {
      TableName: tableName(),
      Key: noteableKeys.subscription(noteable, userId),
      UpdateExpression: `SET ${names.map((name, i) => `#a${i} = if_not_exists(#a${i}, :v${i})`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, attributes[name as keyof typeof attributes]])),
    },
  };
}
