/**
 * Group lifecycle rules: validation (GitLab's namespace model errors), creation of groups and
 * subgroups with their first owner, settings updates including path changes that move every
 * descendant, complete deletion, and the group and namespace lists.
 *
 * A group is a namespace (same id sequence, same full-path claims as usernames). The invariants
 * live in the transactions of `data/namespaces.ts`; this module decides what to write and maps
 * refusals to GitLab's answers.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { projectAccessForMany, can, isAdmin, type ProjectSubject, membershipCollections, OWNER, isMembershipActive, membershipFromItem, type Membership } from '../auth';
import { config } from '../platform/config';
import { getMany } from '../platform/dynamo/batch';
import { db } from '../platform/dynamo/client';
import { nextId } from '../platform/dynamo/counters';
import { namespaceCollections, namespaceKeys } from './store/keys';
import { projectCollections, projectKeys, projectFromItem, type Project, listProjects, deleteProject, unshareProject } from '../projects';
import { finishPathMove, getNamespace, getNamespaces, insertGroup, markGroupDeleting, moveNamespacePath, namespaceFromItem, readNamespaceRecord, removeGroupRecord, subgroupIds, updateGroupSettings, visibilityRank, type GroupWriteResult, type Namespace, type Visibility } from './store/namespaces';
import { queryCollection, type Item } from '../platform/dynamo/query';
import type { User } from '../users';
import { ConflictError, NotFoundError, ParamError, ValidationError } from '../platform/http/errors';
import { paginate, paginateArray, type Page, type PageLinkBase, type PaginationParams } from '../platform/http/pagination';
import { isValidNamespacePath, NAMESPACE_PATH_MESSAGE, reservedPathMessage } from './namespace-paths';

/** Settings as the API names them (`POST /groups`, `PUT /groups/:id`). */
export interface GroupSettingsInput {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

export interface CreateGroupInput extends GroupSettingsInput {
  name: string;
  path: string;
}

/** GitLab's group name rule (`Gitlab::Regex.group_name_regex`). */
const NAME = /^[\p{L}\p{N}\p{M}_\u{00A9}-\u{1F9FF}][\p{L}\p{N}\p{M}\p{Pd}+_\u{00A9}-\u{1F9FF}(). ]*$/u;
const NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";
const MAX_LENGTH = 255;
/** GitLab's `Namespace::NUMBER_OF_ANCESTORS_ALLOWED`. */
const MAX_ANCESTORS = 20;

/**
 * GitLab's model validations of a group's name and path, as `{ field: [messages] }`; `place`
 * picks the reserved words a path may not be (top-level groups share the users' namespace).
 */
export function validateGroupFields(fields: { name?: string; path?: string }, place: 'top' | 'subgroup'): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (fields.name !== undefined) {
    if (fields.name.trim() === '') add('name', "can't be blank");
    else if (!NAME.test(fields.name)) add('name', NAME_MESSAGE);
    if (fields.name.length > MAX_LENGTH) add('name', `is too long (maximum is ${MAX_LENGTH} characters)`);
  }
  if (fields.path !== undefined) {
    const path = fields.path;
    if (path === '') add('path', "can't be blank");
    else if (!isValidNamespacePath(path)) add('path', NAMESPACE_PATH_MESSAGE);
    const reserved = path === '' ? undefined : reservedPathMessage(path, place);
    if (reserved) add('path', reserved);
    if (path.length > MAX_LENGTH) add('path', `is too long (maximum is ${MAX_LENGTH} characters)`);
  }
  return errors;
}

