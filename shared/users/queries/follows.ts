/** A user's followers and the users it follows, by user id: a range of its partition, then the users (one BatchGetItem per chunk). */
import { collectionStream, mappedStream, type StreamSource } from '../../platform/http/pagination';
import { userCollections } from '../store/keys';
import { getUsers, type User } from '../store/users';

export function followList(userId: number, which: 'followers' | 'following'): StreamSource<User> {
  const collection = which === 'followers' ? userCollections.userFollowers(userId) : userCollections.userFollowing(userId);
  const other = (item: Record<string, unknown>) => Number(which === 'followers' ? item.followerId : item.followeeId);
  return mappedStream(collectionStream({ collection, ascending: true, select: other }), async (ids) => {
    const byId = new Map((await getUsers(ids)).map((user) => [user.id, user]));
    // A user being deleted is left out (its pairs go with it).
    return ids.map((id) => {
      const user = byId.get(id);
      return user && !user.deleting ? user : undefined;
    });
  });
}
