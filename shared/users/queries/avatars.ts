/** Reading a user's avatar back (the web route `GET /uploads/-/system/user/avatar/:id/:filename`; public, as in GitLab). */
import { readAvatarObject, type StoredAvatar } from '../avatars';
import { userObjects } from '../store/keys';
import { getUser } from '../store/users';

/** The avatar of user `userId` when it has exactly this file name, with its bytes; `undefined` otherwise. */
export async function userAvatarFile(userId: number, filename: string): Promise<{ avatar: StoredAvatar; data: Buffer } | undefined> {
  const avatar = (await getUser(userId))?.avatar;
  if (avatar?.filename !== filename) return undefined;
  const data = await readAvatarObject(userObjects.avatar(userId, avatar.token, avatar.filename));
  return data && { avatar, data };
}
