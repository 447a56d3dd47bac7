/**
 * Runners (project runners registered with a project's runners token, which the projects feature
 * finds). A runner's item is keyed by the SHA-256 digest of its token,
 * which every runner call presents: authenticating a runner is one GetItem.
 *
 * A runner also has an id partition (`CI_RUNNER_ID#<id>`): its pointer (id → token digest, in the
 * list of every runner), one item per project it is enabled in (in that project's runner list)
 * and one per job it took. The projects are also listed on the runner item (`projectIds`, owner
 * first), so a job request reads them with the runner; both change in one transaction.
 *
 * Its managers (GitLab's runner managers: each machine running it, by the `system_id` it sends)
 * are a map on the runner item, so a poll knows its manager from the item it reads anyway; one is
 * written when a `system_id` is first seen, and with the runner's contact after that.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { byKey, deleteMany, getMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getItem, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { CI_SEQUENCES, ciCollections, ciIndexKeys, ciKeys } from './keys';
import { jobFromItem, queuedJobs, type Job } from './pipelines';

/** GitLab's `Ci::Runner.runner_types`. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];

export interface Runner {
  id: number;
  tokenDigest: string;
  /** A project runner's owner project; null for an instance or a group runner. */
  projectId: number | null;
  /** Absent on project runners (every runner written before the other types existed). */
  runnerType?: RunnerType;
  /** A group runner's group. */
  groupId?: number;
  description: string;
  active: boolean;
  locked: boolean;
  runUntagged: boolean;
  tags: string[];
  maximumTimeout: number | null;
  accessLevel: string;
  /** What the runner last said about itself (`info`: name, version, platform, architecture, executor). */
  info: Record<string, string>;
  ipAddress: string | null;
  contactedAt: string | null;
  createdAt: string;
  /** The projects it is enabled in, its owner project (`projectId`) first; written by {@link insertRunner}. */
  projectIds?: number[];
  /** Free-form notes of its maintainers (`maintenance_note`). */
  maintenanceNote?: string | null;
  /** Its managers, by `system_id` (absent on runners no manager has called yet). */
  managers?: Record<string, RunnerManager>;
}

/** A machine running a runner (GitLab's `Ci::RunnerManager`), known by the `system_id` it sends. */
export interface RunnerManager {
  id: number;
  createdAt: string;
  contactedAt: string | null;
  /** What it last said about itself (`info`: version, revision, platform, architecture). */
  info: Record<string, string>;
  ipAddress: string | null;
}

/** The most managers one runner keeps (the runner item stays far under DynamoDB's 400 KB). */
export const RUNNER_MANAGER_LIMIT = 100;

function runnerFromItem(item: Item): Runner {
  const fields = entityFields(item) as Runner;
  return { ...fields, projectId: fields.projectId ?? null, projectIds: runnerProjectIds(fields).map(Number) };
}

/** A runner's type (a runner without one is a project runner). */
export const runnerTypeOf = (runner: Pick<Runner, 'runnerType'>): RunnerType => runner.runnerType ?? 'project_type';

/** The projects a project runner is enabled in, its owner project first; none for an instance or a group runner. */
export const runnerProjectIds = (runner: Pick<Runner, 'projectIds' | 'projectId'>): number[] => runner.projectIds ?? (runner.projectId ? [runner.projectId] : []);

const pointerItem = (runner: Pick<Runner, 'id' | 'tokenDigest'>): Item => ({
  ...ciKeys.runnerPointer(runner.id),
  ...ciIndexKeys.anyRunner(runner.id),
  type: 'RunnerPointer',
  runnerId: runner.id,
  tokenDigest: runner.tokenDigest,
});

const runnerProjectItem = (runner: Pick<Runner, 'id' | 'tokenDigest'>, projectId: number): Item => ({
  ...ciKeys.runnerProject(runner.id, projectId),
  ...ciIndexKeys.projectRunner(projectId, runner.id),
  type: 'RunnerProject',
  runnerId: runner.id,
  projectId,
  tokenDigest: runner.tokenDigest,
});

