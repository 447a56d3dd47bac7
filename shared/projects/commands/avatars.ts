/**
 * Changing a project's avatar (`avatar` of `POST /projects` and `PUT /projects/:id`), in the order
 * every avatar change follows (`changeAvatar`): the new image's bytes, then the project item naming
 * them (conditioned on the version read), then the replaced image's bytes are deleted. The file was
 * validated before anything was written (`assertValidAvatar`, GitLab's 400 `{"message":{"avatar":[…]}}`).
 */
import { changeAvatar, type AvatarChange } from '../../namespaces';
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
  const now = new Date().toISOString();
  const avatar = await changeAvatar(projectAvatar(project), change, {
    objectKey: (stored) => avatarObjectKey(project.id, stored),
    write: async (stored) => (await writeProjectAvatar(project, stored, now)) === 'updated',
    conflictMessage: 'The project was modified by another request; try again',
  });
  if (avatar === 'unchanged') return project;
  const { avatar: _replaced, ...rest } = project as Project & { avatar?: unknown };
  return { ...rest, ...(avatar ? { avatar } : {}), updatedAt: now, version: project.version + 1 };
}
