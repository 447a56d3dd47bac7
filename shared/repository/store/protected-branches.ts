/**
 * Protected branches: one item per protected name or wildcard pattern (`main`, `release/*`) in the
 * project's partition (`PROJECT#<id>` / `PROTECTED_BRANCH#<name>`), holding who may push and who
 * may merge (GitLab's push and merge access levels, each with its own id) and whether force pushes
 * are allowed. The name is the key, so a name is protected at most once; a project holds a bounded
 * number of them, read whole when a branch is checked against every pattern. They go with the
 * project's partition when it is deleted.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { repositoryCollections, repositoryKeys, repositorySequences } from './keys';

/** One access level of a protected branch (GitLab's `ProtectedBranch::PushAccessLevel` / `MergeAccessLevel`). */
export interface AccessLevelGrant {
  id: number;
  /** 0 (no one), 30 (developers and maintainers), 40 (maintainers), 60 (instance admins). */
  accessLevel: number;
}

export interface ProtectedBranch {
  id: number;
  projectId: number;
  /** A branch name, or a pattern where `*` matches any characters. */
  name: string;
  pushAccessLevels: AccessLevelGrant[];
  mergeAccessLevels: AccessLevelGrant[];
  allowForcePush: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** What a client sets: one push and one merge level (GitLab CE's API sets one role each). */
export interface ProtectedBranchFields {
  pushAccessLevel: number;
  mergeAccessLevel: number;
  allowForcePush: boolean;
}

/** What an edit changes; a level given replaces the branch's levels of that kind. */
export interface ProtectedBranchChanges {
  pushAccessLevel?: number;
  mergeAccessLevel?: number;
  allowForcePush?: boolean;
}

const protectedBranchFromItem = (item: Item): ProtectedBranch => entityFields(item) as ProtectedBranch;

const toItem = (branch: ProtectedBranch): Item => ({ ...repositoryKeys.protectedBranch(branch.projectId, branch.name), type: 'ProtectedBranch', ...branch });

/** Every protected branch of a project, in byte order of their names. */
export async function listProtectedBranches(projectId: number): Promise<ProtectedBranch[]> {
  return (await queryAll(repositoryCollections.protectedBranches(projectId))).map(protectedBranchFromItem);
}

/** The protection of exactly this name (a pattern is found by its own name, not by what it matches). */
export async function getProtectedBranch(projectId: number, name: string): Promise<ProtectedBranch | undefined> {
  return getEntity(repositoryKeys.protectedBranch(projectId, name), protectedBranchFromItem);
}

/**
 * Protects a name while the project is live.
 *
 * @example
 * const created = await insertProtectedBranch(7, 'main', { pushAccessLevel: 40, mergeAccessLevel: 40, allowForcePush: false });
 * if (created === 'exists') throw new ConflictError("Protected branch 'main' already exists");
 */
export async function insertProtectedBranch(
  projectId: number,
  name: string,
  fields: ProtectedBranchFields,
): Promise<ProtectedBranch | 'exists' | 'project_gone'> {
  const now = new Date().toISOString();
  const [pushId, mergeId] = await nextIds(repositorySequences.accessLevels, 2);
  const branch: ProtectedBranch = {
    id: await nextId(repositorySequences.protectedBranches),
    projectId,
    name,
    pushAccessLevels: [{ id: pushId, accessLevel: fields.pushAccessLevel }],
    mergeAccessLevels: [{ id: mergeId, accessLevel: fields.mergeAccessLevel }],
    allowForcePush: fields.allowForcePush,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const failure = await transactOr(
    {
      project: projectIsLive(projectId),
      branch: { Put: { TableName: tableName(), Item: toItem(branch), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [['branch', 'exists']] as const,
    'project_gone' as const,
  );
  return failure ?? branch;
}

/**
 * Changes a protected branch as read (`version`); `stale` when it changed or went away since.
 * A level given replaces the levels of its kind with one new grant (a new id, as GitLab
 * destroys and recreates the access level).
 */
export async function updateProtectedBranch(branch: ProtectedBranch, changes: ProtectedBranchChanges): Promise<ProtectedBranch | 'stale'> {
  const fresh = [changes.pushAccessLevel, changes.mergeAccessLevel].filter((level) => level !== undefined).length;
  const ids = await nextIds(repositorySequences.accessLevels, fresh);
  const grant = (level: number | undefined, current: AccessLevelGrant[]) => (level === undefined ? current : [{ id: ids.shift()!, accessLevel: level }]);
  const next: ProtectedBranch = {
    ...branch,
    pushAccessLevels: grant(changes.pushAccessLevel, branch.pushAccessLevels),
    mergeAccessLevels: grant(changes.mergeAccessLevel, branch.mergeAccessLevels),
    allowForcePush: changes.allowForcePush ?? branch.allowForcePush,
    updatedAt: new Date().toISOString(),
    version: branch.version + 1,
  };
  const failure = await transactOr(
    {
      branch: {
        Put: {
          TableName: tableName(),
          Item: toItem(next),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': branch.version },
        },
      },
    },
    [],
    'stale' as const,
  );
  return failure ?? next;
}

/** Unprotects a name; false when it was not protected. */
export async function deleteProtectedBranch(projectId: number, name: string): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: repositoryKeys.protectedBranch(projectId, name), ConditionExpression: 'attribute_exists(PK)' })),
  );
  return deleted !== undefined;
}
