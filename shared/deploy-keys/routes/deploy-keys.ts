/**
 * Deploy keys (GitLab's `lib/api/deploy_keys.rb`, and `GET /users/:id/project_deploy_keys` of
 * `lib/api/users.rb`): the instance's keys (admins: list, `public` filter, create public ones), a
 * project's keys (its maintainers: list, read, add or link, edit, enable, remove), and the keys of
 * the projects a user and the caller both maintain. Each route: find (404 when the caller cannot
 * see the project) → authorize (403) → command or query → presenter.
 */
import { authorize } from '../../auth';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors';
import type { RouteAuthentication } from '../../platform/http/context';
import { paginate, paginateArray } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import { findSshKeyByFingerprintOrNotFound, findUserByUsername, getUser, parseSshFingerprint, presentSshKeyWithUser, type User } from '../../users';
import type { catalog } from '../catalog';
import { addProjectDeployKey, createPublicDeployKey, enableDeployKey, removeProjectDeployKey, updateLinkedKey } from '../commands/deploy-keys';
import { presentDeployKey, presentDeployKeyWithUser, presentKeysWithProjects, presentLinkedKey } from '../presenters/deploy-keys';
import { commonProjectDeployKeys, findDeployKeyWithLinks, findLinkedKeyOrNotFound, instanceDeployKeyList, projectDeployKeyList, projectsOfKeys } from '../queries/deploy-keys';
import {
  instanceCreateParams,
  fingerprintParams,
  instanceListParams,
  projectCreateParams,
  projectKeyParams,
  projectListParams,
  projectUpdateParams,
  userKeysParams,
} from './deploy-keys.params';

/** As every GET of the users group: a token with only the `read_user` scope may read it. */
const readUser = { scopes: ['api', 'read_user'] } as const satisfies RouteAuthentication;

/** The project, once the caller may administer its deploy keys (GitLab's `authorize_admin_project`). */
async function administeredProject(idOrPath: string, user: User) {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_deploy_keys', subject);
  return subject;
}

export const instanceDeployKeyRoutes = {
  'GET /deploy_keys': route({
    params: instanceListParams,
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_instance_deploy_keys');
      const page = await paginate(params, link, instanceDeployKeyList(params.public === true));
      return ok(await presentKeysWithProjects(page.items, await projectsOfKeys(page.items), user), page.headers);
    },
  }),
  'POST /deploy_keys': route({
    params: instanceCreateParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_instance_deploy_keys');
      return created(presentDeployKey(await createPublicDeployKey(user, { title: params.title, key: params.key, expiresAt: params.expires_at })));
    },
  }),
} satisfies RoutesOf<typeof catalog.meta>;

export const projectDeployKeyRoutes = {
  'GET /projects/:id/deploy_keys': route({
    params: projectListParams,
    handler: async ({ params, user, link }) => {
      const subject = await administeredProject(params.id, user);
      const page = await paginate(params, link, projectDeployKeyList(subject.project.id));
      return ok(page.items.map(presentLinkedKey), page.headers);
    },
  }),
  'POST /projects/:id/deploy_keys': route({
    params: projectCreateParams,
    handler: async ({ params, user }) => {
      const subject = await administeredProject(params.id, user);
      const linked = await addProjectDeployKey(subject, user, { title: params.title, key: params.key, expiresAt: params.expires_at, canPush: params.can_push === true });
      return created(presentLinkedKey(linked));
    },
  }),
  'GET /projects/:id/deploy_keys/:key_id': route({
    params: projectKeyParams,
    handler: async ({ params, user }) => {
      const subject = await administeredProject(params.id, user);
      return ok(presentLinkedKey(await findLinkedKeyOrNotFound(subject.project.id, params.key_id)));
    },
  }),
  'PUT /projects/:id/deploy_keys/:key_id': route({
    params: projectUpdateParams,
    handler: async ({ params, user }) => {
      const subject = await administeredProject(params.id, user);
      const linked = await findLinkedKeyOrNotFound(subject.project.id, params.key_id);
      return ok(presentLinkedKey(await updateLinkedKey(linked, user, { title: params.title, canPush: params.can_push })));
    },
  }),
  'DELETE /projects/:id/deploy_keys/:key_id': route({
    params: projectKeyParams,
    handler: async ({ params, user }) => {
      const subject = await administeredProject(params.id, user);
      await removeProjectDeployKey(subject.project.id, params.key_id);
      return noContent();
    },
  }),
  'POST /projects/:id/deploy_keys/:key_id/enable': route({
    params: projectKeyParams,
    handler: async ({ params, user }) => {
      const subject = await administeredProject(params.id, user);
      return created(presentDeployKey(await enableDeployKey(subject, user, params.key_id)));
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;

export const userDeployKeyRoutes = {
  'GET /users/:id/project_deploy_keys': route({
    authentication: readUser,
    params: userKeysParams,
    handler: async ({ params, user, link }) => {
      const target = /^\d+$/.test(params.id) ? await getUser(Number(params.id)) : await findUserByUsername(params.id);
      if (!target) throw new NotFoundError('User');
      const keys = await commonProjectDeployKeys(user, target);
      if (!keys) throw new ForbiddenError('No common authorized project found');
      const page = paginateArray(params, link, keys);
      return ok(page.items.map(presentDeployKey), page.headers);
    },
  }),

  /**
   * A key by fingerprint (admins; GitLab's `lib/api/keys.rb`): a deploy key with its creator and
   * links (`DeployKeyWithUser`), else a user's SSH key with its owner (`SSHKeyWithUser`).
   */
  'GET /keys': route({
    authentication: readUser,
    params: fingerprintParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_users');
      const fingerprint = parseSshFingerprint(params.fingerprint);
      const deployKey = await findDeployKeyWithLinks(fingerprint);
      if (deployKey) return ok<object>(presentDeployKeyWithUser(deployKey.key, deployKey.creator, deployKey.links));
      const { key, owner } = await findSshKeyByFingerprintOrNotFound(fingerprint);
      return ok<object>(presentSshKeyWithUser(key, owner));
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
