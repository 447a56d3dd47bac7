/**
 * Personal access tokens as current GitLab manages them (`API::PersonalAccessTokens`): the
 * caller's own (admins: anyone's) listed, read, revoked and rotated, the presenting token itself
 * as `self`, and admins creating them for users. Secrets appear only in the answers that made them.
 */
import * as z from 'zod';
import { authorize, isAdmin } from '../../auth';
import type { Caller } from '../../platform/http/context';
import { entityFields } from '../../platform/dynamo/items';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createPersonalToken, revokeToken, rotateToken } from '../commands/credentials';
import { findPersonalTokenOrNotFound, findUserOrNotFound } from '../finders';
import { presentPersonalAccessToken } from '../presenters/users';
import { isTokenActive, personalTokensCollection, type AccessToken } from '../store/tokens';
import { userCollections } from '../store/keys';
import { readUser, withUserId } from './users.params';

/** The scopes a token may be given here (those the service enforces). */
const SCOPES = ['api', 'read_user', 'sudo', 'create_runner'] as const;

const listParams = z.object({
  ...paginationParams,
  user_id: p.int(),
  state: p.oneOf(['active', 'inactive']),
  revoked: p.bool(),
  search: p.string(),
  created_after: p.string(),
  created_before: p.string(),
});

/** GitLab's `PersonalAccessTokensFinder` filters, checked on each token read. */
function matches(token: AccessToken, filters: z.output<typeof listParams>): boolean {
  if (token.impersonation) return false;
  if (filters.state && isTokenActive(token) !== (filters.state === 'active')) return false;
  if (filters.revoked !== undefined && token.revoked !== filters.revoked) return false;
  if (filters.search && !token.name.toLowerCase().includes(filters.search.toLowerCase())) return false;
  if (filters.created_after && !(token.createdAt > filters.created_after)) return false;
  if (filters.created_before && !(token.createdAt < filters.created_before)) return false;
  return true;
}

/** The token the request presented (a route requiring a token always has one). */
const presented = (auth: { token: unknown } | null) => auth!.token as AccessToken;

const rotateParams = { expires_at: p.date() };

export const personalAccessTokenRoutes = {
  'GET /personal_access_tokens': route({
    authentication: readUser,
    params: listParams,
    handler: async ({ params, user, link }) => {
      // Users see their own tokens; admins everyone's, or one user's with `user_id`.
      const admin: boolean = isAdmin(user);
      const owner = admin ? params.user_id : user.id;
      const collection = owner === undefined ? personalTokensCollection() : userCollections.userTokens(owner);
      const page = await paginate(params, link, {
        collection,
        ascending: true,
        select: (item) => {
          const token = entityFields(item) as AccessToken;
          return matches(token, params) ? token : undefined;
        },
      });
      return ok(page.items.map((token) => presentPersonalAccessToken(token)), page.headers);
    },
  }),

  'GET /personal_access_tokens/self': route({
    authentication: readUser,
    params: z.object({}),
    handler: async ({ auth }) => ok(presentPersonalAccessToken(presented(auth))),
  }),

  'DELETE /personal_access_tokens/self': route({
    authentication: readUser,
    params: z.object({}),
    handler: async ({ auth }) => {
      const token = presented(auth);
      await revokeToken(token.userId, token.id);
      return noContent();
    },
  }),

  'POST /personal_access_tokens/self/rotate': route({
    params: z.object(rotateParams),
    handler: async ({ params, auth, user }) => {
      const token = presented(auth);
      const owner = token.userId === user.id ? user : await findUserOrNotFound(token.userId);
      const rotated = await rotateToken(owner, token, params.expires_at);
      return ok(presentPersonalAccessToken(rotated.token, rotated.secret));
    },
  }),

  'GET /personal_access_tokens/:id': route({
    authentication: readUser,
    params: z.object({ id: required(p.int()) }),
    handler: async ({ params, user }) => ok(presentPersonalAccessToken(await findPersonalTokenOrNotFound(user, params.id))),
  }),

  'DELETE /personal_access_tokens/:id': route({
    params: z.object({ id: required(p.int()) }),
    handler: async ({ params, user }) => {
      const token = await findPersonalTokenOrNotFound(user, params.id);
      await revokeToken(token.userId, token.id);
      return noContent();
    },
  }),

  'POST /personal_access_tokens/:id/rotate': route({
    params: z.object({ id: required(p.int()), ...rotateParams }),
    handler: async ({ params, user }) => {
      const token = await findPersonalTokenOrNotFound(user, params.id);
      const owner: Caller = token.userId === user.id ? user : await findUserOrNotFound(token.userId);
      const rotated = await rotateToken(owner, token, params.expires_at);
      return ok(presentPersonalAccessToken(rotated.token, rotated.secret));
    },
  }),

  'POST /users/:id/personal_access_tokens': route({
    params: withUserId({
      name: required(p.string({ max: 255 })),
      scopes: required(p.array(z.enum(SCOPES))),
      expires_at: p.date(),
      description: p.string({ max: 255 }),
    }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const owner = await findUserOrNotFound(params.id);
      const { token, secret } = await createPersonalToken(owner, {
        name: params.name,
        scopes: params.scopes,
        expiresAt: params.expires_at ?? null,
        description: params.description ?? null,
      });
      return created(presentPersonalAccessToken(token, secret));
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
