/**
 * Changing a group's avatar (`avatar` of `POST /groups` and `PUT /groups/:id`), in the order every
 * avatar change follows (`changeAvatar`): the new image's bytes, then the group item naming them
 * (conditioned on the version read), then the replaced image's bytes are deleted. The file was
 * validated before anything was written (`assertValidAvatar`, GitLab's 400 `{"message":{"avatar":[…]}}`).
 */
import { changeAvatar, groupAvatarObjectKey, namespaceAvatar, writeGroupAvatar, type AvatarChange, type Namespace } from '../../namespaces';

/**
 * Sets (a file) or removes (`''`) a group's avatar; answers the group as written. 409 when the
 * group changed since it was read (nothing is changed then).
 *
 * @example
 * const updated = await changeGroupAvatar(group, params.avatar);
 */
export async function changeGroupAvatar(group: Namespace, change: AvatarChange): Promise<Namespace> {
  const now = new Date().toISOString();
  const avatar = await changeAvatar(namespaceAvatar(group), change, {
    objectKey: (stored) => groupAvatarObjectKey(group.id, stored),
    write: async (stored) => (await writeGroupAvatar(group, stored, now)) === 'updated',
    conflictMessage: 'The group was modified by another request; try again',
  });
  if (avatar === 'unchanged') return group;
  const { avatar: _replaced, ...rest } = group;
  return { ...rest, ...(avatar ? { avatar } : {}), updatedAt: now, version: group.version + 1 };
}
