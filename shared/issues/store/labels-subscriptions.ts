/**
 * Label subscriptions (GitLab's `Subscription` on a label): one item per subscribed user beside
 * the label, in its project's or group's partition (`LABEL_SUBSCRIPTION#<labelId>#<userId>`), so
 * they go with the partition. Subscribing writes the item on the condition that the label still
 * exists and the item does not; unsubscribing deletes it on the condition that it exists: two
 * racing requests cannot both act, and the loser learns the state was already reached (304).
 */
import { byKey, getMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { getItem } from '../../platform/dynamo/query';
import { issueKeys, type LabelOwner } from './keys';
import { transactOr } from '../../platform/dynamo/transactions';

/** Whether `userId` is subscribed to the label (a consistent read). */
export async function isSubscribedToLabel(owner: LabelOwner, labelId: number, userId: number): Promise<boolean> {
  return (await getItem(issueKeys.labelSubscription(owner, labelId, userId))) !== undefined;
}

/** Of `labelIds` (one page of a list), those `userId` is subscribed to: one BatchGetItem. */
export async function subscribedLabelIds(owner: LabelOwner, labelIds: number[], userId: number): Promise<Set<number>> {
  if (labelIds.length === 0) return new Set();
  const itemOf = byKey(await getMany(labelIds.map((id) => issueKeys.labelSubscription(owner, id, userId))));
  return new Set(labelIds.filter((id) => itemOf(issueKeys.labelSubscription(owner, id, userId))));
}

/**
 * Subscribes `userId` to the label: `'changed'` when written, `'unchanged'` when already
 * subscribed, `'label_gone'` when the label was deleted meanwhile.
 */
export async function putLabelSubscription(owner: LabelOwner, labelKey: { PK: string; SK: string }, labelId: number, userId: number): Promise<'changed' | 'unchanged' | 'label_gone'> {
  const entries = {
    label: { ConditionCheck: { TableName: tableName(), Key: labelKey, ConditionExpression: 'attribute_exists(PK)' } },
    subscription: {
      Put: {
        TableName: tableName(),
        Item: { ...issueKeys.labelSubscription(owner, labelId, userId), type: 'LabelSubscription', labelId, userId, createdAt: new Date().toISOString() },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  };
  return (await transactOr(entries, [['label', 'label_gone']] as const, 'unchanged' as const)) ?? 'changed';
}

/** Unsubscribes `userId` from the label: `'changed'` when deleted, `'unchanged'` when not subscribed. */
export async function deleteLabelSubscription(owner: LabelOwner, labelId: number, userId: number): Promise<'changed' | 'unchanged'> {
  const entries = {
    subscription: {
      Delete: { TableName: tableName(), Key: issueKeys.labelSubscription(owner, labelId, userId), ConditionExpression: 'attribute_exists(PK)' },
    },
  };
  return (await transactOr(entries, [], 'unchanged' as const)) ?? 'changed';
}
