/**
 * What users do to environments and deployments through the API (GitLab's `lib/api/environments.rb`,
 * `lib/api/deployments.rb` and the services behind them): create, change, stop and delete an
 * environment; create a deployment by hand (a deployment tool reporting to GitLab), change its
 * status, delete it. What CI does to them is in `deployments.ts`.
 */
import type { Project } from '../../projects';
import type { User } from '../../users';
import { NotFoundError, ValidationError } from '../../platform/http/errors';
import { commitExists } from '../git';
import { readPipeline } from '../store/pipelines';
import { COMPLETED } from '../status';
import {
  deleteDeploymentItem,
  deleteEnvironmentDeployments,
  deleteEnvironmentItems,
  getDeployment,
  environmentsInState,
  getEnvironment,
  insertDeployments,
  newestDeployment,
  insertEnvironment,
  LONG_STOP_MS,
  newDeploymentIds,
  newDeploymentIids,
  saveEnvironment,
  type Deployment,
  type DeploymentStatus,
  type DueEnvironment,
  type Environment,
  type EnvironmentTier,
} from '../store/environments';
import { changeEnvironment, completeStop, ensureEnvironment, environmentNameErrors, mayTransition, moveDeployment, newEnvironment } from './deployments';
import { dropOlderDeployments, playJob } from './pipelines';

/** Schemes a link must not have (GitLab's `SanitizeNodeLink::UNSAFE_PROTOCOLS`). */
const UNSAFE_SCHEMES = new Set(['javascript', 'data', 'vbscript']);

/** What is wrong with an environment's external URL (GitLab's `safe_external_url` and column length). */
function externalUrlErrors(url: string | null | undefined): string[] {
  if (!url) return [];
  if (url.length > 255) return ['is too long (maximum is 255 characters)'];
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
  if (scheme && UNSAFE_SCHEMES.has(scheme)) return [`${scheme} scheme is not allowed`];
  if (/\s/.test(url.trim())) return ['URI is invalid'];
  return [];
}

export interface EnvironmentFields {
  externalUrl?: string | null;
  tier?: EnvironmentTier;
  description?: string | null;
  autoStopSetting?: string;
}

/** `POST /projects/:id/environments`: GitLab's model validations as a 400 (`{"message":{"name":[…]}}`). */
export async function createEnvironment(project: Project, name: string, fields: EnvironmentFields): Promise<Environment> {
  const errors = Object.fromEntries(
    Object.entries({ name: environmentNameErrors(name), external_url: externalUrlErrors(fields.externalUrl) }).filter(([, messages]) => messages.length > 0),
  );
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const environment = await newEnvironment(project.id, { name, ...fields });
  const failure = await insertEnvironment(environment);
  if (failure === 'name_taken') throw new ValidationError({ name: ['has already been taken'] });
  if (failure === 'project_gone') throw new NotFoundError('Project');
  return environment;
}

/** `PUT /projects/:id/environments/:environment_id`: its URL, tier, description or auto-stop setting. */
export async function updateEnvironment(environment: Environment, fields: EnvironmentFields): Promise<Environment> {
  const errors = externalUrlErrors(fields.externalUrl);
  if (errors.length > 0) throw new ValidationError({ external_url: errors });
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as EnvironmentFields;
  const written = await changeEnvironment(environment.projectId, environment.id, (current) => ({
    ...current,
    ...given,
    ...(given.externalUrl === '' ? { externalUrl: null } : {}),
  }));
  if (!written) throw new NotFoundError();
  return written;
}

/** The `on_stop` jobs (not retried) of the pipeline of an environment's last successful deployment, whatever their status. */
async function stopJobs(environment: Environment) {
  const deployment = environment.lastDeploymentId === null ? undefined : await getDeployment(environment.projectId, environment.lastDeploymentId);
  if (!deployment?.onStop || deployment.pipelineId === null) return [];
  const read = await readPipeline(deployment.pipelineId);
  return (read?.jobs ?? []).filter((job) => !job.retried && job.name === deployment.onStop);
}

/** The jobs that stop an environment (GitLab's `stop_actions`): its {@link stopJobs} waiting to be played (manual). */
async function stopActions(environment: Environment) {
  return (await stopJobs(environment)).filter((job) => job.status === 'manual');
}

/**
 * `POST …/environments/:environment_id/stop` (GitLab's `Environments::StopService`): with `force`,
 * stopped at once; else an available environment with stop actions waits for them (`stopping`,
 * stopped when one succeeds) and they are played, as their own user; without any, it is stopped
 * at once (its auto-stop setting `always`). Answers the environment as it is then.
 */
