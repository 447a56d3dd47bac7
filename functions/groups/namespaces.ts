/** Namespaces: the personal namespaces and groups a user can put projects in. */
import { z } from 'zod';
import { listNamespaces } from '../../shared/domain/groups';
import { paginationParams } from '../../shared/http/pagination';
import { p } from '../../shared/http/params';
import { ok } from '../../shared/http/response';
import { route, type GroupRoutes } from '../../shared/http/route';
import { presentNamespace } from '../../shared/presenters/namespaces';

export const namespaceRoutes = {
  'GET /namespaces': route({
    params: z.object({ ...paginationParams, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const page = await listNamespaces(user!, params.search, params, link);
      return ok(page.items.map(presentNamespace), page.headers);
    },
  }),
} satisfies GroupRoutes<'groups'>;
