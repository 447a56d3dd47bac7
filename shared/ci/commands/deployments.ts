/**
 * Environments and deployments as CI makes them (GitLab's `Environments::CreateForJobService`,
 * `Deployments::CreateForJobService`, `Deployment#sync_status_with`,
 * `Deployments::UpdateEnvironmentService`, `Ci::BuildSuccessWorker#stop_environment`):
 *
 * - a pipeline's job with `environment:` gets its environment, found by name or created (its
 *   tier the file's `deployment_tier`, else guessed from the name); a job that starts it (action
 *   `start`, the default) also gets a deployment, `created` with the job;
 * - the deployment follows its job's status (a manual job's is `blocked`);
 * - when it succeeds, its environment is (again) `available`, takes the job's URL, tier and
 *   `auto_stop_in`, and remembers it as its last deployment;
 * - when a job whose action is `stop` succeeds, its environment is `stopped`.
 *
 * Nothing here ever fails the job change or pipeline creation that called it: a failure is logged.
 * The commands that need pipelines (playing a stop action) are in `environments.ts`, above this.
 */
import { logger } from '../../platform/logger';
import { ciSettingsOf, getProject, type Project } from '../../projects';
import { environmentSlug } from '../config/expand';
import { parseDuration } from '../config/durations';
import {
  ENVIRONMENT_TIERS,
  environmentByName,
  getDeployment,
  getEnvironment,
  insertDeployments,
  insertEnvironment,
  newDeploymentIds,
  newDeploymentIids,
  newEnvironmentId,
  olderDeploymentsInStatus,
  previousSuccessfulDeployment,
  saveDeployment,
  saveEnvironment,
  type Deployment,
  type DeploymentStatus,
  type Environment,
  type EnvironmentTier,
} from '../store/environments';
import type { Job } from '../store/pipelines';
import { COMPLETED } from '../status';
import { deploymentStatusChanged } from '../webhooks/emit';
import { notifyDeploymentSucceeded } from '../listeners';

/** GitLab's `environment_name_regex`: letters, digits, `-_/${}. ` and spaces, not starting or ending with `/`. */
const NAME_PATTERN = /^[a-zA-Z0-9_${}. -](?:[a-zA-Z0-9_/${}. -]*[a-zA-Z0-9_${}. -])?$/;
export const NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";

/** What is wrong with an environment's name, as GitLab's model validations say it (none: it is valid). */
export function environmentNameErrors(name: string): string[] {
  if (name.trim() === '') return ["can't be blank"];
  const errors: string[] = [];
  if (name.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!NAME_PATTERN.test(name)) errors.push(NAME_MESSAGE);
  return errors;
}

export const isTier = (value: string | undefined): value is EnvironmentTier => ENVIRONMENT_TIERS.includes(value as EnvironmentTier);

/** GitLab's `guess_tier`: the tier an environment's name suggests when none is given. */
export function guessTier(name: string): EnvironmentTier {
  if (/dev|review|trunk/i.test(name)) return 'development';
  if (/test|tst|int|ac(ce|)pt|qa|qc|control|quality/i.test(name)) return 'testing';
  if (/st(a|)g|mod(e|)l|pre|demo|non/i.test(name)) return 'staging';
  if (/pr(o|)d|live/i.test(name)) return 'production';
  return 'other';
}

/** A new environment's fields (not yet stored). */
export async function newEnvironment(
  projectId: number,
  fields: { name: string; externalUrl?: string | null; tier?: EnvironmentTier; description?: string | null; autoStopSetting?: string },
): Promise<Environment> {
  const now = new Date().toISOString();
  return {
    id: await newEnvironmentId(),
    projectId,
    name: fields.name,
    slug: environmentSlug(fields.name),
    externalUrl: fields.externalUrl || null,
    description: fields.description ?? null,
    tier: fields.tier ?? guessTier(fields.name),
    state: 'available',
    autoStopSetting: fields.autoStopSetting ?? 'always',
    autoStopAt: null,
    autoDeleteAt: null,
    lastDeploymentId: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

/**
 * The project's environment of that name, created when there is none (GitLab's
 * `find_or_create_by_name`); undefined when the name is not valid or the project is gone. Two
 * concurrent creations of one name make one environment: the loser reads the winner's.
 */
export async function ensureEnvironment(projectId: number, name: string, tier?: string): Promise<Environment | undefined> {
  const found = await environmentByName(projectId, name);
  if (found) return found;
  if (environmentNameErrors(name).length > 0) return undefined;
  const environment = await newEnvironment(projectId, { name, ...(isTier(tier) ? { tier } : {}) });
  const failure = await insertEnvironment(environment);
  if (failure === 'name_taken') return environmentByName(projectId, name);
  return failure ? undefined : environment;
}

/**
 * Applies `change` to the environment as last written, until the write wins over concurrent
 * writers (version-conditioned). `change` answers the new state, or undefined to leave it.
 * Answers the environment as written (or as read, when left), undefined when it is gone.
 */
export async function changeEnvironment(projectId: number, environmentId: number, change: (environment: Environment) => Environment | undefined): Promise<Environment | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const environment = await getEnvironment(projectId, environmentId);
    if (!environment) return undefined;
    const next = change(environment);
    if (!next) return environment;
    const written = { ...next, updatedAt: new Date().toISOString() };
    if (await saveEnvironment(environment, written)) return { ...written, version: environment.version + 1 };
  }
  throw new Error(`environment ${environmentId}: too many concurrent writes`);
}

