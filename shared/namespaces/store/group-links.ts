/**
 * Groups shared with groups (GitLab's `GroupGroupLink`): one link item per invited group in the
 * shared group's partition, indexed by invited group in GSI1 (the groups shared with a group), and
 * denormalized in the shared group item's `sharedWithGroups` list (what access checks and
 * responses read). Both change in one transaction, like a project's shares.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { GroupLink } from '../../auth';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { isLive } from '../../platform/dynamo/items';
import { queryCollection } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { namespaceCollections, namespaceIndexKeys, namespaceKeys } from './keys';

/** Shares `sharedGroupId` with `link.groupId`: the link item and the group's list, while both groups are live. */
export async function putGroupLink(sharedGroupId: number, link: GroupLink): Promise<'shared' | 'already_shared' | 'group_gone' | 'shared_group_gone'> {
  const failure = await transactOr(
    {
      link: {
        Put: {
          TableName: tableName(),
          Item: {
            ...namespaceKeys.groupLink(sharedGroupId, link.groupId),
            ...namespaceIndexKeys.groupLinksTo(link.groupId, sharedGroupId),
            type: 'GroupLink',
            sharedGroupId,
            ...link,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      shared: {
        Update: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(sharedGroupId),
          UpdateExpression: 'SET sharedWithGroups = list_append(if_not_exists(sharedWithGroups, :empty), :link)',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
          ExpressionAttributeValues: { ':link': [link], ':empty': [] },
        },
      },
      group: isLive(namespaceKeys.namespace(link.groupId)),
    },
    [
      ['link', 'already_shared'],
      ['group', 'group_gone'],
    ] as const,
    'shared_group_gone' as const,
  );
  return failure ?? 'shared';
}

/**
 * Removes the link with `invitedGroupId` that is at `index` of the shared group's list:
 * `list_moved` when the list no longer has it there (read again and retry).
 */
export async function deleteGroupLink(sharedGroupId: number, invitedGroupId: number, index: number): Promise<'removed' | 'list_moved'> {
  const failure = await transactOr(
    {
      link: { Delete: { TableName: tableName(), Key: namespaceKeys.groupLink(sharedGroupId, invitedGroupId) } },
      shared: {
        Update: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(sharedGroupId),
          UpdateExpression: `REMOVE sharedWithGroups[${index}]`,
          ConditionExpression: `sharedWithGroups[${index}].groupId = :groupId`,
          ExpressionAttributeValues: { ':groupId': invitedGroupId },
        },
      },
    },
    [],
    'list_moved' as const,
  );
  return failure ?? 'removed';
}

/**
 * Deletes a link item alone, if there is one (the list is already clean, e.g. after a crash
 * between the two writes); conditional, so asking about a link never made writes nothing.
 */
export async function deleteGroupLinkItem(sharedGroupId: number, invitedGroupId: number): Promise<void> {
  await ifConditionHolds(db().send(new DeleteCommand({ TableName: tableName(), Key: namespaceKeys.groupLink(sharedGroupId, invitedGroupId), ConditionExpression: 'attribute_exists(PK)' })));
}

/** The ids of the groups shared with a group (GSI1, eventually consistent), a Query page at a time. */
export async function* groupIdsLinkedTo(invitedGroupId: number): AsyncGenerator<number> {
  for await (const item of queryCollection(namespaceCollections.groupLinksTo(invitedGroupId))) yield Number(item.sharedGroupId);
}
