/**
 * A user's contribution feed, `GET /users/:id/events`, and the caller's, `GET /events` (served by
 * the users endpoint group): the feeds are this feature's, and only the events of projects the
 * caller may read are shown.
 */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findUserOrNotFound } from '../../users';
import type { catalog } from '../catalog';
import { presentEvent } from '../presenters/events';
import { eventFilterParams, filterEvents, readsAscending } from '../queries/event-filters';
import { userEvents } from '../queries/user-events';

export const userEventRoutes = {
  'GET /users/:id/events': route({
    // As every GET of the users group: a token with only the `read_user` scope may read it.
    authentication: { scopes: ['api', 'read_user'] },
    anonymous: true,
    params: z.object({ id: required(p.int()), ...paginationParams, ...eventFilterParams }),
    handler: async ({ params, user, link }) => {
      const author = await findUserOrNotFound(params.id);
      const page = await paginate(params, link, filterEvents(userEvents(author, user, readsAscending(params)), params));
      return ok(page.items.map((event) => presentEvent(event, author)), page.headers);
    },
  }),

  /** The caller's own feed (GitLab's `GET /events`): their events in the projects they may read. */
  'GET /events': route({
    authentication: { scopes: ['api', 'read_user'] },
    params: z.object({ ...paginationParams, ...eventFilterParams }),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, filterEvents(userEvents(user, user, readsAscending(params)), params));
      return ok(page.items.map((event) => presentEvent(event, user)), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
