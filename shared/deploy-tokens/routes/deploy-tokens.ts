/**
 * Project and group deploy tokens (GitLab's `lib/api/deploy_tokens.rb`): list (`active` filter,
 * paginated), read, create (the secret shown once), delete. A project's need its maintainers; a
 * group's are read by its maintainers and created and deleted by its owners. Each route: find the
 * project or group (404 when the caller cannot see it) → authorize (403) → command or query →
 * presenter. The instance-wide `GET /deploy_tokens` (admins) is not served (README).
 */
import * as z from 'zod';
import { authorize, type GroupSubject, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { createDeployToken, removeDeployToken } from '../commands/deploy-tokens';
import { presentDeployToken, presentDeployTokenWithSecret } from '../presenters/deploy-tokens';
import { deployTokenList, findDeployTokenOrNotFound } from '../queries/deploy-tokens';
import { DEPLOY_TOKEN_SCOPES } from '../store/deploy-tokens';
import type { Holder } from '../store/keys';

const listParams = z.object({ ...idParam, ...paginationParams, active: p.bool() });
const tokenParams = z.object({ ...idParam, token_id: required(p.int()) });
/** GitLab's model validation of `name` and `username` (255 characters), answered as its service answers it (one sentence). */
const LIMIT = { max: 255, plain: true } as const;

const createParams = z.object({
  ...idParam,
  name: required(p.string(LIMIT)),
  // An array, or one comma-separated string (GitLab's `CommaSeparatedToArray`); each one of GitLab's scopes.
  scopes: required(p.array(z.enum(DEPLOY_TOKEN_SCOPES))),
  expires_at: p.dateTime(),
  username: p.string(LIMIT),
});

type Ability = 'read_deploy_token' | 'create_deploy_token' | 'destroy_deploy_token';
type Caller = Parameters<typeof findProjectOrNotFound>[1];

/** The project's tokens, once the caller may do `ability` to them. */
async function projectHolder(idOrPath: string, user: Caller, ability: Ability): Promise<Holder> {
  const subject: ProjectSubject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, ability, subject);
  return { kind: 'project', id: subject.project.id };
}

/** The group's tokens, once the caller may do `ability` to them. */
async function groupHolder(idOrPath: string, user: Caller, ability: Ability): Promise<Holder> {
  const subject: GroupSubject = await findGroupOrNotFound(idOrPath, user);
  authorize(user, ability, subject);
  return { kind: 'group', id: subject.group.id };
}

/** The four routes of one kind of holder. */
function holderRoutes(find: typeof projectHolder) {
  return {
    list: route({
      params: listParams,
      handler: async ({ params, user, link }) => {
        const holder = await find(params.id, user, 'read_deploy_token');
        const page = await paginate(params, link, deployTokenList(holder, params.active === true));
        return ok(page.items.map((token) => presentDeployToken(token)), page.headers);
      },
    }),
    create: route({
      params: createParams,
      handler: async ({ params, user }) => {
        const holder = await find(params.id, user, 'create_deploy_token');
        const { token, secret } = await createDeployToken(holder, user.id, {
          name: params.name,
          scopes: params.scopes,
          expiresAt: params.expires_at,
          username: params.username,
        });
        return created(presentDeployTokenWithSecret(token, secret));
      },
    }),
    get: route({
      params: tokenParams,
      handler: async ({ params, user }) => {
        const holder = await find(params.id, user, 'read_deploy_token');
        return ok(presentDeployToken(await findDeployTokenOrNotFound(holder, params.token_id)));
      },
    }),
    delete: route({
      params: tokenParams,
      handler: async ({ params, user }) => {
        const holder = await find(params.id, user, 'destroy_deploy_token');
        await removeDeployToken(await findDeployTokenOrNotFound(holder, params.token_id));
        return noContent();
      },
    }),
  };
}

const project = holderRoutes(projectHolder);
const group = holderRoutes(groupHolder);

export const projectDeployTokenRoutes = {
  'GET /projects/:id/deploy_tokens': project.list,
  'POST /projects/:id/deploy_tokens': project.create,
  'GET /projects/:id/deploy_tokens/:token_id': project.get,
  'DELETE /projects/:id/deploy_tokens/:token_id': project.delete,
} satisfies RoutesOf<typeof catalog.projects>;

export const groupDeployTokenRoutes = {
  'GET /groups/:id/deploy_tokens': group.list,
  'POST /groups/:id/deploy_tokens': group.create,
  'GET /groups/:id/deploy_tokens/:token_id': group.get,
  'DELETE /groups/:id/deploy_tokens/:token_id': group.delete,
} satisfies RoutesOf<typeof catalog.groups>;
