/**
 * Environments and deployments (GitLab's `Environment`, `Deployment`): one item per environment in
 * its project's environments partition (`CI_ENVIRONMENTS#<projectId>`), beside the claim of its
 * name (names are unique in a project: the claim is how a name finds its environment, and what a
 * concurrent creation of the same name collides on); one item per deployment in its project's
 * deployments partition (`CI_DEPLOYMENTS#<projectId>`). Both are written whole, conditioned on the
 * version read, so their index entries (state, status, last update) follow every change, and the
 * lists a client reads right after see it (`journalWrite`).
 */
import { byKey, deleteMany, getMany, putMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { putAtVersion, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { CI_SEQUENCES, ciCollections, ciIndexKeys, ciKeys } from './keys';
import { dueItems } from './due';

export const ENVIRONMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
export type EnvironmentTier = (typeof ENVIRONMENT_TIERS)[number];
export const ENVIRONMENT_STATES = ['available', 'stopping', 'stopped'] as const;
export type EnvironmentState = (typeof ENVIRONMENT_STATES)[number];

export interface Environment {
  id: number;
  projectId: number;
  name: string;
  slug: string;
  externalUrl: string | null;
  description: string | null;
  tier: EnvironmentTier;
  state: EnvironmentState;
  /** GitLab's `auto_stop_setting`: `always` or `with_action`. */
  autoStopSetting: string;
  autoStopAt: string | null;
  /** When a stopped review app is deleted (GitLab's `auto_delete_at`, set by `DELETE …/environments/review_apps`). */
  autoDeleteAt: string | null;
  /** The newest successful deployment (GitLab's `last_deployment`), null before one. */
  lastDeploymentId: number | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export interface Deployment {
  id: number;
  /** Its number in the project. */
  iid: number;
  projectId: number;
  environmentId: number;
  ref: string;
  tag: boolean;
  sha: string;
  status: DeploymentStatus;
  userId: number | null;
  /** The job that deploys (GitLab's `deployable`), null for a deployment made through the API. */
  jobId: number | null;
  pipelineId: number | null;
  /** The job's `environment:on_stop`: the manual job of its pipeline that stops the environment. */
  onStop: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  version: number;
}

export const environmentFromItem = (item: Item): Environment => {
  const fields = entityFields(item) as Environment;
  return { ...fields, autoDeleteAt: fields.autoDeleteAt ?? null };
};

/** How long an environment may stay `stopping` before the scheduler looks at it (GitLab's `Environment::LONG_STOP`). */
export const LONG_STOP_MS = 7 * 86_400_000;

/**
 * When the scheduler next acts on an environment: an available one stops at `autoStopAt`, a
 * stopped one is deleted at `autoDeleteAt`, one stopping for a week may be recovered.
 */
const dueAt = (environment: Environment): string | null => {
  if (environment.state === 'stopping') return new Date(Date.parse(environment.updatedAt) + LONG_STOP_MS).toISOString();
  return environment.state === 'available' ? environment.autoStopAt : environment.autoDeleteAt;
};
export const deploymentFromItem = (item: Item): Deployment => entityFields(item) as Deployment;

const environmentToItem = (environment: Environment): Item => ({
  ...ciKeys.environment(environment.projectId, environment.id),
  ...ciIndexKeys.environmentByState(environment.projectId, environment.state, environment.id),
  ...ciIndexKeys.environmentByName(environment.projectId, environment.name, environment.id),
  ...(dueAt(environment) ? ciIndexKeys.environmentDue(environment.id, dueAt(environment)!) : {}),
  type: 'Environment',
  ...environment,
});

const deploymentToItem = (deployment: Deployment): Item => ({
  ...ciKeys.deployment(deployment.projectId, deployment.id),
  ...ciIndexKeys.deployment(deployment),
  type: 'Deployment',
  ...deployment,
});

export const newEnvironmentId = () => nextId(CI_SEQUENCES.environments);
export const newDeploymentIds = (count: number) => nextIds(CI_SEQUENCES.deployments, count);
export const newDeploymentIids = (projectId: number, count: number) => nextIds(CI_SEQUENCES.deploymentIids(projectId), count);

/** Why an environment was not added: its project is gone, or its name is taken. */
export type EnvironmentInsertFailure = 'project_gone' | 'name_taken';

/** Adds an environment and the claim of its name, while the project is live, in one transaction. */
export function insertEnvironment(environment: Environment): Promise<EnvironmentInsertFailure | undefined> {
  return transactOr(
    {
      project: projectIsLive(environment.projectId),
      name: {
        Put: {
          TableName: tableName(),
          Item: { ...ciKeys.environmentName(environment.projectId, environment.name), type: 'EnvironmentName', environmentId: environment.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      environment: { Put: { TableName: tableName(), Item: environmentToItem(environment), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [
      ['project', 'project_gone'],
      ['name', 'name_taken'],
    ],
  );
}

/** An environment of the project (read consistently). */
export function getEnvironment(projectId: number, environmentId: number): Promise<Environment | undefined> {
  return getEntity(ciKeys.environment(projectId, environmentId), environmentFromItem);
}

/** The environment of that name in the project: its name's claim, then the environment (two GetItems). */
export async function environmentByName(projectId: number, name: string): Promise<Environment | undefined> {
  const claim = await getItem(ciKeys.environmentName(projectId, name));
  return claim ? getEnvironment(projectId, Number(claim.environmentId)) : undefined;
}

/** Writes an environment's new state if its version is still the one read; false when another writer was first. */
export function saveEnvironment(previous: Environment, next: Environment): Promise<boolean> {
  return putAtVersion(environmentToItem({ ...next, version: previous.version + 1 }), environmentToItem(previous));
}

/** An environment due to be stopped or deleted, as its index entry (eventually consistent) shows it. */
export interface DueEnvironment {
  environment: Pick<Environment, 'projectId' | 'id'>;
  entry: string;
}

/** Up to `limit` environments of a shard due at `now` or earlier (to stop, or to delete), earliest first (GSI3). */
export async function dueEnvironments(shard: number, now: string, limit: number): Promise<DueEnvironment[]> {
  return (await dueItems(ciCollections.dueEnvironments(shard, now), limit)).map(({ item, entry }) => ({ environment: { projectId: Number(item.projectId), id: Number(item.id) }, entry }));
}

/** A project's environments in one state, oldest first (GSI1; each checked again on its item). */
export async function* environmentsInState(projectId: number, state: EnvironmentState): AsyncGenerator<Environment> {
  for await (const item of queryCollection(ciCollections.environmentsByState(projectId, state), { ascending: true })) {
    const environment = environmentFromItem(item);
    if (environment.state === state) yield environment;
  }
}

/** An environment's newest deployment (GSI1, one Query of one item). */
export async function newestDeployment(environmentId: number): Promise<Deployment | undefined> {
  for await (const item of queryCollection(ciCollections.environmentDeployments(environmentId), { ascending: false, pageSize: 1 })) return deploymentFromItem(item);
  return undefined;
}

/**
 * Up to `limit` of an environment's deployments in one status older than `deploymentId`, oldest
 * first (GSI3, by id; each checked again on its item).
 */
export async function olderDeploymentsInStatus(environmentId: number, status: DeploymentStatus, deploymentId: number, limit: number): Promise<Deployment[]> {
  const found: Deployment[] = [];
  for await (const item of queryCollection(ciCollections.environmentDeploymentsByStatus(environmentId, status), { ascending: true, pageSize: limit })) {
    const deployment = deploymentFromItem(item);
    if (deployment.id >= deploymentId || found.length >= limit) break;
    if (deployment.status === status) found.push(deployment);
  }
  return found;
}

/** The newest successful deployment of an environment older than `deploymentId` (GSI3, descending, from just below it). */
export async function previousSuccessfulDeployment(environmentId: number, deploymentId: number): Promise<Deployment | undefined> {
  for await (const item of queryCollection(ciCollections.environmentDeploymentsByStatus(environmentId, 'success'), { ascending: false, pageSize: 10 })) {
    const deployment = deploymentFromItem(item);
    if (deployment.id < deploymentId && deployment.status === 'success') return deployment;
  }
  return undefined;
}

/** Why an environment was not deleted: it is not stopped (any more), or it is gone. */
export type EnvironmentDeleteFailure = 'not_stopped' | 'gone';

/** Deletes a stopped environment and the claim of its name together. */
export function deleteEnvironmentItems(environment: Environment): Promise<EnvironmentDeleteFailure | undefined> {
  return transactOr(
    {
      environment: {
        Delete: {
          TableName: tableName(),
          Key: ciKeys.environment(environment.projectId, environment.id),
          ConditionExpression: '#state = :stopped',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':stopped': 'stopped' },
        },
      },
      name: { Delete: { TableName: tableName(), Key: ciKeys.environmentName(environment.projectId, environment.name) } },
    },
    [['environment', 'not_stopped']],
  );
}

/** A deployment's entry in its project's list by ref: written with it, deleted with it. */
const refEntryOf = (deployment: Pick<Deployment, 'projectId' | 'ref' | 'id'>): Item => ({
  ...ciKeys.deploymentRef(deployment.projectId, deployment.ref, deployment.id),
  type: 'DeploymentRef',
  deploymentId: deployment.id,
});

/** Adds deployments (new ones: created with their jobs, or through the API), each with its ref entry. */
export async function insertDeployments(deployments: readonly Deployment[]): Promise<void> {
  if (deployments.length > 0) await putMany(deployments.flatMap((deployment) => [deploymentToItem(deployment), refEntryOf(deployment)]), { journal: true });
}

/** The deployments of a page of ref entries (one BatchGetItem), in that order; undefined for one gone meanwhile. */
export async function deploymentsOfRefEntries(projectId: number, entries: readonly Item[]): Promise<Array<Deployment | undefined>> {
  const found = byKey(await getMany(entries.map((entry) => ciKeys.deployment(projectId, Number(entry.deploymentId)))));
  return entries.map((entry) => {
    const item = found(ciKeys.deployment(projectId, Number(entry.deploymentId)));
    return item && deploymentFromItem(item);
  });
}

/** A deployment of the project (read consistently). */
export function getDeployment(projectId: number, deploymentId: number): Promise<Deployment | undefined> {
  return getEntity(ciKeys.deployment(projectId, deploymentId), deploymentFromItem);
}

/** Writes a deployment's new state if its version is still the one read; false when another writer was first. */
export function saveDeployment(previous: Deployment, next: Deployment): Promise<boolean> {
  return putAtVersion(deploymentToItem({ ...next, version: previous.version + 1 }), deploymentToItem(previous));
}

/** Deletes a deployment if it is still the version read (not running meanwhile); false otherwise. */
export async function deleteDeploymentItem(deployment: Deployment): Promise<boolean> {
  const deleted = await transactOr(
    {
      deployment: {
        Delete: {
          TableName: tableName(),
          Key: ciKeys.deployment(deployment.projectId, deployment.id),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': deployment.version },
        },
      },
      ref: { Delete: { TableName: tableName(), Key: ciKeys.deploymentRef(deployment.projectId, deployment.ref, deployment.id) } },
    },
    [['deployment', 'changed' as const]],
  );
  return deleted === undefined;
}

/** Deletes an environment's deployments (the environment is deleted: GitLab's `use_fast_destroy :all_deployments`). */
export async function deleteEnvironmentDeployments(environment: Pick<Environment, 'projectId' | 'id'>): Promise<void> {
  const deployments = (await queryAll(ciCollections.environmentDeployments(environment.id))).map(deploymentFromItem);
  await deleteMany(deployments.flatMap((deployment) => [ciKeys.deployment(environment.projectId, deployment.id), ciKeys.deploymentRef(environment.projectId, deployment.ref, deployment.id)]));
}

/** Deletes a project's environments, their names and its deployments (the project is being deleted). */
export async function deleteProjectEnvironments(projectId: number): Promise<void> {
  const [environments, deployments] = await Promise.all([queryAll(ciCollections.environmentsPartition(projectId)), queryAll(ciCollections.deploymentsPartition(projectId))]);
  await deleteMany([...environments, ...deployments].map((item) => ({ PK: String(item.PK), SK: String(item.SK) })));
}
