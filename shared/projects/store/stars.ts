/**
 * Stars: one item per user and starred project, in the project's partition, indexed by user in
 * GSI1 (the user's starred projects) and by project in GSI2 (the project's starrers, newest star
 * first). Both index entries are attributes of the star item itself, so they come and go with it;
 * `star_count` on the project item moves in the same transaction, so it stays exact under
 * concurrent (un)starring and equals the number of starrers.
 */
import { tableName } from '../../platform/dynamo/client';
import { addIndexEntry } from '../../platform/dynamo/migrations';
import { queryCollection, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectCollections, projectIndexKeys, projectKeys } from './keys';
import { projectCounterUpdate } from './projects';

/** A user's star on a project. */
export interface Star {
  projectId: number;
  userId: number;
  createdAt: string;
}

export const starFromItem = (item: Item): Star => ({ projectId: Number(item.projectId), userId: Number(item.userId), createdAt: String(item.createdAt) });

/** Stars a project for a user; `already_starred` when the user had. */
export async function putStar(projectId: number, userId: number): Promise<'starred' | 'already_starred'> {
  const createdAt = new Date().toISOString();
  const item = {
    ...projectKeys.star(projectId, userId),
    ...projectIndexKeys.userStar(userId, projectId),
    ...projectIndexKeys.projectStarrer(projectId, createdAt, userId),
    type: 'Star',
    projectId,
    userId,
    createdAt,
  };
  const failure = await transactOr(
    { star: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } }, project: projectCounterUpdate(projectId, 'starCount', 1) },
    [['star', 'already_starred' as const]],
  );
  return failure ?? 'starred';
}

/** Removes a user's star from a project; `not_starred` when there was none. */
export async function deleteStar(projectId: number, userId: number): Promise<'unstarred' | 'not_starred'> {
  const failure = await transactOr(
    {
      star: { Delete: { TableName: tableName(), Key: projectKeys.star(projectId, userId), ConditionExpression: 'attribute_exists(PK)' } },
      project: projectCounterUpdate(projectId, 'starCount', -1),
    },
    [['star', 'not_starred' as const]],
  );
  return failure ?? 'unstarred';
}

/**
 * Data migration step (`functions/bootstrap/migrations.ts`): puts the stars of `projectId` written
 * before the starrers index (GSI2) into it, from the star's own time; a star removed meanwhile
 * stays removed. Idempotent; answers how many it indexed.
 */
export async function indexProjectStarrers(projectId: number): Promise<number> {
  let indexed = 0;
  for await (const item of queryCollection(projectCollections.projectStars(projectId))) {
    if (item.GSI2PK) continue;
    const star = starFromItem(item);
    const written = await addIndexEntry({ PK: String(item.PK), SK: String(item.SK) }, projectIndexKeys.projectStarrer(star.projectId, star.createdAt, star.userId));
    if (written) indexed++;
  }
  return indexed;
}
