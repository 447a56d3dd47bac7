/** Users: list, read, create, modify, delete, block/unblock, current user, feeds, activities. */
import { z } from 'zod';
import { authorize, can } from '../../auth';
import { canReadEvent, eventFromItem, projectCollections, readableProjects, presentEvent } from '../../projects';
import { userCollections } from '../store/keys';
import { findUserOrNotFound } from '../finders';
import { createUser, deleteUser, listUsers, setUserState, updateUser } from '../users';
import { ForbiddenError } from '../../platform/http/errors';
import { filteredCollection, paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, emptyOk, ok } from '../../platform/http/response';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import { presentUserActivity, presentUserAdmin, presentUserPublic, presentUserSingle, presentUserWithSudo } from '../presenters/users';
import { userFromItem } from '../store/users';
import { profileParams, userIdParam, withUserId, readUser } from './params';
import type { catalog } from '../catalog';

const sixMonthsAgo = () => {
  const date = new Date();
  date.setUTCMonth(date.getUTCMonth() - 6);
  return date.toISOString().slice(0, 10);
};

export const userRoutes = {
  'GET /users': route({
    authentication: readUser,
    anonymous: true,
    params: z.object({
      ...paginationParams,
      active: p.bool(),
      blocked: p.bool(),
      search: p.string(),
      username: p.string(),
      extern_uid: p.string(),
      provider: p.string(),
      external: p.bool(),
      order_by: p.oneOf(['id']),
      sort: p.oneOf(['asc', 'desc']),
    }),
    handler: async ({ params, user, link }) => {
      if (params.external || (params.extern_uid !== undefined && params.provider !== undefined)) {
        authorize(user, 'read_users_admin_fields');
      }
      // Anonymous callers may only look a user up by username, never list everyone.
      if (!can(user, 'read_users_list') && params.username === undefined) {
        throw new ForbiddenError('Not authorized to access /api/v4/users');
      }
      const admin = can(user, 'read_users_admin_fields');
      const page = await listUsers(params, params, link, { searchEmails: admin });
      return ok(page.items.map(admin ? presentUserAdmin : presentUserPublic), page.headers);
    },
  }),

  'GET /users/:id': route({
    authentication: readUser,
    anonymous: true,
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      const found = await findUserOrNotFound(params.id);
      return ok(can(user, 'read_users_admin_fields') ? presentUserAdmin(found) : presentUserSingle(found));
    },
  }),

  'POST /users': route({
    params: z
      .object({
        ...profileParams,
        email: required(p.string()),
        username: required(p.string()),
        name: required(p.string()),
        reset_password: p.bool(),
        confirm: p.bool(),
      })
      .superRefine((value, ctx) => {
        if (value.password === undefined && !value.reset_password) {
          ctx.addIssue({ code: 'custom', message: 'password, reset_password are missing, at least one parameter must be provided' });
        }
      }),
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
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const deleted = await deleteUser(params.id);
      return deleted ? ok(presentUserAdmin(deleted)) : emptyOk();
    },
  }),

  'POST /users/:id/block': route({
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      return created(await setUserState(await findUserOrNotFound(params.id), 'blocked'));
    },
  }),

  'POST /users/:id/unblock': route({
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      return created(await setUserState(await findUserOrNotFound(params.id), 'active'));
    },
  }),

  'GET /users/:id/events': route({
    authentication: readUser,
    anonymous: true,
    params: withUserId(paginationParams),
    handler: async ({ params, user, link }) => {
      const author = await findUserOrNotFound(params.id);
      // Only events of projects the caller may read (a private project's activity stays private).
      const page = await paginate(
        params,
        link,
        filteredCollection({
          collection: projectCollections.userEvents(author.id),
          ascending: false,
          select: eventFromItem,
          keep: async (events) => {
            const readable = await readableProjects(user, events.map((event) => event.projectId));
            return events.map((event) => {
              const subject = readable.get(event.projectId);
              return subject !== undefined && canReadEvent(user, subject, event);
            });
          },
        }),
      );
      return ok(page.items.map((event) => presentEvent(event, author)), page.headers);
    },
  }),

  'GET /user': route({
    authentication: readUser,
    params: noParams,
    handler: async ({ auth }) => {
      const { user, sudoFrom, secret } = auth!;
      if (sudoFrom) return ok(presentUserWithSudo(user, secret));
      return ok(user.admin ? { ...presentUserAdmin(user), is_admin: true } : presentUserAdmin(user));
    },
  }),

  'GET /user/activities': route({
    authentication: readUser,
    params: z.object({ ...paginationParams, from: p.date() }),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_users');
      const page = await paginate(params, link, {
        collection: userCollections.usersActiveSince(params.from ?? sixMonthsAgo()),
        ascending: true,
        select: userFromItem,
      });
      return ok(page.items.map(presentUserActivity), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
