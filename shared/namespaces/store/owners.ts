/**
 * A group's owners as the group item counts them (`ownerCount`), and its liveness, as operations
 * of the member transactions (which the members feature's store assembles): the count changes in
 * the same transaction as the owner membership it counts, so it stays exact, and the last owner
 * can never be removed or demoted, even concurrently.
 */
import { tableName } from '../../platform/dynamo/client';
import { namespaceKeys } from './keys';
import { namespaceUpdate } from './namespaces';

/** Adds `delta` to a group's owner count; with a negative delta, only if an owner remains. */
export const ownerCountUpdate = (groupId: number, delta: number) =>
  namespaceUpdate(groupId, {
    UpdateExpression: 'ADD ownerCount :delta',
    ConditionExpression: delta < 0 ? 'attribute_exists(PK) AND ownerCount > :one' : 'attribute_exists(PK)',
    ExpressionAttributeValues: delta < 0 ? { ':delta': delta, ':one': 1 } : { ':delta': delta },
  });

/**
 * One owner more in a group that must be live (not being deleted): the count and the liveness
 * condition in one operation, as one transaction may not touch an item twice.
 */
export function ownerAddedToLiveGroup(groupId: number) {
  const { Update } = ownerCountUpdate(groupId, +1);
  return { Update: { ...Update, ConditionExpression: `${Update.ConditionExpression} AND attribute_not_exists(deleting)` } };
}

/**
 * One owner less, without the last-owner condition: the owner was a deleted user, and a group may
 * be left without owners (admins still manage it). Only while the group item exists (an `ADD`
 * would recreate a deleted one).
 */
export const deletedOwnerUncounted = (groupId: number) =>
  namespaceUpdate(groupId, {
    UpdateExpression: 'ADD ownerCount :minusOne',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':minusOne': -1 },
  });

/** A condition that the group exists, is a group and is not being deleted. */
export const groupIsLive = (groupId: number) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: namespaceKeys.namespace(groupId),
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting) AND kind = :group',
    ExpressionAttributeValues: { ':group': 'group' },
  },
});
