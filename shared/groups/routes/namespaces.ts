/** Namespaces: the personal namespaces and groups a user can put projects in. */
import { z } from 'zod';
import { listNamespaces } from '../groups';
import { paginationParams } from '../../platform/http/pagination';
import { p } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentNamespace } from '../presenters/namespaces';
import type { catalog } from '../catalog';

export const namespaceRoutes = {
  'GET /namespaces': route({
    params: z.object({ ...paginationParams, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const page = await listNamespaces(user, params.search, params, link);
      return ok(page.items.map(presentNamespace), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
