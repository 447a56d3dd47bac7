/**
 * GitLab's `EnvironmentBasic`, `Environment` and `Deployment` entities. An environment shows its
 * project (`BasicProjectDetails`) in lists and the answers of writes, and its last deployment
 * (without the deployment's environment) when read alone; a deployment shows its environment
 * (basic), its user, and the job that made it (`deployable`, GitLab's `Job` entity; null for one
 * made through the API).
 */
import { presentUserPublic, type User } from '../../users';
import type { Deployment, Environment } from '../store/environments';
import type { Job } from '../store/pipelines';
import { presentJob, type JobContext } from './jobs';

export function presentEnvironmentBasic(environment: Environment) {
  return {
    id: environment.id,
    name: environment.name,
    slug: environment.slug,
    external_url: environment.externalUrl,
    created_at: environment.createdAt,
    updated_at: environment.updatedAt,
  };
}

export function presentEnvironment(environment: Environment, extra: { project?: Record<string, unknown>; lastDeployment?: Record<string, unknown> | null }) {
  return {
    ...presentEnvironmentBasic(environment),
    tier: environment.tier,
    ...(extra.project ? { project: extra.project } : {}),
    ...(extra.lastDeployment !== undefined ? { last_deployment: extra.lastDeployment } : {}),
    state: environment.state,
    auto_stop_at: environment.autoStopAt,
    description: environment.description,
    auto_stop_setting: environment.autoStopSetting,
  };
}

/** What deployment presenters need, loaded once for a page: environments, users, jobs and the jobs' context. */
export interface DeploymentContext {
  environments: Map<number, Environment>;
  users: Map<number, User>;
  jobs: Map<number, Job>;
  jobContext: JobContext;
}

export function presentDeployment(deployment: Deployment, ctx: DeploymentContext, options: { withEnvironment?: boolean } = {}) {
  const environment = ctx.environments.get(deployment.environmentId);
  const user = deployment.userId === null ? undefined : ctx.users.get(deployment.userId);
  const job = deployment.jobId === null ? undefined : ctx.jobs.get(deployment.jobId);
  return {
    id: deployment.id,
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: deployment.createdAt,
    updated_at: deployment.updatedAt,
    user: user ? presentUserPublic(user) : null,
    ...(options.withEnvironment === false ? {} : { environment: environment ? presentEnvironmentBasic(environment) : null }),
    deployable: job ? presentJob(job, ctx.jobContext) : null,
    status: deployment.status,
  };
}
