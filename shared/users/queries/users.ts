/** Lists of users: `GET /users` with its filters, and users by last activity (`GET /user/activities`). */
import { entryIds, searchStream, type IdRange, type IdStream } from '../../namespaces';
import type { CollectionSource, ListSource } from '../../platform/http/pagination';
import { matchesSearch, parseSearch } from '../../platform/search';
import { isGhost } from '../ghost';
import { userCollections, userSearchCollections } from '../store/keys';
import { findUserByIdentity, findUserByUsername, getUsers, userFromItem, userIdByEmail, userStats, type User } from '../store/users';

export interface UserListFilters {
  active?: boolean;
  blocked?: boolean;
  search?: string;
  username?: string;
  extern_uid?: string;
  provider?: string;
  external?: boolean;
  /** GitLab's `exclude_*`: leave out active users, external users, internal users (the ghost). */
  exclude_active?: boolean;
  exclude_external?: boolean;
  exclude_internal?: boolean;
  /** Leave out project bots (`without_project_bots`); `humans`: GitLab's human users only (no bot, no internal user); `exclude_humans`: only those. */
  without_project_bots?: boolean;
  humans?: boolean;
  exclude_humans?: boolean;
  /** Created at or after / at or before (ISO timestamps). */
  created_after?: string;
  created_before?: string;
  sort?: 'asc' | 'desc';
}

/** The filters read after the index (the list loses its maintained total with them). */
const POST_FILTERS = ['external', 'exclude_active', 'exclude_external', 'exclude_internal', 'without_project_bots', 'humans', 'exclude_humans', 'created_after', 'created_before'] as const;

/**
 * The users matching `filters`, for the route to page: an array for the exact lookups
 * (`username`, `extern_uid`+`provider` read their claims); for `search`, the search entries of
 * its term (name and username; for admins, `searchEmails`, also primary emails: by their words,
 * or exactly, through the email's claim, for a query that is an address, as GitLab); otherwise
 * a list over the index of all users or of one state (`active`/`blocked`), with the other
 * filters ({@link POST_FILTERS}) applied after the read (see ACCESS_PATTERNS.md). Every list is in id order (`sort`).
 *
 * `search` follows GitLab's rule (`shared/platform/search.ts`): every word of three characters or
 * more is a case-insensitive substring of the name or username; a shorter query equals one of
 * them. A query with no indexable term (e.g. `a.b`) filters the whole list, as before.
 */
export async function listUsers(filters: UserListFilters, options: { searchEmails: boolean }): Promise<User[] | ListSource<User>> {
  const query = filters.search === undefined ? undefined : parseSearch(filters.search);
  const address = options.searchEmails && filters.search?.includes('@') ? filters.search.trim().toLowerCase() : undefined;
  const emailMatches = (user: User): boolean =>
    options.searchEmails && query !== undefined && (address !== undefined ? user.email.toLowerCase() === address : matchesSearch(query, user.email));
  const human = (user: User) => !user.bot && !isGhost(user);
  const matches = (user: User): boolean =>
    !user.deleting &&
    (!filters.active || user.state === 'active') &&
    (!filters.blocked || user.state === 'blocked') &&
    (!filters.exclude_active || user.state !== 'active') &&
    (!filters.external || user.external) &&
    (!filters.exclude_external || !user.external) &&
    (!filters.exclude_internal || !isGhost(user)) &&
    (!filters.without_project_bots || !user.bot) &&
    (!filters.humans || human(user)) &&
    (!filters.exclude_humans || !human(user)) &&
    (filters.created_after === undefined || user.createdAt >= filters.created_after) &&
    (filters.created_before === undefined || user.createdAt <= filters.created_before) &&
    (!query || matchesSearch(query, user.name, user.username) || emailMatches(user));

  if (filters.username !== undefined) return exactMatch(await findUserByUsername(filters.username), matches);
  if (filters.extern_uid !== undefined && filters.provider !== undefined) {
    return exactMatch(await findUserByIdentity(filters.provider, filters.extern_uid), matches);
  }

  const ascending = filters.sort === 'asc';
  const term = query?.term;
  if (term !== undefined) {
    const claimed = address !== undefined ? await userIdByEmail(address) : undefined;
    return searchStream({
      ascending,
      sources: (range) => [
        entryIds(userSearchCollections.profile(term), range),
        ...(options.searchEmails && address === undefined ? [entryIds(userSearchCollections.email(term), range)] : []),
        ...(claimed !== undefined ? [idsAfter([claimed], range)] : []),
      ],
      load: async (ids) => new Map((await getUsers(ids)).filter(matches).map((user) => [user.id, user])),
    });
  }

  const state = filters.blocked ? 'blocked' : filters.active ? 'active' : undefined;
  const filtered = Boolean(query || POST_FILTERS.some((name) => filters[name] !== undefined && filters[name] !== false) || (filters.active && filters.blocked));
  return {
    collection: state ? userCollections.usersInState(state) : userCollections.users(),
    ascending,
    select: (item) => {
      const user = userFromItem(item);
      return matches(user) ? user : undefined;
    },
    total: filtered ? undefined : async () => (await userStats())[state ?? 'all'],
  };
}

const exactMatch = (user: User | undefined, matches: (user: User) => boolean): User[] => (user && matches(user) ? [user] : []);

/** A few known ids as an id stream of `range`. */
async function* idsAfter(ids: number[], range: IdRange): IdStream {
  const sorted = [...ids].sort((a, b) => (range.ascending ? a - b : b - a));
  for (const id of sorted) if (range.after === undefined || (range.ascending ? id > range.after : id < range.after)) yield id;
}

/** Users active on `day` or later, least recently active first (`GET /user/activities`). */
export function usersActiveSince(day: string): CollectionSource<User> {
  return { collection: userCollections.usersActiveSince(day), ascending: true, select: userFromItem };
}
