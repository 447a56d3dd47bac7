/**
 * Shares of a project with groups: one item per group in the project's partition, indexed by
 * group in GSI1 (the projects shared with a group), and denormalized in the project item's
 * `sharedWith` list (what access checks and responses read). Both change in one transaction.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { isLive } from '../../platform/dynamo/items';
import { transactOr } from '../../platform/dynamo/transactions';
import { namespaceKeys } from '../../namespaces';
import { projectIndexKeys, projectKeys } from './keys';
import type { ProjectShare } from './projects';

/** Shares a project with a group: the share item and the project's list, while both are live. */
export async function putShare(projectId: number, share: ProjectShare): Promise<'shared' | 'already_shared' | 'group_gone' | 'project_gone'> {
  const failure = await transactOr(
    {
      share: {
        Put: {
          TableName: tableName(),
          Item: { ...projectKeys.share(projectId, share.groupId), ...projectIndexKeys.groupShare(share.groupId, projectId), type: 'Share', projectId, ...share },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      project: {
        Update: {
          TableName: tableName(),
          Key: projectKeys.project(projectId),
          UpdateExpression: 'SET sharedWith = list_append(if_not_exists(sharedWith, :empty), :share)',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
          ExpressionAttributeValues: { ':share': [share], ':empty': [] },
        },
      },
      group: isLive(namespaceKeys.namespace(share.groupId)),
    },
    [
      ['share', 'already_shared'],
      ['group', 'group_gone'],
    ] as const,
    'project_gone' as const,
  );
  return failure ?? 'shared';
}

/**
 * Removes the share with a group that is at `index` of the project's list: `list_moved` when the
 * list no longer has it there (read again and retry).
 */
export async function deleteShare(projectId: number, groupId: number, index: number): Promise<'removed' | 'list_moved'> {
  const failure = await transactOr(
    {
      share: { Delete: { TableName: tableName(), Key: projectKeys.share(projectId, groupId) } },
      project: {
        Update: {
          TableName: tableName(),
          Key: projectKeys.project(projectId),
          UpdateExpression: `REMOVE sharedWith[${index}]`,
          ConditionExpression: `sharedWith[${index}].groupId = :groupId`,
          ExpressionAttributeValues: { ':groupId': groupId },
        },
      },
    },
    [],
    'list_moved' as const,
  );
  return failure ?? 'removed';
}

/**
 * Deletes a share item alone, if there is one (the list is already clean, e.g. after a crash
 * between the two writes); conditional, so asking about a share never made writes nothing.
 */
export async function deleteShareItem(projectId: number, groupId: number): Promise<void> {
  await ifConditionHolds(db().send(new DeleteCommand({ TableName: tableName(), Key: projectKeys.share(projectId, groupId), ConditionExpression: 'attribute_exists(PK)' })));
}
