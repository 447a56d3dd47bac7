/** Sharing a project with groups: the share item and the project's `sharedWith` list change together (`store/shares.ts`). */
import type { Namespace } from '../../namespaces';
import { ConflictError, NotFoundError } from '../../platform/http/errors';
import { getProject, type Project, type ProjectShare } from '../store/projects';
import { deleteShare, deleteShareItem, putShare } from '../store/shares';

/** Shares a project with a group (409 if it already is), capped at `groupAccess`. */
export async function shareProject(project: Project, group: Namespace, share: Omit<ProjectShare, 'groupId'>): Promise<ProjectShare> {
  const record: ProjectShare = { groupId: group.id, ...share };
  const result = await putShare(project.id, record);
  if (result === 'already_shared') throw new ConflictError('Group already shared with this group');
  if (result === 'group_gone') throw new NotFoundError('Group');
  if (result === 'project_gone') throw new NotFoundError('Project');
  return record;
}

/** Removes a project's share with a group; false if there was none. Retries when the list moved. */
export async function unshareProject(projectId: number, groupId: number): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const project = await getProject(projectId);
    const index = project?.sharedWith.findIndex((s) => s.groupId === groupId) ?? -1;
    if (!project || index < 0) {
      // The list may already be clean while the share item remains (a crash between): remove it.
      await deleteShareItem(projectId, groupId);
      return false;
    }
    if ((await deleteShare(projectId, groupId, index)) === 'removed') return true;
  }
  throw new ConflictError('The project was modified by other requests; try again');
}
