/** Reads of a user's SSH keys, secondary emails and impersonation tokens. */
import { isTokenActive, listTokens, type AccessToken } from '../store/tokens';
import type { User } from '../store/users';

/** A user's keys and emails and one of them, as stored (undefined when absent). */
export { getEmail, listEmails } from '../store/emails';
export { getSshKey, listSshKeys } from '../store/ssh-keys';
export { getGpgKey, listGpgKeys } from '../store/gpg-keys';

export type TokenStateFilter = 'all' | 'active' | 'inactive';

/** A user's impersonation tokens, all or only the active (or inactive) ones. */
export async function listImpersonationTokens(user: User, state: TokenStateFilter): Promise<AccessToken[]> {
  const tokens = (await listTokens(user.id)).filter((t) => t.impersonation);
  if (state === 'all') return tokens;
  return tokens.filter((t) => isTokenActive(t) === (state === 'active'));
}
