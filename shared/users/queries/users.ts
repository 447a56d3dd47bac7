/** Lists of users: `GET /users` with its filters, and users by last activity (`GET /user/activities`). */
import type { CollectionSource, ListSource } from '../../platform/http/pagination';
import { userCollections } from '../store/keys';
import { findUserByIdentity, findUserByUsername, userFromItem, userStats, type User } from '../store/users';

export interface UserListFilters {
  active?: boolean;
  blocked?: boolean;
  search?: string;
  username?: string;
  extern_uid?: string;
  provider?: string;
  external?: boolean;
  sort?: 'asc' | 'desc';
}

/**
 * The users matching `filters`, for the route to page: an array for the exact lookups
 * (`username`, `extern_uid`+`provider` read their claims), otherwise a list over the index of all
 * users or of one state (`active`/`blocked`), with `search` and `external` filtered after the read
 * (see ACCESS_PATTERNS.md). `searchEmails` lets admins match email addresses too.
 */
export async function listUsers(filters: UserListFilters, options: { searchEmails: boolean }): Promise<User[] | ListSource<User>> {
  const search = filters.search?.toLowerCase();
  const matches = (user: User): boolean =>
    (!filters.active || user.state === 'active') &&
    (!filters.blocked || user.state === 'blocked') &&
    (!filters.external || user.external) &&
    (!search ||
      user.username.toLowerCase().includes(search) ||
      user.name.toLowerCase().includes(search) ||
      (options.searchEmails && user.email.toLowerCase().includes(search)));

  if (filters.username !== undefined) return exactMatch(await findUserByUsername(filters.username), matches);
  if (filters.extern_uid !== undefined && filters.provider !== undefined) {
    return exactMatch(await findUserByIdentity(filters.provider, filters.extern_uid), matches);
  }

  const state = filters.blocked ? 'blocked' : filters.active ? 'active' : undefined;
  const filtered = Boolean(search || filters.external || (filters.active && filters.blocked));
  return {
    collection: state ? userCollections.usersInState(state) : userCollections.users(),
    ascending: filters.sort === 'asc',
    select: (item) => {
      const user = userFromItem(item);
      return !user.deleting && matches(user) ? user : undefined;
    },
    total: filtered ? undefined : async () => (await userStats())[state ?? 'all'],
  };
}

const exactMatch = (user: User | undefined, matches: (user: User) => boolean): User[] => (user && matches(user) ? [user] : []);

/** Users active on `day` or later, least recently active first (`GET /user/activities`). */
export function usersActiveSince(day: string): CollectionSource<User> {
  return { collection: userCollections.usersActiveSince(day), ascending: true, select: userFromItem };
}
