/**
 * The releases of a page of tags, for the tags API's `release` field (registered into the
 * repository by the composition root): one BatchGetItem of the tags' release items (pattern 128),
 * whatever the number of releases the project has.
 */
import { getMany } from '../../platform/dynamo/batch';
import { releaseKeys } from '../store/keys';
import { releaseOfItem } from '../store/releases';

/** `{ tag_name, description }` of the releases of `tags` that have one, by tag name. */
export async function releasesOfTags(project: { id: number }, tags: readonly string[]): Promise<ReadonlyMap<string, { tag_name: string; description: string | null }>> {
  const items = await getMany(tags.map((tag) => releaseKeys.release(project.id, tag)));
  return new Map(items.map(releaseOfItem).map((release) => [release.tag, { tag_name: release.tag, description: release.description }]));
}
