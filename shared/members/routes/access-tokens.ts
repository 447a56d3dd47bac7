/**
 * Project and group access tokens, `/projects/:id/access_tokens…` and `/groups/:id/access_tokens…`
 * (GitLab's `API::ResourceAccessTokens`, one set of routes for both): listed, read, created,
 * revoked and rotated by the project's maintainers and owners, the group's owners. Answers are
 * GitLab's, which differ by route: reads by someone who may not manage tokens are 401; create and
 * revoke refusals are 400 with the service's reason; a rotation of a token one cannot manage is
 * 401 (admins: 404 when it does not exist). A project or group the caller cannot read is 404
 * everywhere. A group's are served by the groups function (under its `shared` gateway subtree).
 */
import * as z from 'zod';
import { GROUP_ACCESS_LEVELS, isAdmin, MAINTAINER } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { UnauthorizedError, NotFoundError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import {
  canManageAccessTokens,
  createResourceAccessToken,
  findResourceAccessTokenOf,
  resourceAccessTokenList,
  revokeResourceAccessToken,
  rotateResourceAccessToken,
  withAccessLevels,
  type TokenHolder,
} from '../access-tokens';
import { presentResourceAccessToken } from '../presenters/access-tokens';

/** The scopes a project or group access token may be given here (GitLab's `resource_bot_scopes` that this service enforces). */
const SCOPES = ['api', 'read_api', 'read_repository', 'write_repository'] as const;

const listParams = z.object({ ...idParam, ...paginationParams, state: p.oneOf(['active', 'inactive']) });
const tokenParams = z.object({ ...idParam, token_id: required(p.int()) });
const createParams = z.object({
  ...idParam,
  name: required(p.string({ max: 255, plain: true })),
  scopes: required(p.array(z.enum(SCOPES))),
  // GitLab's `options_with_owner`: a bot may be an owner (the levels of groups), of a project too.
  access_level: p.intOneOf(GROUP_ACCESS_LEVELS),
  expires_at: p.date(),
  description: p.string({ max: 255, plain: true }),
});
const rotateParams = tokenParams.extend({ expires_at: p.date() });

type Caller = Parameters<typeof findProjectOrNotFound>[1];

/** The five routes for one kind of holder: `find` resolves it (404 when unreadable), `kind` names it in GitLab's 404. */
function holderRoutes(find: (idOrPath: string, user: Caller) => Promise<TokenHolder>, kind: 'project' | 'group') {
  const notFound = () => new NotFoundError(`${kind} Access Token`);
  return {
    list: route({
      params: listParams,
      handler: async ({ params, user, link }) => {
        const subject = await find(params.id, user);
        if (!canManageAccessTokens(user, subject)) throw new UnauthorizedError();
        const page = await paginate(params, link, resourceAccessTokenList(subject, params.state));
        return ok((await withAccessLevels(subject, page.items)).map((token) => presentResourceAccessToken(token)), page.headers);
      },
    }),
    get: route({
      params: tokenParams,
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        if (!canManageAccessTokens(user, subject)) throw new UnauthorizedError();
        const found = await findResourceAccessTokenOf(subject, params.token_id);
        if (!found) throw notFound();
        return ok(presentResourceAccessToken(found));
      },
    }),
    create: route({
      params: createParams,
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        const { token, secret } = await createResourceAccessToken(user, subject, {
          name: params.name,
          scopes: [...new Set(params.scopes)],
          accessLevel: params.access_level ?? MAINTAINER,
          expiresAt: params.expires_at,
          description: params.description ?? null,
        });
        return created(presentResourceAccessToken(token, secret));
      },
    }),
    delete: route({
      params: tokenParams,
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        const found = await findResourceAccessTokenOf(subject, params.token_id);
        if (!found) throw notFound();
        await revokeResourceAccessToken(user, subject, found);
        return noContent();
      },
    }),
    rotate: route({
      params: rotateParams,
      handler: async ({ params, user }) => {
        const subject = await find(params.id, user);
        const found = canManageAccessTokens(user, subject) ? await findResourceAccessTokenOf(subject, params.token_id) : undefined;
        // Only admins learn that a token does not exist.
        if (!found) throw isAdmin(user) ? new NotFoundError() : new UnauthorizedError();
        const { token, secret } = await rotateResourceAccessToken(user, subject, found, params.expires_at);
        return ok(presentResourceAccessToken(token, secret));
      },
    }),
  };
}

const project = holderRoutes(findProjectOrNotFound, 'project');
const group = holderRoutes(findGroupOrNotFound, 'group');

export const projectAccessTokenRoutes = {
  'GET /projects/:id/access_tokens': project.list,
  'POST /projects/:id/access_tokens': project.create,
  'GET /projects/:id/access_tokens/:token_id': project.get,
  'DELETE /projects/:id/access_tokens/:token_id': project.delete,
  'POST /projects/:id/access_tokens/:token_id/rotate': project.rotate,
} satisfies RoutesOf<typeof catalog.members>;

/** Served by the groups function (`catalog.groups`). */
export const groupAccessTokenRoutes = {
  'GET /groups/:id/access_tokens': group.list,
  'POST /groups/:id/access_tokens': group.create,
  'GET /groups/:id/access_tokens/:token_id': group.get,
  'DELETE /groups/:id/access_tokens/:token_id': group.delete,
  'POST /groups/:id/access_tokens/:token_id/rotate': group.rotate,
} satisfies RoutesOf<typeof catalog.groups>;