function assertValid(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

const moreVisible = (a: Visibility, b: Visibility) => visibilityRank[a] > visibilityRank[b];

/**
 * GitLab's visibility rules: a group is never more visible than its parent, nor less visible
 * than its subgroups or projects. The two last read the group's children (index queries that stop
 * at the first offender) and run only when the visibility is lowered. Not transactional: a
 * subgroup or project made more visible at the same moment can slip past, as in GitLab.
 */
async function visibilityErrors(group: Namespace, visibility: Visibility, parent: Namespace | null, isNew: boolean): Promise<string[]> {
  if (!isNew && visibility === group.visibility) return [];
  if (parent && moreVisible(visibility, parent.visibility)) {
    return [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`];
  }
  if (isNew || !moreVisible(group.visibility, visibility)) return [];
  if ((group.subgroupCount ?? 0) > 0) {
    for await (const item of queryCollection(namespaceCollections.subgroups(group.id))) {
      if (!item.deleting && moreVisible(item.visibility as Visibility, visibility)) {
        return [`${visibility} is not allowed since there are sub-groups with higher visibility.`];
      }
    }
  }
  for await (const item of queryCollection(projectCollections.namespaceProjects(group.id))) {
    if (!item.deleting && moreVisible(item.visibility as Visibility, visibility)) {
      return [`${visibility} is not allowed since this group contains projects with higher visibility.`];
    }
  }
  return [];
}

const TAKEN = { path: ['has already been taken'] };

/** Maps a refused parent to 404 when it is gone and 409 when it is only busy. */
async function parentRefusal(parent: Namespace): Promise<Error> {
  if (!(await getNamespace(parent.id))) return new NotFoundError('Group');
  return new ConflictError('The parent group is being changed by another request; try again');
}

/**
 * Creates a group, or a subgroup of `parent` (the caller checked `create_group` or `admin_group`
 * on the parent). The creator becomes its owner. Concurrent creations of one path: exactly one
 * succeeds, the others get the `has already been taken` validation error.
 *
 * @example
 * const group = await createGroup(user, { name: 'Platform', path: 'platform' }, null);
 * @throws ValidationError (400) for invalid fields, a taken path, a too deep nesting or a visibility
 *   above the parent's; NotFoundError when the parent was deleted meanwhile.
 */
export async function createGroup(creator: User, input: CreateGroupInput, parent: Namespace | null): Promise<Namespace> {
  const errors = validateGroupFields(input, parent ? 'subgroup' : 'top');
  if (parent && parent.ancestorIds.length + 1 > MAX_ANCESTORS) (errors.parent_id ??= []).push('has too deep level of nesting');
  assertValid(errors);
  const now = new Date().toISOString();
  const group: Namespace = {
    id: await nextId('namespaces'),
    kind: 'group',
    name: input.name,
    path: input.path,
    fullPath: parent ? `${parent.fullPath}/${input.path}` : input.path,
    parentId: parent?.id ?? null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    ownerId: null,
    description: input.description ?? '',
    visibility: input.visibility ?? 'private',
    lfsEnabled: input.lfs_enabled ?? true,
    requestAccessEnabled: input.request_access_enabled ?? false,
    ownerCount: 1,
    projectCount: 0,
    subgroupCount: 0,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const visibility = await visibilityErrors(group, group.visibility, parent, true);
  if (visibility.length > 0) throw new ValidationError({ visibility_level: visibility });
  const owner: Membership = {
    sourceKind: 'group',
    sourceId: group.id,
    userId: creator.id,
    accessLevel: OWNER,
    expiresAt: null,
    createdAt: now,
    createdById: creator.id,
  };
  const result = await insertGroup(group, owner, parent);
  if (result === 'path_taken') throw new ValidationError(TAKEN);
  if (result === 'parent_changed') throw await parentRefusal(parent!);
  return group;
}

/**
 * Changes a group's settings. A new path changes the full path of the group and of every
 * descendant: the group's transaction moves its own claim (keeping the old one, and blocking
 * creations and renames beneath it, while descendants move), then each descendant is moved in its
 * own transaction, and the move is closed. Should that walk stop midway (timeout, crash), lookups
 * by old and new paths keep working, creations beneath the group answer 409, and the next update
 * of the group finishes the walk before applying its own changes.
 *
 * @throws ValidationError for invalid fields, a taken path or a forbidden visibility; ConflictError
 *   when the group or its parent changed meanwhile.
 */
export async function updateGroup(current: Namespace, input: GroupSettingsInput): Promise<Namespace> {
  assertValid(validateGroupFields(input, current.parentId === null ? 'top' : 'subgroup'));
  const group = current.movingFrom?.length ? await completePathMove(current) : current;
  const parent = group.parentId !== null ? ((await getNamespace(group.parentId)) ?? null) : null;
  if (group.parentId !== null && !parent) throw new NotFoundError('Group');
  const path = input.path ?? group.path;
  const next = {
    name: input.name ?? group.name,
    path,
    fullPath: path === group.path ? group.fullPath : parent ? `${parent.fullPath}/${path}` : path,
    description: input.description ?? group.description,
    visibility: input.visibility ?? group.visibility,
    lfsEnabled: input.lfs_enabled ?? group.lfsEnabled,
    requestAccessEnabled: input.request_access_enabled ?? group.requestAccessEnabled,
    updatedAt: new Date().toISOString(),
  };
  const visibility = await visibilityErrors(group, next.visibility, parent, false);
  if (visibility.length > 0) throw new ValidationError({ visibility_level: visibility });
  const result = await updateGroupSettings(group, next, parent);
  if (result === 'path_taken') throw new ValidationError(TAKEN);
  if (result === 'parent_changed') throw await parentRefusal(parent!);
  if (result === 'conflict') throw new ConflictError('The group was modified by another request; try again');
  const updated: Namespace = { ...group, ...next, version: group.version + 1 };
  if (path !== group.path && (group.subgroupCount ?? 0) > 0) {
    return completePathMove({ ...updated, movingFrom: [group.fullPath] });
  }
  return updated;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How often a walk re-reads an index that has not caught up with a maintained count. */
const INDEX_ATTEMPTS = 7;

/**
 * The direct subgroups of a group, including ones being deleted. The subgroup index is eventually
 * consistent; the group's `subgroupCount` is exact, so the read is repeated (with backoff) until it
 * shows them all. Internal.
 */
async function childrenOf(groupId: number): Promise<Namespace[]> {
  for (let attempt = 1; ; attempt++) {
    const expected = (await readNamespaceRecord(groupId))?.subgroupCount ?? 0;
    if (expected <= 0) return [];
    const found = (await getMany((await subgroupIds(groupId)).map((id) => namespaceKeys.namespace(id))))
      .map(namespaceFromItem)
      .filter((child) => child.parentId === groupId);
    if (found.length >= expected) return found;
    if (attempt >= INDEX_ATTEMPTS) throw new Error(`subgroup index of group ${groupId} shows ${found.length} of ${expected}`);
    await sleep(25 * 2 ** attempt);
  }
}

/** Moves every descendant of `group` below its current full path, then closes the move. Internal. */
async function completePathMove(group: Namespace): Promise<Namespace> {
  const queue: Namespace[] = [group];
  for (let parent = queue.shift(); parent; parent = queue.shift()) {
    for (const child of await childrenOf(parent.id)) {
      const moved = await moveBelow(child, parent.fullPath);
      if (moved) queue.push(moved);
    }
  }
  await finishPathMove(group);
  return { ...group, movingFrom: undefined };
}

/** Moves one subgroup below `parentPath`; undefined when it is being deleted. Internal. */
async function moveBelow(child: Namespace, parentPath: string): Promise<Namespace | undefined> {
  let current: Namespace | undefined = child;
  for (let attempt = 1; current && !current.deleting; attempt++) {
    const fullPath = `${parentPath}/${current.path}`;
    if (current.fullPath === fullPath) return current;
    const result: GroupWriteResult = await moveNamespacePath(current, fullPath);
    if (result === 'done') return { ...current, fullPath };
    if (result === 'path_taken') throw new ConflictError(`Cannot move ${current.fullPath} to ${fullPath}: the path is taken`);
    if (attempt >= 3) throw new ConflictError('A subgroup changed while its path was moved; try again');
    current = await readNamespaceRecord(child.id);
  }
  return undefined;
}

/** How many items of one kind a deletion removes concurrently. */
const DELETE_CONCURRENCY = 8;

async function inBatches<T>(source: AsyncIterable<T>, action: (value: T) => Promise<unknown>): Promise<void> {
  let batch: Promise<unknown>[] = [];
  for await (const value of source) {
    batch.push(action(value));
    if (batch.length >= DELETE_CONCURRENCY) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

/**
 * Deletes a group with everything beneath it: subgroups (depth first), their projects (through
 * `deleteProject`), the shares of other projects with them, their memberships (with the
 * memberships' user index entries) and path claims. Each group is marked `deleting` before its
 * contents are swept: it disappears from reads, and nothing new attaches to it (subgroup creation
 * checks every ancestor; projects, members and shares check the group itself). A group item is
 * only removed once its maintained subgroup and project counts are zero, so no subgroup or
 * project is ever orphaned, even if an index lags. Shares and memberships are swept by
 * (eventually consistent) queries without such a count: one written in the instant before the
 * mark can be missed (a dangling share grants nothing, its group being gone).
 *
 * Runs within the request (GitLab answers 202 and works in the background). A walk interrupted
 * midway (timeout, crash) leaves the remaining groups marked `deleting`: invisible, with their
 * remaining content in place; they are not resumable through the API.
 */
export async function deleteGroup(group: Namespace): Promise<void> {
  if (!(await markGroupDeleting(group.id))) return;
  await deleteGroupTree(group.id);
}

async function deleteGroupTree(groupId: number): Promise<void> {
  for (const child of await childrenOf(groupId)) {
    await markGroupDeleting(child.id);
    await deleteGroupTree(child.id);
  }
  await deleteProjectsOf(groupId);
  await inBatches(queryCollection(projectCollections.groupShares(groupId)), (item) => unshareProject(Number(item.projectId), groupId));
  await inBatches(queryCollection(namespaceCollections.namespacePartition(groupId)), async (item: Item) => {
    if (item.SK === namespaceKeys.namespace(groupId).SK) return;
    await db().send(new DeleteCommand({ TableName: config().tableName, Key: { PK: item.PK, SK: item.SK } }));
  });
  for (let attempt = 1; ; attempt++) {
    const record = await readNamespaceRecord(groupId);
    if (!record) return;
    const result = await removeGroupRecord(record);
    if (result !== 'not_empty') return;
    // A subgroup or project appeared in the indexes late: take it too.
    if (attempt >= INDEX_ATTEMPTS) throw new Error(`group ${groupId} still has subgroups or projects after deletion`);
    await sleep(25 * 2 ** attempt);
    for (const child of await childrenOf(groupId)) {
      await markGroupDeleting(child.id);
      await deleteGroupTree(child.id);
    }
    await deleteProjectsOf(groupId);
  }
}

/** Deletes the projects of a group, re-reading each one consistently first. Internal. */
async function deleteProjectsOf(groupId: number): Promise<void> {
  await inBatches(queryCollection(projectCollections.namespaceProjects(groupId)), async (item: Item) => {
    const [fresh] = await getMany([projectKeys.project(Number(item.id))]);
    if (!fresh) return;
    const project: Project = projectFromItem(fresh);
    if (project.namespaceId === groupId) await deleteProject(project);
  });
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

export type GroupOrder = 'name' | 'path' | 'id';

export interface GroupListFilters {
  search?: string;
  owned?: boolean;
  all_available?: boolean;
  order_by?: GroupOrder;
  sort?: 'asc' | 'desc';
  skip_groups?: number[];
  min_access_level?: number;
  top_level_only?: boolean;
}

/**
 * Largest candidate set sorted in memory (`order_by=name|path` over all groups). Beyond it the
 * list answers 400 and asks for `order_by=id` (which streams the index) or a narrower list.
 */
const SORT_LIMIT = () => Number(process.env.GROUP_SORT_LIMIT ?? 5000);

/** The caller's direct, unexpired group memberships: group id → access level. Internal. */
async function directGroupLevels(user: User): Promise<Map<number, number>> {
  const levels = new Map<number, number>();
  for await (const item of queryCollection(membershipCollections.userMemberships(user.id, 'group'))) {
    const membership = membershipFromItem(item);
    if (isMembershipActive(membership)) levels.set(membership.sourceId, membership.accessLevel);
  }
  return levels;
}

/** The groups and all their live descendants (subgroup index, breadth first), bounded. Internal. */
async function withDescendants(roots: Namespace[]): Promise<Namespace[]> {
  const found = new Map(roots.map((group) => [group.id, group]));
  const queue = [...roots];
  for (let group = queue.shift(); group; group = queue.shift()) {
    if (!group.subgroupCount) continue;
    for await (const item of queryCollection(namespaceCollections.subgroups(group.id))) {
      const child = namespaceFromItem(item);
      if (child.deleting || found.has(child.id)) continue;
      found.set(child.id, child);
      queue.push(child);
      if (found.size > SORT_LIMIT()) throw new ParamError(`the list exceeds ${SORT_LIMIT()} groups; narrow it (search, owned, min_access_level)`);
    }
  }
  return [...found.values()];
}

type SortKey = (group: Namespace) => string;
const SORT_KEYS: Record<Exclude<GroupOrder, 'id'>, SortKey> = {
  name: (g) => g.name.toLowerCase(),
  path: (g) => g.path.toLowerCase(),
};

/** GitLab's order: by the field in the requested direction, then by id ascending. */
function comparator(order: GroupOrder, ascending: boolean) {
  const direction = ascending ? 1 : -1;
  if (order === 'id') return (a: Namespace, b: Namespace) => direction * (a.id - b.id);
  const key = SORT_KEYS[order];
  return (a: Namespace, b: Namespace) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -direction : ka > kb ? direction : 0) || a.id - b.id;
  };
}

/**
 * One page of an in-memory list already in order: offset pages, or keyset pages whose cursor is
 * the last group's id (the list is re-read and resumed right after it). Internal.
 */
async function pageOf(pagination: PaginationParams, link: PageLinkBase, sorted: Namespace[]): Promise<Page<Namespace>> {
  if (pagination.pagination !== 'keyset') return paginateArray(pagination, link, sorted);
  return paginate(pagination, link, {
    async *read(after) {
      if (after !== undefined && !/^\d+$/.test(after)) throw new ParamError('cursor is invalid');
      let start = after === undefined ? 0 : sorted.findIndex((g) => g.id === Number(after)) + 1;
      if (after !== undefined && start === 0) throw new ParamError('cursor is invalid');
      for (; start < sorted.length; start++) {
        const group = sorted[start];
        yield { value: group, cursor: () => String(group.id) };
      }
    },
  });
}

/**
 * One page of `GET /groups`, following GitLab's `GroupsFinder`:
 * - anonymous: public groups;
 * - `owned`: groups the caller directly owns; `min_access_level`: groups where the caller's direct
 *   level is at least that, with their subgroups;
 * - admins, and users asking `all_available=true`: every group they may read (the groups index);
 * - other users: the groups they are members of, with their subgroups.
 *
 * Membership-based lists are bounded by the caller's memberships and sorted in memory. Lists over
 * the groups index stream it by id for `order_by=id`; ordering by name or path reads and sorts it
 * whole, up to `GROUP_SORT_LIMIT` groups (see ACCESS_PATTERNS.md). `search` (name or path
 * substring), `skip_groups` and `top_level_only` filter after the read.
 */
export async function listGroups(
  viewer: User | null,
  filters: GroupListFilters,
  pagination: PaginationParams,
  link: PageLinkBase,
): Promise<Page<Namespace>> {
  const order = filters.order_by ?? 'name';
  const ascending = (filters.sort ?? 'asc') === 'asc';
  const search = filters.search?.toLowerCase();
  const skip = new Set(filters.skip_groups ?? []);
  const matches = (group: Namespace) =>
    group.kind === 'group' &&
    !group.deleting &&
    !skip.has(group.id) &&
    (!filters.top_level_only || group.parentId === null) &&
    (!search || group.name.toLowerCase().includes(search) || group.path.toLowerCase().includes(search));

  const membershipList = viewer && (filters.owned || filters.min_access_level !== undefined || !(filters.all_available ?? isAdmin(viewer)));
  if (membershipList) {
    const levels = await directGroupLevels(viewer);
    const minimum = filters.owned ? OWNER : (filters.min_access_level ?? 0);
    const direct = await getNamespaces([...levels].filter(([, level]) => level >= minimum).map(([id]) => id));
    const all = filters.owned ? direct : await withDescendants(direct);
    return pageOf(pagination, link, all.filter(matches).sort(comparator(order, ascending)));
  }

  // Every group the caller may read: admins all, others public (and internal, and their own).
  const levels = viewer && !isAdmin(viewer) ? await directGroupLevels(viewer) : new Map<number, number>();
  const readable = (group: Namespace) => {
    const level = Math.max(0, ...[group.id, ...group.ancestorIds].map((id) => levels.get(id) ?? 0));
    return can(viewer, 'read_group', { kind: 'group', group, level });
  };
  const select = (item: Item) => {
    const group = namespaceFromItem(item);
    return matches(group) && readable(group) ? group : undefined;
  };
  if (order === 'id') return paginate(pagination, link, { collection: namespaceCollections.groups(), ascending, select });
  const all: Namespace[] = [];
  let read = 0;
  for await (const item of queryCollection(namespaceCollections.groups())) {
    if (++read > SORT_LIMIT()) {
      throw new ParamError(`order_by=${order} is supported for up to ${SORT_LIMIT()} groups; use order_by=id or narrow the list`);
    }
    const group = select(item);
    if (group) all.push(group);
  }
  return pageOf(pagination, link, all.sort(comparator(order, ascending)));
}

/**
 * One page of `GET /namespaces`: for admins every namespace (the namespace index, by id); for
 * others their personal namespace and the groups they are direct members of (GitLab 9's
 * `current_user.namespaces`). `search` matches name, path or full path.
 */
export async function listNamespaces(viewer: User, search: string | undefined, pagination: PaginationParams, link: PageLinkBase): Promise<Page<Namespace>> {
  const needle = search?.toLowerCase();
  const matches = (namespace: Namespace) =>
    !namespace.deleting &&
    (!needle || [namespace.name, namespace.path, namespace.fullPath].some((value) => value.toLowerCase().includes(needle)));
  const admin: boolean = isAdmin(viewer);
  if (admin) {
    return paginate(pagination, link, {
      collection: namespaceCollections.namespaces(),
      ascending: true,
      select: (item) => {
        const namespace = namespaceFromItem(item);
        return matches(namespace) ? namespace : undefined;
      },
    });
  }
  const ids: number[] = [viewer.namespaceId, ...(await directGroupLevels(viewer)).keys()];
  const namespaces = (await getNamespaces(ids)).filter(matches).sort((a, b) => a.id - b.id);
  return pageOf(pagination, link, namespaces);
}

// ---------------------------------------------------------------------------------------------
// Single group details
// ---------------------------------------------------------------------------------------------

/** How many projects `GET /groups/:id` embeds (`projects`, `shared_projects` each). */
export const DETAIL_PROJECTS_LIMIT = 20;

/**
 * The projects `GET /groups/:id` embeds: the group's own projects the caller may see (newest
 * first) and the projects shared with the group that the caller may see, up to
 * {@link DETAIL_PROJECTS_LIMIT} each. Costs one project list page plus one index query and three
 * batch reads for the shares.
 */
export async function groupDetailProjects(
  viewer: User | null,
  group: Namespace,
  link: PageLinkBase,
): Promise<{ projects: ProjectSubject[]; sharedProjects: ProjectSubject[] }> {
  const firstPage = { page: 1, per_page: DETAIL_PROJECTS_LIMIT };
  const [own, sharedProjects] = await Promise.all([
    listProjects(viewer, { namespaceId: group.id }, firstPage, link),
    sharedWith(viewer, group),
  ]);
  return { projects: own.items, sharedProjects };
}

async function sharedWith(viewer: User | null, group: Namespace): Promise<ProjectSubject[]> {
  const subjects: ProjectSubject[] = [];
  let ids: number[] = [];
  const load = async () => {
    const projects = (await getMany(ids.map((id) => projectKeys.project(id)))).map(projectFromItem).filter((p) => !p.deleting);
    const namespaces = new Map((await getNamespaces([...new Set(projects.map((p) => p.namespaceId))])).map((n) => [n.id, n]));
    const entries = projects.flatMap((project) => {
      const namespace = namespaces.get(project.namespaceId);
      return namespace ? [{ project, namespace }] : [];
    });
    const access = await projectAccessForMany(viewer, entries);
    entries.forEach((entry, i) => {
      const subject: ProjectSubject = { kind: 'project', ...entry, access: access[i] };
      if (can(viewer, 'read_project', subject) && subjects.length < DETAIL_PROJECTS_LIMIT) subjects.push(subject);
    });
    ids = [];
  };
  for await (const item of queryCollection(projectCollections.groupShares(group.id))) {
    ids.push(Number(item.projectId));
    if (ids.length >= DETAIL_PROJECTS_LIMIT) {
      await load();
      if (subjects.length >= DETAIL_PROJECTS_LIMIT) break;
    }
  }
  if (ids.length > 0) await load();
  return subjects.sort((a, b) => a.project.id - b.project.id);
}
