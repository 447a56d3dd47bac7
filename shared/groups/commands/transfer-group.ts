/**
 * `POST /groups/:id/transfer` (GitLab's `Groups::TransferService`): moves a group under another
 * group, or to the top level. The group's full path, and that of every descendant, changes: the
 * group's own transaction moves its path claim, parent, ancestors and both parents' subgroup
 * counts (`transferGroupRecord`), then each descendant is moved as after a rename
 * (`completePathMove`). Projects keep their namespace id, so their paths follow at once.
 */
import { groupAccessFor, isAdmin, OWNER } from '../../auth';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/http/errors';
import { getNamespace, subgroupsOf, transferGroupRecord, visibilityRank, type Namespace, type Visibility } from '../../namespaces';
import { capProjectVisibility } from '../../projects';
import type { User } from '../../users';
import { indexedProjectsOf } from '../store/projects';
import { completePathMove, validateGroupFields } from './groups';

/** GitLab's `Namespace::NUMBER_OF_ANCESTORS_ALLOWED`. */
const MAX_ANCESTORS = 20;

const failed = (message: string) => new BadRequestError(`Transfer failed: ${message}`);

/**
 * Transfers `group` (the route checked `admin_group` on it) under `parent`, or to the top level
 * when `parent` is null. The caller must be able to create subgroups in the new parent (owner;
 * admins always), or top-level groups.
 * @throws BadRequestError with GitLab's `Transfer failed: ...` messages; ConflictError when the
 *   group or the new parent changed meanwhile.
 */
export async function transferGroup(user: User, current: Namespace, parent: Namespace | null, canCreateTopLevel: boolean): Promise<Namespace> {
  const group = current.movingFrom?.length ? await completePathMove(current) : current;
  if (parent === null) {
    if (group.parentId === null) throw failed('Group is already a root group.');
    if (!canCreateTopLevel) throw failed("You don't have enough permissions.");
    const errors = validateGroupFields({ path: group.path }, 'top');
    if (errors.path) throw failed(`The parent group already has a subgroup or a project with the same path.`);
  } else {
    if (parent.id === group.parentId) throw failed('Group is already associated to the parent group.');
    if (parent.id === group.id || parent.ancestorIds.includes(group.id)) throw failed('Cannot transfer group to one of its subgroup.');
    if (!isAdmin(user) && (await groupAccessFor(user, parent)) < OWNER) throw failed("You don't have enough permissions.");
    if (parent.ancestorIds.length + 1 > MAX_ANCESTORS) throw failed('Group has too deep level of nesting.');
  }
  // GitLab lowers the group's visibility to the new parent's (its descendants follow in the walk).
  const visibility = parent && visibilityRank[group.visibility] > visibilityRank[parent.visibility] ? parent.visibility : group.visibility;
  const result = await transferGroupRecord(group, parent, visibility);
  if (result === 'path_taken') throw failed('The parent group already has a subgroup or a project with the same path.');
  if (result === 'parent_changed') {
    if (parent && !(await getNamespace(parent.id))) throw new NotFoundError('Group');
    throw new ConflictError('The parent group is being changed by another request; try again');
  }
  if (result === 'conflict') throw new ConflictError('The group was modified by another request; try again');
  const fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
  const moved: Namespace = {
    ...group,
    parentId: parent?.id ?? null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    fullPath,
    visibility,
    version: group.version + 1,
  };
  const done = (group.subgroupCount ?? 0) > 0 ? await completePathMove({ ...moved, movingFrom: [group.fullPath] }) : moved;
  if (visibility !== group.visibility) await capProjectsVisibility(done, visibility);
  return done;
}

/**
 * Lowers the projects of `group` and of its descendants that are more visible than `cap` to it
 * (GitLab's `update_children_and_projects_visibility` on `all_projects`). Reads the tree's
 * namespace-projects indexes (eventually consistent) a page at a time; one conditioned write per
 * project lowered. Its cost is the tree's, as the path move's: a transfer is no list page.
 */
async function capProjectsVisibility(group: Namespace, cap: Visibility): Promise<void> {
  const queue: Namespace[] = [group];
  for (let namespace = queue.shift(); namespace; namespace = queue.shift()) {
    for await (const project of indexedProjectsOf(namespace.id)) {
      if (!project.deleting && visibilityRank[project.visibility] > visibilityRank[cap]) await capProjectVisibility(project, namespace, cap);
    }
    if ((namespace.subgroupCount ?? 0) > 0) queue.push(...(await subgroupsOf(namespace.id)).filter((child) => !child.deleting));
  }
}
