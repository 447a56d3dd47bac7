/**
 * Protected refs (GitLab's `ProtectedRef` concern, shared by protected branches and protected
 * tags): one item per protected name or wildcard pattern (`main`, `release/*`, `v*`) in the
 * project's partition, under a sort-key prefix of its kind (`PROTECTED_BRANCH#<name>`,
 * `PROTECTED_TAG#<name>`). The name is the key, so a name is protected at most once per kind (the
 * insert is conditioned on the key being free: of two racing protections of a name one wins); a
 * project holds a bounded number of them, read whole when a ref is checked against every pattern.
 * They go with the project's partition when it is deleted.
 *
 * `store/protected-branches.ts` and `store/protected-tags.ts` say what each kind holds; the reads,
 * the insert and the delete are these, given the kind.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import type { Collection, Key } from '../../platform/dynamo/keys';
import { getEntity, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';

/** One access level of a protected ref (GitLab's `ProtectedBranch::PushAccessLevel`, `ProtectedTag::CreateAccessLevel`, ...). */
export interface AccessLevelGrant {
  id: number;
  /** 0 (no one), 30 (developers and maintainers), 40 (maintainers), 60 (instance admins). */
  accessLevel: number;
}

/** What every protected ref holds. */
export interface ProtectedRefFields {
  id: number;
  projectId: number;
  /** A ref name (without `refs/heads/` or `refs/tags/`), or a pattern where `*` matches any characters. */
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** Where one kind of protected ref is kept, and the sequences its ids come from. */
export interface ProtectedRefKind {
  /** The item's `type`. */
  type: string;
  key: (projectId: number, name: string) => Key;
  collection: (projectId: number) => Collection;
  /** The sequence of the protections' ids. */
  sequence: string;
  /** The sequence of their access levels' ids. */
  accessLevelSequence: string;
}

const fromItem = <T extends ProtectedRefFields>(item: Item): T => entityFields(item) as T;

/** Internal: the item of a protected ref. */
export const protectedRefItem = (kind: ProtectedRefKind, ref: ProtectedRefFields): Item => ({ ...kind.key(ref.projectId, ref.name), type: kind.type, ...ref });

/** Every protection of a kind of a project, in byte order of their names. */
export async function listProtectedRefs<T extends ProtectedRefFields>(kind: ProtectedRefKind, projectId: number): Promise<T[]> {
  return (await queryAll(kind.collection(projectId))).map((item) => fromItem<T>(item));
}

/** The protection of exactly this name (a pattern is found by its own name, not by what it matches). */
export async function getProtectedRef<T extends ProtectedRefFields>(kind: ProtectedRefKind, projectId: number, name: string): Promise<T | undefined> {
  return getEntity(kind.key(projectId, name), (item) => fromItem<T>(item));
}

/** New access levels, one per level given, each with a fresh id. */
export async function newGrants(kind: ProtectedRefKind, levels: number[]): Promise<AccessLevelGrant[]> {
  const ids = await nextIds(kind.accessLevelSequence, levels.length);
  return levels.map((accessLevel, i) => ({ id: ids[i], accessLevel }));
}

/**
 * Protects a name while the project is live: `build` is given the new protection's id and dates
 * and adds what its kind holds.
 *
 * @example
 * const created = await insertProtectedRef(protectedTagKind, 7, 'v*', async (base) => ({ ...base, createAccessLevels: await newGrants(protectedTagKind, [40]) }));
 * if (created === 'exists') // the name is protected already
 */
export async function insertProtectedRef<T extends ProtectedRefFields>(
  kind: ProtectedRefKind,
  projectId: number,
  name: string,
  build: (base: ProtectedRefFields) => Promise<T>,
): Promise<T | 'exists' | 'project_gone'> {
  const now = new Date().toISOString();
  const ref = await build({ id: await nextId(kind.sequence), projectId, name, createdAt: now, updatedAt: now });
  const failure = await transactOr(
    {
      project: projectIsLive(projectId),
      ref: { Put: { TableName: tableName(), Item: protectedRefItem(kind, ref), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [['ref', 'exists']] as const,
    'project_gone' as const,
  );
  return failure ?? ref;
}

/** Unprotects a name; false when it was not protected. */
export async function deleteProtectedRef(kind: ProtectedRefKind, projectId: number, name: string): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: kind.key(projectId, name), ConditionExpression: 'attribute_exists(PK)' })),
  );
  return deleted !== undefined;
}
