/** Following users (GitLab's `User#follow` / `#unfollow`): idempotent, a repeat answers "not modified". */
import { BadRequestError, NotFoundError, NotModifiedError } from '../../platform/http/errors';
import { getItem } from '../../platform/dynamo/query';
import { userKeys } from '../store/keys';
import { deleteFollow, insertFollow, MAX_FOLLOWEES } from '../store/follows';
import type { User } from '../store/users';

/**
 * `follower` follows `followee`. 304 when it already does or follows itself (GitLab's
 * `following_users_allowed?`), 400 past {@link MAX_FOLLOWEES} (GitLab's validation), 404 when a
 * user went away meanwhile.
 */
export async function followUser(follower: User, followee: User): Promise<void> {
  if (follower.id === followee.id) throw new NotModifiedError();
  if ((follower.followingCount ?? 0) >= MAX_FOLLOWEES) {
    throw new BadRequestError(`You can't follow more than ${MAX_FOLLOWEES} users. To follow more users, unfollow some others.`);
  }
  const result = await insertFollow(follower.id, followee.id, new Date().toISOString());
  if (result === 'exists') throw new NotModifiedError();
  if (result === 'gone') throw new NotFoundError('User');
}

/** `follower` stops following `followee`; 304 when it did not. */
export async function unfollowUser(follower: User, followee: User): Promise<void> {
  if ((await deleteFollow(follower.id, followee.id)) === 'absent') throw new NotModifiedError();
}

/** Whether `followerId` follows `followeeId` (GitLab's `is_followed`): one GetItem. */
export async function isFollowing(followerId: number, followeeId: number): Promise<boolean> {
  return (await getItem(userKeys.following(followerId, followeeId))) !== undefined;
}