export async function stopEnvironment(environment: Environment, force: boolean): Promise<Environment> {
  if (force) return (await completeStop(environment.projectId, environment.id)) ?? environment;
  if (environment.state !== 'available') return environment;
  const actions = await stopActions(environment);
  if (actions.length === 0 && environment.autoStopSetting !== 'always') return environment;
  const stopped = await changeEnvironment(environment.projectId, environment.id, (current) =>
    current.state === 'available' ? { ...current, state: actions.length > 0 ? 'stopping' : 'stopped', ...(actions.length > 0 ? {} : { autoStopAt: null }) } : undefined,
  );
  for (const job of actions) await playJob(job);
  return stopped ?? environment;
}

export type DueOutcome = 'stopped' | 'kept' | 'deleted' | 'recovered' | 'not_due' | 'gone';

/**
 * Acts on an environment whose time came (the scheduler):
 * - an available one whose `auto_stop_at` passed (GitLab's `Environments::AutoStopService`) is
 *   stopped as the stop API does without `force` (its `on_stop` job played, `stopping` until it
 *   succeeds); one whose auto-stop setting asks for a stop action and has none stays available,
 *   its `auto_stop_at` cleared, so it is not looked at again;
 * - a stopped one whose `auto_delete_at` passed (GitLab's `Environments::AutoDeleteCronWorker`) is
 *   deleted, with its deployments;
 * - one `stopping` for a week (GitLab's `long_stopping?`, `Environments::AutoRecoverWorker`) is
 *   available again when none of its stop jobs is still to finish.
 */
export async function settleDueEnvironment(found: DueEnvironment, now: Date): Promise<DueOutcome> {
  const environment = await getEnvironment(found.environment.projectId, found.environment.id);
  if (!environment) return 'gone';
  const passed = (at: string | null) => at !== null && Date.parse(at) <= now.getTime();
  if (environment.state === 'stopped' && passed(environment.autoDeleteAt)) return (await deleteEnvironment(environment)) ? 'not_due' : 'deleted';
  if (environment.state === 'stopping' && Date.parse(environment.updatedAt) + LONG_STOP_MS <= now.getTime()) {
    if ((await stopJobs(environment)).some((job) => !COMPLETED.has(job.status))) return 'not_due';
    const recovered = await changeEnvironment(environment.projectId, environment.id, (current) =>
      current.state === 'stopping' && current.updatedAt === environment.updatedAt ? { ...current, state: 'available' } : undefined,
    );
    return recovered?.state === 'available' ? 'recovered' : 'not_due';
  }
  if (environment.state !== 'available' || !passed(environment.autoStopAt)) return 'not_due';
  const stopped = await stopEnvironment(environment, false);
  if (stopped.state !== 'available') return 'stopped';
  await changeEnvironment(environment.projectId, environment.id, (current) => (current.autoStopAt === environment.autoStopAt ? { ...current, autoStopAt: null } : undefined));
  return 'kept';
}

/** The data migration that gives environments stopping since before the due index its entry. */
export const CI_STOPPING_ENVIRONMENTS_MIGRATION = 'ci-environments-stopping-v1';

/**
 * That migration's step for one project: its `stopping` environments (one Query of its list by
 * state) are written again as they are, which writes their due entry (a week after their last
 * change, when the scheduler may recover them: {@link settleDueEnvironment}). Each write is at the
 * version read: an environment changed meanwhile was written with its entry by that change.
 * Answers how many were written.
 */
export async function indexStoppingEnvironments(projectId: number): Promise<number> {
  let written = 0;
  for await (const environment of environmentsInState(projectId, 'stopping')) {
    if (await saveEnvironment(environment, environment)) written++;
  }
  return written;
}

/** How long after `DELETE …/environments/review_apps` the review apps it names are deleted (GitLab's `schedule_to_delete`). */
const REVIEW_APP_DELETION_DELAY_MS = 7 * 86_400_000;

/**
 * `DELETE /projects/:id/environments/review_apps` (GitLab's `ScheduleToDeleteReviewAppsService`):
 * the project's stopped environments in the `review/` folder created before `before` and not yet
 * scheduled, oldest first, at most `limit`; unless `dryRun`, each is scheduled for deletion a week
 * from now (the scheduler deletes it then, if it is still stopped). Answers them.
 */
export async function scheduleReviewAppsDeletion(projectId: number, request: { before: string; limit: number; dryRun: boolean }): Promise<Environment[]> {
  const found: Environment[] = [];
  for await (const environment of environmentsInState(projectId, 'stopped')) {
    if (found.length >= request.limit) break;
    if (environment.name.startsWith('review/') && environment.createdAt < request.before && !environment.autoDeleteAt) found.push(environment);
  }
  if (request.dryRun) return found;
  const at = new Date(Date.now() + REVIEW_APP_DELETION_DELAY_MS).toISOString();
  for (const environment of found) {
    await changeEnvironment(projectId, environment.id, (current) => (current.state === 'stopped' && !current.autoDeleteAt ? { ...current, autoDeleteAt: at } : undefined));
  }
  return found;
}