/** The entry that puts a runner in its list: its owner project's, the instance runners' or its group's (GSI1). */
function ownerEntry(runner: Pick<Runner, 'id' | 'tokenDigest' | 'runnerType' | 'groupId' | 'projectId'>): Item {
  switch (runnerTypeOf(runner)) {
    case 'instance_type':
      return { ...ciKeys.runnerInstance(runner.id), ...ciIndexKeys.instanceRunner(runner.id), type: 'RunnerInstance', runnerId: runner.id, tokenDigest: runner.tokenDigest };
    case 'group_type':
      return { ...ciKeys.runnerGroup(runner.id, runner.groupId!), ...ciIndexKeys.groupRunner(runner.groupId!, runner.id), type: 'RunnerGroup', runnerId: runner.id, groupId: runner.groupId, tokenDigest: runner.tokenDigest };
    default:
      return runnerProjectItem(runner, runner.projectId!);
  }
}

export const newRunnerId = () => nextId(CI_SEQUENCES.runners);
export const newRunnerManagerId = () => nextId(CI_SEQUENCES.runnerManagers);

/**
 * Stores a new runner with its pointer and its list entry (its owner project's, the instance
 * runners' or its group's), in one transaction.
 */
export async function insertRunner(runner: Runner): Promise<void> {
  const fresh = { ConditionExpression: 'attribute_not_exists(PK)' };
  await transact({
    runner: { Put: { TableName: tableName(), Item: { ...ciKeys.runner(runner.tokenDigest), type: 'Runner', ...runner, projectIds: runnerProjectIds(runner) }, ...fresh } },
    pointer: { Put: { TableName: tableName(), Item: pointerItem(runner), ...fresh } },
    project: { Put: { TableName: tableName(), Item: ownerEntry(runner), ...fresh } },
  });
}

export async function runnerByDigest(digest: string): Promise<Runner | undefined> {
  const item = await getItem(ciKeys.runner(digest));
  return item ? runnerFromItem(item) : undefined;
}

/** The runners enabled in a project (GSI1 entries, then one batch read), by id. */
export async function projectRunners(projectId: number): Promise<Runner[]> {
  const entries = await queryAll(ciCollections.projectRunners(projectId));
  return runnersByDigests(entries.map((entry) => String(entry.tokenDigest)));
}

/** The instance runners (GSI1 entries, then one batch read), by id. */
export async function instanceRunners(): Promise<Runner[]> {
  const entries = await queryAll(ciCollections.instanceRunners());
  return runnersByDigests(entries.map((entry) => String(entry.tokenDigest)));
}

/** A group's own runners (GSI1 entries, then one batch read), by id. */
export async function groupRunners(groupId: number): Promise<Runner[]> {
  const entries = await queryAll(ciCollections.groupRunners(groupId));
  return runnersByDigests(entries.map((entry) => String(entry.tokenDigest)));
}

/** Runners by token digest, in the order given (missing ones left out): one batch read. */
export async function runnersByDigests(digests: string[]): Promise<Runner[]> {
  const found = byKey(await getMany(digests.map((digest) => ciKeys.runner(digest))));
  return digests.flatMap((digest) => {
    const item = found(ciKeys.runner(digest));
    return item ? [runnerFromItem(item)] : [];
  });
}

/** A runner by id (its pointer, then its item). */
export async function runnerById(runnerId: number): Promise<Runner | undefined> {
  if (!isId(runnerId)) return undefined;
  const pointer = await getItem(ciKeys.runnerPointer(runnerId));
  return pointer ? runnerByDigest(String(pointer.tokenDigest)) : undefined;
}

