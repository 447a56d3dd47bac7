/**
 * What goes with a tag deleted through the API: GitLab's `Tags::DestroyService` deletes the tag's
 * release once the ref is gone. Releases sit above the repository and cannot be imported here, so
 * the composition root registers them (`removeWithTag(removeReleaseOfTag)`); a tag deleted by a
 * git push keeps its release, as GitLab's push services do.
 */
import { logger } from '../platform/logger';
import type { Project } from '../projects';

/** Removes what hangs on a deleted tag (its name without `refs/tags/`). */
export type TagRemoval = (project: Project, tag: string) => unknown;

const removals: TagRemoval[] = [];

/**
 * Registers removals (at module load, by a composition root).
 *
 * @example
 * removeWithTag(removeReleaseOfTag);
 */
export function removeWithTag(...removal: TagRemoval[]): void {
  removals.push(...removal);
}

/** Internal: runs every removal of a deleted tag; a failure is logged, the tag stays deleted. */
export async function runTagRemovals(project: Project, tag: string): Promise<void> {
  for (const removal of removals) {
    try {
      await removal(project, tag);
    } catch (error) {
      logger.error('tag removal failed; the tag is deleted', { projectId: project.id, tag, error });
    }
  }
}
