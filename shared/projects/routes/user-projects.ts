/**
 * A user's project lists (served by the users endpoint group), each with the project list's
 * filters, order and paging, each holding only the projects the caller may see; the user is named
 * by id or username, as GitLab's (404 `User Not Found`):
 * - `GET /users/:user_id/projects`: the projects of the user's personal namespace;
 * - `GET /users/:user_id/starred_projects`: the projects the user starred (GitLab's `StarredProjectsFinder`);
 * - `GET /users/:user_id/contributed_projects`: the projects the user contributed to in the last
 *   year outside their personal namespace (GitLab's `ContributedProjectsFinder`, `joined(user)`),
 *   with `order_by`, `sort` and `simple` only.
 */
import * as z from 'zod';
import { NotFoundError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findUserByUsername, getUser, type User } from '../../users';
import type { catalog } from '../catalog';
import { presentProjects } from '../presenters/projects';
import { projectList, type ProjectListFilters } from '../queries/project-lists';
import { projectListParams } from './projects.params';

/** The user a path names, by id or username; 404 `User Not Found`. */
async function findOwner(id: string): Promise<User> {
  const owner = /^\d+$/.test(id) ? await getUser(Number(id)) : await findUserByUsername(id);
  if (!owner) throw new NotFoundError('User');
  return owner;
}

/** A user's list: `scope` turns the user into the list's own filter. */
const userProjectsRoute = (scope: (owner: User) => ProjectListFilters) =>
  route({
    // As every GET of the users group: a token with only the `read_user` scope may read it.
    authentication: { scopes: ['api', 'read_user'] },
    anonymous: true,
    params: z.object({ id: required(p.string()), ...paginationParams, ...projectListParams }),
    handler: async ({ params: { id, simple, statistics, ...filters }, user, link }) => {
      const owner = await findOwner(id);
      const list = await projectList(user, { ...filters, ...scope(owner) }, filters);
      const page = await paginate(filters, link, list);
      return ok(await presentProjects(page.items, user, { simple, statistics }), page.headers);
    },
  });

const { order_by, sort, simple } = projectListParams;

export const userProjectRoutes = {
  'GET /users/:id/projects': userProjectsRoute((owner) => ({ namespaceId: owner.namespaceId })),
  'GET /users/:id/starred_projects': userProjectsRoute((owner) => ({ starredBy: owner.id })),
  'GET /users/:id/contributed_projects': route({
    authentication: { scopes: ['api', 'read_user'] },
    anonymous: true,
    params: z.object({ id: required(p.string()), ...paginationParams, order_by, sort, simple }),
    handler: async ({ params: { id, simple, ...params }, user, link }) => {
      const owner = await findOwner(id);
      const list = await projectList(user, { order_by: params.order_by, sort: params.sort, contributedBy: { userId: owner.id, namespaceId: owner.namespaceId } }, params);
      const page = await paginate(params, link, list);
      return ok(await presentProjects(page.items, user, { simple }), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