/** Runners by id (two batch reads: pointers, then runners). */
export async function runnersByIds(runnerIds: number[]): Promise<Map<number, Runner>> {
  const ids = [...new Set(runnerIds)].filter(isId);
  if (ids.length === 0) return new Map();
  const pointers = await getMany(ids.map((id) => ciKeys.runnerPointer(id)), { consistent: false });
  const runners = await runnersByDigests(pointers.map((pointer) => String(pointer.tokenDigest)));
  return new Map(runners.map((runner) => [runner.id, runner]));
}

/**
 * Deletes a runner: its item (which ends its token), then its id partition (pointer, projects,
 * jobs). False when it was already gone. A project enabled meanwhile fails on the runner's
 * absence, so nothing is left behind.
 */
export async function deleteRunner(digest: string): Promise<boolean> {
  const result = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: ciKeys.runner(digest), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_OLD' })),
  );
  const runnerId = Number(result?.Attributes?.id);
  if (isId(runnerId)) {
    const items = await queryAll(ciCollections.runnerPartition(runnerId));
    await deleteMany(items.map((item) => ({ PK: String(item.PK), SK: String(item.SK) })));
  }
  return result !== undefined;
}

/** What `PUT /runners/:id` may change. */
export type RunnerChanges = Partial<Pick<Runner, 'description' | 'active' | 'tags' | 'runUntagged' | 'locked' | 'accessLevel' | 'maximumTimeout' | 'maintenanceNote'>>;

/** Changes a runner's settings; answers the runner as written, or undefined when it is gone. */
export async function updateRunner(runner: Pick<Runner, 'tokenDigest'>, changes: RunnerChanges): Promise<Runner | undefined> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(`#${name} = :${name}`);
  }
  if (sets.length === 0) return runnerByDigest(runner.tokenDigest);
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.runner(runner.tokenDigest),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return result?.Attributes ? runnerFromItem(result.Attributes) : undefined;
}

export type EnableResult = 'enabled' | 'already_enabled' | 'runner_gone' | 'locked' | 'project_gone';

/**
 * Enables a runner in one more project: the project joins the runner's `projectIds` and gets its
 * entry, in one transaction conditioned on the runner still existing without that project (and,
 * with `unlockedOnly`, still unlocked) and on the project being live.
 */
export async function enableRunnerInProject(runner: Runner, projectId: number, options: { unlockedOnly: boolean }): Promise<EnableResult> {
  try {
    await transact({
      runner: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.runner(runner.tokenDigest),
          UpdateExpression: 'SET projectIds = list_append(if_not_exists(projectIds, :owner), :added)',
          ConditionExpression: `attribute_exists(PK) AND NOT contains(projectIds, :projectId)${options.unlockedOnly ? ' AND locked = :false' : ''}`,
          ExpressionAttributeValues: { ':owner': runnerProjectIds(runner), ':added': [projectId], ':projectId': projectId, ...(options.unlockedOnly ? { ':false': false } : {}) },
        },
      },
      entry: { Put: { TableName: tableName(), Item: runnerProjectItem(runner, projectId), ConditionExpression: 'attribute_not_exists(PK)' } },
      project: projectIsLive(projectId),
    });
    return 'enabled';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('project')) return 'project_gone';
    if (error.failedOn('entry')) return 'already_enabled';
    const current = await runnerByDigest(runner.tokenDigest);
    if (!current) return 'runner_gone';
    if (runnerProjectIds(current).includes(projectId)) return 'already_enabled';
    return 'locked';
  }
}

export type DisableResult = 'disabled' | 'not_enabled' | 'owner_project' | 'changed';

/**
 * Disables a runner in a project other than its owner project: the project leaves `projectIds`
 * (at the position read, conditioned on it still being there) and its entry goes, in one
 * transaction. `changed`: the runner changed meanwhile (read it again).
 */
