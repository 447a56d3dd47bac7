/**
 * Stars: one item per user and starred project, in the project's partition and indexed by user
 * in GSI1 (the user's starred projects). `star_count` on the project item moves in the same
 * transaction, so it stays exact under concurrent (un)starring.
 */
import { tableName } from '../../platform/dynamo/client';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { projectIndexKeys, projectKeys } from './keys';
import { projectCounterUpdate } from './projects';

/** Stars a project for a user; `already_starred` when the user had. */
export async function putStar(projectId: number, userId: number): Promise<'starred' | 'already_starred'> {
  try {
    await transact({
      star: {
        Put: {
          TableName: tableName(),
          Item: { ...projectKeys.star(projectId, userId), ...projectIndexKeys.userStar(userId, projectId), type: 'Star', projectId, userId, createdAt: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      project: projectCounterUpdate(projectId, 'starCount', 1),
    });
    return 'starred';
  } catch (error) {
    if (error instanceof ConditionFailed && error.failedOn('star')) return 'already_starred';
    throw error;
  }
}

/** Removes a user's star from a project; `not_starred` when there was none. */
export async function deleteStar(projectId: number, userId: number): Promise<'unstarred' | 'not_starred'> {
  try {
    await transact({
      star: { Delete: { TableName: tableName(), Key: projectKeys.star(projectId, userId), ConditionExpression: 'attribute_exists(PK)' } },
      project: projectCounterUpdate(projectId, 'starCount', -1),
    });
    return 'unstarred';
  } catch (error) {
    if (error instanceof ConditionFailed && error.failedOn('star')) return 'not_starred';
    throw error;
  }
}
