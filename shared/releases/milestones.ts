/**
 * A release's milestones are the issues feature's project milestones. Few releases have any, and
 * the repository's function (which serves releases) has no other use for the issues feature: it
 * is loaded on first use (`platform/lazy.ts`), not at cold start.
 */
import { BadRequestError } from '../platform/http/errors';
import { lazily } from '../platform/lazy';

const issues = () => import('../issues');
const findMilestoneByTitle = lazily(issues, (m) => m.findMilestoneByTitle);
const getMilestone = lazily(issues, (m) => m.getMilestone);
const presentMilestone = lazily(issues, (m) => m.presentMilestone);

/** A milestone as the `Release` entity shows it (GitLab's `Milestone` fields). */
export type PresentedMilestone = Awaited<ReturnType<typeof presentMilestone>>;

/** The ids of the project's milestones titled `titles`; 400 `Milestone(s) not found: …` naming those that do not exist. */
export async function milestoneIdsOf(projectId: number, titles: string[]): Promise<number[]> {
  if (titles.length === 0) return [];
  const found = await Promise.all(titles.map((title) => findMilestoneByTitle(projectId, title)));
  const missing = titles.filter((_, i) => !found[i]);
  if (missing.length > 0) throw new BadRequestError(`Milestone(s) not found: ${missing.join(', ')}`);
  return [...new Set(found.map((milestone) => milestone!.id))];
}

/** The project's milestones of `ids` that still exist, presented, by id (none asked: nothing loaded). */
export async function presentedMilestones(projectId: number, ids: number[], projectFullPath: string): Promise<Map<number, PresentedMilestone>> {
  if (ids.length === 0) return new Map();
  const milestones = await Promise.all(ids.map((id) => getMilestone(projectId, id)));
  const presented = await Promise.all(milestones.flatMap((milestone) => (milestone ? [presentMilestone(milestone, projectFullPath)] : [])));
  return new Map(presented.map((milestone) => [milestone.id, milestone]));
}