export async function disableRunnerInProject(runner: Runner, projectId: number): Promise<DisableResult> {
  const ids = runnerProjectIds(runner);
  const index = ids.indexOf(projectId);
  if (index < 0) return 'not_enabled';
  if (projectId === runner.projectId) return 'owner_project';
  try {
    await transact({
      runner: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.runner(runner.tokenDigest),
          UpdateExpression: `REMOVE projectIds[${index}]`,
          ConditionExpression: `attribute_exists(PK) AND projectIds[${index}] = :projectId`,
          ExpressionAttributeValues: { ':projectId': projectId },
        },
      },
      entry: { Delete: { TableName: tableName(), Key: ciKeys.runnerProject(runner.id, projectId), ConditionExpression: 'attribute_exists(PK)' } },
    });
    return 'disabled';
  } catch (error) {
    if (error instanceof ConditionFailed) return 'changed';
    throw error;
  }
}

/** The jobs runner-job entries point to, in one batch read (entries of deleted pipelines left out). */
export async function jobsOfRunnerEntries(entries: Item[]): Promise<Map<number, Job>> {
  const items = await getMany(entries.map((entry) => ciKeys.job(Number(entry.pipelineId), Number(entry.jobId))), { consistent: false });
  return new Map(items.map((item) => [Number(item.id), jobFromItem(item)]));
}

/**
 * What a runner's job requests read (C5, C18): the queues of the projects it is enabled in, the
 * instance runners' queue, or its group's (its group and descendants).
 */
export type QueueScope = { kind: 'projects'; projectIds: number[] } | { kind: 'instance' } | { kind: 'group'; groupId: number };

export function queueScopeOf(runner: Runner): QueueScope {
  switch (runnerTypeOf(runner)) {
    case 'instance_type':
      return { kind: 'instance' };
    case 'group_type':
      return { kind: 'group', groupId: runner.groupId! };
    default:
      return { kind: 'projects', projectIds: runnerProjectIds(runner) };
  }
}

/** The queue version items of a scope (at most 99 projects: one batch with the runner). */
function scopeVersionKeys(scope: QueueScope) {
  if (scope.kind === 'instance') return [ciKeys.instanceQueueVersion()];
  if (scope.kind === 'group') return [ciKeys.groupQueueVersion(scope.groupId)];
  return scope.projectIds.slice(0, 99).map((id) => ciKeys.queueVersion(id));
}

/**
 * The queue version a job request compares with `last_update`, from the scope's version items:
 * the one item's value (a runner of one project, an instance or a group runner), a digest of every
 * project's version for a runner enabled in several (in the runner's order, owner first).
 */
function scopeVersion(scope: QueueScope, valueOf: (key: { PK: string; SK: string }) => string | undefined): string {
  if (scope.kind !== 'projects' || scope.projectIds.length === 1) return valueOf(scopeVersionKeys(scope)[0]) ?? 'none';
  const parts = scope.projectIds.map((id) => `${id}:${valueOf(ciKeys.queueVersion(id)) ?? 'none'}`);
  return createHash('sha256').update(parts.join(',')).digest('hex').slice(0, 32);
}

/** The queue version of the runner's scope (see {@link scopeVersion}). */
export async function runnerQueueVersion(runner: Runner): Promise<string> {
  const scope = queueScopeOf(runner);
  const keys = scopeVersionKeys(scope);
  if (keys.length === 1) return ((await getItem(keys[0]))?.value as string | undefined) ?? 'none';
  const found = byKey(await getMany(keys, { consistent: false }));
  return scopeVersion(scope, (key) => found(key)?.value as string | undefined);
}

/**
 * An idle poll's one round trip: the runner of a token digest and the queue version of the scope
 * the runner's `last_update` named, in one BatchGetItem (consistent: the runner item
 * authenticates). The caller checks that the scope is still the runner's.
 */
export async function runnerWithQueueVersion(digest: string, scope: QueueScope): Promise<{ runner: Runner | undefined; version: string }> {
  const found = byKey(await getMany([ciKeys.runner(digest), ...scopeVersionKeys(scope)]));
  const item = found(ciKeys.runner(digest));
  return { runner: item ? runnerFromItem(item) : undefined, version: scopeVersion(scope, (key) => found(key)?.value as string | undefined) };
}

