export { authenticate, authenticateDeployTokensWith, authenticateGitCredentials, authenticateJobTokensWith, trackActivity } from './authenticate';
export { findSshKeyByFingerprintOrNotFound, findUserOrNotFound, parseSshFingerprint, userIdForFilter, type SshFingerprint } from './finders';
export { listUsers } from './queries/users';
export { presentPersonalAccessToken, presentSshKey, presentSshKeyWithUser, presentUserAdminCore, presentUserPublic } from './presenters/users';
export { backfillUserSearchEntries, findUserByUsername, getUser, userFromItem, userIdByEmail, userIsLive, type User } from './store/users';
export { userKeys } from './store/keys';
export { removeWithUser, soloOwnedGroups, type DeleteUserOptions, type UserRemoval } from './commands/delete-user';
export { onUserCreated, onUserDestroyed } from './lifecycle';
export { findGhostUser, isGhost, withGhost } from './ghost';
export { runUserDeletion, USER_DELETION } from './commands/deletion-job';
// Avatars: users', and the rules and storage the projects feature uses for its own.
export { assertValidAvatar, avatarHeaders, avatarParam, avatarUrl, deleteAvatarObject, isStoredAvatar, newStoredAvatar, parseAvatarPath, putAvatarObject, readAvatarObject, type AvatarChange, type StoredAvatar } from './avatars';
export { userAvatarFile } from './queries/avatars';
export { badRequest, createResourceBot, deleteResourceBot, type NewResourceBot } from './commands/bots';
export { revokeToken, rotateToken } from './commands/credentials';
export { digestToken, findResourceAccessToken, isTokenActive, resourceAccessTokensCollection, tokenFromItem, tokenResource, type AccessToken, type TokenScope } from './store/tokens';
export type { TokenResource } from './store/keys';
// SSH and GPG keys and emails, as commit signatures are checked against them (the repository feature).
export { findSshKeyByFingerprint, type SshKey } from './store/ssh-keys';
// A user's secondary emails, as its notification email must be one of its emails (the notification settings feature).
export { listEmails } from './store/emails';
export { findGpgKeyByKeyid, type GpgKey } from './store/gpg-keys';
// SSH public keys as deploy keys are (the parser loaded on first use).
export { parseSshPublicKeyLazily, type ParsedSshKey } from './ssh-key-parsing';
