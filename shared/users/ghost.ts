/**
 * The ghost user, GitLab's `Users::Internal.ghost`: one internal user, made on the first deletion
 * of a user, that GitLab shows as the author of the contributions (issues, merge requests, notes,
 * award emoji, events, …) of users that have since been deleted.
 *
 * GitLab moves those records to the ghost (`Users::MigrateRecordsToGhostUserService`, batched
 * `UPDATE … SET author_id = ghost`). Here the user deletion job moves the ones that have an author
 * index and author filters (issues and merge requests: the removal steps of those features, which
 * walk the user's index and rewrite each with its lists and counts), so `author_id=<ghost id>`
 * finds them and `author_id=<deleted id>` no longer does; with `hard_delete` they are deleted
 * instead; award emoji move to the ghost too (or go, with `hard_delete`), and feed events are
 * deleted either way (GitLab's foreign key cascades). The rest (notes without `hard_delete`, todos,
 * resource events) keep the deleted user's id and are shown under the ghost when read
 * ({@link withGhost}): a deleted user's id never comes back (ids come from a sequence), so "no
 * user for this author id" means "deleted". The presenter that resolves a page's authors already
 * reads them in one batch; a missing one costs one read of the ghost per process (it is then
 * kept: the ghost never changes).
 *
 * Like GitLab's, the ghost is a user like any other in reads (`GET /users`, `?username=ghost`,
 * `GET /users/:id`), its username claimed as any username (nobody can register it), `ghost1`,
 * `ghost2`, … when `ghost` was already taken (GitLab's `Uniquify`); it has no password and cannot
 * be given a token, deleted, blocked or edited.
 */
import { putClaim } from '../platform/dynamo/items';
import { ApiError } from '../platform/http/errors';
import { getItem, isId } from '../platform/dynamo/query';
import { userKeys } from './store/keys';
import { addUserSearchEntries, getUser, insertUserWith, newUserIds, newUserRecord, removeUserSearchEntries, userSearchEntryKeys, type User } from './store/users';

/** GitLab's bio of the ghost user (`Users::Internal.ghost`). */
export const GHOST_BIO =
  'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.';

/** How many usernames / emails are tried (`ghost`, `ghost1`, …) before giving up. */
const MAX_ATTEMPTS = 20;

/** The ghost user once found in this process (it never changes: edits are refused). */
let known: User | undefined;

/** Whether `user` is the ghost user. */
export const isGhost = (user: Pick<User, 'ghost'>): boolean => user.ghost === true;

/**
 * Refuses (403, `{"message": …}`; default `403 Forbidden`) a change of the ghost user: it cannot be
 * blocked (GitLab: `An internal user cannot be blocked`), edited, nor given credentials.
 */
export function refuseForGhost(user: Pick<User, 'ghost'>, message = '403 Forbidden'): void {
  if (isGhost(user)) throw new ApiError(403, { message });
}

/** The ghost user, or undefined when no user was ever deleted (it is made then). Reads nothing once found. */
export async function findGhostUser(): Promise<User | undefined> {
  if (known) return known;
  const pointer = await getItem(userKeys.claims.internalUser('ghost'));
  const id = pointer?.userId;
  const ghost = typeof id === 'number' ? await getUser(id) : undefined;
  if (ghost) known = ghost;
  return ghost;
}

/** The ghost user as it is written (`username`, `email` the candidates of this attempt). Internal. */
function ghostUser(ids: { id: number; namespaceId: number }, username: string, email: string): User {
  return newUserRecord({
    ...ids,
    username,
    name: 'Ghost User',
    email,
    bio: GHOST_BIO,
    projectsLimit: 0, // it never creates anything
    canCreateGroup: false,
    ghost: true,
  });
}

/**
 * The ghost user, made when there is none yet: the user, its namespace, its claims and the pointer
 * `UNIQUE#INTERNAL_USER#ghost` (naming its id) in one transaction, the pointer written only if
 * absent, so of concurrent first uses one makes the ghost and the others read it. A username or
 * email already taken is tried again with the next number (`ghost1`, `ghost1@example.com`).
 */
export async function ensureGhostUser(): Promise<User> {
  let usernameSuffix = 0;
  let emailSuffix = 0;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const existing = await findGhostUser();
    if (existing) return existing;
    const suffix = (n: number) => (n === 0 ? '' : String(n));
    const user = ghostUser(await newUserIds(), `ghost${suffix(usernameSuffix)}`, `ghost${suffix(emailSuffix)}@example.com`);
    // Search entries first (a superset of the truth), taken back when the user was not written.
    await addUserSearchEntries(undefined, user, user.version);
    const result = await insertUserWith(user, { internal: putClaim(userKeys.claims.internalUser('ghost'), { userId: user.id }) });
    if (result === 'created') return (known = user);
    await removeUserSearchEntries(userSearchEntryKeys(user));
    if (result === 'username_taken') usernameSuffix++;
    if (result === 'email_taken') emailSuffix++;
    // `internal_failed`: someone else made the ghost; the next round reads it.
  }
  throw new Error('could not make the ghost user');
}

/**
 * For presenters: who to show as the author of a contribution, by author id: the user `found`
 * gives, or, for a (valid) id whose user is gone, the ghost user. Only for authorship (GitLab
 * moves authorship to the ghost; a deleted user's assignments and memberships are removed).
 * Reads nothing when every author of `ids` is found; else the ghost, once per process.
 *
 * @example
 * const authorOf = await withGhost(userOf, issues.map((issue) => issue.authorId));
 * author: presentAuthor(authorOf(issue.authorId)),
 */
export async function withGhost(found: (id: number) => User | undefined, ids: Iterable<number>): Promise<(id: number) => User | undefined> {
  const missing = [...ids].some((id) => isId(id) && !found(id));
  const ghost = missing ? await findGhostUser() : undefined;
  return (id) => found(id) ?? (isId(id) ? ghost : undefined);
}

/** Forgets the ghost kept by this process (unit tests that reset the table). */
export function forgetGhostUser(): void {
  known = undefined;
}
