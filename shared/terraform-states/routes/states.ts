/**
 * GitLab-managed Terraform state (GitLab's `lib/api/terraform/state.rb` and `state_version.rb`):
 * the endpoints of Terraform's `http` backend (`address`, `lock_address`, `unlock_address` with
 * `lock_method=POST`, `unlock_method=DELETE`) and of a state's versions. Each route: find the
 * project (404 when the caller cannot see it; a CI job's token reaches only the projects its job
 * token scope lets it into) → `read_terraform_state` (developers; else 403) → for writes
 * `admin_terraform_state` (maintainers) → command or query. Credentials as Terraform sends them:
 * HTTP Basic with a token as the password, or `gitlab-ci-token` and a running job's token; the
 * usual `PRIVATE-TOKEN` and `JOB-TOKEN` headers too.
 */
import { authorize, type ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import type { Authentication, Caller, RouteAuthentication } from '../../platform/http/context';
import { PayloadTooLargeError } from '../../platform/http/errors';
import { emptyOk, noContent, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectForJobOrNotFound } from '../../projects';
import { getUser } from '../../users';
import type { catalog } from '../catalog';
import {
  lockTerraformState,
  removeTerraformState,
  removeTerraformStateVersion,
  storeTerraformStateVersion,
  unlockTerraformState,
} from '../commands/states';
import { presentLockInfo } from '../presenters/lock-info';
import { findStateOrNotFound, findVersionOrNotFound, latestContent, versionContent } from '../queries/states';
import { lockParams, stateParams, unlockParams, versionParams } from './states.params';

/** GitLab's `basic_auth_personal_access_token: true, job_token_allowed: :basic_auth` (and the usual token headers). */
const authentication: RouteAuthentication = { basic: true, jobToken: true };

/** The project, once the caller may read its states (GitLab's `before` block: `authorize! :read_terraform_state`). */
async function statesOf(idOrPath: string, user: Caller, auth: Authentication | null): Promise<ProjectSubject> {
  const subject = await findProjectForJobOrNotFound(idOrPath, user, auth);
  authorize(user, 'read_terraform_state', subject);
  return subject;
}

/** A state document as GitLab sends it (`api.format = :binary`): the bytes stored, as they were sent. */
const stateFile = (data: Buffer): HttpResult<never>['binary'] => ({ data, contentType: 'application/octet-stream' });

export const terraformStateRoutes = {
  'GET /projects/:id/terraform/state/:name': route({
    params: stateParams,
    authentication,
    handler: async ({ params, user, auth }) => {
      const subject = await statesOf(params.id, user, auth);
      const content = await latestContent(await findStateOrNotFound(subject.project.id, params.name));
      return content ? { statusCode: 200, binary: stateFile(content) } : noContent();
    },
  }),
  'POST /projects/:id/terraform/state/:name': route({
    params: stateParams,
    authentication,
    rawBody: true,
    handler: async ({ params, user, auth, body }) => {
      const subject = await statesOf(params.id, user, auth);
      authorize(user, 'admin_terraform_state', subject);
      if (!body || body.length === 0) return noContent();
      if (body.length > config().terraformStateSizeLimit) throw new PayloadTooLargeError();
      // `?ID=` blank names no lock (GitLab compares it with the lock held, none matching an empty one).
      await storeTerraformStateVersion(subject.project.id, params.name, body, { lockId: params.ID || undefined, userId: user.id, jobId: auth?.job?.jobId ?? null });
      return emptyOk();
    },
  }),
  'DELETE /projects/:id/terraform/state/:name': route({
    params: stateParams,
    authentication,
    handler: async ({ params, user, auth }) => {
      const subject = await statesOf(params.id, user, auth);
      authorize(user, 'admin_terraform_state', subject);
      // A locked state is kept, and answered 200 all the same (GitLab's API ignores what its service answers).
      await removeTerraformState(await findStateOrNotFound(subject.project.id, params.name));
      return emptyOk();
    },
  }),
  'POST /projects/:id/terraform/state/:name/lock': route({
    params: lockParams,
    authentication,
    handler: async ({ params, user, auth }) => {
      const subject = await statesOf(params.id, user, auth);
      authorize(user, 'admin_terraform_state', subject);
      const { taken, state } = await lockTerraformState(subject.project.id, params.name, params.ID, user.id);
      const holder = state.lockedByUserId === user.id ? user : state.lockedByUserId === undefined ? undefined : await getUser(state.lockedByUserId);
      const body = presentLockInfo(params, state, holder);
      return taken ? ok(body) : { statusCode: 409, body };
    },
  }),
  'DELETE /projects/:id/terraform/state/:name/lock': route({
    params: unlockParams,
    authentication,
    handler: async ({ params, user, auth }) => {
      const subject = await statesOf(params.id, user, auth);
      authorize(user, 'admin_terraform_state', subject);
      await unlockTerraformState(subject.project.id, params.name, params.ID);
      return emptyOk();
    },
  }),
  'GET /projects/:id/terraform/state/:name/versions/:serial': route({
    params: versionParams,
    authentication,
    handler: async ({ params, user, auth }) => {
      const subject = await statesOf(params.id, user, auth);
      const state = await findStateOrNotFound(subject.project.id, params.name);
      return { statusCode: 200, binary: stateFile(await versionContent(await findVersionOrNotFound(state, params.serial))) };
    },
  }),
  'DELETE /projects/:id/terraform/state/:name/versions/:serial': route({
    params: versionParams,
    authentication,
    handler: async ({ params, user, auth }) => {
      const subject = await statesOf(params.id, user, auth);
      authorize(user, 'admin_terraform_state', subject);
      const state = await findStateOrNotFound(subject.project.id, params.name);
      await removeTerraformStateVersion(await findVersionOrNotFound(state, params.serial));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