/** The statuses a deployment may move to a status from (GitLab's `Deployment` state machine). */
const TRANSITIONS: Record<DeploymentStatus, readonly DeploymentStatus[]> = {
  running: ['created', 'blocked'],
  blocked: ['created'],
  created: ['skipped'],
  success: ['created', 'running', 'failed', 'canceled', 'skipped', 'blocked'],
  failed: ['created', 'running', 'success', 'canceled', 'skipped', 'blocked'],
  canceled: ['created', 'running', 'success', 'failed', 'skipped', 'blocked'],
  skipped: ['created', 'running', 'success', 'failed', 'canceled', 'blocked'],
};

const FINISHED: ReadonlySet<DeploymentStatus> = new Set(['success', 'failed', 'canceled']);

/** Whether a deployment in `from` may become `to`. */
export const mayTransition = (from: DeploymentStatus, to: DeploymentStatus): boolean => TRANSITIONS[to].includes(from);

/** What a deployment's environment takes from it when it succeeds (the job's `environment:` options). */
export interface DeployedOptions {
  url?: string;
  tier?: string;
  autoStopIn?: string;
  action?: string;
}

/**
 * Moves a deployment to `status` if its state machine lets it (until the write wins), then, when
 * it succeeded, updates its environment; then the project's hooks are told (a Deployment Hook when
 * it started running or finished, with its environment as the change left it; never failing the
 * move). Answers the deployment as written, or undefined when the move is not allowed (or it is gone).
 */
export async function moveDeployment(ref: { projectId: number; id: number }, status: DeploymentStatus, options: DeployedOptions = {}): Promise<Deployment | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const deployment = await getDeployment(ref.projectId, ref.id);
    if (!deployment || !mayTransition(deployment.status, status)) return undefined;
    const now = new Date().toISOString();
    const next: Deployment = { ...deployment, status, updatedAt: now, finishedAt: FINISHED.has(status) ? now : deployment.finishedAt };
    if (await saveDeployment(deployment, next)) {
      const written = { ...next, version: deployment.version + 1 };
      let environment: Environment | undefined;
      try {
        if (status === 'success') environment = await environmentDeployed(written, options);
      } finally {
        // Told once, by the writer that won, even when updating the environment failed.
        await deploymentStatusChanged(written, environment);
      }
      if (status === 'success') await deploymentSucceeded(written, environment);
      return written;
    }
  }
  return undefined;
}

/**
 * Tells the listeners of successful deployments (the merge-requests feature links the merge
 * requests it shipped), with its environment and the commit of the environment's previous
 * successful deployment. Never throws.
 */
async function deploymentSucceeded(deployment: Deployment, known: Environment | undefined): Promise<void> {
  try {
    const [environment, previous] = await Promise.all([
      known ?? getEnvironment(deployment.projectId, deployment.environmentId),
      previousSuccessfulDeployment(deployment.environmentId, deployment.id),
    ]);
    if (environment) await notifyDeploymentSucceeded({ deployment, environment, previousSha: previous?.sha ?? null });
  } catch (error) {
    logger.error('deployment succeeded: listeners not told', { deploymentId: deployment.id, error });
  }
}

/**
 * A deployment succeeded (GitLab's `UpdateEnvironmentService`): its environment is (again)
 * available, takes the URL, tier and `auto_stop_in` the job gives, and shows it as its last
 * deployment: GitLab's `last_deployment` is the successful one that finished last (`ordered` by
 * `finished_at`), so an older deployment that runs after a newer one (a project without
 * `ci_forward_deployment_enabled`, a roll back) becomes the last.
 */
