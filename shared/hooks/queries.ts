/**
 * Reads of project hooks and system hooks. The caller is authorized by the route (`admin_project`:
 * hook URLs are project settings, so even reading them needs a maintainer; system hooks: admins).
 */
import { NotFoundError, RecordNotFoundError } from '../platform/http/errors';
import { getHook, listHooks, type ProjectHook } from './store/hooks';
import { getSystemHook, systemHookList, type SystemHook } from './store/system-hooks';

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

/** The system hooks as a pageable list, oldest first (one partition: a page is one Query). */
export const systemHooks = systemHookList;

/** One system hook; GitLab's `404 Not found` (its `find` raising) when there is none. */
export async function findSystemHookOrNotFound(hookId: number): Promise<SystemHook> {
  const hook = await getSystemHook(hookId);
  if (!hook) throw new RecordNotFoundError();
  return hook;
}
