/**
 * What the issues feature does for `GET /user_counts` when a project is deleted (registered by the
 * composition root, `removeWithProject`): its pending todos and its open issues' assignees leave
 * their users' counts before the project's partition is swept.
 */
import type { Project } from '../../projects';
import { releaseProjectUserCounts } from '../store/user-counts';

/** Takes a project being deleted out of its users' issue and todo counts (resumable, once each). */
export async function releaseUserCountsWithProject(project: Project): Promise<void> {
  await releaseProjectUserCounts(project.id);
}
