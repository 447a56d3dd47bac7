/**
 * Terraform states (GitLab's `terraform_states` and `terraform_state_versions`): one item per state
 * in its project's partition (`PROJECT#<id>` / `TFSTATE#<name>`, swept with the partition when the
 * project is deleted) holding its lock, and one item per version (`TFVERSION#<uuid>#<serial>`)
 * naming the S3 object of its content (`terraformStateObjects`), sealed with the secret box.
 *
 * Every write is conditional, so concurrent clients never lose one another's work: a lock is taken
 * only where none is held (of two at once, one wins); a version is written only while the lock the
 * writer names is still the state's (or none is held, for a writer naming none), only for the state
 * it read (its `uuid`: not one deleted and created again meanwhile) and only for a serial not yet
 * stored; a state is deleted only while unlocked. Contents are written before the item that names
 * them, each to an object of its own, and deleted by their writer when that item is refused.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { deleteMany } from '../../platform/dynamo/batch';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { openSecret, sealSecret } from '../../platform/crypto/secret-box';
import { bucketName, deleteObjects, deleteObjectsUnder, isNoSuchKey, s3 } from '../../platform/s3/client';
import { projectIsLive } from '../../projects';
import { terraformStateCollections, terraformStateKeys, terraformStateObjects } from './keys';

export interface TerraformState {
  projectId: number;
  name: string;
  /** Drawn when the state is created; names its versions and their objects. */
  uuid: string;
  /** The lock's `ID` as Terraform chose it (GitLab's `lock_xid`); absent when unlocked. */
  lockId?: string;
  lockedByUserId?: number;
  lockedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface TerraformStateVersion {
  projectId: number;
  uuid: string;
  /** The state's `serial` (GitLab's `version`), unique within the state. */
  serial: number;
  /** The S3 object of its sealed content. */
  object: string;
  /** The content's size in bytes. */
  size: number;
  createdAt: string;
  /** Who holds the lock when it was written (GitLab's `created_by_user`: the lock's holder), else the writer. */
  createdByUserId: number | null;
  /** The CI job whose token wrote it (GitLab's `ci_build_id`). */
  jobId: number | null;
}

const stateFromItem = (item: Item): TerraformState => entityFields(item) as TerraformState;
const versionFromItem = (item: Item): TerraformStateVersion => entityFields(item) as TerraformStateVersion;

export const newStateUuid = (): string => randomBytes(16).toString('hex');

/** A state by name, read consistently; undefined when there is none. */
export const getState = (projectId: number, name: string): Promise<TerraformState | undefined> =>
  getEntity(terraformStateKeys.state(projectId, name), stateFromItem);

/**
 * Internal: the update that creates the state where it does not exist yet (GitLab's
 * `create_or_find_by`), with `set` (names → values) and `remove` on top.
 */
function upsertState(
  projectId: number,
  name: string,
  now: string,
  change: { set?: Record<string, unknown>; remove?: readonly string[]; condition?: string; values?: Record<string, unknown> },
) {
  const set: Record<string, unknown> = { updatedAt: now, ...change.set };
  const created: Record<string, unknown> = { type: 'TerraformState', projectId, name, uuid: newStateUuid(), createdAt: now };
  const names = [...Object.keys(set), ...Object.keys(created), ...(change.remove ?? [])];
  const expression = [
    `SET ${[...Object.keys(set).map((key) => `#${key} = :${key}`), ...Object.keys(created).map((key) => `#${key} = if_not_exists(#${key}, :${key})`)].join(', ')}`,
    change.remove?.length ? `REMOVE ${change.remove.map((key) => `#${key}`).join(', ')}` : '',
  ].join(' ');
  return {
    Update: {
      TableName: tableName(),
      Key: terraformStateKeys.state(projectId, name),
      UpdateExpression: expression.trim(),
      ConditionExpression: change.condition,
      ExpressionAttributeNames: Object.fromEntries(names.map((key) => [`#${key}`, key])),
      ExpressionAttributeValues: { ...Object.fromEntries([...Object.entries(set), ...Object.entries(created)].map(([key, value]) => [`:${key}`, value])), ...change.values },
    },
  };
}

/**
 * Takes the state's lock for `lock.id` (creating the state where there is none), only where no
 * lock is held: of two attempts at once exactly one wins. `locked` when one is held (whoever
 * holds it, the same ID included, as GitLab's), `project_gone` when the project is being deleted.
 */
export function lockState(projectId: number, name: string, lock: { id: string; userId: number; at: string }): Promise<'locked' | 'project_gone' | undefined> {
  return transactOr(
    {
      project: projectIsLive(projectId),
      state: upsertState(projectId, name, lock.at, { set: { lockId: lock.id, lockedByUserId: lock.userId, lockedAt: lock.at }, condition: 'attribute_not_exists(lockId)' }),
    },
    [
      ['project', 'project_gone'],
      ['state', 'locked'],
    ],
  );
}

/**
 * Releases the state's lock (creating the state where there is none, as GitLab's), only while the
 * lock held is `lockId`'s; without one (`terraform force-unlock`), whoever holds it. `conflict`
 * when another ID holds it or none is held, `project_gone` when the project is being deleted.
 */
export function unlockState(projectId: number, name: string, lockId: string | undefined, now: string): Promise<'conflict' | 'project_gone' | undefined> {
  return transactOr(
    {
      project: projectIsLive(projectId),
      state: upsertState(projectId, name, now, {
        remove: ['lockId', 'lockedByUserId', 'lockedAt'],
        ...(lockId === undefined ? {} : { condition: '#lockId = :lockId', values: { ':lockId': lockId } }),
      }),
    },
    [
      ['project', 'project_gone'],
      ['state', 'conflict'],
    ],
  );
}

