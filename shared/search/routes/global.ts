/** `GET /search` (GitLab's `API::Search`): the whole instance, as far as the caller may see it. Served by the meta function. */
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { answerSearch } from './answer';
import { globalSearchParams } from './search.params';

export const globalSearchRoutes = {
  'GET /search': route({
    params: globalSearchParams,
    handler: async ({ params, user, link }) => answerSearch({ kind: 'global' }, params, user, link),
  }),
} satisfies RoutesOf<typeof catalog.meta>;
