/**
 * Avatars of users: the rules, the `avatar` parameters, the URLs and the S3 storage are shared by
 * every owner of an avatar (users, groups, projects), so they live in the lowest feature that owns
 * one, `shared/namespaces/avatars.ts`. The users feature names them from here (and exports them to
 * the features above through its `index.ts`); a user's own keys and reads are in
 * `store/keys.ts` (`userObjects.avatar`) and `queries/avatars.ts`.
 */
export {
  assertValidAvatar,
  avatarFileParam,
  avatarHeaders,
  avatarParam,
  avatarUrl,
  deleteAvatarObject,
  isStoredAvatar,
  newStoredAvatar,
  parseAvatarPath,
  putAvatarObject,
  readAvatarObject,
  type AvatarChange,
  type StoredAvatar,
} from '../namespaces';