/** Creates the state where there is none (a first `POST` of state without a lock); the state as stored, or `project_gone`. */
export async function ensureState(projectId: number, name: string, now: string): Promise<TerraformState | 'project_gone'> {
  const failure = await transactOr({ project: projectIsLive(projectId), state: upsertState(projectId, name, now, {}) }, [['project', 'project_gone'] as const]);
  if (failure) return failure;
  const state = await getState(projectId, name);
  return state ?? ensureState(projectId, name, now);
}

/**
 * Adds a version of the state read, conditioned on that state (its `uuid`) still being there with
 * the lock the writer names (`lockId`, or none held when undefined). `locked` when another lock is
 * held (or none, for a writer naming one), `state_gone` when the state went or was created again
 * meanwhile, `serial_taken` when the serial is stored already, `project_gone`.
 */
export function insertVersion(state: TerraformState, version: TerraformStateVersion, lockId: string | undefined): Promise<'locked' | 'state_gone' | 'serial_taken' | 'project_gone' | undefined> {
  const lockMatches = lockId === undefined ? 'attribute_not_exists(#lockId)' : '#lockId = :lockId';
  return transactOr(
    {
      project: projectIsLive(state.projectId),
      state: {
        ConditionCheck: {
          TableName: tableName(),
          Key: terraformStateKeys.state(state.projectId, state.name),
          ConditionExpression: `#uuid = :uuid AND ${lockMatches}`,
          ExpressionAttributeNames: { '#uuid': 'uuid', '#lockId': 'lockId' },
          ExpressionAttributeValues: { ':uuid': state.uuid, ...(lockId === undefined ? {} : { ':lockId': lockId }) },
        },
      },
      version: {
        Put: {
          TableName: tableName(),
          Item: { ...terraformStateKeys.version(state.projectId, state.uuid, version.serial), type: 'TerraformStateVersion', ...version },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    [
      ['project', 'project_gone'],
      ['state', 'locked'],
      ['version', 'serial_taken'],
    ],
  );
}

/** The state's latest version (the highest serial, GitLab's `latest_version`); undefined when it has none. */
export async function latestVersion(state: TerraformState): Promise<TerraformStateVersion | undefined> {
  for await (const item of queryCollection(terraformStateCollections.versions(state.projectId, state.uuid), { ascending: false, pageSize: 1 })) return versionFromItem(item);
  return undefined;
}

/** One version of the state by serial; undefined when there is none. */
export function getVersion(state: TerraformState, serial: number): Promise<TerraformStateVersion | undefined> {
  if (!Number.isSafeInteger(serial) || serial < 0) return Promise.resolve(undefined);
  return getEntity(terraformStateKeys.version(state.projectId, state.uuid, serial), versionFromItem);
}

/** Deletes a version's item, then its content; whether there was one. */
export async function deleteVersion(version: TerraformStateVersion): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: terraformStateKeys.version(version.projectId, version.uuid, version.serial), ConditionExpression: 'attribute_exists(PK)' })),
  );
  if (deleted === undefined) return false;
  await deleteObjects([version.object]);
  return true;
}

/**
 * Deletes the state read (its `uuid`) while it is unlocked, then its versions' items and contents:
 * a version write racing the deletion either committed before it (and is found here) or fails on
 * the state's condition. `locked` when a lock is held, `gone` when it went or was created again meanwhile.
 */
export async function deleteState(state: TerraformState): Promise<'locked' | 'gone' | undefined> {
  const deleted = await ifConditionHolds(
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: terraformStateKeys.state(state.projectId, state.name),
        ConditionExpression: '#uuid = :uuid AND attribute_not_exists(#lockId)',
        ExpressionAttributeNames: { '#uuid': 'uuid', '#lockId': 'lockId' },
        ExpressionAttributeValues: { ':uuid': state.uuid },
      }),
    ),
  );
  if (deleted === undefined) {
    const now = await getState(state.projectId, state.name);
    return now?.uuid === state.uuid && now.lockId !== undefined ? 'locked' : 'gone';
  }
  const versions = await queryAll(terraformStateCollections.versions(state.projectId, state.uuid));
  await deleteMany(versions.map((item) => ({ PK: item.PK as string, SK: item.SK as string })));
  await deleteObjectsUnder(terraformStateObjects.statePrefix(state.projectId, state.uuid));
  return undefined;
}

/** Stores a content, sealed, as a new object of the state's serial; answers where. */
export async function putContent(state: TerraformState, serial: number, content: Buffer): Promise<string> {
  const object = terraformStateObjects.version(state.projectId, state.uuid, serial, randomBytes(8).toString('hex'));
  const sealed = await sealSecret(content.toString('utf8'));
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: object, Body: sealed, ContentType: 'text/plain' }));
  return object;
}

/** A version's content, opened; undefined when its object is gone (the state deleted meanwhile). */
export async function readContent(version: TerraformStateVersion): Promise<Buffer | undefined> {
  const { client, sdk } = await s3();
  try {
    const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: version.object }));
    return Buffer.from(await openSecret(await result.Body!.transformToString('utf8')), 'utf8');
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}

/** Deletes content objects (missing ones are no error). */
export const deleteContents = (objects: readonly string[]): Promise<void> => (objects.length === 0 ? Promise.resolve() : deleteObjects(objects));

/** Every content of a project's states (the project is being deleted; the items go with its partition). */
export const deleteProjectContents = (projectId: number): Promise<void> => deleteObjectsUnder(terraformStateObjects.projectPrefix(projectId));
