/**
 * System hooks (GitLab's `lib/api/system_hooks.rb`): the instance's hooks, admins only (a user
 * who is not is answered 403, an anonymous caller 401). List, read, add, edit, remove, and test
 * (`POST /hooks/:hook_id` sends GitLab's sample `project_create` event to the hook, waits for it,
 * and answers the sample).
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { authorize } from '../../auth';
import { config } from '../../platform/config';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { RecordNotFoundError } from '../../platform/http/errors';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { addSystemHook, editSystemHook, removeSystemHook } from '../commands';
import { presentSystemHook } from '../presenters/system-hooks';
import { findSystemHookOrNotFound, systemHooks } from '../queries';
import { SYSTEM_HOOK_TEST_DATA, sendToSystemHook } from '../system-delivery';
import type { catalog } from '../catalog';
import { createSystemHookParams, systemHookIdParam, systemHookSettingsFrom, updateSystemHookParams } from './system-hooks.params';

export const systemHookRoutes = {
  'GET /hooks': route({
    params: z.object({ ...paginationParams }),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_system_hooks');
      const page = await paginate(params, link, systemHooks());
      return ok(page.items.map(presentSystemHook), page.headers);
    },
  }),

  'GET /hooks/:hook_id': route({
    params: z.object({ ...systemHookIdParam }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_system_hooks');
      return ok(presentSystemHook(await findSystemHookOrNotFound(params.hook_id)));
    },
  }),

  'POST /hooks': route({
    params: z.object({ ...createSystemHookParams }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_system_hooks');
      return created(presentSystemHook(await addSystemHook(systemHookSettingsFrom(params), params.token)));
    },
  }),

  'PUT /hooks/:hook_id': route({
    params: z.object({ ...systemHookIdParam, ...updateSystemHookParams }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_system_hooks');
      const hook = await findSystemHookOrNotFound(params.hook_id);
      return ok(presentSystemHook(await editSystemHook(hook, systemHookSettingsFrom(params, hook), params.token)));
    },
  }),

  'DELETE /hooks/:hook_id': route({
    params: z.object({ ...systemHookIdParam }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_system_hooks');
      if (!(await removeSystemHook(params.hook_id))) throw new RecordNotFoundError();
      return noContent();
    },
  }),

  'POST /hooks/:hook_id': route({
    params: z.object({ ...systemHookIdParam }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_system_hooks');
      const hook = await findSystemHookOrNotFound(params.hook_id);
      // As GitLab: the receiver's answer, whatever it is, is not the caller's; the sample is.
      await sendToSystemHook(hook, JSON.stringify(SYSTEM_HOOK_TEST_DATA), randomUUID(), config().hooksAllowLocalNetwork);
      return created({ ...SYSTEM_HOOK_TEST_DATA });
    },
  }),
} satisfies RoutesOf<typeof catalog.meta>;
