/**
 * Reads of environments and deployments: a project's lists as GitLab's finders filter and order
 * them, each served by the index of its filter (ACCESS_PATTERNS.md, E1–E6), and what a page of
 * deployments needs to be presented, read in batches.
 */
import type { ProjectSubject } from '../../auth';
import { RecordNotFoundError } from '../../platform/http/errors';
import { collectionStream, countOnePageMore, mappedStream, type ListSource } from '../../platform/http/pagination';
import { isId, type Item } from '../../platform/dynamo/query';
import type { DeploymentContext } from '../presenters/environments';
import {
  deploymentFromItem,
  deploymentsOfRefEntries,
  environmentByName,
  environmentFromItem,
  getDeployment,
  getEnvironment,
  type Deployment,
  type DeploymentStatus,
  type Environment,
  type EnvironmentState,
} from '../store/environments';
import { ciCollections } from '../store/keys';
import { readJob, type Job } from '../store/pipelines';
import { jobContext, usersById } from './jobs';

/** GitLab's `user_project.environments.find`: an environment of this project, or `404 Not found`. */
export async function findEnvironmentOrNotFound(projectId: number, environmentId: number): Promise<Environment> {
  const environment = isId(environmentId) ? await getEnvironment(projectId, environmentId) : undefined;
  if (!environment) throw new RecordNotFoundError();
  return environment;
}

/** GitLab's `user_project.deployments.find`: a deployment of this project, or `404 Not found`. */
export async function findDeploymentOrNotFound(projectId: number, deploymentId: number): Promise<Deployment> {
  const deployment = isId(deploymentId) ? await getDeployment(projectId, deploymentId) : undefined;
  if (!deployment) throw new RecordNotFoundError();
  return deployment;
}

export interface EnvironmentFilters {
  name?: string;
  search?: string;
  states?: EnvironmentState;
}

/**
 * A project's environments (GitLab's `EnvironmentsFinder`): by id, oldest first; `name=` the one of
 * that name (its claim); `search=` those whose name starts with it, whatever the case, by name
 * (GSI2); `states=` those in it (GSI1). Every filter is checked again on the item read.
 */
export async function environmentList(projectId: number, filters: EnvironmentFilters): Promise<ListSource<Environment> | Environment[]> {
  const matches = (environment: Environment) =>
    (!filters.states || environment.state === filters.states) && (!filters.search || environment.name.toLowerCase().startsWith(filters.search.toLowerCase()));
  const select = (item: Item) => {
    const environment = environmentFromItem(item);
    return matches(environment) ? environment : undefined;
  };
  if (filters.name !== undefined) {
    const environment = await environmentByName(projectId, filters.name);
    return environment && matches(environment) ? [environment] : [];
  }
  if (filters.search) return { collection: ciCollections.environmentsByNamePrefix(projectId, filters.search), ascending: true, select };
  if (filters.states) return { collection: ciCollections.environmentsByState(projectId, filters.states), ascending: true, select };
  return { collection: ciCollections.environments(projectId), ascending: true, select };
}

export interface DeploymentFilters {
  orderBy: 'id' | 'iid' | 'created_at' | 'updated_at' | 'finished_at' | 'ref';
  sort: 'asc' | 'desc';
  updatedAfter?: string;
  updatedBefore?: string;
  finishedAfter?: string;
  finishedBefore?: string;
  /** The environment named by `environment=`, null when the project has none of that name. */
  environment?: Environment | null;
  status?: DeploymentStatus;
}

/** Why GitLab's `DeploymentsFinder` refuses a combination of filters and order (its `InefficientQueryError`), if it does. */
export function deploymentFiltersError(filters: DeploymentFilters): string | undefined {
  const byUpdate = filters.updatedAfter !== undefined || filters.updatedBefore !== undefined;
  const byFinish = filters.finishedAfter !== undefined || filters.finishedBefore !== undefined;
  if (byUpdate && byFinish) return 'Both `updated_at` filter and `finished_at` filter can not be specified';
  if (byFinish !== (filters.orderBy === 'finished_at')) return '`finished_at` filter and `finished_at` sorting must be paired';
  if (byFinish && filters.status !== 'success') return '`finished_at` filter must be combined with `success` status filter.';
  return undefined;
}

const within = (value: string | null, from?: string, below?: string) => value !== null && (from === undefined || value >= from) && (below === undefined || value < below);

