/** SSH keys of the current user (`/user/keys`) and, for admins, of any user (`/users/:id/keys`, `/keys/:id`). */
import { z } from 'zod';
import { authorize } from '../../shared/auth/policy';
import { deleteSshKey, findSshKeyById, getSshKey, listSshKeys } from '../../shared/data/ssh-keys';
import { getUser } from '../../shared/data/users';
import { addSshKey } from '../../shared/domain/credentials';
import { findUserOrNotFound } from '../../shared/domain/finders';
import { NotFoundError } from '../../shared/http/errors';
import { paginateArray, paginationParams } from '../../shared/http/pagination';
import { p, required } from '../../shared/http/params';
import { created, emptyOk, ok } from '../../shared/http/response';
import { route, type GroupRoutes } from '../../shared/http/route';
import { presentSshKey, presentSshKeyWithUser } from '../../shared/presenters/users';
import { sshKeyParams, userIdParam, withUserId } from './params';

const keyIdParam = { key_id: required(p.int()) };

export const sshKeyRoutes = {
  'GET /user/keys': route({
    params: z.object(paginationParams),
    handler: async ({ params, user, link }) => {
      const page = paginateArray(params, link, await listSshKeys(user!.id));
      return ok(page.items.map(presentSshKey), page.headers);
    },
  }),

  'GET /user/keys/:key_id': route({
    params: z.object(keyIdParam),
    handler: async ({ params, user }) => {
      const key = await getSshKey(user!.id, params.key_id);
      if (!key) throw new NotFoundError('Key');
      return ok(presentSshKey(key));
    },
  }),

  'POST /user/keys': route({
    params: z.object(sshKeyParams),
    handler: async ({ params, user }) => created(presentSshKey(await addSshKey(user!, params))),
  }),

  'DELETE /user/keys/:key_id': route({
    params: z.object(keyIdParam),
    handler: async ({ params, user }) => {
      const deleted = await deleteSshKey(user!.id, params.key_id);
      return deleted ? ok(presentSshKey(deleted)) : emptyOk();
    },
  }),

  'GET /users/:id/keys': route({
    params: withUserId(paginationParams),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const page = paginateArray(params, link, await listSshKeys(owner.id));
      return ok(page.items.map(presentSshKey), page.headers);
    },
  }),

  'POST /users/:id/keys': route({
    params: withUserId(sshKeyParams),
    handler: async ({ params: { id, ...input }, user }) => {
      authorize(user, 'admin_users');
      return created(presentSshKey(await addSshKey(await findUserOrNotFound(id), input)));
    },
  }),

  'DELETE /users/:id/keys/:key_id': route({
    params: withUserId(keyIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const deleted = await deleteSshKey(owner.id, params.key_id);
      if (!deleted) throw new NotFoundError('Key');
      return ok(presentSshKey(deleted));
    },
  }),

  'GET /keys/:id': route({
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const key = await findSshKeyById(params.id);
      const owner = key && (await getUser(key.userId));
      if (!key || !owner) throw new NotFoundError('Key');
      return ok(presentSshKeyWithUser(key, owner));
    },
  }),
} satisfies GroupRoutes<'users'>;
