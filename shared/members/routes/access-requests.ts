/**
 * Access requests of projects and groups, `/projects/:id/access_requests…` and
 * `/groups/:id/access_requests…` (GitLab's `API::AccessRequests`, one set of routes for both):
 * request (the caller), list, approve (201 with the new member), deny or withdraw (204). A project
 * or group the caller cannot read is 404; refusals are 403. A project's are served by the projects
 * function and a group's by the groups function, under their `shared` gateway subtrees.
 */
import * as z from 'zod';
import { GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { ForbiddenError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import {
  accessRequestList,
  approveAccessRequest,
  canManageAccessRequests,
  denyAccessRequest,
  requestAccess,
  sourceOf,
  withRequesters,
  type RequestSource,
} from '../access-requests';
import { presentAccessRequester } from '../presenters/access-requests';
import { presentMember } from '../presenters/members';

type Caller = Parameters<typeof findProjectOrNotFound>[1];

const requesterParams = { ...idParam, user_id: required(p.int()) };

/** The four routes for one kind of source: `find` resolves it (404 when unreadable), `levels` are the levels approval may give. */
function sourceRoutes(find: (idOrPath: string, user: Caller) => Promise<RequestSource>, levels: readonly number[]) {
  return {
    list: route({
      params: z.object({ ...idParam, ...paginationParams }),
      handler: async ({ params, user, link }) => {
        const subject = await find(params.id, user);
        if (!canManageAccessRequests(user, subject)) throw new ForbiddenError();
        const page = await paginate(params, link, accessRequestList(sourceOf(subject)));
        return ok((await withRequesters(page.items)).map(presentAccessRequester), page.headers);
      },
    }),
    request: route({
      params: z.object(idParam),
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        return created(presentAccessRequester(await requestAccess(user, subject)));
      },
    }),
    approve: route({
      params: z.object({ ...requesterParams, access_level: p.intOneOf(levels) }),
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        return created(presentMember(await approveAccessRequest(user, subject, params.user_id, params.access_level)));
      },
    }),
    deny: route({
      params: z.object(requesterParams),
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        await denyAccessRequest(user, subject, params.user_id);
        return noContent();
      },
    }),
  };
}

const project = sourceRoutes(findProjectOrNotFound, PROJECT_ACCESS_LEVELS);
const group = sourceRoutes(findGroupOrNotFound, GROUP_ACCESS_LEVELS);

/** Served by the projects function (`catalog.projects`). */
export const projectAccessRequestRoutes = {
  'GET /projects/:id/access_requests': project.list,
  'POST /projects/:id/access_requests': project.request,
  'PUT /projects/:id/access_requests/:user_id/approve': project.approve,
  'DELETE /projects/:id/access_requests/:user_id': project.deny,
} satisfies RoutesOf<typeof catalog.projects>;

/** Served by the groups function (`catalog.groups`). */
export const groupAccessRequestRoutes = {
  'GET /groups/:id/access_requests': group.list,
  'POST /groups/:id/access_requests': group.request,
  'PUT /groups/:id/access_requests/:user_id/approve': group.approve,
  'DELETE /groups/:id/access_requests/:user_id': group.deny,
} satisfies RoutesOf<typeof catalog.groups>;
