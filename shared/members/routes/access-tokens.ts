/**
 * Project access tokens, `/projects/:id/access_tokens…` (GitLab's `API::ResourceAccessTokens`):
 * listed, read, created, revoked and rotated by the project's maintainers and owners. Answers are
 * GitLab's, which differ by route: reads by someone who may not manage tokens are 401; create and
 * revoke refusals are 400 with the service's reason; a rotation of a token one cannot manage is
 * 401 (admins: 404 when it does not exist). A project the caller cannot read is 404 everywhere.
 */
import * as z from 'zod';
import { GROUP_ACCESS_LEVELS, isAdmin, MAINTAINER } from '../../auth';
import { UnauthorizedError, NotFoundError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import {
  canManageAccessTokens,
  createProjectAccessToken,
  findProjectAccessTokenOf,
  projectAccessTokenList,
  revokeProjectAccessToken,
  rotateProjectAccessToken,
  withAccessLevels,
} from '../access-tokens';
import { presentProjectAccessToken } from '../presenters/access-tokens';

/** The scopes a project access token may be given here (GitLab's `resource_bot_scopes` that this service enforces). */
const SCOPES = ['api', 'read_api', 'read_repository', 'write_repository'] as const;

const tokenParams = z.object({ ...idParam, token_id: required(p.int()) });

export const projectAccessTokenRoutes = {
  'GET /projects/:id/access_tokens': route({
    params: z.object({ ...idParam, ...paginationParams, state: p.oneOf(['active', 'inactive']) }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      if (!canManageAccessTokens(user, subject)) throw new UnauthorizedError();
      const page = await paginate(params, link, projectAccessTokenList(subject, params.state));
      return ok((await withAccessLevels(subject, page.items)).map((token) => presentProjectAccessToken(token)), page.headers);
    },
  }),

  'GET /projects/:id/access_tokens/:token_id': route({
    params: tokenParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      if (!canManageAccessTokens(user, subject)) throw new UnauthorizedError();
      const found = await findProjectAccessTokenOf(subject, params.token_id);
      if (!found) throw new NotFoundError('project Access Token');
      return ok(presentProjectAccessToken(found));
    },
  }),

  'POST /projects/:id/access_tokens': route({
    params: z.object({
      ...idParam,
      name: required(p.string({ max: 255, plain: true })),
      scopes: required(p.array(z.enum(SCOPES))),
      // GitLab's `options_with_owner`: a project bot may be an owner (the levels of groups).
      access_level: p.intOneOf(GROUP_ACCESS_LEVELS),
      expires_at: p.date(),
      description: p.string({ max: 255, plain: true }),
    }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const { token, secret } = await createProjectAccessToken(user, subject, {
        name: params.name,
        scopes: [...new Set(params.scopes)],
        accessLevel: params.access_level ?? MAINTAINER,
        expiresAt: params.expires_at,
        description: params.description ?? null,
      });
      return created(presentProjectAccessToken(token, secret));
    },
  }),

  'DELETE /projects/:id/access_tokens/:token_id': route({
    params: tokenParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const found = await findProjectAccessTokenOf(subject, params.token_id);
      if (!found) throw new NotFoundError('project Access Token');
      await revokeProjectAccessToken(user, subject, found);
      return noContent();
    },
  }),

  'POST /projects/:id/access_tokens/:token_id/rotate': route({
    params: tokenParams.extend({ expires_at: p.date() }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const found = canManageAccessTokens(user, subject) ? await findProjectAccessTokenOf(subject, params.token_id) : undefined;
      // Only admins learn that a token does not exist.
      if (!found) throw isAdmin(user) ? new NotFoundError() : new UnauthorizedError();
      const { token, secret } = await rotateProjectAccessToken(user, subject, found, params.expires_at);
      return ok(presentProjectAccessToken(token, secret));
    },
  }),
} satisfies RoutesOf<typeof catalog.members>;
