import { basicCredentials } from '../platform/http/basic-auth';
import type { ApiMiddleware, ApiRequest, Authentication, DeployTokenCaller } from '../platform/http/context';
import { ForbiddenError, InsufficientScopeError, NotFoundError, UnauthorizedError } from '../platform/http/errors';
import { findTokenBySecret, isTokenActive, type AccessToken } from './store/tokens';
import { findUserByUsername, getUser, recordActivity, type User } from './store/users';
import { verifyPassword } from '../platform/crypto/password';

/** The scopes a route accepts unless it says otherwise. */
const DEFAULT_SCOPES = ['api'] as const;

/** Whether a token's scopes let it call a route accepting `accepted` with `method`: `read_api` reads wherever `api` may. */
function scopesAllow(scopes: readonly string[], accepted: readonly string[], method: string): boolean {
  if (accepted.some((scope) => scopes.includes(scope))) return true;
  return (method === 'GET' || method === 'HEAD') && accepted.includes('api') && scopes.includes('read_api');
}

/** The token scopes that clone and fetch (`git-upload-pack`) or push (`git-receive-pack`), as GitLab's. */
const GIT_SCOPES = {
  'git-upload-pack': ['api', 'read_repository', 'write_repository'],
  'git-receive-pack': ['api', 'write_repository'],
} as const;

/** The token presented by `PRIVATE-TOKEN`, `Authorization: Bearer` or the `private_token` parameter. */
function presentedSecret(request: ApiRequest): string | undefined {
  const { headers } = request.event;
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
  const param = request.context.rawParams.private_token;
  return headers['private-token'] || bearer || (typeof param === 'string' && param ? param : undefined);
}

/** The CI job token presented by `JOB-TOKEN` or the `job_token` parameter. */
function presentedJobToken(request: ApiRequest): string | undefined {
  const param = request.context.rawParams.job_token;
  return request.event.headers['job-token'] || (typeof param === 'string' && param ? param : undefined);
}

/** What a running job's token stands for: its project, on behalf of the job's user. */
export type JobTokenResolver = (token: string) => Promise<{ projectId: number; jobId: number; userId: number | null } | undefined>;

let jobTokenResolver: JobTokenResolver | undefined;

/**
 * How a CI job token is resolved: the CI feature (above this one) registers it through the
 * composition root (`functions/api.ts`). Without one, job tokens authenticate nothing.
 */
export function authenticateJobTokensWith(resolver: JobTokenResolver): void {
  jobTokenResolver = resolver;
}

/**
 * What a deploy token presented to the API stands for (`Deploy-Token` header: the secret alone;
 * HTTP Basic: its username too, which must be the token's). Undefined for anything that is not an
 * active deploy token.
 */
export type DeployTokenResolver = (secret: string, username?: string) => Promise<DeployTokenCaller | undefined>;

let deployTokenResolver: DeployTokenResolver | undefined;

/**
 * How a deploy token is resolved on the routes that take them (`authentication.deployToken`): the
 * deploy tokens feature (above this one) registers it through the composition root. Without one,
 * deploy tokens authenticate nothing.
 */
export function authenticateDeployTokensWith(resolver: DeployTokenResolver): void {
  deployTokenResolver = resolver;
}

