/**
 * Milestone reads: one milestone of a project, and a project's milestones with the list filters
 * of GitLab's `MilestonesFinder`.
 */
import { NotFoundError } from '../../platform/http/errors';
import { getMilestone, isMilestoneAlias, listMilestones, type Milestone, type MilestoneState } from '../store/milestones';

/** The milestone, or 404 `{"message":"404 Milestone Not Found"}` (also for another project's id). */
export async function findMilestoneOrNotFound(projectId: number, milestoneId: number): Promise<Milestone> {
  const milestone = await getMilestone(projectId, milestoneId);
  if (!milestone || isMilestoneAlias(milestone)) throw new NotFoundError('Milestone');
  return milestone;
}

export interface MilestoneFilters {
  state?: MilestoneState | 'all';
  iids?: number[];
  /** Exact title. */
  title?: string;
  /** Case-insensitive substring of the title or the description. */
  search?: string;
}

/**
 * A project's milestones matching `filters`, by id ascending (GitLab 9's order: the database's,
 * with no explicit sort). Reads the project's milestone range once; filters apply in memory.
 */
export async function listProjectMilestones(projectId: number, filters: MilestoneFilters): Promise<Milestone[]> {
  const iids = filters.iids && filters.iids.length > 0 ? new Set(filters.iids) : undefined;
  const search = filters.search?.toLowerCase();
  return (await listMilestones(projectId)).filter(
    (m) =>
      !isMilestoneAlias(m) &&
      (!filters.state || filters.state === 'all' || m.state === filters.state) &&
      (!iids || iids.has(m.iid)) &&
      (filters.title === undefined || m.title === filters.title) &&
      (!search || m.title.toLowerCase().includes(search) || (m.description ?? '').toLowerCase().includes(search)),
  );
}
