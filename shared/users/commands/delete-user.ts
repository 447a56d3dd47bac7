/**
 * Deleting a user. What the user owns or belongs to in other features (personal projects, stars,
 * memberships) is removed by those features, which build on users: they are declared here as
 * removal steps by the composition root, the users Lambda entry (`functions/users/handler.ts`), so
 * this feature never imports them.
 */
import { deleteAvatarObject } from '../avatars';
import { deleteAllChildren } from '../store/children';
import { userObjects } from '../store/keys';
import { getUserRecord, markUserDeleting, removeUser, removeUserSearchEntries, userSearchEntryKeys, type User } from '../store/users';

/** What another feature removes of a user being deleted. */
export type UserRemoval = (user: User) => Promise<unknown>;

const removals: UserRemoval[] = [];

/**
 * Declares what other features remove when a user is deleted, run in the order given.
 *
 * @example
 * removeWithUser(forgetUser, (user) => removeAllMembershipsOf(user.id));
 */
export function removeWithUser(...steps: UserRemoval[]): void {
  for (const step of steps) if (!removals.includes(step)) removals.push(step);
}

/**
 * Deletes a user and everything stored under it (keys, emails, tokens, and the claims and digest
 * pointers each of them lists in `ownedKeys`, the namespace), after the removal steps of the other
 * features. The user is first marked as deleting — it stops authenticating and no new child can
 * be added — so nothing is orphaned; a crash midway is finished by a retry. Its search entries
 * go last, once the user item is gone.
 * Returns the deleted user, or undefined when there was none.
 */
export async function deleteUser(id: number): Promise<User | undefined> {
  // The record even if marked deleting: a retry finishes a deletion that was interrupted.
  const user = await getUserRecord(id);
  if (!user) return undefined;
  if (!(await markUserDeleting(id))) return undefined;
  for (const remove of removals) await remove(user);
  await deleteAllChildren(id);
  // As marked (an edit may have landed between the first read and the mark): its search entries.
  const marked = (await getUserRecord(id)) ?? user;
  if ((await removeUser(user)) === 'gone') return undefined; // a concurrent deletion won
  await removeUserSearchEntries(userSearchEntryKeys(marked));
  if (marked.avatar) await deleteAvatarObject(userObjects.avatar(id, marked.avatar.token, marked.avatar.filename));
  return { ...user, deleting: undefined };
}
