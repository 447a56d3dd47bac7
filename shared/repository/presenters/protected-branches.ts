/**
 * GitLab's `ProtectedBranch` and `ProtectedRefAccess` entities (Community Edition: access levels by
 * role only, so no `user_id`, `group_id` or `deploy_key_id`).
 */
import type { AccessLevelGrant, ProtectedBranch } from '../store/protected-branches';

/** `ProtectedRefAccess.human_access_levels`. */
export const ACCESS_LEVEL_DESCRIPTIONS: Record<number, string> = {
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Instance admins',
  0: 'No one',
};

const presentAccessLevel = (grant: AccessLevelGrant) => ({
  id: grant.id,
  access_level: grant.accessLevel,
  access_level_description: ACCESS_LEVEL_DESCRIPTIONS[grant.accessLevel] ?? null,
});

export function presentProtectedBranch(branch: ProtectedBranch) {
  return {
    id: branch.id,
    name: branch.name,
    push_access_levels: branch.pushAccessLevels.map(presentAccessLevel),
    merge_access_levels: branch.mergeAccessLevels.map(presentAccessLevel),
    allow_force_push: branch.allowForcePush,
  };
}
