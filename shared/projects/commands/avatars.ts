/**
 * Changing a project's avatar (`avatar` of `POST /projects` and `PUT /projects/:id`): the new
 * image's bytes first, then the project item naming them (conditioned on the version read), then
 * the replaced image's bytes are deleted. The file was validated before anything was written
 * (`assertValidAvatar`, GitLab's 400 `{"message":{"avatar":[…]}}`).
 */
import { ConflictError } from '../../platform/http/errors';
import { deleteAvatarObject, newStoredAvatar, putAvatarObject, type AvatarChange } from '../../users';
import { avatarObjectKey, projectAvatar, writeProjectAvatar } from '../store/avatars';
import type { Project } from '../store/projects';

/**
 * Sets (a file) or removes (`''`) the project's avatar; answers the project as written. 409 when
 * the project changed since it was read (nothing is changed then).
 *
 * @example
 * const updated = await changeProjectAvatar(project, params.avatar);
 */
export async function changeProjectAvatar(project: Project, change: AvatarChange): Promise<Project> {
  const previous = projectAvatar(project);
  const avatar = change === '' ? undefined : newStoredAvatar(change);
  if (!avatar && !previous) return project;
  if (avatar && change !== '') await putAvatarObject(avatarObjectKey(project.id, avatar), avatar, change.data);
  const now = new Date().toISOString();
  if ((await writeProjectAvatar(project, avatar, now)) === 'project_changed') {
    if (avatar) await deleteAvatarObject(avatarObjectKey(project.id, avatar));
    throw new ConflictError('The project was modified by another request; try again');
  }
  if (previous) await deleteAvatarObject(avatarObjectKey(project.id, previous));
  const { avatar: _replaced, ...rest } = project as Project & { avatar?: unknown };
  return { ...rest, ...(avatar ? { avatar } : {}), updatedAt: now, version: project.version + 1 };
}
