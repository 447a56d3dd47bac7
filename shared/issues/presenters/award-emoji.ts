/**
 * GitLab's `AwardEmoji` entity: `id`, `name`, `user` (the public user), `created_at`,
 * `updated_at`, `awardable_id`, `awardable_type` (`Issue`, `MergeRequest`, `Note`), `url`
 * (custom emoji only: `null` here). A page's users are one BatchGetItem.
 */
import { getMany } from '../../platform/dynamo/batch';
import { presentUserPublic, userFromItem, userKeys, withGhost, type User } from '../../users';
import type { AwardEmoji } from '../store/award-emoji';

/**
 * @example
 * const body = await presentAwards(page.items);
 */
export async function presentAwards(awards: AwardEmoji[]) {
  const userIds = [...new Set(awards.map((award) => award.userId))];
  const items = await getMany(userIds.map((id) => userKeys.user(id)), { consistent: false });
  const users = new Map<number, User>(items.map((item) => [Number(item.id), userFromItem(item)]));
  // A deleted user's awards show the ghost user (GitLab moves them to it).
  const userOf = await withGhost((id) => users.get(id), awards.map((award) => award.userId));
  return awards.map((award) => {
    const user = userOf(award.userId);
    return {
      id: award.id,
      name: award.name,
      user: user ? presentUserPublic(user) : null,
      created_at: award.createdAt,
      updated_at: award.updatedAt,
      awardable_id: award.awardableId,
      awardable_type: award.awardableType,
      url: null,
    };
  });
}

/** One award (single and create responses). */
export async function presentAward(award: AwardEmoji) {
  const [body] = await presentAwards([award]);
  return body;
}