/** Up to `limit` pending jobs across the project runner's projects, oldest first. */
export async function runnerQueuedJobs(runner: Runner, limit: number): Promise<Array<{ pipelineId: number; id: number }>> {
  const ids = runnerProjectIds(runner);
  if (ids.length === 1) return queuedJobs(ids[0], limit);
  const lists = await Promise.all(ids.map((id) => queuedJobs(id, limit)));
  return lists.flat().sort((a, b) => a.id - b.id).slice(0, limit);
}

/** How old a stored `contacted_at` may grow before a poll writes it again (GitLab's `UPDATE_CONTACT_COLUMN_EVERY`). */
export const CONTACT_EVERY_MINUTES = { min: 40, max: 55 } as const;

/**
 * Records that the runner called, as GitLab's `Ci::Runner#heartbeat` persists `contacted_at`: only
 * when the stored value is older than a random 40 to 55 minutes (`UPDATE_CONTACT_COLUMN_EVERY`),
 * so idle polling writes about once in 45 minutes per runner, and the runners of a fleet do not
 * write in step. Conditioned on the value read: of two concurrent polls one writes. A value at
 * most 55 minutes old keeps "contacted within 2 hours" (online; a runner that could take a
 * pending job) true while the runner polls. The calling manager (`systemId`, one the runner has)
 * is contacted by the same rule, in the same write. Answers whether it wrote.
 */
export async function recordRunnerContact(runner: Runner, now: Date, random: () => number = Math.random, systemId?: string): Promise<boolean> {
  const maxAgeMs = (CONTACT_EVERY_MINUTES.min + random() * (CONTACT_EVERY_MINUTES.max - CONTACT_EVERY_MINUTES.min)) * 60_000;
  const due = (contactedAt: string | null | undefined) => !contactedAt || now.getTime() - Date.parse(contactedAt) >= maxAgeMs;
  const manager = systemId === undefined ? undefined : runner.managers?.[systemId];
  const runnerDue = due(runner.contactedAt);
  if (!runnerDue && !(manager && due(manager.contactedAt))) return false;
  // The condition is on the value that made the write due: of two concurrent polls one writes.
  const [path, seenValue] = runnerDue ? ['contactedAt', runner.contactedAt] : ['managers.#system.contactedAt', manager!.contactedAt];
  const seen = seenValue
    ? { condition: `${path} = :seen`, values: { ':seen': seenValue } }
    : { condition: `(attribute_not_exists(${path}) OR attribute_type(${path}, :null))`, values: { ':null': 'NULL' } };
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.runner(runner.tokenDigest),
        UpdateExpression: manager ? 'SET contactedAt = :now, managers.#system.contactedAt = :now' : 'SET contactedAt = :now',
        ConditionExpression: `attribute_exists(PK) AND ${seen.condition}${manager ? ' AND attribute_exists(managers.#system)' : ''}`,
        ...(manager ? { ExpressionAttributeNames: { '#system': systemId! } } : {}),
        ExpressionAttributeValues: { ':now': now.toISOString(), ...seen.values },
      }),
    ),
  );
  return result !== undefined;
}

export type AddManagerResult = 'added' | 'known' | 'runner_gone' | 'full';

/**
 * Adds the manager `systemId` to the runner (GitLab's `ensure_manager`), unless it has it already
 * (two first calls of one machine at once: one adds it) or has {@link RUNNER_MANAGER_LIMIT}.
 */
