/** Secondary emails of the current user (`/user/emails`) and, for admins, of any user. */
import { z } from 'zod';
import { authorize } from '../../shared/auth/policy';
import { deleteEmail, getEmail, listEmails } from '../../shared/data/emails';
import { addEmail } from '../../shared/domain/credentials';
import { findUserOrNotFound } from '../../shared/domain/finders';
import { NotFoundError } from '../../shared/http/errors';
import { paginateArray, paginationParams } from '../../shared/http/pagination';
import { p, required } from '../../shared/http/params';
import { created, emptyOk, ok } from '../../shared/http/response';
import { route, type GroupRoutes } from '../../shared/http/route';
import { presentEmail } from '../../shared/presenters/users';
import { emailParams, withUserId } from './params';

const emailIdParam = { email_id: required(p.int()) };

export const emailRoutes = {
  'GET /user/emails': route({
    params: z.object(paginationParams),
    handler: async ({ params, user, link }) => {
      const page = paginateArray(params, link, await listEmails(user!.id));
      return ok(page.items.map(presentEmail), page.headers);
    },
  }),

  'GET /user/emails/:email_id': route({
    params: z.object(emailIdParam),
    handler: async ({ params, user }) => {
      const email = await getEmail(user!.id, params.email_id);
      if (!email) throw new NotFoundError('Email');
      return ok(presentEmail(email));
    },
  }),

  'POST /user/emails': route({
    params: z.object(emailParams),
    handler: async ({ params, user }) => created(presentEmail(await addEmail(user!, params.email))),
  }),

  'DELETE /user/emails/:email_id': route({
    params: z.object(emailIdParam),
    handler: async ({ params, user }) => {
      const deleted = await deleteEmail(user!.id, params.email_id);
      return deleted ? ok(presentEmail(deleted)) : emptyOk();
    },
  }),

  'GET /users/:id/emails': route({
    params: withUserId(paginationParams),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const page = paginateArray(params, link, await listEmails(owner.id));
      return ok(page.items.map(presentEmail), page.headers);
    },
  }),

  'POST /users/:id/emails': route({
    params: withUserId(emailParams),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      return created(presentEmail(await addEmail(await findUserOrNotFound(params.id), params.email)));
    },
  }),

  'DELETE /users/:id/emails/:email_id': route({
    params: withUserId(emailIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const deleted = await deleteEmail(owner.id, params.email_id);
      if (!deleted) throw new NotFoundError('Email');
      return ok(presentEmail(deleted));
    },
  }),
} satisfies GroupRoutes<'users'>;
