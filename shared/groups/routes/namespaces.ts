/** Namespaces: the personal namespaces and groups a user can put projects in. */
import { z } from 'zod';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { presentNamespace } from '../../namespaces';
import { listNamespaces } from '../queries/namespaces';

export const namespaceRoutes = {
  'GET /namespaces': route({
    params: z.object({ ...paginationParams, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, await listNamespaces(user, params.search));
      return ok(page.items.map(presentNamespace), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
