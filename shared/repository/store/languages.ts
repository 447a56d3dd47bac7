/**
 * The cached language statistics of a project (`GET /projects/:id/languages`): one item in the
 * project's partition holding the shares computed at one commit of the default branch. A request
 * at the same commit reads only this item; a new head replaces it. Deleting the project removes it
 * with the partition.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { getItem } from '../../platform/dynamo/query';
import { repositoryKeys } from './keys';

export interface LanguageStatistics {
  /** The commit the shares were computed at. */
  commit: string;
  /** Language name → percent of the counted bytes. */
  shares: Record<string, number>;
}

/** The statistics last computed for the project, if any. */
export async function getLanguageStatistics(projectId: number): Promise<LanguageStatistics | undefined> {
  const item = await getItem(repositoryKeys.languages(projectId));
  return item ? { commit: String(item.commit), shares: (item.shares ?? {}) as Record<string, number> } : undefined;
}

/**
 * Stores the statistics of a commit, replacing what was there. Two requests racing at different
 * heads may leave either; the next request recomputes when the head differs, so the item is never
 * wrong for long, and it is only a cache.
 */
export async function putLanguageStatistics(projectId: number, statistics: LanguageStatistics): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...repositoryKeys.languages(projectId), type: 'LanguageStatistics', commit: statistics.commit, shares: statistics.shares },
    }),
  );
}
