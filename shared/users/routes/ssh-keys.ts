/** SSH keys of the current user (`/user/keys`) and, for admins, of any user (`/users/:id/keys`, `/keys/:id`). */
import * as z from 'zod';
import { authorize } from '../../auth';
import { NotFoundError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addSshKey, deleteSshKey } from '../commands/credentials';
import { findSshKeyOrNotFound, findUserOrNotFound } from '../finders';
import { presentSshKey, presentSshKeyWithUser } from '../presenters/users';
import { getSshKey, listSshKeys } from '../queries/credentials';
import { credentialRoutes } from './credentials';
import { readUser, withUserId } from './users.params';

export const sshKeyRoutes = {
  ...credentialRoutes('keys', 'key_id', {
    name: 'Key',
    // GitLab's `Key`: a title of 255 characters; a key longer than any valid one (16 KiB) `is invalid`.
    createParams: { title: required(p.string({ max: 255 })), key: required(p.string({ max: 16 * 1024, message: 'is invalid' })) },
    list: listSshKeys,
    get: getSshKey,
    add: addSshKey,
    remove: deleteSshKey,
    present: presentSshKey,
  }),

  /** Any user's key, as the list is: GitLab answers it to anyone (public keys are public). */
  'GET /users/:id/keys/:key_id': route({
    anonymous: true,
    authentication: readUser,
    params: withUserId({ key_id: required(p.int()) }),
    handler: async ({ params }) => {
      const owner = await findUserOrNotFound(params.id);
      const key = await getSshKey(owner.id, params.key_id);
      if (!key) throw new NotFoundError('Key');
      return ok(presentSshKey(key));
    },
  }),

  'GET /keys/:id': route({
    authentication: readUser,
    params: z.object({ id: required(p.int()) }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const { key, owner } = await findSshKeyOrNotFound(params.id);
      return ok(presentSshKeyWithUser(key, owner));
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
