/**
 * A user's contribution feed, `GET /users/:id/events` (served by the users endpoint group): the
 * feeds are this feature's, and only the events of projects the caller may read are shown.
 */
import { z } from 'zod';
import { p, required } from '../../platform/http/params';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findUserOrNotFound } from '../../users';
import type { catalog } from '../catalog';
import { presentEvent } from '../presenters/events';
import { userEvents } from '../queries/user-events';

export const userEventRoutes = {
  'GET /users/:id/events': route({
    // As every GET of the users group: a token with only the `read_user` scope may read it.
    authentication: { scopes: ['api', 'read_user'] },
    anonymous: true,
    params: z.object({ id: required(p.int()), ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const author = await findUserOrNotFound(params.id);
      const page = await paginate(params, link, userEvents(author, user));
      return ok(page.items.map((event) => presentEvent(event, author)), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