/** `sudo` as a parameter or `Sudo` header: a user id or a username. */
function sudoIdentifier(request: ApiRequest): string | undefined {
  const value = request.context.rawParams.sudo ?? request.event.headers.sudo;
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

async function findSudoTarget(identifier: string): Promise<User> {
  const user = /^\d+$/.test(identifier) ? await getUser(Number(identifier)) : await findUserByUsername(identifier);
  if (!user) throw new NotFoundError(`User with ID or username '${identifier}'`);
  return user;
}

/**
 * Authenticates the caller. An unknown, revoked or expired token (expired from 00:00 UTC of its
 * `expires_at`, for every kind: see {@link isTokenActive}), or a blocked owner, is a 401
 * even on routes that allow anonymous reads (a bad credential is never silently ignored).
 * Scopes: each route declares the scopes it accepts (`authentication.scopes`, default `api`);
 * `read_user` is accepted by the users group's GET routes; `read_api` by every GET and HEAD that
 * accepts `api`.
 * `sudo` lets an admin's personal token act as another user. A route that opts in
 * (`authentication.jobToken`) also takes a running CI job's token (`JOB-TOKEN`, `job_token`) as the
 * job's user, resolved by the CI feature ({@link authenticateJobTokensWith}); the route keeps it to
 * the projects the job's token may reach. A route may also take deploy tokens
 * (`authentication.deployToken`: `Deploy-Token`, set apart as `context.deployToken`, no user) and
 * HTTP Basic credentials (`authentication.basic`: `gitlab-ci-token:<job token>`, a deploy token's
 * `username:token`, or any username with a user's access token).
 * Cost: no DynamoDB read when the same token was read in this process within the last second,
 * else two (`findTokenBySecret`: a revoked token or blocked user is refused at once here and
 * within a second in other processes); `sudo` reads its target on every request.
 */
export function authenticate(): ApiMiddleware {
  const authenticateBefore = async (request: ApiRequest) => {
    const { rawParams, route } = request.context;
    const accepts = route.definition.authentication ?? {};
    let secret = presentedSecret(request);
    let jobToken = accepts.jobToken ? presentedJobToken(request) : undefined;
    const sudo = sudoIdentifier(request);
    delete rawParams.private_token;
    delete rawParams.job_token;
    delete rawParams.sudo;
    request.context.auth = null;
    request.context.deployToken = null;

    // Deploy tokens and HTTP Basic, on the routes that take them (GitLab's package registry routes).
    const deployHeader = accepts.deployToken ? request.event.headers['deploy-token'] : undefined;
    if (deployHeader) {
      request.context.deployToken = await authenticateDeployToken(deployHeader);
      return;
    }
    const basic = accepts.basic && !secret && !jobToken ? basicCredentials(request.event.headers.authorization) : undefined;
    if (basic) {
      if (accepts.jobToken && basic.username === 'gitlab-ci-token') jobToken = basic.password;
      else {
        const deployToken = accepts.deployToken && deployTokenResolver && basic.password ? await deployTokenResolver(basic.password, basic.username) : undefined;
        if (deployToken) {
          request.context.deployToken = deployToken;
          return;
        }
        // Any other username: the password is a user's access token (the username is ignored, as GitLab's).
        secret = basic.password || undefined;
        if (!secret) throw new UnauthorizedError();
      }
    }

    if (!secret && jobToken) {
      request.context.auth = await authenticateJob(jobToken);
      return;
    }
    if (!secret) {
      if (!route.definition.anonymous) throw new UnauthorizedError();
      return;
    }
    const found = await findTokenBySecret(secret);
    if (!found || !found.user || !isTokenActive(found.token) || found.user.state !== 'active') {
      throw new UnauthorizedError();
    }
    const { token, user } = found;
    const kinds = route.definition.authentication?.tokens;
    if (kinds && !kinds.includes(token.impersonation ? 'impersonation' : 'personal')) throw new UnauthorizedError();
    const accepted = route.definition.authentication?.scopes ?? DEFAULT_SCOPES;
    if (!scopesAllow(token.scopes, accepted, request.event.httpMethod)) throw new InsufficientScopeError('api');

    let auth: Authentication = { user, token, secret };
    if (sudo !== undefined) {
      if (!user.admin) throw new ForbiddenError('Must be admin to use sudo');
      if (!token.scopes.includes('sudo')) throw new ForbiddenError('Private token must have sudo scope');
      auth = { user: await findSudoTarget(sudo), token, secret, sudoFrom: user };
    }
    request.context.auth = auth;
  };
  return { before: authenticateBefore };
}

/** Internal: a `Deploy-Token` header's token; anything but an active deploy token is a 401. */
async function authenticateDeployToken(secret: string): Promise<DeployTokenCaller> {
  const token = deployTokenResolver ? await deployTokenResolver(secret) : undefined;
  if (!token) throw new UnauthorizedError();
  return token;
}

/**
 * Internal: a running job's token as the job's user (GitLab's `find_user_from_job_token`): a
 * token that is no running job's, or a job without an active user, is a 401. No `sudo`.
 */
async function authenticateJob(secret: string): Promise<Authentication> {
  const access = jobTokenResolver ? await jobTokenResolver(secret) : undefined;
  const user = access?.userId ? await getUser(access.userId) : undefined;
  if (!access || !user || user.state !== 'active') throw new UnauthorizedError();
  return { user, token: null, secret, job: { projectId: access.projectId, jobId: access.jobId } };
}

/**
 * Git over HTTP (Basic authentication), as GitLab's: the password is a personal, impersonation
 * or project access token whose scopes allow `service` ({@link GIT_SCOPES}; whatever the
 * username: `oauth2`, the user's name, ...), or the user's own password with their username. Answers the user, or undefined for any credential that
 * does not authenticate an active user (unknown, revoked or expired token, wrong password, blocked user).
 */
export async function authenticateGitCredentials(username: string, password: string, service: keyof typeof GIT_SCOPES): Promise<User | undefined> {
  const found = password ? await findTokenBySecret(password) : undefined;
  if (found) {
    const { token, user } = found;
    const allowed = GIT_SCOPES[service].some((scope) => token.scopes.includes(scope));
    return user && user.state === 'active' && isTokenActive(token) && allowed ? user : undefined;
  }
  const user = username && password ? await findUserByUsername(username) : undefined;
  if (!user || user.state !== 'active' || !user.passwordDigest) return undefined;
  return (await verifyPassword(password, user.passwordDigest)) ? user : undefined;
}

/**
 * Keeps `last_activity_on` current for authenticated callers: at most one write per user per day
 * (see recordActivity). A failure here is logged, never fails the request.
 */
export function trackActivity(): ApiMiddleware {
  const trackActivityBefore = async (request: ApiRequest) => {
    const auth = request.context.auth;
    if (!auth) return;
    const today = new Date().toISOString().slice(0, 10);
    try {
      await recordActivity(auth.user, today);
      auth.user.lastActivityOn = today;
    } catch (error) {
      request.context.log.warn('could not record activity', { error, userId: auth.user.id });
    }
  };
  return { before: trackActivityBefore };
}

declare module '../platform/http/context' {
  /** The caller of a route is a user of this feature. */
  interface Caller extends User {}
  /** The credential a caller presented is one of the user's access tokens. */
  interface Credential extends AccessToken {}
}
