/** SSH keys of the current user (`/user/keys`) and, for admins, of any user (`/users/:id/keys`, `/keys/:id`). */
import { z } from 'zod';
import { authorize } from '../../auth';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addSshKey, deleteSshKey } from '../commands/credentials';
import { findSshKeyOrNotFound } from '../finders';
import { presentSshKey, presentSshKeyWithUser } from '../presenters/users';
import { getSshKey, listSshKeys } from '../queries/credentials';
import { credentialRoutes } from './credentials';
import { readUser } from './users.params';

export const sshKeyRoutes = {
  ...credentialRoutes('keys', 'key_id', {
    name: 'Key',
    createParams: { title: required(p.string()), key: required(p.string()) },
    list: listSshKeys,
    get: getSshKey,
    add: addSshKey,
    remove: deleteSshKey,
    present: presentSshKey,
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
