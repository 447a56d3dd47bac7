/**
 * Finders: a user, or one of a user's credentials, or GitLab's `404 <Thing> Not Found` when there
 * is none (a route calls them before its command or query).
 */
import { isAdmin } from '../auth';
import { BadRequestError, NotFoundError } from '../platform/http/errors';
import { findSshKeyByFingerprint, findSshKeyById, type SshKey } from './store/ssh-keys';
import { findPersonalTokenById, getToken, type AccessToken } from './store/tokens';
import { findUserByUsername, getUser, type User } from './store/users';

/** A user by id, or `404 User Not Found`. */
export async function findUserOrNotFound(id: number): Promise<User> {
  const user = await getUser(id);
  if (!user) throw new NotFoundError('User');
  return user;
}

/**
 * The user id a list filter by username stands for (`author_username`, `assignee_username`): the
 * user's, or 0, which no user has — an unknown username matches nothing, as in GitLab's finders.
 */
export async function userIdForFilter(username: string): Promise<number> {
  return (await findUserByUsername(username))?.id ?? 0;
}

/** An SSH key by its global id with its owner (`GET /keys/:id`), or `404 Key Not Found`. */
export async function findSshKeyOrNotFound(keyId: number): Promise<{ key: SshKey; owner: User }> {
  const key = await findSshKeyById(keyId);
  const owner = key && (await getUser(key.userId));
  if (!key || !owner) throw new NotFoundError('Key');
  return { key, owner };
}

/** A fingerprint as `GET /keys?fingerprint=` takes it: OpenSSH's `SHA256:…` or a classic MD5 `aa:bb:…`. */
export type SshFingerprint = { sha256: string } | { md5: string };

/**
 * Reads a fingerprint: an OpenSSH one (`SHA256:` and 43 base64 characters, 32 bytes) or a classic
 * MD5 one (`aa:bb:…`, 16 bytes); anything else is GitLab's 400 `Failed to return the key`.
 */
export function parseSshFingerprint(fingerprint: string): SshFingerprint {
  const sha256 = /^sha256:/i.test(fingerprint) ? fingerprint.slice('SHA256:'.length).replace(/=+$/, '') : undefined;
  const valid = sha256 !== undefined ? Buffer.from(sha256, 'base64').length === 32 : /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/i.test(fingerprint);
  if (!valid) throw new BadRequestError('Failed to return the key');
  return sha256 !== undefined ? { sha256: `SHA256:${sha256}` } : { md5: fingerprint.toLowerCase() };
}

/** A user's SSH key by fingerprint with its owner, or `404 Key Not Found`. */
export async function findSshKeyByFingerprintOrNotFound(fingerprint: SshFingerprint): Promise<{ key: SshKey; owner: User }> {
  const key = await findSshKeyByFingerprint(fingerprint);
  const owner = key && (await getUser(key.userId));
  if (!key || !owner) throw new NotFoundError('Key');
  return { key, owner };
}

/** One of a user's impersonation tokens (never a personal one), or `404 Impersonation Token Not Found`. */
export async function findImpersonationTokenOrNotFound(userId: number, tokenId: number): Promise<AccessToken> {
  const token = await getToken(userId, tokenId);
  if (!token || !token.impersonation) throw new NotFoundError('Impersonation Token');
  return token;
}

/**
 * A personal access token the caller may manage: one of their own, or any for an admin; else
 * `404 Personal Access Token Not Found` (another user's token is not disclosed).
 */
export async function findPersonalTokenOrNotFound(caller: User, tokenId: number): Promise<AccessToken> {
  const admin: boolean = isAdmin(caller);
  const token = admin ? await findPersonalTokenById(tokenId) : await getToken(caller.id, tokenId);
  if (!token || token.impersonation) throw new NotFoundError('Personal Access Token');
  return token;
}

/** A user by id (digits) or username (GitLab's `find_user`), or `404 User Not Found`. */
export async function findUserByIdOrUsernameOrNotFound(idOrUsername: string): Promise<User> {
  const user = /^\d+$/.test(idOrUsername) ? await getUser(Number(idOrUsername)) : await findUserByUsername(idOrUsername);
  if (!user) throw new NotFoundError('User');
  return user;
}
