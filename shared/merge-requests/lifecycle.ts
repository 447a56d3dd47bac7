/** What the merge-requests feature does when a project is deleted (registered by the composition root). */
import type { Project } from '../projects';
import { removeVersionObjects } from './store/versions';

/** Removes the S3 objects of the project's large diff versions. */
export async function removeMergeRequestObjects(project: Project): Promise<void> {
  await removeVersionObjects(project.id);
}
