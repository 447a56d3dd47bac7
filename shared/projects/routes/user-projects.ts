/**
 * `GET /users/:user_id/projects` (served by the users endpoint group): the projects of a user's
 * personal namespace that the caller may see, with the project list's filters, order and paging.
 * The user is named by id or username, as GitLab's.
 */
import * as z from 'zod';
import { NotFoundError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findUserByUsername, getUser } from '../../users';
import type { catalog } from '../catalog';
import { presentProjects } from '../presenters/projects';
import { projectList } from '../queries/project-lists';
import { projectListParams } from './projects.params';

export const userProjectRoutes = {
  'GET /users/:id/projects': route({
    // As every GET of the users group: a token with only the `read_user` scope may read it.
    authentication: { scopes: ['api', 'read_user'] },
    anonymous: true,
    params: z.object({ id: required(p.string()), ...paginationParams, ...projectListParams }),
    handler: async ({ params: { id, simple, statistics, ...filters }, user, link }) => {
      const owner = /^\d+$/.test(id) ? await getUser(Number(id)) : await findUserByUsername(id);
      if (!owner) throw new NotFoundError('User');
      const list = await projectList(user, { ...filters, namespaceId: owner.namespaceId }, filters);
      const page = await paginate(filters, link, list);
      return ok(await presentProjects(page.items, user, { simple, statistics }), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
