/**
 * The groups `GET /groups` adds to a user's member groups, shares and their subgroups, following
 * GitLab's `GroupsFinder#authorized_groups` (`current_user.authorized_groups.self_and_ancestors`):
 * - the groups holding a project the user is a member of through a project membership only
 *   (`User#authorized_groups` takes the namespaces of the user's authorized projects; their
 *   subgroups are not added);
 * - the ancestors of every such group, of the member groups and of the groups shared with them
 *   (`self_and_ancestors`), private ones included: a subgroup member sees the path above it.
 *
 * Cost, bounded by the caller's memberships: the caller's project memberships (one Query of the
 * membership index, `USER_MEMBERSHIPS#<id>` / `PROJECT#`), one BatchGetItem of those projects, and
 * BatchGetItems of the namespaces not read yet (the projects' groups, then the ancestors). More
 * than `GROUP_SORT_LIMIT` project memberships answer 400, as the other membership lists do.
 */
import { isMembershipActive, userMemberships } from '../../auth';
import { config } from '../../platform/config';
import { ParamError } from '../../platform/http/errors';
import { getNamespaces, type Namespace } from '../../namespaces';
import { getProjects } from '../../projects';
import type { User } from '../../users';

const tooMany = () => new ParamError(`the list exceeds ${config().groupSortLimit} groups; narrow it (search, owned, min_access_level)`);

/** The ids of the projects the user is an active member of (direct project memberships). */
async function memberProjectIds(user: User): Promise<number[]> {
  const ids: number[] = [];
  for await (const membership of userMemberships(user.id, 'project')) {
    if (!isMembershipActive(membership)) continue;
    ids.push(membership.sourceId);
    if (ids.length > config().groupSortLimit) throw tooMany();
  }
  return ids;
}

/**
 * The groups to add to `listed` (the groups already in the list, read): the groups of the user's
 * member projects and the ancestors of all of them, none of `listed`.
 */
export async function projectGroupsAndAncestors(user: User, listed: readonly Namespace[]): Promise<Namespace[]> {
  const known = new Map(listed.map((group) => [group.id, group]));
  const added = new Map<number, Namespace>();
  const load = async (ids: Iterable<number>) => {
    const missing = [...new Set(ids)].filter((id) => !known.has(id) && !added.has(id));
    if (missing.length === 0) return [];
    if (known.size + added.size + missing.length > config().groupSortLimit) throw tooMany();
    const groups = (await getNamespaces(missing)).filter((namespace) => namespace.kind === 'group');
    for (const group of groups) added.set(group.id, group);
    return groups;
  };
  const projectIds = await memberProjectIds(user);
  const projects = projectIds.length === 0 ? [] : await getProjects(projectIds);
  const projectGroups = await load(projects.map((project) => project.namespaceId));
  await load([...listed, ...projectGroups].flatMap((group) => group.ancestorIds));
  return [...added.values()];
}
