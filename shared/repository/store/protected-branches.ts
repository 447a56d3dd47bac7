/**
 * Protected branches (`PROJECT#<id>` / `PROTECTED_BRANCH#<name>`, see `store/protected-refs.ts`):
 * who may push and who may merge (GitLab's push and merge access levels, each with its own id) and
 * whether force pushes are allowed. The only kind of protected ref that is edited in place, so it
 * carries a `version`.
 */
import { tableName } from '../../platform/dynamo/client';
import { transactOr } from '../../platform/dynamo/transactions';
import { repositoryCollections, repositoryKeys, repositorySequences } from './keys';
import {
  deleteProtectedRef,
  getProtectedRef,
  insertProtectedRef,
  listProtectedRefs,
  newGrants,
  protectedRefItem,
  type AccessLevelGrant,
  type ProtectedRefFields,
  type ProtectedRefKind,
} from './protected-refs';

export type { AccessLevelGrant } from './protected-refs';

export interface ProtectedBranch extends ProtectedRefFields {
  pushAccessLevels: AccessLevelGrant[];
  mergeAccessLevels: AccessLevelGrant[];
  allowForcePush: boolean;
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

const kind: ProtectedRefKind = {
  type: 'ProtectedBranch',
  key: repositoryKeys.protectedBranch,
  collection: repositoryCollections.protectedBranches,
  sequence: repositorySequences.protectedBranches,
  accessLevelSequence: repositorySequences.accessLevels,
};

/** Every protected branch of a project, in byte order of their names. */
export const listProtectedBranches = (projectId: number): Promise<ProtectedBranch[]> => listProtectedRefs(kind, projectId);

/** The protection of exactly this name (a pattern is found by its own name, not by what it matches). */
export const getProtectedBranch = (projectId: number, name: string): Promise<ProtectedBranch | undefined> => getProtectedRef(kind, projectId, name);

/**
 * Protects a name while the project is live.
 *
 * @example
 * const created = await insertProtectedBranch(7, 'main', { pushAccessLevel: 40, mergeAccessLevel: 40, allowForcePush: false });
 * if (created === 'exists') throw new ConflictError("Protected branch 'main' already exists");
 */
export function insertProtectedBranch(projectId: number, name: string, fields: ProtectedBranchFields): Promise<ProtectedBranch | 'exists' | 'project_gone'> {
  return insertProtectedRef(kind, projectId, name, async (base) => {
    const [push, merge] = await newGrants(kind, [fields.pushAccessLevel, fields.mergeAccessLevel]);
    return { ...base, pushAccessLevels: [push], mergeAccessLevels: [merge], allowForcePush: fields.allowForcePush, version: 1 };
  });
}

/**
 * Changes a protected branch as read (`version`); `stale` when it changed or went away since.
 * A level given replaces the levels of its kind with one new grant (a new id, as GitLab
 * destroys and recreates the access level).
 */
export async function updateProtectedBranch(branch: ProtectedBranch, changes: ProtectedBranchChanges): Promise<ProtectedBranch | 'stale'> {
  const levels = [changes.pushAccessLevel, changes.mergeAccessLevel].filter((level) => level !== undefined);
  const fresh = await newGrants(kind, levels);
  const grant = (level: number | undefined, current: AccessLevelGrant[]) => (level === undefined ? current : [fresh.shift()!]);
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
          Item: protectedRefItem(kind, next),
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
export const deleteProtectedBranch = (projectId: number, name: string): Promise<boolean> => deleteProtectedRef(kind, projectId, name);