/**
 * `POST /projects/:id/environments/stop_stale` (GitLab's `Environments::StopStaleService`): every
 * available environment last changed before `before` whose newest deployment was not updated
 * since is due to stop now; the scheduler stops each within its next run, as the stop API does
 * (GitLab queues an `AutoStopWorker` each).
 */
export async function stopStaleEnvironments(projectId: number, before: string): Promise<void> {
  const now = new Date().toISOString();
  for await (const environment of environmentsInState(projectId, 'available')) {
    if (environment.updatedAt >= before) continue;
    const newest = await newestDeployment(environment.id);
    if (newest && newest.updatedAt >= before) continue;
    await changeEnvironment(projectId, environment.id, (current) => (current.state === 'available' && current.updatedAt < before ? { ...current, autoStopAt: now } : undefined));
  }
}

/** `DELETE …/environments/:environment_id`: only a stopped environment; its deployments go with it. */
export async function deleteEnvironment(environment: Environment): Promise<'not_stopped' | undefined> {
  if (environment.state !== 'stopped') return 'not_stopped';
  const failure = await deleteEnvironmentItems(environment);
  if (failure === 'not_stopped') return 'not_stopped';
  await deleteEnvironmentDeployments(environment);
  return undefined;
}

export interface DeploymentRequest {
  environment: string;
  sha: string;
  ref: string;
  tag: boolean;
  status: DeploymentStatus;
}

/**
 * `POST /projects/:id/deployments` (GitLab's `Deployments::CreateService`): the environment found
 * or created by name; the same request as the environment's last deployment answers that one; a
 * sha or ref the repository does not have is a 400. The deployment is made `created`, then moved
 * to the status asked (a successful one updates its environment).
 */
export async function createDeployment(project: Project, user: User, request: DeploymentRequest): Promise<Deployment> {
  const environment = await ensureEnvironment(project.id, request.environment);
  if (!environment) {
    const errors = environmentNameErrors(request.environment);
    throw new ValidationError({ environment: errors.length > 0 ? errors.map((message) => `name ${message}`) : ['is invalid'] });
  }
  const last = environment.lastDeploymentId === null ? undefined : await getDeployment(project.id, environment.lastDeploymentId);
  if (last && last.ref === request.ref && last.tag === request.tag && last.sha === request.sha && last.status === request.status) return last;
  const [shaFound, refFound] = await Promise.all([commitExists(project, request.sha), commitExists(project, request.ref)]);
  const errors = { ...(shaFound ? {} : { sha: ['The commit does not exist'] }), ...(refFound ? {} : { ref: ['The branch or tag does not exist'] }) };
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const [[id], [iid]] = await Promise.all([newDeploymentIds(1), newDeploymentIids(project.id, 1)]);
  const now = new Date().toISOString();
  const deployment: Deployment = {
    id,
    iid,
    projectId: project.id,
    environmentId: environment.id,
    ref: request.ref,
    tag: request.tag,
    sha: request.sha,
    status: 'created',
    userId: user.id,
    jobId: null,
    pipelineId: null,
    onStop: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    version: 1,
  };
  await insertDeployments([deployment]);
  const moved = await moveDeployment(deployment, request.status);
  if (moved) await dropOlderDeployments(moved);
  return moved ?? deployment;
}

/**
 * `PUT /projects/:id/deployments/:deployment_id`: a move its state machine refuses is a 400; one
 * that finds the deployment already in that status (a concurrent request put it there) answers it,
 * as when the status asked is the one read.
 */
export async function updateDeploymentStatus(deployment: Deployment, status: DeploymentStatus): Promise<Deployment> {
  if (deployment.status === status) return deployment;
  let moved = await moveDeployment(deployment, status);
  for (let attempt = 0; !moved && attempt < 10; attempt++) {
    const current = await getDeployment(deployment.projectId, deployment.id);
    if (!current) throw new NotFoundError('Deployment');
    if (current.status === status) return current;
    if (!mayTransition(current.status, status)) throw new ValidationError({ status: [`cannot transition from ${current.status} to ${status}`] });
    moved = await moveDeployment(deployment, status);
  }
  if (!moved) throw new Error(`deployment ${deployment.id}: too many concurrent writes`);
  await dropOlderDeployments(moved);
  return moved;
}

/**
 * `DELETE /projects/:id/deployments/:deployment_id` (GitLab's `Ci::Deployments::DestroyService`):
 * not a running deployment, nor its environment's last one.
 */
export async function deleteDeployment(deployment: Deployment, environment: Environment | undefined): Promise<'running' | 'last' | undefined> {
  if (deployment.status === 'running') return 'running';
  if (environment?.lastDeploymentId === deployment.id) return 'last';
  // Conditioned on the version read: a deployment that started running (or succeeded) meanwhile stays.
  return (await deleteDeploymentItem(deployment)) ? undefined : 'running';
}
