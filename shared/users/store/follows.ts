/**
 * Following (GitLab's `Users::UserFollowUser`): a pair of items, `FOLLOWING#<followee>` in the
 * follower's partition and `FOLLOWER#<follower>` in the followee's, written or deleted together in
 * one transaction with the two users' counts (`followingCount`, `followersCount` on the user items,
 * `ADD`), each conditioned on what it expects (the pair absent to follow, present to unfollow, both
 * users live): of concurrent follows of one user one wins, the others find it done.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import type { Item } from '../../platform/dynamo/query';
import { ConditionFailed, transact, type TransactItem } from '../../platform/dynamo/transactions';
import { userKeys } from './keys';

/** GitLab's `MAX_FOLLOWEE_LIMIT`: a user follows at most this many users. */
export const MAX_FOLLOWEES = 300;

const countUpdate = (userId: number, field: 'followersCount' | 'followingCount', delta: 1 | -1, live: boolean): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: userKeys.user(userId),
    UpdateExpression: 'ADD #count :delta',
    ConditionExpression: live ? 'attribute_exists(PK) AND attribute_not_exists(deleting)' : 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#count': field },
    ExpressionAttributeValues: { ':delta': delta },
  },
});

/** Writes that `followerId` follows `followeeId`: `exists` when it already did, `gone` when either user is gone or being deleted. */
export async function insertFollow(followerId: number, followeeId: number, createdAt: string): Promise<'followed' | 'exists' | 'gone'> {
  const following = userKeys.following(followerId, followeeId);
  const follower = userKeys.follower(followeeId, followerId);
  const pair = { followerId, followeeId, createdAt };
  try {
    await transact({
      following: { Put: { TableName: tableName(), Item: { ...following, type: 'Following', ...pair, ownedKeys: [follower] }, ConditionExpression: 'attribute_not_exists(PK)' } },
      follower: { Put: { TableName: tableName(), Item: { ...follower, type: 'Follower', ...pair, ownedKeys: [following] }, ConditionExpression: 'attribute_not_exists(PK)' } },
      followerUser: countUpdate(followerId, 'followingCount', 1, true),
      followeeUser: countUpdate(followeeId, 'followersCount', 1, true),
    });
    return 'followed';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return error.failedOn('following', 'follower') ? 'exists' : 'gone';
  }
}

/** Deletes the pair: `absent` when `followerId` did not follow `followeeId`. */
export async function deleteFollow(followerId: number, followeeId: number): Promise<'unfollowed' | 'absent'> {
  try {
    await transact(removalEntries(followerId, followeeId, true));
    return 'unfollowed';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('following', 'follower')) return 'absent';
    // A user gone (being deleted): the pair goes without the counts (the deletion removes the rest).
    return (await transactOrFalse(removalEntries(followerId, followeeId, false))) ? 'unfollowed' : 'absent';
  }
}

function removalEntries(followerId: number, followeeId: number, withCounts: boolean): Record<string, TransactItem | false> {
  const condition = 'attribute_exists(PK)';
  return {
    following: { Delete: { TableName: tableName(), Key: userKeys.following(followerId, followeeId), ConditionExpression: condition } },
    follower: { Delete: { TableName: tableName(), Key: userKeys.follower(followeeId, followerId), ConditionExpression: condition } },
    followerUser: withCounts && countUpdate(followerId, 'followingCount', -1, false),
    followeeUser: withCounts && countUpdate(followeeId, 'followersCount', -1, false),
  };
}

async function transactOrFalse(entries: Record<string, TransactItem | false>): Promise<boolean> {
  try {
    await transact(entries);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/** Whether a user-partition item is one side of a follow (deleted with its pair, {@link deleteFollowItem}). */
export const isFollowItem = (item: Item): boolean => item.type === 'Following' || item.type === 'Follower';

/**
 * Deletes a follow pair as the deletion of one of its users finds it in that user's partition
 * (U19): the pair and the other user's count in one transaction (nothing when an unfollow already
 * took it); without the count when the other user is gone too.
 */
export async function deleteFollowItem(item: Item): Promise<void> {
  const followerId = Number(item.followerId);
  const followeeId = Number(item.followeeId);
  const ownPartition = item.PK as string;
  const otherIsFollower = ownPartition === userKeys.user(followeeId).PK;
  const entries = removalEntries(followerId, followeeId, false);
  const withCount = {
    ...entries,
    other: otherIsFollower ? countUpdate(followerId, 'followingCount', -1, false) : countUpdate(followeeId, 'followersCount', -1, false),
  };
  try {
    await transact(withCount);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('following', 'follower')) {
      // The pair is half gone at most (an earlier run, or an unfollow): take what is left.
      await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
      return;
    }
    await transactOrFalse(entries);
  }
}
