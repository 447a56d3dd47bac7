/**
 * Items that belong to one user and live in the user's partition (SSH keys, secondary emails):
 * written together with the uniqueness claims they own, deleted together with them, and only
 * while the user is live. Each item lists the claims it owns in `ownedKeys`, which is also how
 * deleting the user finds them.
 */
import type { Key } from '../../platform/dynamo/keys';
import { getItem, type Item } from '../../platform/dynamo/query';
import { TransactionConditionFailed, transactWrite } from '../../platform/dynamo/transactions';
import { putClaim } from '../../platform/dynamo/items';
import { userIsLive } from './users';
import { tableName } from '../../platform/dynamo/client';


export type ChildInsertResult = 'created' | 'user_gone' | 'claim_taken';

/** Writes `item` (at `key`) and claims `claimKeys` for `userId`, atomically. */
export async function insertChild(userId: number, key: Key, item: Item, claimKeys: Key[]): Promise<ChildInsertResult> {
  try {
    await transactWrite([
      userIsLive(userId),
      {
        Put: {
          TableName: tableName(),
          Item: { ...item, ...key, ownedKeys: claimKeys },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...claimKeys.map((claim) => putClaim(claim, { userId, childSK: key.SK })),
    ]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    return error.failed.includes(0) ? 'user_gone' : 'claim_taken';
  }
}

/** Deletes the item at `key` and the claims it owns; returns the deleted item, or undefined if absent. */
export async function deleteChild(key: Key): Promise<Item | undefined> {
  const item = await getItem(key);
  if (!item) return undefined;
  const owned = (item.ownedKeys as Key[] | undefined) ?? [];
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(PK)' } },
      ...owned.map((claim) => ({ Delete: { TableName: tableName(), Key: claim } })),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return undefined; // deleted concurrently
    throw error;
  }
  return item;
}
