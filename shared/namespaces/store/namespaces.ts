/**
 * Namespaces: a user's personal namespace or a group (GitLab: a group *is* a namespace, same id).
 * The full path (`group/subgroup`) is unique case-insensitively across all namespaces through
 * its claim; a username is its personal namespace's path, so users and groups never collide.
 */
import { putNewMembership, registerNamespaceSource, type GroupLink, type Membership } from '../../auth';
import { deleteMany, getMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { markDeleting } from '../../platform/dynamo/conditional';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import type { Key } from '../../platform/dynamo/keys';
import { getItem, isId, queryCollection, type Item, getEntity } from '../../platform/dynamo/query';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { searchTerms, termChanges } from '../../platform/search';
import type { StoredAvatar } from '../avatars';
import { putSearchEntries, removeSearchEntries } from '../search-index';
import { dropLegacyRedirectAt, dropRedirectAt, dropRedirectsBeneath, redirectFrom } from '../redirects';
import { namespaceCollections, namespaceIndexKeys, namespaceKeys, namespaceSearchKeys } from './keys';
import { inLiveTrees, knownFromItems } from './live-tree';
import { eachInIdOrder, type MigrationStep } from '../../platform/dynamo/migrations';

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export const visibilityRank: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

export interface Namespace {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  fullPath: string;
  /** Parent group of a subgroup; null for top-level groups and user namespaces. */
  parentId: number | null;
  /** Ancestor group ids, nearest first: membership in any of them is inherited. */
  ancestorIds: number[];
  /** Owner of a personal namespace. */
  ownerId: number | null;
  description: string;
  visibility: Visibility;
  lfsEnabled: boolean;
  requestAccessEnabled: boolean;
  /** Members of a group with access level 50, kept exact so the last owner can never leave. */
  ownerCount: number;
  /** Projects in a personal namespace, checked against the owner's `projects_limit`. */
  projectCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
  deleting?: boolean;
  /**
   * Direct subgroups of a group, kept exact by the transaction that creates or removes each one,
   * so a walk over the (eventually consistent) subgroup index knows when it has seen them all.
   */
  subgroupCount?: number;
  /**
   * Old full paths a renamed group still holds while its descendants' paths are being moved
   * (see {@link moveNamespacePath}); nothing may be created or renamed beneath it meanwhile.
   */
  movingFrom?: string[];
  /**
   * The groups this group is shared with (GitLab's `GroupGroupLink`s where it is the shared
   * group): their members get access to it, its subgroups and projects, capped at `groupAccess`.
   * Kept here, with one link item each (`store/group-links.ts`), so access checks read it with the group.
   */
  sharedWithGroups?: GroupLink[];
  /**
   * The avatar: a group's own (`avatar` of `POST /groups` and `PUT /groups/:id`, its bytes under
   * `namespaceObjects.groupAvatar`, `store/avatars.ts`); on a personal namespace a copy of its
   * owner's, written by the users feature with the user item ({@link personalNamespaceUpdate}),
   * since GitLab's user namespace shows its owner's avatar.
   */
  avatar?: StoredAvatar;
}

export function namespaceToItem(namespace: Namespace): Item {
  return {
    ...namespaceKeys.namespace(namespace.id),
    ...namespaceIndexKeys.namespaceList(namespace.id),
    ...(namespace.kind === 'group' ? namespaceIndexKeys.groupList(namespace.id) : {}),
    ...(namespace.parentId !== null ? namespaceIndexKeys.subgroups(namespace.parentId, namespace.id) : {}),
    type: 'Namespace',
    ...namespace,
  };
}

export const namespaceFromItem = (item: Item): Namespace => entityFields(item) as Namespace;

// Access resolution (the auth feature) reads namespace items for ancestors and group links.
registerNamespaceSource({ key: namespaceKeys.namespace, fromItem: namespaceFromItem });

// ---------------------------------------------------------------------------------------------
// Search entries (`search-index.ts`): a group is found by its name, path and full path, a
// personal namespace by its path (the username). Added before the write, removed after it.
// ---------------------------------------------------------------------------------------------

type GroupTexts = Pick<Namespace, 'name' | 'path' | 'fullPath'>;

/** The terms a group is found by. */
export const groupSearchTerms = (group: GroupTexts): string[] => searchTerms(group.name, group.path, group.fullPath);

const groupEntryKeys = (terms: string[], id: number) => terms.map((term) => namespaceSearchKeys.group(term, id));

/** Writes a group's entries for what `next` adds to `previous` (all of them for a new group). */
async function addGroupEntries(id: number, previous: GroupTexts | undefined, next: GroupTexts, version: number): Promise<string[]> {
  const { added, removed } = termChanges(previous ? groupSearchTerms(previous) : [], groupSearchTerms(next));
  await putSearchEntries(groupEntryKeys(added, id), { namespaceId: id }, version);
  return removed;
}

/**
 * Writes every search entry of a group (idempotent): the backfill of groups created before
 * search entries existed ({@link backfillGroupSearchEntries}).
 */
export async function writeGroupSearchEntries(group: Namespace): Promise<void> {
  await putSearchEntries(groupEntryKeys(groupSearchTerms(group), group.id), { namespaceId: group.id }, group.version);
}

/**
 * The data migration that writes every search entry of every group (the groups index, a Query
 * page at a time; idempotent), for groups written before search entries existed: resumable, a
 * checkpoint after each group.
 */
export const backfillGroupSearchEntries: MigrationStep = eachInIdOrder(
  async function* liveGroups(after) {
    for await (const group of indexedGroups(after)) if (!group.deleting) yield group;
  },
  (group) => group.id,
  async (group) => {
    await writeGroupSearchEntries(group);
    return 1;
  },
);

/** The entry keys of a personal namespace at `username` (the users feature writes them with the user). */
export const personalNamespaceSearchKeys = (username: string, namespaceId: number): Key[] =>
  searchTerms(username).map((term) => namespaceSearchKeys.personal(term, namespaceId));

/** The personal namespace of a new user. */
export function personalNamespace(input: { id: number; username: string; ownerId: number; createdAt: string; avatar?: StoredAvatar }): Namespace {
  return {
    ...(input.avatar ? { avatar: input.avatar } : {}),
    id: input.id,
    kind: 'user',
    name: input.username,
    path: input.username,
    fullPath: input.username,
    parentId: null,
    ancestorIds: [],
    ownerId: input.ownerId,
    description: '',
    visibility: 'public',
    lfsEnabled: true,
    requestAccessEnabled: false,
    ownerCount: 0,
    projectCount: 0,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
    version: 1,
  };
}

/**
 * The update of a personal namespace that follows its owner's changes, as a transaction operation
 * for the users feature to write with the user item: a new username (its name, path and full
 * path) and a new avatar (`null`: removed). `false` (no operation) when neither changed.
 */
export function personalNamespaceUpdate(namespaceId: number, changes: { username?: string; avatar?: StoredAvatar | null }) {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (changes.username !== undefined) {
    sets.push('#name = :path', '#path = :path', 'fullPath = :path');
    values[':path'] = changes.username;
  }
  if (changes.avatar) {
    sets.push('avatar = :avatar');
    values[':avatar'] = changes.avatar;
  }
  const remove = changes.avatar === null ? ' REMOVE avatar' : '';
  if (sets.length === 0 && !remove) return false;
  return {
    Update: {
      TableName: tableName(),
      Key: namespaceKeys.namespace(namespaceId),
      UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')}` : ''}${remove}`.trim(),
      ...(changes.username !== undefined ? { ExpressionAttributeNames: { '#name': 'name', '#path': 'path' } } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/**
 * A live namespace by id: not being deleted, nor beneath a group being deleted (its ancestors are
 * read too, `live-tree.ts`: nothing more for a namespace without any).
 */
export async function getNamespace(id: number): Promise<Namespace | undefined> {
  if (!isId(id)) return undefined;
  const item = await getItem(namespaceKeys.namespace(id));
  if (!item || item.deleting) return undefined;
  const [live] = await inLiveTrees([namespaceFromItem(item)]);
  return live;
}

/** A namespace by full path, case-insensitively (one claim read, one item read). */
export async function findNamespaceByPath(fullPath: string): Promise<Namespace | undefined> {
  const claim = await getItem(namespaceKeys.claims.namespacePath(fullPath));
  return claim?.namespaceId ? getNamespace(Number(claim.namespaceId)) : undefined;
}

/** A namespace by id including one being deleted (the deletion and path-move walks need it). */
export async function readNamespaceRecord(id: number): Promise<Namespace | undefined> {
  if (!isId(id)) return undefined;
  return getEntity(namespaceKeys.namespace(id), namespaceFromItem);
}

/**
 * Namespaces by id (one BatchGetItem per 100, consistent); missing and deleting ones are left
 * out, and so are those beneath a group being deleted (their ancestors not in the batch are read
 * in one more).
 */
export async function getNamespaces(ids: number[]): Promise<Namespace[]> {
  const items = await getMany(ids.map((id) => namespaceKeys.namespace(id)));
  return inLiveTrees(items.filter((item) => !item.deleting).map(namespaceFromItem), knownFromItems(items));
}

/** Every group as the groups index has them (ones being deleted included), by id, a Query page at a time. */
export async function* indexedGroups(after?: number): AsyncGenerator<Namespace> {
  for await (const item of queryCollection(namespaceCollections.groups(after))) yield namespaceFromItem(item);
}

/**
 * A group's direct subgroups as the subgroup index has them (eventually consistent; ones being
 * deleted included), by id, read a Query page at a time as the consumer pulls.
 */
export async function* indexedSubgroups(parentId: number): AsyncGenerator<Namespace> {
  for await (const item of queryCollection(namespaceCollections.subgroups(parentId))) yield namespaceFromItem(item);
}

/** How often a walk re-reads an index that has not caught up with a maintained count. */
export const INDEX_ATTEMPTS = 7;

/** The wait before re-reading an index (attempt 1, 2, ...): exponential, from 50 ms. */
export const indexBackoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));

/**
 * The direct subgroups of a group, including ones being deleted. The subgroup index is eventually
 * consistent; the group's `subgroupCount` is exact, so the read is repeated (with backoff) until it
 * shows them all (each subgroup then read consistently).
 */
export async function subgroupsOf(groupId: number): Promise<Namespace[]> {
  for (let attempt = 1; ; attempt++) {
    const expected = (await readNamespaceRecord(groupId))?.subgroupCount ?? 0;
    if (expected <= 0) return [];
    const ids: number[] = [];
    for await (const subgroup of indexedSubgroups(groupId)) ids.push(subgroup.id);
    const found = (await getMany(ids.map((id) => namespaceKeys.namespace(id)))).map(namespaceFromItem).filter((child) => child.parentId === groupId);
    if (found.length >= expected) return found;
    if (attempt >= INDEX_ATTEMPTS) throw new Error(`subgroup index of group ${groupId} shows ${found.length} of ${expected}`);
    await indexBackoff(attempt);
  }
}

/**
 * Deletes every item of a group's partition but the group item itself (its memberships, and with
 * them their entries in the users' membership index), by BatchWriteItem.
 */
export async function deleteGroupPartition(groupId: number): Promise<void> {
  const own = namespaceKeys.namespace(groupId);
  const pending: Key[] = [];
  for await (const item of queryCollection(namespaceCollections.namespacePartition(groupId))) {
    if (item.SK !== own.SK) pending.push({ PK: item.PK, SK: item.SK });
  }
  await deleteMany(pending);
}

// ---------------------------------------------------------------------------------------------
// Group writes. Invariants carried by transaction conditions:
// - a full path is held by exactly one namespace (its claim, `attribute_not_exists`), and a
//   subgroup never shares its path with a project of its parent (the project's path claim);
// - a subgroup is only created or renamed under a parent that is live, not being deleted, not
//   moving its paths, and still at the full path the new path was computed from; every further
//   ancestor is checked the same way, so a deletion or path move above can never miss it;
// - `subgroupCount` on the parent changes in the same transaction as the subgroup it counts, and
//   a group item is only removed when it has no subgroups and no projects left;
// - updates are conditioned on the version read (and never overwrite counters: `SET` only).
// ---------------------------------------------------------------------------------------------

/** A conditioned update of the namespace item `id` (one transaction operation). */
export const namespaceUpdate = (
  id: number,
  update: {
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeValues: Record<string, unknown>;
    ExpressionAttributeNames?: Record<string, string>;
  },
) => ({ Update: { TableName: tableName(), Key: namespaceKeys.namespace(id), ...update } });

/** A group that is live (exists, not being deleted) with no path move under way. */
const SETTLED = 'attribute_exists(PK) AND attribute_not_exists(deleting) AND attribute_not_exists(movingFrom)';

const settledCheck = (id: number) => ({
  ConditionCheck: { TableName: tableName(), Key: namespaceKeys.namespace(id), ConditionExpression: SETTLED },
});

/** No project of `parentId` has this path (a subgroup and a project would share a full path). */
const noProjectAt = (parentId: number, path: string) => ({
  ConditionCheck: { TableName: tableName(), Key: namespaceKeys.claims.projectPath(parentId, path), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Claims a full path for a group. */
const claimGroupPath = (fullPath: string, namespaceId: number) =>
  putClaim(namespaceKeys.claims.namespacePath(fullPath), { namespaceId, kind: 'group' });

/** Releases a full-path claim if this namespace holds it (a claim already gone is fine). */
const releaseGroupPath = (fullPath: string, namespaceId: number) => ({
  Delete: {
    TableName: tableName(),
    Key: namespaceKeys.claims.namespacePath(fullPath),
    ConditionExpression: 'attribute_not_exists(PK) OR namespaceId = :namespaceId',
    ExpressionAttributeValues: { ':namespaceId': namespaceId },
  },
});

const sameClaim = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Guards of a write that places `path` directly under `parent`, as named transaction entries: the
 * parent settled at the full path it was read with (optionally counting one more subgroup), no
 * project of the parent with that path, and its ancestors settled. Internal.
 */
function placementGuards(parent: Namespace, path: string, countOneMore: boolean) {
  const parentCondition = `${SETTLED} AND fullPath = :parentPath`;
  const parentGuard = countOneMore
    ? namespaceUpdate(parent.id, {
        UpdateExpression: 'ADD subgroupCount :one',
        ConditionExpression: parentCondition,
        ExpressionAttributeValues: { ':one': 1, ':parentPath': parent.fullPath },
      })
    : {
        ConditionCheck: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(parent.id),
          ConditionExpression: parentCondition,
          ExpressionAttributeValues: { ':parentPath': parent.fullPath },
        },
      };
  return { parent: parentGuard, parentProjectPath: noProjectAt(parent.id, path), ancestors: parent.ancestorIds.map(settledCheck) };
}

/** The names of the {@link placementGuards} entries that fail when the parent or an ancestor changed. */
const PARENT_GUARDS = ['parent', 'ancestors'];

export type GroupWriteResult = 'done' | 'path_taken' | 'parent_changed' | 'conflict';

/**
 * Creates a group (or a subgroup of `parent`), its full-path claim and its first owner's
 * membership in one transaction.
 * @returns `path_taken` when the full path (or a project of the parent) has it, `parent_changed`
 *   when the parent was deleted, moved or is busy meanwhile.
 */
export async function insertGroup(group: Namespace, owner: Membership, parent: Namespace | null): Promise<GroupWriteResult> {
  await addGroupEntries(group.id, undefined, group, group.version);
  const result = await insertGroupRecord(group, owner, parent);
  // A new id that was not written: nobody else writes its entries.
  if (result !== 'done') await removeSearchEntries(groupEntryKeys(groupSearchTerms(group), group.id));
  return result;
}

async function insertGroupRecord(group: Namespace, owner: Membership, parent: Namespace | null): Promise<GroupWriteResult> {
  try {
    // The group (a new id) and the membership (in the new group) cannot fail.
    await transact({
      group: { Put: { TableName: tableName(), Item: namespaceToItem(group), ConditionExpression: 'attribute_not_exists(PK)' } },
      path: claimGroupPath(group.fullPath, group.id),
      redirect: dropRedirectAt(group.fullPath),
      owner: putNewMembership(owner),
      ...(parent ? placementGuards(parent, group.path, true) : {}),
      legacyRedirect: dropLegacyRedirectAt(group.fullPath),
    });
    await dropRedirectsBeneath(group.fullPath);
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn(...PARENT_GUARDS)) return 'parent_changed';
    if (error.failedOn('path', 'parentProjectPath')) return 'path_taken';
    throw error;
  }
}

/** The settings of a group that `PUT /groups/:id` may change. */
export type GroupSettings = Pick<Namespace, 'name' | 'path' | 'description' | 'visibility' | 'lfsEnabled' | 'requestAccessEnabled'>;

/**
 * Updates a group's settings (and its full path), conditioned on the version read. A new path
 * moves the full-path claim in the same transaction. When the group has subgroups, the old claim
 * is kept and recorded in `movingFrom` instead, and the descendants must then be moved with
 * {@link moveNamespacePath} and the move closed with {@link finishPathMove}.
 *
 * @returns `conflict` when the group changed meanwhile (version, deletion, subgroups), the other
 *   results as for {@link insertGroup}.
 */
export async function updateGroupSettings(
  previous: Namespace,
  next: GroupSettings & { fullPath: string; updatedAt: string },
  parent: Namespace | null,
): Promise<GroupWriteResult> {
  const pathChanged = previous.path !== next.path;
  const claimMoves = !sameClaim(previous.fullPath, next.fullPath);
  const seenSubgroups = previous.subgroupCount ?? 0;
  const holdOldPath = pathChanged && seenSubgroups > 0;
  const values: Record<string, unknown> = {
    ':name': next.name,
    ':path': next.path,
    ':fullPath': next.fullPath,
    ':description': next.description,
    ':visibility': next.visibility,
    ':lfs': next.lfsEnabled,
    ':requestAccess': next.requestAccessEnabled,
    ':now': next.updatedAt,
    ':version': previous.version,
    ':nextVersion': previous.version + 1,
  };
  let condition = '#version = :version AND attribute_not_exists(deleting) AND attribute_not_exists(movingFrom)';
  if (pathChanged) {
    // A subgroup created meanwhile would keep the old path: the count must be the one seen.
    condition += seenSubgroups === 0 ? ' AND (attribute_not_exists(subgroupCount) OR subgroupCount = :subgroups)' : ' AND subgroupCount = :subgroups';
    values[':subgroups'] = seenSubgroups;
  }
  if (holdOldPath) values[':moving'] = [previous.fullPath];
  const dropped = await addGroupEntries(previous.id, previous, next, previous.version + 1);
  try {
    await transact({
      group: namespaceUpdate(previous.id, {
        UpdateExpression:
          'SET #name = :name, #path = :path, fullPath = :fullPath, description = :description, visibility = :visibility, ' +
          'lfsEnabled = :lfs, requestAccessEnabled = :requestAccess, updatedAt = :now, #version = :nextVersion' +
          (holdOldPath ? ', movingFrom = :moving' : ''),
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#name': 'name', '#path': 'path', '#version': 'version' },
        ExpressionAttributeValues: values,
      }),
      newPath: claimMoves && claimGroupPath(next.fullPath, previous.id),
      oldPath: claimMoves && !holdOldPath && releaseGroupPath(previous.fullPath, previous.id),
      newRedirect: claimMoves && redirectFrom(previous.fullPath, { kind: 'namespace', id: previous.id }),
      takenRedirect: claimMoves && dropRedirectAt(next.fullPath),
      ...(pathChanged && parent ? placementGuards(parent, next.path, false) : {}),
      legacyRedirect: claimMoves && dropLegacyRedirectAt(next.fullPath),
    });
    await removeSearchEntries(groupEntryKeys(dropped, previous.id), previous.version + 1);
    if (claimMoves) await dropRedirectsBeneath(next.fullPath);
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('newPath', 'parentProjectPath')) return 'path_taken';
    if (error.failedOn(...PARENT_GUARDS)) return 'parent_changed';
    return 'conflict';
  }
}

/**
 * Moves one descendant of a renamed or transferred group to `fullPath` (its claim too), if it is
 * still at the full path it was read with; a transfer also gives it new `ancestorIds` and caps its
 * visibility at the new parent's (`changes`). Idempotent across retries: a walk that crashed can run again.
 * @returns `conflict` when the namespace changed or is being deleted, `path_taken` when another
 *   namespace holds the new path.
 */
export async function moveNamespacePath(
  namespace: Namespace,
  fullPath: string,
  changes: { ancestorIds?: number[]; visibility?: Visibility } = {},
): Promise<GroupWriteResult> {
  const claimMoves = !sameClaim(namespace.fullPath, fullPath);
  const dropped = await addGroupEntries(namespace.id, namespace, { ...namespace, fullPath }, namespace.version);
  const sets = ['fullPath = :fullPath'];
  const values: Record<string, unknown> = { ':fullPath': fullPath, ':seen': namespace.fullPath };
  if (changes.ancestorIds) {
    sets.push('ancestorIds = :ancestors');
    values[':ancestors'] = changes.ancestorIds;
  }
  if (changes.visibility) {
    sets.push('visibility = :visibility');
    values[':visibility'] = changes.visibility;
  }
  try {
    await transact({
      namespace: namespaceUpdate(namespace.id, {
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'fullPath = :seen AND attribute_not_exists(deleting)',
        ExpressionAttributeValues: values,
      }),
      newPath: claimMoves && claimGroupPath(fullPath, namespace.id),
      oldPath: claimMoves && releaseGroupPath(namespace.fullPath, namespace.id),
      // Its old path is reached through the moved ancestor's redirect; the new one is taken.
      takenRedirect: claimMoves && dropRedirectAt(fullPath),
      legacyRedirect: claimMoves && dropLegacyRedirectAt(fullPath),
    });
    await removeSearchEntries(groupEntryKeys(dropped, namespace.id), namespace.version);
    if (claimMoves) await dropRedirectsBeneath(fullPath);
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return error.failedOn('namespace') ? 'conflict' : 'path_taken';
  }
}

/**
 * Transfers a group under `parent` (or to the top level: null): its `parentId`, `ancestorIds`,
 * full path (claim moved as by a rename, the old one held in `movingFrom` when it has subgroups,
 * whose paths must then be moved with {@link moveNamespacePath} and the move closed with
 * {@link finishPathMove}), subgroup index entry and the subgroup counts of both parents, in one
 * transaction conditioned on the version and subgroup count read and on the new parent being
 * settled at the path read. `visibility` caps it at the new parent's.
 * @returns as {@link updateGroupSettings}.
 */
export async function transferGroupRecord(previous: Namespace, parent: Namespace | null, visibility: Visibility): Promise<GroupWriteResult> {
  const fullPath = parent ? `${parent.fullPath}/${previous.path}` : previous.path;
  const seenSubgroups = previous.subgroupCount ?? 0;
  const holdOldPath = seenSubgroups > 0;
  const claimMoves = !sameClaim(previous.fullPath, fullPath);
  const next = { ...previous, fullPath };
  const values: Record<string, unknown> = {
    ':parent': parent?.id ?? null,
    ':ancestors': parent ? [parent.id, ...parent.ancestorIds] : [],
    ':fullPath': fullPath,
    ':visibility': visibility,
    ':now': new Date().toISOString(),
    ':version': previous.version,
    ':nextVersion': previous.version + 1,
    ':subgroups': seenSubgroups,
  };
  const sets = ['parentId = :parent', 'ancestorIds = :ancestors', 'fullPath = :fullPath', 'visibility = :visibility', 'updatedAt = :now', '#version = :nextVersion'];
  if (holdOldPath) {
    sets.push('movingFrom = :moving');
    values[':moving'] = [previous.fullPath];
  }
  let indexUpdate = ' REMOVE GSI3PK, GSI3SK';
  if (parent) {
    const index = namespaceIndexKeys.subgroups(parent.id, previous.id);
    sets.push('GSI3PK = :gsiPK', 'GSI3SK = :gsiSK');
    values[':gsiPK'] = index.GSI3PK;
    values[':gsiSK'] = index.GSI3SK;
    indexUpdate = '';
  }
  const condition =
    '#version = :version AND attribute_not_exists(deleting) AND attribute_not_exists(movingFrom) AND ' +
    (seenSubgroups === 0 ? '(attribute_not_exists(subgroupCount) OR subgroupCount = :subgroups)' : 'subgroupCount = :subgroups');
  const dropped = await addGroupEntries(previous.id, previous, next, previous.version + 1);
  try {
    await transact({
      group: namespaceUpdate(previous.id, {
        UpdateExpression: `SET ${sets.join(', ')}${indexUpdate}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: values,
      }),
      newPath: claimMoves && claimGroupPath(fullPath, previous.id),
      oldPath: claimMoves && !holdOldPath && releaseGroupPath(previous.fullPath, previous.id),
      newRedirect: claimMoves && redirectFrom(previous.fullPath, { kind: 'namespace', id: previous.id }),
      takenRedirect: claimMoves && dropRedirectAt(fullPath),
      oldParent:
        previous.parentId !== null &&
        namespaceUpdate(previous.parentId, {
          UpdateExpression: 'ADD subgroupCount :minusOne',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        }),
      ...(parent ? placementGuards(parent, previous.path, true) : {}),
      legacyRedirect: claimMoves && dropLegacyRedirectAt(fullPath),
    });
    await removeSearchEntries(groupEntryKeys(dropped, previous.id), previous.version + 1);
    if (claimMoves) await dropRedirectsBeneath(fullPath);
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('newPath', 'parentProjectPath')) return 'path_taken';
    if (error.failedOn(...PARENT_GUARDS)) return 'parent_changed';
    return 'conflict';
  }
}

/** Ends a path move: clears `movingFrom` and releases the old paths the group still held. */
export async function finishPathMove(group: Namespace): Promise<void> {
  const held = group.movingFrom ?? [];
  if (held.length === 0) return;
  try {
    await transact({
      group: namespaceUpdate(group.id, {
        UpdateExpression: 'REMOVE movingFrom',
        ConditionExpression: 'movingFrom = :held',
        ExpressionAttributeValues: { ':held': held },
      }),
      oldPaths: held.filter((path) => !sameClaim(path, group.fullPath)).map((path) => releaseGroupPath(path, group.id)),
    });
  } catch (error) {
    // Another request finished the same move first.
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

/** Marks a group as being deleted (it disappears from reads at once); false if it is gone. */
export async function markGroupDeleting(id: number): Promise<boolean> {
  return markDeleting(namespaceKeys.namespace(id), 'attribute_exists(PK) AND kind = :group', { ':group': 'group' });
}

/**
 * Removes a group item with its path claims (and any old ones a path move still held), and
 * decrements its parent's subgroup count, atomically; only once it has no subgroups and no
 * projects left.
 * @returns `gone` when it was already removed, `not_empty` when subgroups or projects remain.
 */
export async function removeGroupRecord(group: Namespace): Promise<'done' | 'gone' | 'not_empty'> {
  const empty = (counter: string) => `(attribute_not_exists(${counter}) OR ${counter} = :zero)`;
  try {
    await transact({
      group: {
        Delete: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(group.id),
          ConditionExpression: `attribute_exists(PK) AND ${empty('subgroupCount')} AND ${empty('projectCount')}`,
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      paths: [group.fullPath, ...(group.movingFrom ?? [])].map((path) => releaseGroupPath(path, group.id)),
      parent:
        group.parentId !== null &&
        namespaceUpdate(group.parentId, {
          UpdateExpression: 'ADD subgroupCount :minusOne',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        }),
    });
    await removeSearchEntries(groupEntryKeys(groupSearchTerms(group), group.id));
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed) || !error.failedOn('group')) throw error;
    return (await readNamespaceRecord(group.id)) ? 'not_empty' : 'gone';
  }
}
