/**
 * Adding and removing SSH keys, secondary emails and access tokens of a user, with GitLab's
 * validation errors. Uniqueness (fingerprints, emails, token digests) is enforced by the claims
 * written in the same transaction, so parallel requests can never create duplicates.
 */
import { BadRequestError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { refuseForGhost } from '../ghost';
import { deleteEmail, insertEmail, type Email } from '../store/emails';
import { deleteGpgKey, insertGpgKey, type GpgKey } from '../store/gpg-keys';
import { deleteSshKey, insertSshKey, type SshKey } from '../store/ssh-keys';
import { createToken, revokeActiveToken, revokeToken, tokenResource, type AccessToken, type NewToken, type TokenScope } from '../store/tokens';
import type { User } from '../store/users';
import { validateUserFields } from './users';

/**
 * Deleting a key or an email, revoking a token: the store's writes as they are (each answers the
 * item, or undefined when it was not there; the route decides whether that is a 404).
 */
export { deleteEmail, deleteGpgKey, deleteSshKey, revokeToken };

export async function addSshKey(user: User, input: { title: string; key: string }): Promise<SshKey> {
  const errors: Record<string, string[]> = {};
  if (input.title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  // The key parser (sshpk and its crypto, ~150 KB) is loaded by the first key a process adds, not at cold start.
  const { parseSshPublicKey } = await import('../ssh-public-key');
  const parsed = parseSshPublicKey(input.key);
  if (!parsed) {
    errors.key = ['is invalid'];
    errors.fingerprint = ['cannot be generated'];
  }
  if (Object.keys(errors).length > 0 || !parsed) throw new ValidationError(errors);
  const { result, key } = await insertSshKey({
    userId: user.id,
    title: input.title,
    key: parsed.normalized,
    fingerprint: parsed.fingerprintMd5,
    fingerprintSha256: parsed.fingerprintSha256,
  });
  if (result === 'user_gone') throw new NotFoundError('User');
  if (result === 'claim_taken') throw new ValidationError({ fingerprint: ['has already been taken'] });
  return key;
}

/**
 * GitLab's `GpgKeys::CreateService`: the key stripped, its format checked (one armoured public key
 * block), then read: a block OpenPGP.js cannot read has no fingerprint nor primary key id (GitLab's
 * `can't be blank`); a key added already (by anyone) is `has already been taken`.
 */
export async function addGpgKey(user: User, input: { key: string }): Promise<GpgKey> {
  const text = input.key.trim();
  // The key reader (OpenPGP.js, ~400 KB) is loaded by the first key a process adds, not at cold start.
  const { isGpgKeyBlock, parseGpgPublicKey } = await import('../gpg-public-key');
  if (text === '') throw new ValidationError({ key: ["can't be blank", GPG_KEY_FORMAT] });
  if (!isGpgKeyBlock(text)) throw new ValidationError({ key: [GPG_KEY_FORMAT] });
  const parsed = await parseGpgPublicKey(text);
  if (!parsed) throw new ValidationError({ fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] });
  const { result, key } = await insertGpgKey({ userId: user.id, key: text, ...parsed });
  if (result === 'user_gone') throw new NotFoundError('User');
  if (result === 'claim_taken') throw new ValidationError({ fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] });
  return key;
}

const GPG_KEY_FORMAT =
  "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'";

export async function addEmail(user: User, address: string): Promise<Email> {
  const invalid = validateUserFields({ email: address }).email;
  if (invalid) throw new ValidationError({ email: invalid });
  const { result, email } = await insertEmail(user.id, address);
  if (result === 'user_gone') throw new NotFoundError('User');
  if (result === 'claim_taken') throw new ValidationError({ email: ['has already been taken'] });
  return email;
}

/**
 * Stores an access token for a user (see {@link createToken}); a user gone meanwhile is GitLab's
 * `404 User Not Found`. Returns the token and its secret, the only time the secret exists.
 */
export async function createAccessToken(
  user: User,
  input: NewToken,
): Promise<{ token: AccessToken; secret: string }> {
  // GitLab's PersonalAccessToken: `validates :name, length: { maximum: 255 }`.
  if (input.name.length > 255) throw new ValidationError({ name: ['is too long (maximum is 255 characters)'] });
  refuseForGhost(user); // nobody signs in as the ghost
  const { result, token, secret } = await createToken(user.id, input);
  if (result === 'user_gone') throw new NotFoundError('User');
  if (result === 'claim_taken') throw new Error('token digest collision');
  return { token, secret };
}

export async function createImpersonationToken(
  user: User,
  input: { name: string; scopes: TokenScope[]; expiresAt: string | null },
): Promise<{ token: AccessToken; secret: string }> {
  const today = new Date().toISOString().slice(0, 10);
  if (input.expiresAt !== null && input.expiresAt < today) {
    throw new ValidationError({ expires_at: ['must be in the future'] });
  }
  return createAccessToken(user, { ...input, impersonation: true });
}

/** A personal access token for `user` (`POST /users/:id/personal_access_tokens`), with its secret. */
export async function createPersonalToken(
  user: User,
  input: { name: string; scopes: TokenScope[]; expiresAt: string | null; description: string | null },
): Promise<{ token: AccessToken; secret: string }> {
  const today = new Date().toISOString().slice(0, 10);
  // GitLab's PersonalAccessToken: `validates :description, length: { maximum: 255 }`.
  if (input.description !== null && input.description.length > 255) throw new ValidationError({ description: ['is too long (maximum is 255 characters)'] });
  if (input.expiresAt !== null && input.expiresAt <= today) throw new ValidationError({ expires_at: ['must be in the future'] });
  return createAccessToken(user, { ...input, impersonation: false });
}

/**
 * GitLab's `PersonalAccessTokens::RotateService` (and `ProjectAccessTokens::RotateService`,
 * `GroupAccessTokens::RotateService`): the token is revoked and a new one made for the same user
 * with its name, scopes, description and project or group, expiring on `expiresAt` or a week
 * from today. A token revoked already (also by a concurrent rotation) is 400, and nothing is made.
 */
export async function rotateToken(owner: User, token: AccessToken, expiresAt: string | undefined): Promise<{ token: AccessToken; secret: string }> {
  const today = new Date().toISOString().slice(0, 10);
  const expiry = expiresAt ?? new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  if (expiry <= today) throw new ValidationError({ expires_at: ['must be in the future'] });
  if (token.revoked || !(await revokeActiveToken(token.userId, token.id))) throw new BadRequestError('token already revoked');
  return createAccessToken(owner, {
    name: token.name,
    scopes: token.scopes,
    impersonation: token.impersonation,
    expiresAt: expiry,
    description: token.description ?? null,
    resource: tokenResource(token),
  });
}
