/**
 * GPG keys (GitLab's `lib/api/users.rb`): the current user's (`/user/gpg_keys`), anyone's to read
 * (`/users/:id/gpg_keys`, no authentication needed: public keys are public), and admins' writes
 * on any user's. A delete and a revoke both remove the key: commits it signed then read as
 * `unknown_key`, which is what GitLab's revoke leaves (its delete keeps the status it stored; here
 * signatures are checked on each read, `shared/repository/queries/signatures.ts`).
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { NotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { accepted, created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addGpgKey, deleteGpgKey } from '../commands/credentials';
import { findUserOrNotFound } from '../finders';
import { presentGpgKey } from '../presenters/users';
import { getGpgKey, listGpgKeys } from '../queries/credentials';
import type { User } from '../store/users';
import { readUser, withUserId } from './users.params';

const keyId = { key_id: required(p.int()) };
// GitLab's `GpgKey#key` is a text column; 64 KiB holds a key with many subkeys and signatures.
const createParams = { key: required(p.string({ max: 64 * 1024, message: 'is invalid' })) };

async function findGpgKeyOrNotFound(userId: number, id: number) {
  const key = await getGpgKey(userId, id);
  if (!key) throw new NotFoundError('GPG Key');
  return key;
}

async function removeOrNotFound(owner: User, id: number) {
  if (!(await deleteGpgKey(owner.id, id))) throw new NotFoundError('GPG Key');
}

/** `/users/:id/...` as an admin: the user, or 404. */
async function ownerAsAdmin(user: User, id: number): Promise<User> {
  authorize(user, 'admin_users');
  return findUserOrNotFound(id);
}

export const gpgKeyRoutes = {
  'GET /user/gpg_keys': route({
    authentication: readUser,
    params: z.object(paginationParams),
    handler: async ({ params, user, link }) => {
      const page = paginateArray(params, link, await listGpgKeys(user.id));
      return ok(page.items.map(presentGpgKey), page.headers);
    },
  }),

  'GET /user/gpg_keys/:key_id': route({
    authentication: readUser,
    params: z.object(keyId),
    handler: async ({ params, user }) => ok(presentGpgKey(await findGpgKeyOrNotFound(user.id, params.key_id))),
  }),

  'POST /user/gpg_keys': route({
    params: z.object(createParams),
    handler: async ({ params, user }) => created(presentGpgKey(await addGpgKey(user, params))),
  }),

  'DELETE /user/gpg_keys/:key_id': route({
    params: z.object(keyId),
    handler: async ({ params, user }) => {
      await removeOrNotFound(user, params.key_id);
      return noContent();
    },
  }),

  'POST /user/gpg_keys/:key_id/revoke': route({
    params: z.object(keyId),
    handler: async ({ params, user }) => {
      await removeOrNotFound(user, params.key_id);
      return accepted(null);
    },
  }),

  'GET /users/:id/gpg_keys': route({
    anonymous: true,
    authentication: readUser,
    params: withUserId(paginationParams),
    handler: async ({ params, link }) => {
      const owner = await findUserOrNotFound(params.id);
      const page = paginateArray(params, link, await listGpgKeys(owner.id));
      return ok(page.items.map(presentGpgKey), page.headers);
    },
  }),

  'GET /users/:id/gpg_keys/:key_id': route({
    anonymous: true,
    authentication: readUser,
    params: withUserId(keyId),
    handler: async ({ params }) => {
      const owner = await findUserOrNotFound(params.id);
      return ok(presentGpgKey(await findGpgKeyOrNotFound(owner.id, params.key_id)));
    },
  }),

  'POST /users/:id/gpg_keys': route({
    params: withUserId(createParams),
    handler: async ({ params, user }) => created(presentGpgKey(await addGpgKey(await ownerAsAdmin(user, params.id), params))),
  }),

  'DELETE /users/:id/gpg_keys/:key_id': route({
    params: withUserId(keyId),
    handler: async ({ params, user }) => {
      await removeOrNotFound(await ownerAsAdmin(user, params.id), params.key_id);
      return noContent();
    },
  }),

  'POST /users/:id/gpg_keys/:key_id/revoke': route({
    params: withUserId(keyId),
    handler: async ({ params, user }) => {
      await removeOrNotFound(await ownerAsAdmin(user, params.id), params.key_id);
      return accepted(null);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
