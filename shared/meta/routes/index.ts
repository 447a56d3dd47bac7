/** Service metadata: `GET /version`, as GitLab answers it (authentication required). */
import { config } from '../../platform/config';
import { ok } from '../../platform/http/response';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';

export const routes = {
  meta: {
    'GET /version': route({
      params: noParams,
      handler: async () => ok({ version: config().version, revision: config().revision }),
    }),
  } satisfies RoutesOf<typeof catalog.meta>,
};
