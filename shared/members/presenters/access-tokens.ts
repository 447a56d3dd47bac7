/**
 * GitLab's `ResourceAccessToken` entity (a `PersonalAccessTokenWithLastUsedIps` with the bot's
 * access level and the project): the personal access token fields of the users feature, then
 * `last_used_ips`, `access_level`, `resource_type`, `resource_id`; `token` only in the answers that
 * made the secret (create, rotate). Costs nothing beyond the token and membership already read.
 */
import { presentPersonalAccessToken } from '../../users';
import type { ProjectAccessToken } from '../access-tokens';

export function presentProjectAccessToken({ token, accessLevel }: ProjectAccessToken, secret?: string) {
  const { token: shown, ...fields } = presentPersonalAccessToken(token, secret) as ReturnType<typeof presentPersonalAccessToken> & { token?: string };
  return {
    ...fields,
    last_used_ips: [],
    access_level: accessLevel,
    resource_type: 'project',
    resource_id: token.projectId ?? null,
    ...(shown ? { token: shown } : {}),
  };
}
