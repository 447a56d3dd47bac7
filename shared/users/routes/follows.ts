/** Following users: `POST /users/:id/follow`, `/unfollow`, `GET /users/:id/followers`, `/following`. */
import * as z from 'zod';
import { ForbiddenError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { created, ok } from '../../platform/http/response';
import { route } from '../../platform/http/route';
import { followUser, unfollowUser } from '../commands/follows';
import { findUserOrNotFound } from '../finders';
import { presentUserPublic } from '../presenters/users';
import { followList } from '../queries/follows';
import { readUser, userIdParam } from './users.params';

const listRoute = (which: 'followers' | 'following') =>
  route({
    authentication: readUser,
    anonymous: true,
    params: z.object({ ...userIdParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      if (!user) throw new ForbiddenError('Not authorized!');
      const target = await findUserOrNotFound(params.id);
      const page = await paginate(params, link, followList(target.id, which));
      return ok(page.items.map(presentUserPublic), page.headers);
    },
  });

export const followRoutes = {
  /** 201 with the followed user (GitLab's `UserBasic`); 304 when already followed. */
  'POST /users/:id/follow': route({
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      const followee = await findUserOrNotFound(params.id);
      await followUser(await findUserOrNotFound(user.id), followee);
      return created(presentUserPublic(followee));
    },
  }),

  /** 201 with the user no longer followed; 304 when it was not. */
  'POST /users/:id/unfollow': route({
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      const followee = await findUserOrNotFound(params.id);
      await unfollowUser(user, followee);
      return created(presentUserPublic(followee));
    },
  }),

  'GET /users/:id/followers': listRoute('followers'),
  'GET /users/:id/following': listRoute('following'),
};
