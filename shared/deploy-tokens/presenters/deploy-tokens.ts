/** GitLab's `Entities::DeployToken` and, on create only, `Entities::DeployTokenWithToken`. */
import { isDeployTokenActive } from '../queries/deploy-tokens';
import type { DeployToken } from '../store/deploy-tokens';

export function presentDeployToken(token: DeployToken, now = Date.now()) {
  return {
    id: token.id,
    name: token.name,
    username: token.username,
    expires_at: token.expiresAt,
    revoked: token.revoked,
    // GitLab's `expired?`: past its `expires_at` (a revoked token is not expired for that).
    expired: !isDeployTokenActive({ revoked: false, expiresAt: token.expiresAt }, now),
    scopes: token.scopes,
  };
}

/** The token with its secret: the create answer, the only time the secret is shown. */
export function presentDeployTokenWithSecret(token: DeployToken, secret: string) {
  const { id, name, username, expires_at, ...rest } = presentDeployToken(token);
  return { id, name, username, expires_at, token: secret, ...rest };
}
