/**
 * The releases of tags, for the tags API's `release` field (GitLab's `TagRelease`:
 * `{ tag_name, description }`, null for a tag without one). Releases sit above the repository and
 * cannot be imported here, so the composition root registers how to read them
 * (`tagReleasesWith(releasesOfTags)`); without one registered, no tag has a release.
 */
import type { Project } from '../projects';

/** A tag's release as the tags API shows it. */
export interface TagRelease {
  tag_name: string;
  description: string | null;
}

/** The releases of some tags of a project (by tag name), read at once. */
export type TagReleases = (project: Project, tags: readonly string[]) => Promise<ReadonlyMap<string, TagRelease>>;

let provider: TagReleases | undefined;

/**
 * Registers how tags' releases are read (at module load, by a composition root).
 *
 * @example
 * tagReleasesWith(lazily(() => import('../shared/releases/queries/tag-releases'), (m) => m.releasesOfTags));
 */
export function tagReleasesWith(read: TagReleases): void {
  provider = read;
}

/** Internal: the releases of `tags` (a page of them: one batched read), none when no reader is registered. */
export async function releasesOfTags(project: Project, tags: readonly string[]): Promise<ReadonlyMap<string, TagRelease>> {
  if (!provider || tags.length === 0) return new Map();
  return provider(project, tags);
}
