/** What the merge-requests feature does when a project is deleted (registered by the composition root). */
import type { Project } from '../projects';
import { releaseProjectMergeRequestCounts } from './store/merge-requests';
import { removeVersionObjects } from './store/versions';

/**
 * Removes the S3 objects of the project's large diff versions, and takes its open merge requests
 * out of their assignees' and reviewers' counts (`GET /user_counts`).
 */
export async function removeMergeRequestObjects(project: Project): Promise<void> {
  await releaseProjectMergeRequestCounts(project.id);
  await removeVersionObjects(project.id);
}
