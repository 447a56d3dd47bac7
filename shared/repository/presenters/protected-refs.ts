/**
 * GitLab's `ProtectedBranch`, `ProtectedTag` and `ProtectedRefAccess` entities (Community Edition:
 * access levels by role only, so no `user_id` or `group_id`; no deploy keys, so no
 * `deploy_key_id`, which GitLab shows only when set).
 */
import type { ProtectedBranch } from '../store/protected-branches';
import type { AccessLevelGrant } from '../store/protected-refs';
import type { ProtectedTag } from '../store/protected-tags';

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

/** GitLab's `ProtectedTag` entity: no id of its own, only its name and create levels. */
export function presentProtectedTag(tag: ProtectedTag) {
  return {
    name: tag.name,
    create_access_levels: tag.createAccessLevels.map(presentAccessLevel),
  };
}
