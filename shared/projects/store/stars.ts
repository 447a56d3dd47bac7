/**
 * Stars: one item per user and starred project, in the project's partition and indexed by user
 * in GSI1 (the user's starred projects). `star_count` on the project item moves in the same
 * transaction, so it stays exact under concurrent (un)starring.
 */
import { tableName } from '../../platform/dynamo/client';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIndexKeys, projectKeys } from './keys';
import { projectCounterUpdate } from './projects';

/** Stars a project for a user; `already_starred` when the user had. */
export async function putStar(projectId: number, userId: number): Promise<'starred' | 'already_starred'> {
  const item = { ...projectKeys.star(projectId, userId), ...projectIndexKeys.userStar(userId, projectId), type: 'Star', projectId, userId, createdAt: new Date().toISOString() };
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
