/** SSH keys of the current user (`/user/keys`) and, for admins, of any user (`/users/:id/keys`, `/keys/:id`). */
import { z } from 'zod';
import { authorize } from '../../auth';
import { deleteSshKey, findSshKeyById, getSshKey, listSshKeys } from '../store/ssh-keys';
import { getUser } from '../store/users';
import { addSshKey } from '../credentials';
import { NotFoundError } from '../../platform/http/errors';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentSshKey, presentSshKeyWithUser } from '../presenters/users';
import { credentialRoutes } from './credential-routes';
import { sshKeyParams, userIdParam, readUser } from './params';
import type { catalog } from '../catalog';

export const sshKeyRoutes = {
  ...credentialRoutes('keys', 'key_id', {
    name: 'Key',
    createParams: sshKeyParams,
    list: listSshKeys,
    get: getSshKey,
    add: addSshKey,
    remove: deleteSshKey,
    present: presentSshKey,
  }),

  'GET /keys/:id': route({
    authentication: readUser,
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const key = await findSshKeyById(params.id);
      const owner = key && (await getUser(key.userId));
      if (!key || !owner) throw new NotFoundError('Key');
      return ok(presentSshKeyWithUser(key, owner));
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
