/** Impersonation tokens (admin only): created for a user, authenticate as that user, revocable. */
import * as z from 'zod';
import { authorize } from '../../auth';
import { ParamError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createImpersonationToken, revokeToken } from '../commands/credentials';
import { findImpersonationTokenOrNotFound, findUserOrNotFound } from '../finders';
import { presentImpersonationToken } from '../presenters/users';
import { listImpersonationTokens } from '../queries/credentials';
import { readUser, withUserId } from './users.params';

const tokenIdParam = { impersonation_token_id: required(p.int()) };
const SCOPES = ['api', 'read_user'] as const;

export const impersonationTokenRoutes = {
  'GET /users/:id/impersonation_tokens': route({
    authentication: readUser,
    params: withUserId({ ...paginationParams, state: p.oneOf(['all', 'active', 'inactive']) }),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const page = paginateArray(params, link, await listImpersonationTokens(owner, params.state ?? 'all'));
      return ok(page.items.map((token) => presentImpersonationToken(token)), page.headers);
    },
  }),

  'GET /users/:id/impersonation_tokens/:impersonation_token_id': route({
    authentication: readUser,
    params: withUserId(tokenIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      return ok(presentImpersonationToken(await findImpersonationTokenOrNotFound(owner.id, params.impersonation_token_id)));
    },
  }),

  'POST /users/:id/impersonation_tokens': route({
    params: withUserId({
      name: required(p.string({ max: 255 })),
      expires_at: p.date(),
      scopes: required(p.array(z.enum(SCOPES))),
    }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const { scopes } = params;
      if (scopes.length === 0) throw new ParamError('scopes is missing');
      const { token, secret } = await createImpersonationToken(owner, {
        name: params.name,
        scopes,
        expiresAt: params.expires_at ?? null,
      });
      return created(presentImpersonationToken(token, secret));
    },
  }),

  'DELETE /users/:id/impersonation_tokens/:impersonation_token_id': route({
    params: withUserId(tokenIdParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const token = await findImpersonationTokenOrNotFound(owner.id, params.impersonation_token_id);
      await revokeToken(owner.id, token.id);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
