/**
 * Items that belong to one user and live in the user's partition (SSH keys, secondary emails,
 * access tokens): written together with the uniqueness claims they own, deleted together with
 * them, and only while the user is live. Each item lists the claims it owns in `ownedKeys`, which
 * is also how deleting the user finds them.
 */
import { deleteFollowItem, isFollowItem } from './follows';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import type { Collection, Key } from '../../platform/dynamo/keys';
import { getItem, isId, queryAll, queryCollection, type Item, getEntity } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { putClaim } from '../../platform/dynamo/items';
import { userCollections, userKeys } from './keys';
import { userIsLive } from './users';

export type ChildInsertResult = 'created' | 'user_gone' | 'claim_taken';

/** Writes `item` (at `key`) and claims `claimKeys` for `userId`, atomically. */
export async function insertChild(userId: number, key: Key, item: Item, claimKeys: Key[]): Promise<ChildInsertResult> {
  const failure = await transactOr(
    {
      user: userIsLive(userId),
      child: {
        Put: {
          TableName: tableName(),
          Item: { ...item, ...key, ownedKeys: claimKeys },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      claims: claimKeys.map((claim) => putClaim(claim, { userId, childSK: key.SK })),
    },
    [['user', 'user_gone']] as const,
    'claim_taken' as const,
  );
  return failure ?? 'created';
}

/** Deletes the item at `key` and the claims it owns; returns the deleted item, or undefined if absent. */
export async function deleteChild(key: Key): Promise<Item | undefined> {
  const item = await getItem(key);
  if (!item) return undefined;
  const owned = (item.ownedKeys as Key[] | undefined) ?? [];
  const failure = await transactOr(
    {
      child: { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(PK)' } },
      claims: owned.map((claim) => ({ Delete: { TableName: tableName(), Key: claim } })),
    },
    [],
    'deleted_concurrently' as const,
  );
  return failure ? undefined : item;
}

/**
 * The reads and the delete of one kind of child, by the user and the child's id: a user's list
 * (one Query of the kind's sort-key prefix), one child (GetItem) and its deletion with its claims.
 * Internal to the store (each kind exports them under its own names).
 */
export function childAccess<T>(kind: {
  key: (userId: number, id: number) => Key;
  collection: (userId: number) => Collection;
  fromItem: (item: Item) => T;
}) {
  return {
    list: async (userId: number): Promise<T[]> => (await queryAll(kind.collection(userId))).map(kind.fromItem),
    get: async (userId: number, id: number): Promise<T | undefined> => {
      if (!isId(id)) return undefined;
      return getEntity(kind.key(userId, id), kind.fromItem);
    },
    remove: async (userId: number, id: number): Promise<T | undefined> => {
      if (!isId(id)) return undefined;
      const item = await deleteChild(kind.key(userId, id));
      return item ? kind.fromItem(item) : undefined;
    },
  };
}

/**
 * Deletes every child of a user (keys, emails, tokens) and the claims each lists in `ownedKeys`,
 * leaving the user item itself. Used by the deletion of a user once it is marked as deleting, so
 * no child can be added meanwhile; idempotent, so a retry finishes an interrupted deletion.
 */
export async function deleteAllChildren(userId: number): Promise<void> {
  const userItem = userKeys.user(userId);
  for await (const item of queryCollection(userCollections.userPartition(userId))) {
    if (item.SK === userItem.SK) continue;
    // A follow pair goes whole, with the other user's count.
    if (isFollowItem(item)) {
      await deleteFollowItem(item);
      continue;
    }
    const owned = (item.ownedKeys as Key[] | undefined) ?? [];
    await Promise.all(owned.map((Key) => db().send(new DeleteCommand({ TableName: tableName(), Key }))));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
  }
}
