/**
 * The Member entity of the group and project member APIs, in GitLab's form: the member's public
 * user fields merged with the membership's own (`access_level`, `created_at`, `expires_at`).
 */
import type { Member } from '../store/members';
import { presentUserPublic } from '../../users';

/**
 * One member. `created_at` is when the membership was created (GitLab's `members.created_at`), not
 * the user's sign-up. `expires_at` is in every form, lists included, as GitLab sends it; an
 * expired member still appears (with its date) but has no access. Costs nothing beyond the
 * membership and user the caller already loaded.
 */
export function presentMember({ membership, user }: Member) {
  return {
    ...presentUserPublic(user),
    access_level: membership.accessLevel,
    created_at: membership.createdAt,
    expires_at: membership.expiresAt,
  };
}
