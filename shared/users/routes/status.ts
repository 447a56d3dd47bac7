/** A user's status (`/user/status`, `/users/:id_or_username/status`) and preferences (`/user/preferences`). */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';
import { emptyOk, ok } from '../../platform/http/response';
import { noParams, route } from '../../platform/http/route';
import { CLEAR_STATUS_AFTER, currentStatus, setUserStatus, type ClearStatusAfter } from '../commands/status';
import { updateUserPreferences } from '../commands/preferences';
import { findUserByIdOrUsernameOrNotFound, findUserOrNotFound } from '../finders';
import { presentUserPreferences, presentUserStatus } from '../presenters/users';
import { readUser } from './users.params';

const statusParams = z.object({
  // An emoji name is checked for its shape (`commands/status.ts`); GitLab's `UserStatus` limits the message to 100 characters.
  emoji: p.string({ max: 255, message: 'does not exist' }),
  message: p.string({ max: 100 }),
  availability: p.string({ max: 255, message: 'is not included in the list' }),
  clear_status_after: p.oneOf(Object.keys(CLEAR_STATUS_AFTER) as [ClearStatusAfter, ...ClearStatusAfter[]]),
});

const setStatus = (partial: boolean) =>
  route({
    params: statusParams,
    handler: async ({ params, user }) => {
      // GitLab's PATCH without a parameter answers 200 with nothing changed.
      if (partial && Object.values(params).every((value) => value === undefined)) return emptyOk();
      // The caller as stored now (the authenticated copy may be a second old: `store/tokens.ts`).
      const status = await setUserStatus(await findUserOrNotFound(user.id), params, partial);
      // GitLab presents the status it just removed as nothing.
      return ok(status ? presentUserStatus(status) : null);
    },
  });

const preferenceParams = z
  .object({ view_diffs_file_by_file: p.bool(), show_whitespace_in_diffs: p.bool(), pass_user_identities_to_ci_jwt: p.bool() })
  .superRefine((value, ctx) => {
    if (Object.values(value).every((v) => v === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'view_diffs_file_by_file, show_whitespace_in_diffs, pass_user_identities_to_ci_jwt are missing, at least one parameter must be provided' });
    }
  });

export const statusRoutes = {
  'GET /user/status': route({
    authentication: readUser,
    params: noParams,
    handler: async ({ user }) => ok(presentUserStatus(currentStatus(await findUserOrNotFound(user.id)))),
  }),

  'PUT /user/status': setStatus(false),

  'PATCH /user/status': setStatus(true),

  'GET /users/:id/status': route({
    authentication: readUser,
    anonymous: true,
    params: z.object({ id: required(p.string()) }),
    handler: async ({ params }) => ok(presentUserStatus(currentStatus(await findUserByIdOrUsernameOrNotFound(params.id)))),
  }),

  'GET /user/preferences': route({
    authentication: readUser,
    params: noParams,
    handler: async ({ user }) => ok(presentUserPreferences(await findUserOrNotFound(user.id))),
  }),

  'PUT /user/preferences': route({
    params: preferenceParams,
    handler: async ({ params, user }) => {
      const stored = await findUserOrNotFound(user.id);
      return ok(presentUserPreferences(await updateUserPreferences(stored, params)));
    },
  }),
};

