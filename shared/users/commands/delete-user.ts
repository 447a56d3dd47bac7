/**
 * Deleting a user. What the user owns, belongs to or wrote in other features (personal projects,
 * stars, memberships; issues, merge requests, notes and award emoji, which move to the ghost user
 * or, with `hard_delete`, are deleted; its feed events, deleted either way) is removed by those
 * features, which build on users: they are
 * declared here as removal steps by the composition root (`functions/api.ts`, loaded by the jobs
 * worker that runs deletions), so this feature never imports them.
 */
import { OWNER, userMemberships } from '../../auth';
import { getNamespaces, type Namespace } from '../../namespaces';
import { ConflictError, ForbiddenError } from '../../platform/http/errors';
import { deleteAvatarObject } from '../avatars';
import { ensureGhostUser, isGhost } from '../ghost';
import { deleteAllChildren } from '../store/children';
import { userObjects } from '../store/keys';
import { getUserRecord, markUserDeleting, removeUser, removeUserSearchEntries, userSearchEntryKeys, type User } from '../store/users';
import { notifyUserDestroyed } from '../lifecycle';

/** How a user is deleted (`DELETE /users/:id?hard_delete=true`). */
export interface DeleteUserOptions {
  /**
   * GitLab's `hard_delete`: the groups the user solely owns are deleted with it (the removal step
   * `functions/api.ts` declares), and the user may be deleted although it owns some; its issues,
   * merge requests, notes (system notes included) and award emoji are deleted instead of moving to
   * the ghost user.
   */
  hardDelete?: boolean;
  /** A rejected sign-up (`POST /users/:id/reject`): deleted only while it is still pending approval. */
  onlyIfPending?: boolean;
}

/**
 * What another feature removes of a user being deleted (`options` as given to {@link deleteUser}),
 * with `context.ghost`, the ghost user its contributions move to (GitLab's
 * `Users::MigrateRecordsToGhostUserService`; with `hard_delete` they are deleted instead).
 */
export type UserRemoval = (user: User, options: DeleteUserOptions, context: { ghost: User }) => Promise<unknown>;

/** GitLab's refusal (`lib/api/users.rb`, `conflict!`) to delete a group's only owner without `hard_delete`. */
export const SOLE_OWNER_MESSAGE = 'User cannot be removed while is the sole-owner of a group';

/**
 * The groups `userId` solely owns (GitLab's `User#solo_owned_groups`): groups the user is a direct
 * owner of, with no other owner in the group nor in any of its ancestors (a subgroup whose parent
 * has an owner is not; a group whose parent the user also owns is not either: the parent is). Its
 * group memberships (GSI1, eventually consistent), then the groups and their ancestors (two
 * BatchGetItems): the cost grows with the user's groups, not with the table.
 */
export async function soloOwnedGroups(userId: number): Promise<Namespace[]> {
  const owned: number[] = [];
  for await (const membership of userMemberships(userId, 'group')) if (membership.accessLevel === OWNER) owned.push(membership.sourceId);
  if (owned.length === 0) return [];
  const groups = await getNamespaces(owned);
  const ancestors = new Map((await getNamespaces([...new Set(groups.flatMap((group) => group.ancestorIds))])).map((group) => [group.id, group] as const));
  const ownersAbove = (group: Namespace) => group.ancestorIds.reduce((sum, id) => sum + (ancestors.get(id)?.ownerCount ?? 0), 0);
  return groups.filter((group) => group.ownerCount <= 1 && ownersAbove(group) === 0);
}

/**
 * What must hold before a user is deleted, answered to the client before the deletion starts
 * (the deletion itself may run later, in a worker): the ghost user is never deleted (403; GitLab's
 * `destroy_user` is never allowed on it), and without `hardDelete` a user who solely owns a group
 * is refused with GitLab's 409 `User cannot be removed while is the sole-owner of a group`.
 */
export async function checkUserDeletable(user: User, options: DeleteUserOptions = {}): Promise<void> {
  if (isGhost(user)) throw new ForbiddenError('The ghost user cannot be removed');
  if (!options.hardDelete && (await soloOwnedGroups(user.id)).length > 0) throw new ConflictError(SOLE_OWNER_MESSAGE);
}

const removals: UserRemoval[] = [];

/**
 * Declares what other features remove when a user is deleted, run in the order given.
 *
 * @example
 * removeWithUser(forgetUser, (user) => removeAllMembershipsOf(user.id));
 * removeWithUser(async (user, { hardDelete }) => hardDelete && deleteGroups(await soloOwnedGroups(user.id)));
 * removeWithUser((user, { hardDelete }, { ghost }) => (hardDelete ? deleteAuthoredIssues(user.id) : reassignAuthoredIssues(user.id, ghost.id)));
 */
export function removeWithUser(...steps: UserRemoval[]): void {
  for (const step of steps) if (!removals.includes(step)) removals.push(step);
}

/**
 * Deletes a user and everything stored under it (keys, emails, tokens, and the claims and digest
 * pointers each of them lists in `ownedKeys`, the namespace), after the removal steps of the other
 * features. The user is first marked as deleting — it stops authenticating and no new child can
 * be added — so nothing is orphaned; a crash midway is finished by a retry. Its search entries
 * go last, once the user item is gone. The ghost user is made first if there is none (`ghost.ts`),
 * and is itself never deleted. `options` are passed to the removal steps (`hardDelete`: the
 * solely owned groups go too); a retry must pass the same.
 * Returns the deleted user, or undefined when there was none.
 */
export async function deleteUser(id: number, options: DeleteUserOptions = {}): Promise<User | undefined> {
  // The record even if marked deleting: a retry finishes a deletion that was interrupted.
  const user = await getUserRecord(id);
  if (!user || isGhost(user)) return undefined;
  // The ghost exists before the user is gone: its contributions move to it (the removal steps of
  // the issues and merge requests) or, where they are not moved, are shown under it when read.
  const ghost = await ensureGhostUser();
  // A rejected sign-up is deleted only while it is still pending (an approval that won keeps it).
  if (!(await markUserDeleting(id, options.onlyIfPending ? 'blocked_pending_approval' : undefined))) return undefined;
  for (const remove of removals) await remove(user, options, { ghost });
  await deleteAllChildren(id);
  // As marked (an edit may have landed between the first read and the mark): its search entries.
  const marked = (await getUserRecord(id)) ?? user;
  if ((await removeUser(user)) === 'gone') return undefined; // a concurrent deletion won
  await removeUserSearchEntries(userSearchEntryKeys(marked));
  if (marked.avatar) await deleteAvatarObject(userObjects.avatar(id, marked.avatar.token, marked.avatar.filename));
  await notifyUserDestroyed(marked);
  return { ...user, deleting: undefined };
}
