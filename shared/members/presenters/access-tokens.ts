/**
 * GitLab's `ResourceAccessToken` entity (a `PersonalAccessTokenWithLastUsedIps` with the bot's
 * access level and the project or group): the personal access token fields of the users feature,
 * then `last_used_ips`, `access_level`, `resource_type`, `resource_id`; `token` only in the
 * answers that made the secret (create, rotate). Costs nothing beyond the token and membership
 * already read.
 */
import { presentPersonalAccessToken, tokenResource } from '../../users';
import type { ResourceAccessToken } from '../access-tokens';

export function presentResourceAccessToken({ token, accessLevel }: ResourceAccessToken, secret?: string) {
  const { token: shown, ...fields } = presentPersonalAccessToken(token, secret) as ReturnType<typeof presentPersonalAccessToken> & { token?: string };
  const resource = tokenResource(token);
  return {
    ...fields,
    last_used_ips: [],
    access_level: accessLevel,
    resource_type: resource?.kind ?? 'project',
    resource_id: resource?.id ?? null,
    ...(shown ? { token: shown } : {}),
  };
}
