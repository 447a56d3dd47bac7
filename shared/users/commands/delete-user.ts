/**
 * Deleting a user: the one users command that reaches "up" into projects and members (the
 * user's personal projects, its memberships, its stars). Imported only by the users routes, never
 * exported by the feature's index.ts (see the feature DAG in the house conventions).
 */
import { queryCollection } from '../../platform/dynamo/query';
import { NotModifiedError } from '../../platform/http/errors';
import { removeAllMembershipsOf } from '../../members';
import { deleteProject, getProject, projectCollections, projectFromItem, unstarProject } from '../../projects';
import { deleteAllChildren } from '../store/children';
import { getUserRecord, markUserDeleting, removeUser, type User } from '../store/users';

/**
 * Deletes a user and everything stored under it (keys, emails, tokens, and the claims and digest
 * pointers each of them lists in `ownedKeys`, the namespace), its personal projects, its
 * memberships and its stars. The user is first marked as deleting — it stops authenticating and
 * no new child can be added — so nothing is orphaned; a crash midway is finished by a retry.
 * Returns the deleted user, or undefined when there was none.
 */
export async function deleteUser(id: number): Promise<User | undefined> {
  // The record even if marked deleting: a retry finishes a deletion that was interrupted.
  const user = await getUserRecord(id);
  if (!user) return undefined;
  if (!(await markUserDeleting(id))) return undefined;
  // What the user owns or belongs to elsewhere: personal projects, memberships, stars. These read
  // the projects feature's collections, which its index.ts exports (it has no list of a
  // namespace's project ids nor of a user's stars to call instead).
  for await (const item of queryCollection(projectCollections.namespaceProjects(user.namespaceId))) {
    // The index may lag a rename: delete the project as it is now.
    const project = await getProject(projectFromItem(item).id);
    if (project) await deleteProject(project);
  }
  await removeAllMembershipsOf(id);
  for await (const item of queryCollection(projectCollections.userStars(id))) {
    const project = await getProject(Number(item.projectId));
    if (project) await unstarProject(project, user).catch((error) => (error instanceof NotModifiedError ? undefined : Promise.reject(error)));
  }
  await deleteAllChildren(id);
  if ((await removeUser(user)) === 'gone') return undefined; // a concurrent deletion won
  return { ...user, deleting: undefined };
}
