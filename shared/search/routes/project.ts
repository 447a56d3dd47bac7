/** `GET /projects/:id/search`: one project; 404 for a project the caller cannot see. Served by the projects function. */
import { findProjectOrNotFound } from '../../projects';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { answerSearch } from './answer';
import { projectSearchParams } from './search.params';

export const projectSearchRoutes = {
  'GET /projects/:id/search': route({
    params: projectSearchParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return answerSearch({ kind: 'project', subject }, params, user, link);
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
