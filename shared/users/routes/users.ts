/** Users: list, read, create, modify, delete, block/unblock, current user, activities (a user's feed is the projects feature's). */
import * as z from 'zod';
import { authorize, can } from '../../auth';
import { ForbiddenError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, emptyOk, noContent, ok } from '../../platform/http/response';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import { avatarFileParam, avatarUrl } from '../avatars';
import type { catalog } from '../catalog';
import { checkUserDeletable } from '../commands/delete-user';
import { scheduleUserDeletion } from '../commands/deletion-job';
import { createUser, removeIdentity, updateUser } from '../commands/users';
import { findUserOrNotFound } from '../finders';
import { isFollowing } from '../commands/follows';
import { presentUserActivity, presentUserAdmin, presentUserPublic, presentUserSingle, presentUserWithSudo } from '../presenters/users';
import { listUsers, usersActiveSince } from '../queries/users';
import { getUser } from '../store/users';
import { createUserParams, listUsersParams, profileParams, readUser, userIdParam, withUserId } from './users.params';

const sixMonthsAgo = () => {
  const date = new Date();
  date.setUTCMonth(date.getUTCMonth() - 6);
  return date.toISOString().slice(0, 10);
};

export const userRoutes = {
  'GET /users': route({
    authentication: readUser,
    anonymous: true,
    params: listUsersParams,
    handler: async ({ params, user, link }) => {
      if (params.external || (params.extern_uid !== undefined && params.provider !== undefined)) {
        authorize(user, 'read_users_admin_fields');
      }
      // Anonymous callers may only look a user up by username, never list everyone.
      if (!can(user, 'read_users_list') && params.username === undefined) {
        throw new ForbiddenError('Not authorized to access /api/v4/users');
      }
      const admin = can(user, 'read_users_admin_fields');
      const users = await listUsers(params, { searchEmails: admin });
      const page = await paginate(params, link, users);
      return ok(page.items.map(admin ? presentUserAdmin : presentUserPublic), page.headers);
    },
  }),

  'GET /users/:id': route({
    authentication: readUser,
    anonymous: true,
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      const found = await findUserOrNotFound(params.id);
      const body = can(user, 'read_users_admin_fields') ? presentUserAdmin(found) : presentUserSingle(found);
      // GitLab's `is_followed`, for a signed-in caller (one GetItem).
      return ok(user ? { ...body, is_followed: await isFollowing(user.id, found.id) } : body);
    },
  }),

  'POST /users': route({
    params: createUserParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      return created(presentUserAdmin(await createUser(params)));
    },
  }),

  'PUT /users/:id': route({
    params: withUserId(profileParams),
    handler: async ({ params: { id, ...fields }, user }) => {
      authorize(user, 'admin_users');
      const target = await findUserOrNotFound(id);
      return ok(presentUserAdmin(await updateUser(target, fields)));
    },
  }),

  'DELETE /users/:id': route({
    params: z.object({ ...userIdParam, hard_delete: p.bool() }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      // Deleted in the background (GitLab's `DeleteUserWorker`): gone from every read at once.
      const target = await getUser(params.id);
      if (!target) return emptyOk();
      // Refusals answer now, before anything is written: the ghost (403), a sole group owner without hard_delete (409).
      const options = { hardDelete: params.hard_delete === true };
      await checkUserDeletable(target, options);
      await scheduleUserDeletion(target, options);
      return ok(presentUserAdmin(target));
    },
  }),

  'DELETE /users/:id/identities/:provider': route({
    params: withUserId({ provider: required(p.string()) }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      await removeIdentity(await findUserOrNotFound(params.id), params.provider);
      return noContent();
    },
  }),

  'GET /user': route({
    authentication: readUser,
    params: noParams,
    handler: async ({ user, auth }) => {
      // With sudo, `user` is the impersonated user and `auth` says who used sudo with which token.
      if (auth?.sudoFrom) return ok(presentUserWithSudo(user, auth.secret));
      return ok(user.admin ? { ...presentUserAdmin(user), is_admin: true } : presentUserAdmin(user));
    },
  }),

  /** Current GitLab: sets the caller's avatar, answering GitLab's `Avatar` entity (`{"avatar_url": …}`). */
  'PUT /user/avatar': route({
    params: z.object({ avatar: required(avatarFileParam) }),
    handler: async ({ params, user }) => {
      const updated = await updateUser(user, { avatar: params.avatar });
      return ok({ avatar_url: avatarUrl('user', updated.id, updated.avatar) });
    },
  }),

  'GET /user/activities': route({
    authentication: readUser,
    params: z.object({ ...paginationParams, from: p.date() }),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_users');
      const page = await paginate(params, link, usersActiveSince(params.from ?? sixMonthsAgo()));
      return ok(page.items.map(presentUserActivity), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
