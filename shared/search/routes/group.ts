/** `GET /groups/:id/search`: a group and its subgroups; 404 for a group the caller cannot see. Served by the groups function. */
import { findGroupOrNotFound } from '../../namespaces';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { answerSearch } from './answer';
import { groupSearchParams } from './search.params';

export const groupSearchRoutes = {
  'GET /groups/:id/search': route({
    params: groupSearchParams,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      return answerSearch({ kind: 'group', group }, params, user, link);
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
