/** HTTP Basic credentials, as git sends them once the server answers 401 with `WWW-Authenticate: Basic`. */
export { basicCredentials } from '../../platform/http/basic-auth';

/**
 * Who a CI job token clones as: the CI feature (above the repository) registers how to resolve
 * one (`gitlab-ci-token:<job token>` while the job runs: read only, its project and those its job
 * token scope lets it in), through the
 * composition root. Undefined when no resolver is registered or the token is not a running job's.
 */
export type JobTokenResolver = (token: string) => Promise<JobTokenAccess | undefined>;

/** What a running job's token gives access to: its project (read only), on behalf of the job's user. */
export interface JobTokenAccess {
  projectId: number;
  jobId: number;
  userId: number | null;
}

let jobTokenResolver: JobTokenResolver | undefined;

export function resolveJobTokensWith(resolver: JobTokenResolver): void {
  jobTokenResolver = resolver;
}

/**
 * The job a `gitlab-ci-token` credential belongs to, if it is one of a running job. Any other
 * credential (or a job token that no longer runs) is undefined: the caller then tries it as a user's
 * token or password, as GitLab's `find_for_git_client` goes on to them.
 */
export async function jobTokenCredential(credentials: { username: string; password: string }): Promise<JobTokenAccess | undefined> {
  if (credentials.username !== 'gitlab-ci-token' || !credentials.password || !jobTokenResolver) return undefined;
  return jobTokenResolver(credentials.password);
}

/**
 * What a deploy token presented to git gives (GitLab's deploy tokens: `username:token`, the
 * username being the token's): its scopes, and whether it reaches a project (its own project, or
 * the projects of its group and subgroups). The deploy tokens feature (beside the repository, which
 * cannot import it) registers how to resolve one through the composition root.
 */
export interface DeployTokenAccess {
  tokenId: number;
  scopes: readonly string[];
  reaches: (project: { id: number }, namespace: { id: number; ancestorIds: readonly number[] }) => boolean;
}

export type DeployTokenResolver = (username: string, secret: string) => Promise<DeployTokenAccess | undefined>;

let deployTokenResolver: DeployTokenResolver | undefined;

export function resolveDeployTokensWith(resolver: DeployTokenResolver): void {
  deployTokenResolver = resolver;
}

/**
 * The active deploy token a credential is, if it is one (the resolver reads nothing for a secret
 * that is not a deploy token's, so users' credentials cost what they did). Anything else is
 * undefined: the caller then tries it as a user's token or password, as GitLab's
 * `find_for_git_client` goes on.
 */
export async function deployTokenCredential(credentials: { username: string; password: string }): Promise<DeployTokenAccess | undefined> {
  if (!credentials.password || !deployTokenResolver) return undefined;
  return deployTokenResolver(credentials.username, credentials.password);
}
