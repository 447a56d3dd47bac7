/**
 * Project hooks: list, read, add, edit, delete, test. Every route needs `admin_project` (maintainer
 * or above, or an admin), even to read, as in GitLab: hook URLs are project settings.
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import type { User } from '../../users';
import { findProjectOrNotFound } from '../../projects';
import { idParam } from '../../platform/http/params';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { ApiError } from '../../platform/http/errors';
import { created, emptyOk, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { addHook, editHook, removeHook } from '../commands';
import { findHookOrNotFound, projectHooks } from '../queries';
import { presentHook } from '../presenters/hooks';
import { testProjectHook } from '../test-hooks';
import { hookIdParam, hookParams, hookSettingsFrom, hookTestTriggerParam } from './hooks.params';
import type { catalog } from '../catalog';

/** The project the caller may administer: 404 when they cannot see it, 403 when they can but not manage it. */
async function findAdministeredProject(idOrPath: string, user: User) {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_project', subject);
  return subject.project;
}

export const hookRoutes = {
  'GET /projects/:id/hooks': route({
    params: z.object({ ...idParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const project = await findAdministeredProject(params.id, user);
      const page = paginateArray(params, link, await projectHooks(project.id));
      return ok(page.items.map(presentHook), page.headers);
    },
  }),

  'GET /projects/:id/hooks/:hook_id': route({
    params: z.object({ ...idParam, ...hookIdParam }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      return ok(presentHook(await findHookOrNotFound(project.id, params.hook_id)));
    },
  }),

  'POST /projects/:id/hooks': route({
    params: z.object({ ...idParam, ...hookParams }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      return created(presentHook(await addHook(project.id, hookSettingsFrom(params), params.token)));
    },
  }),

  'PUT /projects/:id/hooks/:hook_id': route({
    params: z.object({ ...idParam, ...hookIdParam, ...hookParams }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      const hook = await findHookOrNotFound(project.id, params.hook_id);
      return ok(presentHook(await editHook(hook, hookSettingsFrom(params, hook), params.token)));
    },
  }),

  'DELETE /projects/:id/hooks/:hook_id': route({
    params: z.object({ ...idParam, ...hookIdParam }),
    handler: async ({ params, user }) => {
      const project = await findAdministeredProject(params.id, user);
      const deleted = await removeHook(project.id, params.hook_id);
      return deleted ? ok(presentHook(deleted)) : emptyOk();
    },
  }),

  'POST /projects/:id/hooks/:hook_id/test/:trigger': route({
    params: z.object({ ...idParam, ...hookIdParam, ...hookTestTriggerParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      const hook = await findHookOrNotFound(subject.project.id, params.hook_id);
      const outcome = await testProjectHook(hook, { project: subject.project, namespace: subject.namespace }, user, params.trigger);
      if ('error' in outcome) throw new ApiError(422, { message: outcome.error });
      return created({ message: '201 Created' });
    },
  }),
} satisfies RoutesOf<typeof catalog.hooks>;
