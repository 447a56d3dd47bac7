/**
 * A project's avatar: an `avatar` attribute on the project item (`{filename, token, contentType}`)
 * naming its bytes in S3 (`projectAvatarObject`, under the project's prefix, so deleting the
 * project deletes them). Changing it is one conditional update of the project item, conditioned
 * on the version read (as every edit of a project) and counted as an edit.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { avatarUrl, isStoredAvatar, readAvatarObject, type StoredAvatar } from '../../namespaces';
import { projectAvatarObject, projectKeys } from './keys';
import type { Project } from './projects';

/** The project's avatar, if it has one (items written before avatars have none). */
export function projectAvatar(project: Project): StoredAvatar | undefined {
  const avatar = (project as Project & { avatar?: unknown }).avatar;
  return isStoredAvatar(avatar) ? avatar : undefined;
}

/** The project's `avatar_url` (absolute; `null` without an avatar), for its entities and its webhook payloads. */
export const projectAvatarUrl = (project: Project): string | null => avatarUrl('project', project.id, projectAvatar(project));

/** Where the bytes of a project's avatar are. */
export const avatarObjectKey = (projectId: number, avatar: StoredAvatar): string => projectAvatarObject(projectId, avatar.token, avatar.filename);

/**
 * Sets (or with `undefined` removes) the project's avatar, bumping its version: `project_changed`
 * when the project was edited (or is being deleted) since it was read.
 */
export async function writeProjectAvatar(project: Project, avatar: StoredAvatar | undefined, now: string): Promise<'updated' | 'project_changed'> {
  const written = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: projectKeys.project(project.id),
        UpdateExpression: `SET #version = :next, updatedAt = :now${avatar ? ', avatar = :avatar' : ''} ${avatar ? '' : 'REMOVE avatar'}`.trim(),
        ConditionExpression: '#version = :version AND attribute_not_exists(deleting)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': project.version, ':next': project.version + 1, ':now': now, ...(avatar ? { ':avatar': avatar } : {}) },
      }),
    ),
  );
  return written ? 'updated' : 'project_changed';
}

/** The bytes of a project's avatar; `undefined` when the object is gone (the project is being deleted). */
export const readProjectAvatarObject = (projectId: number, avatar: StoredAvatar): Promise<Buffer | undefined> => readAvatarObject(avatarObjectKey(projectId, avatar));
