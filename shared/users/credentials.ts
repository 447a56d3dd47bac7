/**
 * Adding SSH keys, secondary emails and impersonation tokens to a user, with GitLab's validation
 * errors. Uniqueness (fingerprints, emails) is enforced by the claims written in the same
 * transaction, so parallel requests can never create duplicates.
 */
import { insertEmail, type Email } from './store/emails';
import { insertSshKey, type SshKey } from './store/ssh-keys';
import { createToken, listTokens, isTokenActive, type AccessToken, type TokenScope } from './store/tokens';
import type { User } from './store/users';
import { NotFoundError, ValidationError } from '../platform/http/errors';
import { parseSshPublicKey } from './ssh-public-key';
import { validateUserFields } from './users';

export async function addSshKey(user: User, input: { title: string; key: string }): Promise<SshKey> {
  const errors: Record<string, string[]> = {};
  if (input.title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
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

export async function addEmail(user: User, address: string): Promise<Email> {
  const invalid = validateUserFields({ email: address }).email;
  if (invalid) throw new ValidationError({ email: invalid });
  const { result, email } = await insertEmail(user.id, address);
  if (result === 'user_gone') throw new NotFoundError('User');
  if (result === 'claim_taken') throw new ValidationError({ email: ['has already been taken'] });
  return email;
}

export async function createImpersonationToken(
  user: User,
  input: { name: string; scopes: TokenScope[]; expiresAt: string | null },
): Promise<{ token: AccessToken; secret: string }> {
  const today = new Date().toISOString().slice(0, 10);
  if (input.expiresAt !== null && input.expiresAt < today) {
    throw new ValidationError({ expires_at: ['must be in the future'] });
  }
  return createToken(user.id, { ...input, impersonation: true });
}

export type TokenStateFilter = 'all' | 'active' | 'inactive';

export async function listImpersonationTokens(user: User, state: TokenStateFilter): Promise<AccessToken[]> {
  const tokens = (await listTokens(user.id)).filter((t) => t.impersonation);
  if (state === 'all') return tokens;
  return tokens.filter((t) => isTokenActive(t) === (state === 'active'));
}
