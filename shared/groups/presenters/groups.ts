/**
 * Response entities of the Groups API in GitLab's forms: Group (lists, create, update), GroupDetail
 * (single group, with its projects) and Namespace. `full_name` needs the names of a group's
 * ancestors: {@link presentGroups} loads those of a whole page in one BatchGetItem.
 */
import { can, groupAccessFor, type ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { getNamespaces, namespaceAvatarUrl, type Namespace } from '../../namespaces';
import type { User } from '../../users';
import { presentProjects } from '../../projects';

/** Ancestor groups by id, to build `full_name`. */
export type AncestorNames = Map<number, Namespace>;

export interface GroupPresentOptions {
  /** `statistics=true` by an admin: the (not measured, zero) storage statistics. */
  statistics?: boolean;
}

/** `Parent / Child`, GitLab's human name of a group. */
function fullName(group: Namespace, ancestors: AncestorNames): string {
  const names = [...group.ancestorIds].reverse().map((id) => ancestors.get(id)?.name ?? String(id));
  return [...names, group.name].join(' / ');
}

/** The Group entity. */
export function presentGroup(group: Namespace, ancestors: AncestorNames, options: GroupPresentOptions = {}) {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    lfs_enabled: group.lfsEnabled,
    avatar_url: namespaceAvatarUrl(group),
    web_url: `${config().externalUrl}/groups/${group.fullPath}`,
    request_access_enabled: group.requestAccessEnabled,
    full_name: fullName(group, ancestors),
    full_path: group.fullPath,
    parent_id: group.parentId,
    created_at: group.createdAt,
    ...(options.statistics ? { statistics: { storage_size: 0, repository_size: 0, lfs_objects_size: 0, job_artifacts_size: 0 } } : {}),
  };
}

/** Loads the ancestors of the given groups that are not among them (one BatchGetItem). */
async function loadAncestors(groups: Namespace[]): Promise<AncestorNames> {
  const known = new Map(groups.map((group) => [group.id, group]));
  const missing = [...new Set(groups.flatMap((group) => group.ancestorIds))].filter((id) => !known.has(id));
  for (const ancestor of await getNamespaces(missing)) known.set(ancestor.id, ancestor);
  return known;
}

/** A page of groups as Group entities. */
export async function presentGroups(groups: Namespace[], options: GroupPresentOptions = {}) {
  const ancestors = await loadAncestors(groups);
  return groups.map((group) => presentGroup(group, ancestors, options));
}

/**
 * The GroupDetail entity: the Group entity with `projects` and `shared_projects` (Project entities,
 * as the caller sees them). Their cost is a project list page and the shares' reads (see
 * `groupDetailProjects`), so only single-group responses carry them.
 */
export async function presentGroupDetail(
  group: Namespace,
  viewer: User | null,
  embedded: { projects: ProjectSubject[]; sharedProjects: ProjectSubject[] },
) {
  const [presented] = await presentGroups([group]);
  const [projects, sharedProjects, sharedWithGroups] = await Promise.all([
    presentProjects(embedded.projects, viewer),
    presentProjects(embedded.sharedProjects, viewer),
    presentSharedWithGroups(group, viewer),
  ]);
  return { ...presented, shared_with_groups: sharedWithGroups, projects, shared_projects: sharedProjects };
}

/**
 * GitLab's `shared_with_groups` of GroupDetail: the groups this group is shared with, those the
 * viewer may read (`shared_with_group_links_visible_to_user`). One BatchGetItem for the groups,
 * and the viewer's level only in private ones.
 */
async function presentSharedWithGroups(group: Namespace, viewer: User | null) {
  const links = group.sharedWithGroups ?? [];
  if (links.length === 0) return [];
  const invited = new Map((await getNamespaces(links.map((link) => link.groupId))).map((g) => [g.id, g]));
  const shown = await Promise.all(
    links.map(async (link) => {
      const other = invited.get(link.groupId);
      if (!other || other.kind !== 'group') return undefined;
      const level = other.visibility === 'private' ? await groupAccessFor(viewer, other) : 0;
      if (!can(viewer, 'read_group', { kind: 'group', group: other, level })) return undefined;
      return {
        group_id: other.id,
        group_name: other.name,
        group_full_path: other.fullPath,
        group_access_level: link.groupAccess,
        expires_at: link.expiresAt,
      };
    }),
  );
  return shown.filter((entry) => entry !== undefined);
}

