/**
 * Group writes: validation (GitLab's namespace model errors), creation of groups and subgroups
 * with their first owner, and settings updates including path changes that move every descendant.
 * Deletion is in `delete-group.ts`.
 *
 * A group is a namespace (same id sequence, same full-path claims as usernames). The invariants
 * live in the transactions of `store/namespaces.ts`; this module decides what to write and maps
 * the store's results to GitLab's answers. It reads the projects of a group (visibility rules), so
 * it sits above the projects feature and is reached only from the groups routes.
 */
import { OWNER, type Membership } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import type { User } from '../../users';
import { isValidNamespacePath, NAMESPACE_PATH_MESSAGE, reservedPathMessage, finishPathMove, getNamespace, indexedSubgroups, insertGroup, moveNamespacePath, readNamespaceRecord, subgroupsOf, updateGroupSettings, visibilityRank, type Namespace, type Visibility } from '../../namespaces';
import { indexedProjectsOf } from '../store/projects';
import { notifyGroupCreated } from './lifecycle';

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
 * GitLab's model validations of a group's name, path and description, as `{ field: [messages] }`; `place`
 * picks the reserved words a path may not be (top-level groups share the users' namespace).
 */
export function validateGroupFields(fields: { name?: string; path?: string; description?: string }, place: 'top' | 'subgroup'): Record<string, string[]> {
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
  // GitLab's Namespace: `validates :description, length: { maximum: 255 }`.
  if (fields.description !== undefined && fields.description.length > MAX_LENGTH) add('description', `is too long (maximum is ${MAX_LENGTH} characters)`);
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
    for await (const subgroup of indexedSubgroups(group.id)) {
      if (!subgroup.deleting && moreVisible(subgroup.visibility, visibility)) {
        return [`${visibility} is not allowed since there are sub-groups with higher visibility.`];
      }
    }
  }
  for await (const project of indexedProjectsOf(group.id)) {
    if (!project.deleting && moreVisible(project.visibility, visibility)) {
      return [`${visibility} is not allowed since this group contains projects with higher visibility.`];
    }
  }
  return [];
}

async function assertVisibilityAllowed(group: Namespace, visibility: Visibility, parent: Namespace | null, isNew: boolean): Promise<void> {
  const errors = await visibilityErrors(group, visibility, parent, isNew);
  if (errors.length > 0) throw new ValidationError({ visibility_level: errors });
}

const TAKEN = { path: ['has already been taken'] };

/** Maps a refused parent to 404 when it is gone and 409 when it is only busy. */
async function parentRefusal(parent: Namespace): Promise<Error> {
  if (!(await getNamespace(parent.id))) return new NotFoundError('Group');
  return new ConflictError('The parent group is being changed by another request; try again');
}

/**
 * Creates a group, or a subgroup of `parent` (the route checked `create_group` or `admin_group`
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
  await assertVisibilityAllowed(group, group.visibility, parent, true);
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
  await notifyGroupCreated(group);
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
  await assertVisibilityAllowed(group, next.visibility, parent, false);
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

/**
 * Moves every descendant of `group` below its current full path (and, after a transfer, below its
 * ancestors and within its visibility), then closes the move.
 */
export async function completePathMove(group: Namespace): Promise<Namespace> {
  const queue: Namespace[] = [group];
  for (let parent = queue.shift(); parent; parent = queue.shift()) {
    for (const child of await subgroupsOf(parent.id)) {
      const moved = await moveBelow(child, parent);
      if (moved) queue.push(moved);
    }
  }
  await finishPathMove(group);
  return { ...group, movingFrom: undefined };
}

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** Moves one subgroup below `parent` (its path, ancestors, visibility cap); undefined when it is being deleted. Internal. */
async function moveBelow(child: Namespace, parent: Namespace): Promise<Namespace | undefined> {
  let current: Namespace | undefined = child;
  const ancestorIds = [parent.id, ...parent.ancestorIds];
  for (let attempt = 1; current && !current.deleting; attempt++) {
    const fullPath = `${parent.fullPath}/${current.path}`;
    const visibility = moreVisible(current.visibility, parent.visibility) ? parent.visibility : current.visibility;
    if (current.fullPath === fullPath && sameIds(current.ancestorIds, ancestorIds) && visibility === current.visibility) return current;
    const result = await moveNamespacePath(current, fullPath, { ancestorIds, visibility });
    if (result === 'done') return { ...current, fullPath, ancestorIds, visibility };
    if (result === 'path_taken') throw new ConflictError(`Cannot move ${current.fullPath} to ${fullPath}: the path is taken`);
    if (attempt >= 3) throw new ConflictError('A subgroup changed while its path was moved; try again');
    current = await readNamespaceRecord(child.id);
  }
  return undefined;
}
