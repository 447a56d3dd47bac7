/**
 * Who may reach a project's packages, whatever credential the caller presented (GitLab's
 * `authorized_user_project` and `authorize_read_package!` / `authorize_upload!` /
 * `authorize_destroy_package!`): a user (an access token, or a running job's token as the job's
 * user, kept to the projects the job's token may reach), or a deploy token, which is no user: it
 * reaches its own project (a group's token, the group's projects), reads with
 * `read_package_registry` and publishes with `write_package_registry`. A project the caller cannot
 * see is a 404; a permission it lacks, a 403 (a 401 when it presented nothing).
 */
import { authorize, type ProjectSubject } from '../../auth';
import type { Authentication, Caller, DeployTokenCaller } from '../../platform/http/context';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/http/errors';
import { findProjectAt, findProjectForJobOrNotFound, projectSubject } from '../../projects';

/** The credentials a package route was called with. */
export interface PackageCaller {
  user: Caller | null;
  auth: Authentication | null;
  deployToken: DeployTokenCaller | null;
}

type PackageAction = 'read_package' | 'create_package' | 'destroy_package';

/** The deploy token scope each action needs. */
const DEPLOY_TOKEN_SCOPES: Record<PackageAction, string | undefined> = {
  read_package: 'read_package_registry',
  create_package: 'write_package_registry',
  destroy_package: undefined,
};

/** Internal: the project a deploy token names, without a user's access check; 404 unless the token reaches it. */
async function findProjectForDeployTokenOrNotFound(idOrPath: string, token: DeployTokenCaller): Promise<ProjectSubject> {
  const found = await findProjectAt(idOrPath);
  if (!found || !token.reaches(found.project, found.namespace)) throw new NotFoundError('Project');
  return projectSubject(found.project, found.namespace, null);
}

/**
 * The project of a package route, once the caller may do `action` there: 404 when it cannot see
 * the project, 403 without the permission, 401 for a write without any credential.
 */
export async function packageProjectOrNotFound(idOrPath: string, caller: PackageCaller, action: PackageAction): Promise<ProjectSubject> {
  const { deployToken } = caller;
  if (deployToken) {
    const subject = await findProjectForDeployTokenOrNotFound(idOrPath, deployToken);
    const scope = DEPLOY_TOKEN_SCOPES[action];
    if (!scope || !deployToken.scopes.includes(scope)) throw new ForbiddenError();
    return subject;
  }
  // GitLab's `authenticate_non_get!`: a write needs a credential before anything is looked up.
  if (action !== 'read_package' && !caller.user) throw new UnauthorizedError();
  const subject = await findProjectForJobOrNotFound(idOrPath, caller.user, caller.auth);
  authorize(caller.user, action, subject);
  return subject;
}
