/** What the projects feature removes of a user being deleted: its personal projects and its stars. */
import { queryCollection } from '../../platform/dynamo/query';
import { NotModifiedError } from '../../platform/http/errors';
import type { User } from '../../users';
import { projectCollections } from '../store/keys';
import { getProject, projectFromItem } from '../store/projects';
import { deleteProject } from './projects';
import { unstarProject } from './stars';

/**
 * Deletes the projects of the user's personal namespace and takes back its stars (so every
 * `star_count` stays exact). Run while the user is marked as deleting, before its record goes;
 * a crash midway is finished by deleting the user again.
 */
export async function forgetUser(user: User): Promise<void> {
  for await (const item of queryCollection(projectCollections.namespaceProjects(user.namespaceId))) {
    // The index may lag a rename: delete the project as it is now.
    const project = await getProject(projectFromItem(item).id);
    if (project) await deleteProject(project);
  }
  for await (const item of queryCollection(projectCollections.userStars(user.id))) {
    const project = await getProject(Number(item.projectId));
    if (project) await unstarProject(project, user).catch((error) => (error instanceof NotModifiedError ? undefined : Promise.reject(error)));
  }
}