/**
 * A project's deployments as GitLab's `DeploymentsFinder` answers them (checked by
 * {@link deploymentFiltersError} first), each order and filter read from its own index:
 * - `updated_after`/`updated_before` (GitLab then orders by `updated_at`) or `order_by=updated_at`:
 *   the project's list by last update (GSI4), within the range; environment and status checked on
 *   each item;
 * - `order_by=finished_at` (with its range and `status=success`): the project's successful
 *   deployments by finish (GSI5);
 * - `order_by=ref`: the project's ref entries (`REF#<ref>`, by ref then id), each page's
 *   deployments loaded with one BatchGetItem, environment and status checked on each;
 * - else by id (`iid` and `created_at` are the same order): the environment's list of the status
 *   (GSI3), the environment's (GSI1), the project's of the status (GSI2), or the project's.
 */
export function deploymentList(projectId: number, filters: DeploymentFilters): ListSource<Deployment> | Deployment[] {
  if (filters.environment === null) return [];
  const environmentId = filters.environment?.id;
  const kept = (deployment: Deployment) =>
    (environmentId === undefined || deployment.environmentId === environmentId) &&
    (!filters.status || deployment.status === filters.status) &&
    (filters.updatedAfter === undefined && filters.updatedBefore === undefined ? true : within(deployment.updatedAt, filters.updatedAfter, filters.updatedBefore)) &&
    (filters.orderBy !== 'finished_at' || within(deployment.finishedAt, filters.finishedAfter, filters.finishedBefore));
  const select = (item: Item) => {
    const deployment = deploymentFromItem(item);
    return kept(deployment) ? deployment : undefined;
  };
  const ascending = filters.sort === 'asc';
  // An ISO time's upper bound sorts after every `<time>#<id>` of that time or earlier: `<` the bound's own key.
  const range = (from?: string, below?: string) => ({ ...(from ? { from } : {}), ...(below ? { below } : {}) });
  if (filters.updatedAfter !== undefined || filters.updatedBefore !== undefined || filters.orderBy === 'updated_at') {
    return { collection: ciCollections.deploymentsByUpdate(projectId, range(filters.updatedAfter, filters.updatedBefore)), ascending, select };
  }
  if (filters.orderBy === 'ref') {
    // The ref entries in order, their deployments loaded a chunk at a time (one BatchGetItem each) and checked.
    const entries = collectionStream({ collection: ciCollections.deploymentsByRef(projectId), ascending, select: (item) => item });
    const load = async (items: Item[]) => (await deploymentsOfRefEntries(projectId, items)).map((deployment) => (deployment && kept(deployment) ? deployment : undefined));
    return mappedStream(entries, load, { countWithin: countOnePageMore });
  }
  if (filters.orderBy === 'finished_at') return { collection: ciCollections.deploymentsByFinish(projectId, range(filters.finishedAfter, filters.finishedBefore)), ascending, select };
  const collection =
    environmentId !== undefined && filters.status
      ? ciCollections.environmentDeploymentsByStatus(environmentId, filters.status)
      : environmentId !== undefined
        ? ciCollections.environmentDeployments(environmentId)
        : filters.status
          ? ciCollections.deploymentsByStatus(projectId, filters.status)
          : ciCollections.deployments(projectId);
  return { collection, ascending, select };
}

/**
 * What a page of deployments is presented with: their environments, users and jobs (point reads
 * of one turn, sent as BatchGetItems), then the jobs' pipelines and runners.
 */
export async function deploymentContext(subject: ProjectSubject, deployments: readonly Deployment[], known: Environment[] = []): Promise<DeploymentContext> {
  const environments = new Map(known.map((environment) => [environment.id, environment]));
  const environmentIds = [...new Set(deployments.map((deployment) => deployment.environmentId))].filter((id) => !environments.has(id));
  const [loadedEnvironments, users, jobs] = await Promise.all([
    Promise.all(environmentIds.map((id) => getEnvironment(subject.project.id, id))),
    usersById(deployments.map((deployment) => deployment.userId)),
    Promise.all(deployments.map((deployment) => (deployment.jobId === null || deployment.pipelineId === null ? undefined : readJob({ id: deployment.jobId, pipelineId: deployment.pipelineId })))),
  ]);
  for (const environment of loadedEnvironments) if (environment) environments.set(environment.id, environment);
  const foundJobs = jobs.filter((job): job is Job => job !== undefined);
  return {
    environments,
    users,
    jobs: new Map(foundJobs.map((job) => [job.id, job])),
    // A deployment's user is its job's: the users read for the deployments are not read again.
    jobContext: await jobContext(subject, foundJobs, [], users),
  };
}
