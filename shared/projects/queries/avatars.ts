/** Reading a project's avatar back (`GET /projects/:id/avatar` and the web route of its `avatar_url`). */
import type { StoredAvatar } from '../../namespaces';
import { projectAvatar, readProjectAvatarObject } from '../store/avatars';
import type { Project } from '../store/projects';

/**
 * The project's avatar with its bytes; with `filename`, only when the avatar has exactly that
 * name. `undefined` when there is none (or its bytes are gone: the project is being deleted).
 */
export async function projectAvatarFile(project: Project, filename?: string): Promise<{ avatar: StoredAvatar; data: Buffer } | undefined> {
  const avatar = projectAvatar(project);
  if (!avatar || (filename !== undefined && avatar.filename !== filename)) return undefined;
  const data = await readProjectAvatarObject(project.id, avatar);
  return data && { avatar, data };
}
