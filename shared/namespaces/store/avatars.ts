/**
 * A group's avatar: the `avatar` attribute of its namespace item (`{filename, token, contentType}`)
 * naming its bytes in S3 (`namespaceObjects.groupAvatar`). Changing it is one conditional update of
 * the group item, conditioned on the version read (as every edit of a group); deleting the group
 * deletes the bytes (`deleteGroupAvatarObject`).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { deleteAvatarObject, isStoredAvatar, readAvatarObject, type StoredAvatar } from '../avatars';
import { namespaceKeys, namespaceObjects } from './keys';
import type { Namespace } from './namespaces';

/** The namespace's avatar, if it has one (items written before avatars have none). */
export function namespaceAvatar(namespace: Namespace): StoredAvatar | undefined {
  return isStoredAvatar(namespace.avatar) ? namespace.avatar : undefined;
}

/** Where the bytes of a group's avatar are. */
export const groupAvatarObjectKey = (groupId: number, avatar: StoredAvatar): string => namespaceObjects.groupAvatar(groupId, avatar.token, avatar.filename);

/**
 * Sets (or with `undefined` removes) a group's avatar, bumping its version: `conflict` when the
 * group was edited (or is being deleted) since it was read.
 */
export async function writeGroupAvatar(group: Namespace, avatar: StoredAvatar | undefined, now: string): Promise<'updated' | 'conflict'> {
  const written = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: namespaceKeys.namespace(group.id),
        UpdateExpression: `SET #version = :next, updatedAt = :now${avatar ? ', avatar = :avatar' : ' REMOVE avatar'}`,
        ConditionExpression: '#version = :version AND kind = :group AND attribute_not_exists(deleting)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': group.version, ':next': group.version + 1, ':now': now, ':group': 'group', ...(avatar ? { ':avatar': avatar } : {}) },
      }),
    ),
  );
  return written ? 'updated' : 'conflict';
}

/**
 * A group's avatar with its bytes; with `filename`, only when the avatar has exactly that name.
 * `undefined` when there is none (or its bytes are gone: the group is being deleted).
 */
export async function groupAvatarFile(group: Namespace, filename?: string): Promise<{ avatar: StoredAvatar; data: Buffer } | undefined> {
  const avatar = group.kind === 'group' ? namespaceAvatar(group) : undefined;
  if (!avatar || (filename !== undefined && avatar.filename !== filename)) return undefined;
  const data = await readAvatarObject(groupAvatarObjectKey(group.id, avatar));
  return data && { avatar, data };
}

/** Deletes the bytes of a group's avatar (a deleted group's), best effort. */
export async function deleteGroupAvatarObject(group: Namespace): Promise<void> {
  const avatar = namespaceAvatar(group);
  if (group.kind === 'group' && avatar) await deleteAvatarObject(groupAvatarObjectKey(group.id, avatar));
}
