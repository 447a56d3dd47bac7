/** SSH keys of the current user (`/user/keys`) and, for admins, of any user (`/users/:id/keys`, `/keys/:id`). */
import { z } from 'zod';
import { authorize } from '../../shared/auth/policy';
import { deleteSshKey, findSshKeyById, getSshKey, listSshKeys } from '../../shared/data/ssh-keys';
import { getUser } from '../../shared/data/users';
import { addSshKey } from '../../shared/domain/credentials';
import { NotFoundError } from '../../shared/http/errors';
import { ok } from '../../shared/http/response';
import { route, type GroupRoutes } from '../../shared/http/route';
import { presentSshKey, presentSshKeyWithUser } from '../../shared/presenters/users';
import { credentialRoutes } from './credential-routes';
import { sshKeyParams, userIdParam } from './params';

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
