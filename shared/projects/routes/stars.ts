/**
 * Stars: `POST /projects/:id/star` and `/unstar` (304 when nothing changes), and the project's
 * starrers, `GET /projects/:id/starrers` (newest star first; `search` on username and name).
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p } from '../../platform/http/params';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { starProject, unstarProject } from '../commands/stars';
import { findProjectOrNotFound } from '../finders';
import { presentProject } from '../presenters/projects';
import { presentStarrer } from '../presenters/starrers';
import { projectStarrers } from '../queries/starrers';

/** Both answer the project as it is afterwards, 201 as GitLab does. */
const starRoute = (command: typeof starProject) =>
  route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'star_project', subject);
      const project = await command(subject.project, user);
      return created(await presentProject({ ...subject, project }, user));
    },
  });

export const starRoutes = {
  'POST /projects/:id/star': starRoute(starProject),
  'POST /projects/:id/unstar': starRoute(unstarProject),
  /** Whoever may read the project sees its starrers (GitLab's `users_star_projects`, `with_visible_profile`: every profile is public here). */
  'GET /projects/:id/starrers': route({
    anonymous: true,
    params: z.object({ ...idParam, ...paginationParams, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const page = await paginate(params, link, projectStarrers(subject, params.search));
      return ok(page.items.map(presentStarrer), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
