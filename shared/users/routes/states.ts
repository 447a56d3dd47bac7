/**
 * Admin state changes of users (`POST /users/:id/block`, `unblock`, `deactivate`, `activate`,
 * `ban`, `unban`, `approve`, `reject`): the rules are `commands/user-states.ts`'s.
 */
import * as z from 'zod';
import { authorize, can } from '../../auth';
import { ApiError, ConflictError, ForbiddenError } from '../../platform/http/errors';
import { ok, type HttpResult } from '../../platform/http/response';
import { route } from '../../platform/http/route';
import { changeUserState, type StateAction } from '../commands/user-states';
import { scheduleUserDeletion } from '../commands/deletion-job';
import { findUserOrNotFound } from '../finders';
import { userIdParam } from './users.params';

const stateRoute = (action: StateAction) =>
  route({
    params: z.object(userIdParam),
    handler: async ({ params, user }): Promise<HttpResult> => {
      // `approve` finds the user first, then answers 403 to non-admins (GitLab's `ApproveService`).
      if (action !== 'approve') authorize(user, 'admin_users');
      const target = await findUserOrNotFound(params.id);
      if (action === 'approve' && !can(user, 'admin_users')) throw new ApiError(403, { message: 'You are not allowed to approve a user' });
      if (action === 'block' && target.id === user.id) throw new ForbiddenError('The API initiating user cannot be blocked by the API');
      const { status, body } = await changeUserState(target, action);
      return { statusCode: status, body };
    },
  });

export const stateRoutes = {
  'POST /users/:id/block': stateRoute('block'),
  'POST /users/:id/unblock': stateRoute('unblock'),
  'POST /users/:id/deactivate': stateRoute('deactivate'),
  'POST /users/:id/activate': stateRoute('activate'),
  'POST /users/:id/ban': stateRoute('ban'),
  'POST /users/:id/unban': stateRoute('unban'),
  'POST /users/:id/approve': stateRoute('approve'),

  /**
   * Rejects a pending sign-up: the user is deleted with its contributions (GitLab's
   * `RejectService`, `hard_delete`), in the background like `DELETE /users/:id`, only while it is
   * still pending (an approval racing it keeps the user: one of them wins).
   */
  'POST /users/:id/reject': route({
    params: z.object(userIdParam),
    handler: async ({ params, user }) => {
      const target = await findUserOrNotFound(params.id);
      if (!can(user, 'admin_users')) throw new ApiError(403, { message: 'You are not allowed to reject a user' });
      const notPending = () => new ConflictError('This user does not have a pending request');
      if (target.state !== 'blocked_pending_approval') throw notPending();
      if (!(await scheduleUserDeletion(target, { hardDelete: true, onlyIfPending: true }))) throw notPending();
      return ok({ message: 'Success' });
    },
  }),
};
