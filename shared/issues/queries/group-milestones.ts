/** Group milestone reads: one milestone of a group, and a group's milestones with GitLab's list filters. */
import type { Namespace } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { getGroupMilestone, listGroupMilestones, type GroupMilestone } from '../store/group-milestones';
import type { Milestone } from '../store/milestones';
import { groupChain } from './group-labels';
import type { MilestoneFilters } from './milestones';

/** The group's milestone, or 404 `{"message":"404 Milestone Not Found"}` (also another group's id). */
export async function findGroupMilestoneOrNotFound(groupId: number, milestoneId: number): Promise<GroupMilestone> {
  const milestone = await getGroupMilestone(groupId, milestoneId);
  if (!milestone) throw new NotFoundError('Milestone');
  return milestone;
}

/** Whether a milestone passes `filters` (GitLab's `MilestonesFinder`: state, iids, exact title, search). */
export function milestoneMatches(filters: MilestoneFilters): (milestone: Milestone | GroupMilestone) => boolean {
  const iids = filters.iids && filters.iids.length > 0 ? new Set(filters.iids) : undefined;
  const search = filters.search?.toLowerCase();
  return (m) =>
    (!filters.state || filters.state === 'all' || m.state === filters.state) &&
    (!iids || iids.has(m.iid)) &&
    (filters.title === undefined || m.title === filters.title) &&
    (!search || m.title.toLowerCase().includes(search) || (m.description ?? '').toLowerCase().includes(search));
}

/**
 * A group's milestones (and, with `includeAncestors`, its ancestors') matching `filters`, by id
 * ascending. One range read per group; filters apply in memory.
 */
export async function listMilestonesOfGroup(group: Namespace, filters: MilestoneFilters & { includeAncestors?: boolean }): Promise<GroupMilestone[]> {
  const groupIds = filters.includeAncestors ? groupChain(group) : [group.id];
  const all = (await Promise.all(groupIds.map(listGroupMilestones))).flat();
  return all.filter(milestoneMatches(filters)).sort((a, b) => a.id - b.id);
}