export async function addRunnerManager(runner: Runner, systemId: string, manager: RunnerManager): Promise<AddManagerResult> {
  if (runner.managers?.[systemId]) return 'known';
  if (Object.keys(runner.managers ?? {}).length >= RUNNER_MANAGER_LIMIT) return 'full';
  const key = ciKeys.runner(runner.tokenDigest);
  // A runner item written before managers existed has no map yet: the first manager writes it whole.
  const update = runner.managers
    ? { UpdateExpression: 'SET managers.#system = :manager', ConditionExpression: 'attribute_exists(PK) AND attribute_exists(managers) AND attribute_not_exists(managers.#system)', ExpressionAttributeNames: { '#system': systemId }, ExpressionAttributeValues: { ':manager': manager } }
    : { UpdateExpression: 'SET managers = :managers', ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(managers)', ExpressionAttributeValues: { ':managers': { [systemId]: manager } } };
  const result = await ifConditionHolds(db().send(new UpdateCommand({ TableName: tableName(), Key: key, ...update })));
  if (result !== undefined) return 'added';
  // Another call changed the map first: read it again.
  const current = await runnerByDigest(runner.tokenDigest);
  if (!current) return 'runner_gone';
  if (current.managers?.[systemId]) return 'known';
  return addRunnerManager(current, systemId, manager);
}

/**
 * Removes the manager `systemId`; the runner's own contact is cleared with its last manager
 * (GitLab's `clear_heartbeat`). False when it had no such manager.
 */
export async function removeRunnerManager(runner: Runner, systemId: string): Promise<boolean> {
  const last = Object.keys(runner.managers ?? {}).length === 1;
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.runner(runner.tokenDigest),
        UpdateExpression: last ? 'REMOVE managers.#system SET contactedAt = :null' : 'REMOVE managers.#system',
        ConditionExpression: 'attribute_exists(PK) AND attribute_exists(managers.#system)',
        ExpressionAttributeNames: { '#system': systemId },
        ...(last ? { ExpressionAttributeValues: { ':null': null } } : {}),
      }),
    ),
  );
  return result !== undefined;
}

/** A runner's project entries beyond which its token cannot be moved in one transaction (100 items). */
export const TOKEN_MOVE_PROJECT_LIMIT = 97;

export type MoveTokenResult = 'moved' | 'changed' | 'too_many_projects';

/**
 * Moves a runner to a new token digest (its token reset): the runner item under the new digest,
 * the old one deleted (which ends the old token), its pointer and project entries repointed, in
 * one transaction conditioned on the runner's projects being those read (an enable or disable
 * meanwhile: `changed`, read it again).
 */
export async function moveRunnerToken(runner: Runner, newDigest: string): Promise<MoveTokenResult> {
  const projectIds = runnerProjectIds(runner);
  if (projectIds.length > TOKEN_MOVE_PROJECT_LIMIT) return 'too_many_projects';
  const moved: Runner = { ...runner, tokenDigest: newDigest, projectIds };
  try {
    await transact({
      old: {
        Delete: {
          TableName: tableName(),
          Key: ciKeys.runner(runner.tokenDigest),
          ConditionExpression: 'attribute_exists(PK) AND (projectIds = :ids OR (attribute_not_exists(projectIds) AND :single = :true))',
          ExpressionAttributeValues: { ':ids': projectIds, ':single': projectIds.length === 1, ':true': true },
        },
      },
      runner: { Put: { TableName: tableName(), Item: { ...ciKeys.runner(newDigest), type: 'Runner', ...moved }, ConditionExpression: 'attribute_not_exists(PK)' } },
      pointer: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.runnerPointer(runner.id),
          UpdateExpression: 'SET tokenDigest = :new',
          ConditionExpression: 'tokenDigest = :old',
          ExpressionAttributeValues: { ':new': newDigest, ':old': runner.tokenDigest },
        },
      },
      // A project runner's projects; an instance or a group runner's list entry.
      projects: (runnerTypeOf(runner) === 'project_type' ? projectIds.map((projectId) => ciKeys.runnerProject(runner.id, projectId)) : [{ PK: String(ownerEntry(runner).PK), SK: String(ownerEntry(runner).SK) }]).map((Key) => ({
        Update: {
          TableName: tableName(),
          Key,
          UpdateExpression: 'SET tokenDigest = :new',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':new': newDigest },
        },
      })),
    });
    return 'moved';
  } catch (error) {
    if (error instanceof ConditionFailed) return 'changed';
    throw error;
  }
}