async function environmentDeployed(deployment: Deployment, options: DeployedOptions): Promise<Environment | undefined> {
  const autoStop = options.autoStopIn === undefined ? undefined : parseDuration(options.autoStopIn);
  return changeEnvironment(deployment.projectId, deployment.environmentId, (environment) => ({
    ...environment,
    lastDeploymentId: deployment.id,
    state: 'available',
    // Deployed again: a deletion scheduled while it was stopped no longer applies.
    autoDeleteAt: null,
    ...(options.url ? { externalUrl: options.url } : {}),
    ...(isTier(options.tier) ? { tier: options.tier } : {}),
    ...(autoStop !== undefined ? { autoStopAt: new Date(Date.now() + autoStop * 1000).toISOString() } : {}),
  }));
}

/** GitLab's `stop_complete`: an available or stopping environment becomes stopped (its auto-stop cleared). */
export function completeStop(projectId: number, environmentId: number): Promise<Environment | undefined> {
  return changeEnvironment(projectId, environmentId, (environment) =>
    environment.state === 'stopped' ? undefined : { ...environment, state: 'stopped', autoStopAt: null },
  );
}

/**
 * GitLab's `recover_stuck_stopping`: a `stopping` environment is `available` again (its stop job
 * failed: `Environments::StopJobFailedWorker`; or it stopped for a week and no stop job is still to
 * finish: `Environments::AutoRecoverWorker`).
 */
export function recoverStuckStopping(projectId: number, environmentId: number): Promise<Environment | undefined> {
  return changeEnvironment(projectId, environmentId, (environment) => (environment.state === 'stopping' ? { ...environment, state: 'available' } : undefined));
}

const actionOf = (job: Pick<Job, 'spec'>) => job.spec.environmentOptions?.action ?? 'start';

/**
 * Links a new pipeline's jobs to their environments (found or created) and makes the deployments
 * of those that start one: sets each such job's `environmentLink` and answers the deployments to
 * store once the jobs are. A job whose environment's expanded name GitLab refuses is created
 * failed (`environment_creation_failure`, GitLab's `Chain::EnsureEnvironments`); should the
 * environments not be read or written at all, the jobs run without them (logged).
 */
export async function linkEnvironments(jobs: Job[]): Promise<Deployment[]> {
  const withEnvironment = jobs.filter((job) => job.spec.environment);
  if (withEnvironment.length === 0) return [];
  try {
    const names = [...new Set(withEnvironment.map((job) => job.spec.environment!))];
    const environments = new Map<string, Environment | undefined>();
    // One after the other, in the jobs' order: new environments get their ids in that order, as GitLab creates them.
    for (const name of names) {
      const tier = withEnvironment.find((job) => job.spec.environment === name)?.spec.environmentOptions?.deploymentTier;
      environments.set(name, await ensureEnvironment(withEnvironment[0].projectId, name, tier));
    }
    const starting = withEnvironment.filter((job) => environments.get(job.spec.environment!) && actionOf(job) === 'start');
    const [ids, iids] = await Promise.all([newDeploymentIds(starting.length), newDeploymentIids(withEnvironment[0].projectId, starting.length)]);
    const deployments: Deployment[] = [];
    for (const job of withEnvironment) {
      const environment = environments.get(job.spec.environment!);
      if (!environment) {
        Object.assign(job, { status: 'failed', failureReason: 'environment_creation_failure', finishedAt: job.createdAt });
        continue;
      }
      const tier = isTier(job.spec.environmentOptions?.deploymentTier) ? job.spec.environmentOptions.deploymentTier : environment.tier;
      const index = starting.indexOf(job);
      job.environmentLink = { environmentId: environment.id, tier, ...(index >= 0 ? { deploymentId: ids[index] } : {}) };
      if (index >= 0) deployments.push(deploymentOf(job, environment.id, ids[index], iids[index]));
    }
    return deployments;
  } catch (error) {
    logger.error('environments not linked to the pipeline’s jobs', { pipelineId: jobs[0]?.pipelineId, error });
    return [];
  }
}

function deploymentOf(job: Job, environmentId: number, id: number, iid: number): Deployment {
  return {
    id,
    iid,
    projectId: job.projectId,
    environmentId,
    ref: job.ref,
    tag: job.tag,
    sha: job.sha,
    status: 'created',
    userId: job.userId,
    jobId: job.id,
    pipelineId: job.pipelineId,
    onStop: job.spec.environmentOptions?.onStop ?? null,
    createdAt: job.createdAt,
    updatedAt: job.createdAt,
    finishedAt: null,
    version: 1,
  };
}

