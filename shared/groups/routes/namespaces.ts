/** Namespaces: the personal namespaces and groups a user can put projects in, and one by id or path. */
import * as z from 'zod';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { isAdmin } from '../../auth';
import { findGroupOrNotFound, findNamespace, presentNamespace } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { listNamespaces } from '../queries/namespaces';

/** Whether the caller may read the group (GitLab's `read_namespace` of a group). */
async function readsGroup(groupId: number, user: User): Promise<boolean> {
  try {
    await findGroupOrNotFound(groupId, user);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

export const namespaceRoutes = {
  'GET /namespaces': route({
    params: z.object({ ...paginationParams, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, await listNamespaces(user, params.search));
      return ok(page.items.map(presentNamespace), page.headers);
    },
  }),

  /** One namespace by id or full path: a group the caller may read, or the caller's own personal namespace (any, for admins). */
  'GET /namespaces/:id': route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const namespace = await findNamespace(params.id);
      const visible = namespace?.kind === 'group' ? await readsGroup(namespace.id, user) : namespace?.ownerId === user.id || isAdmin(user);
      if (!namespace || !visible) throw new NotFoundError('Namespace');
      return ok(presentNamespace(namespace));
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
