/**
 * Project hooks: list, read, add, edit, delete. Every route needs `admin_project` (maintainer or
 * above, or an admin), even to read, as in GitLab: hook URLs are project settings.
 */
import { z } from 'zod';
import { authorize } from '../../auth';
import type { User } from '../../users';
import { deleteHook, getHook, insertHook, listHooks, updateHook } from '../store/hooks';
import { findProjectOrNotFound } from '../../projects';
import { NotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { created, emptyOk, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentHook } from '../presenters/hooks';
import { hookIdParam, hookParams, hookSettingsFrom, projectIdParam } from './params';
import type { catalog } from '../catalog';

/** The project the caller may administer: 404 when they cannot see it, 403 when they can but not manage it. */
async function findAdministeredProject(idOrPath: string, user: User | null) {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_project', subject);
  return subject.project;
}

async function findHookOrNotFound(projectId: number, hookId: number) {
  const hook = await getHook(projectId, hookId);
  if (!hook) throw new NotFoundError('Project Hook');
  return hook;
}

export const hookRoutes = {
  'GET /projects/:id/hooks': route({
    params: z.object({ ...projectIdParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const project = await findAdministeredProject(params.id, user);
      const page = paginateArray(params, link, await listHooks(project.id));
      return ok(page.items.map(presentHook), page.headers);
    },
  }),

  'GET /projects/:id/hooks/:hook_id': route({
    params: z.object({ ...projectIdParam, ...hookIdParam }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      return ok(presentHook(await findHookOrNotFound(project.id, params.hook_id)));
    },
  }),

  'POST /projects/:id/hooks': route({
    params: z.object({ ...projectIdParam, ...hookParams }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      const hook = await insertHook(project.id, hookSettingsFrom(params), params.token);
      if (hook === 'project_gone') throw new NotFoundError('Project');
      return created(presentHook(hook));
    },
  }),

  'PUT /projects/:id/hooks/:hook_id': route({
    params: z.object({ ...projectIdParam, ...hookIdParam, ...hookParams }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      const hook = await findHookOrNotFound(project.id, params.hook_id);
      const updated = await updateHook(hook, hookSettingsFrom(params, hook), params.token);
      if (updated === 'project_gone') throw new NotFoundError('Project');
      if (updated === 'hook_gone') throw new NotFoundError('Project Hook');
      return ok(presentHook(updated));
    },
  }),

  'DELETE /projects/:id/hooks/:hook_id': route({
    params: z.object({ ...projectIdParam, ...hookIdParam }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      const deleted = await deleteHook(project.id, params.hook_id);
      return deleted ? ok(presentHook(deleted)) : emptyOk();
    },
  }),
} satisfies RoutesOf<typeof catalog.hooks>;