/** A retried job's copy deploys anew (a new deployment, as GitLab's new build gets): sets its link, answers the deployment to store. */
export async function redeploy(copy: Job): Promise<Deployment | undefined> {
  const link = copy.environmentLink;
  if (!link?.deploymentId) return undefined;
  const [[id], [iid]] = await Promise.all([newDeploymentIds(1), newDeploymentIids(copy.projectId, 1)]);
  copy.environmentLink = { ...link, deploymentId: id };
  return deploymentOf(copy, link.environmentId, id, iid);
}

/** Stores the deployments of new jobs (after the jobs): a failure is logged, the jobs run without them. */
export async function storeDeployments(deployments: readonly Deployment[]): Promise<void> {
  try {
    await insertDeployments(deployments);
  } catch (error) {
    logger.error('deployments not stored', { deploymentIds: deployments.map((deployment) => deployment.id), error });
  }
}

/** A job status as its deployment's (GitLab's `sync_status_with`: a manual job's deployment is blocked; pending changes nothing). */
function deploymentStatusOf(status: Job['status']): DeploymentStatus | undefined {
  if (status === 'manual') return 'blocked';
  return status === 'pending' ? undefined : status;
}

/**
 * A job's status changed (as written): its deployment follows; a `stop` job that succeeded stops
 * its environment, one that failed makes a `stopping` environment available again. Answers the deployment as this call moved it (undefined when none moved). Never throws.
 */
export async function deploymentFollowsJob(job: Job): Promise<Deployment | undefined> {
  const link = job.environmentLink;
  if (!link) return undefined;
  try {
    if (link.deploymentId) {
      const status = deploymentStatusOf(job.status);
      const options = job.spec.environmentOptions ?? {};
      if (status) return await moveDeployment({ projectId: job.projectId, id: link.deploymentId }, status, { url: options.url, tier: options.deploymentTier, autoStopIn: options.autoStopIn });
    } else if (actionOf(job) === 'stop' && job.status === 'success') {
      await completeStop(job.projectId, link.environmentId);
    } else if (actionOf(job) === 'stop' && job.status === 'failed') {
      await recoverStuckStopping(job.projectId, link.environmentId);
    }
  } catch (error) {
    logger.error('deployment not updated after its job changed', { jobId: job.id, status: job.status, error });
  }
  return undefined;
}

/**
 * Whether a job would deploy something older than its environment's last successful deployment
 * (GitLab's `outdated_deployment?` with "Prevent outdated deployment jobs",
 * `ci_forward_deployment_enabled`): a job that starts an environment, not finished (a finished one
 * may be retried to roll back: GitLab's `ci_forward_deployment_rollback_allowed`, on by default and
 * not a setting here), whose deployment is older than the environment's last and of another commit.
 * Reads the environment, then (only when the job's deployment is older) the last deployment and,
 * unless given, the project.
 */
export async function isOutdatedDeploymentJob(job: Job, project?: Project): Promise<boolean> {
  const deploymentId = job.environmentLink?.deploymentId;
  if (!deploymentId || COMPLETED.has(job.status)) return false;
  const environment = await getEnvironment(job.projectId, job.environmentLink!.environmentId);
  const lastId = environment?.lastDeploymentId;
  if (!lastId || deploymentId >= lastId) return false;
  const [last, settings] = await Promise.all([getDeployment(job.projectId, lastId), project ?? getProject(job.projectId)]);
  if (!last || last.sha === job.sha || !settings) return false;
  return ciSettingsOf(settings).ciForwardDeploymentEnabled;
}

/** Most older deployments one deployment that starts running drops (per status). */
const OLDER_DEPLOYMENTS_DROPPED = 100;

/**
 * The deployments a deployment that started running makes outdated (GitLab's
 * `OlderDeploymentsDropService`, when the project prevents outdated deployment jobs): its
 * environment's older deployments still `created` or `running` that have a job, oldest first, at
 * most {@link OLDER_DEPLOYMENTS_DROPPED} of each status (GitLab: all of them).
 */
export async function olderActiveDeployments(deployment: Deployment): Promise<Deployment[]> {
  if (deployment.status !== 'running') return [];
  const project = await getProject(deployment.projectId);
  if (!project || !ciSettingsOf(project).ciForwardDeploymentEnabled) return [];
  const [created, running] = await Promise.all(
    (['created', 'running'] as const).map((status) => olderDeploymentsInStatus(deployment.environmentId, status, deployment.id, OLDER_DEPLOYMENTS_DROPPED)),
  );
  return [...created, ...running].filter((older) => older.jobId !== null);
}
