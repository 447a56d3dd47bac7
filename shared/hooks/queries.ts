/**
 * Reads of project hooks. The caller is authorized by the route (`admin_project`: hook URLs are
 * project settings, so even reading them needs a maintainer).
 */
import { NotFoundError } from '../platform/http/errors';
import { getHook, listHooks, type ProjectHook } from './store/hooks';

/** Every hook of a project, oldest first (a project has few; the route pages them). */
export async function projectHooks(projectId: number): Promise<ProjectHook[]> {
  return listHooks(projectId);
}

/** One hook of the project; 404 `Project Hook` when there is none. */
export async function findHookOrNotFound(projectId: number, hookId: number): Promise<ProjectHook> {
  const hook = await getHook(projectId, hookId);
  if (!hook) throw new NotFoundError('Project Hook');
  return hook;
}
