/**
 * Writes of project hooks and system hooks: add, edit, remove. The caller is authorized by the
 * route (`admin_project`, or an admin for system hooks); these map the store's results to HTTP errors. The secret token is sealed
 * here, before it reaches the store (`platform/crypto/secret-box.ts`): it never lies in the table
 * in clear, and no response ever carries it.
 */
import { sealSecret } from '../platform/crypto/secret-box';
import { NotFoundError, RecordNotFoundError } from '../platform/http/errors';
import { deleteHook, insertHook, updateHook, type HookSettings, type ProjectHook } from './store/hooks';
import { deleteSystemHook, insertSystemHook, updateSystemHook, type SystemHook, type SystemHookSettings } from './store/system-hooks';

/**
 * A change of the secret token as a client asks for it: a new token, `''` to remove it (GitLab
 * stores the empty string it is given), `undefined` to keep it as it is.
 */
export type TokenChange = string | undefined;

/**
 * Adds a hook to the project, with its token sealed when one is given.
 * @throws NotFoundError `Project` when the project was deleted meanwhile.
 *
 * @example
 * const hook = await addHook(project.id, hookSettingsFrom(params), params.token);
 */
export async function addHook(projectId: number, settings: HookSettings, token: TokenChange): Promise<ProjectHook> {
  const hook = await insertHook(projectId, settings, token ? await sealSecret(token) : undefined);
  if (hook === 'project_gone') throw new NotFoundError('Project');
  return hook;
}

/**
 * Replaces a hook's settings, and its token as `token` says (sealed).
 * @throws NotFoundError `Project` or `Project Hook` when it was deleted meanwhile.
 */
export async function editHook(hook: ProjectHook, settings: HookSettings, token: TokenChange): Promise<ProjectHook> {
  const sealed = token === undefined ? undefined : token === '' ? null : await sealSecret(token);
  const updated = await updateHook(hook, settings, sealed);
  if (updated === 'project_gone') throw new NotFoundError('Project');
  if (updated === 'hook_gone') throw new NotFoundError('Project Hook');
  return updated;
}

/** Removes a hook; returns what was removed, or `undefined` when there was none (GitLab answers 200 either way). */
export async function removeHook(projectId: number, hookId: number): Promise<ProjectHook | undefined> {
  return deleteHook(projectId, hookId);
}

/**
 * Adds a system hook, with its token sealed when one is given.
 *
 * @example
 * const hook = await addSystemHook(systemHookSettingsFrom(params), params.token);
 */
export async function addSystemHook(settings: SystemHookSettings, token: TokenChange): Promise<SystemHook> {
  return insertSystemHook(settings, token ? await sealSecret(token) : undefined);
}

/**
 * Replaces a system hook's settings, and its token as `token` says (sealed).
 * @throws RecordNotFoundError when it was deleted meanwhile.
 */
export async function editSystemHook(hook: SystemHook, settings: SystemHookSettings, token: TokenChange): Promise<SystemHook> {
  const sealed = token === undefined ? undefined : token === '' ? null : await sealSecret(token);
  const updated = await updateSystemHook(hook, settings, sealed);
  if (updated === 'hook_gone') throw new RecordNotFoundError();
  return updated;
}

/** Removes a system hook; returns what was removed, or `undefined` when there was none. */
export async function removeSystemHook(hookId: number): Promise<SystemHook | undefined> {
  return deleteSystemHook(hookId);
}
