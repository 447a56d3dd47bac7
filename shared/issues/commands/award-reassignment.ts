/**
 * What becomes of the award emoji of a deleted user (GitLab's `Users::DestroyService` and
 * `Users::MigrateRecordsToGhostUserService#migrate_award_emoji`): without `hard_delete` they move
 * to the ghost user; with it they are deleted with the user (`user.award_emoji`, destroyed).
 * Run by the user deletion job (a removal step declared in `functions/api.ts`) while the user is
 * marked as deleting, so it gives no new award meanwhile.
 *
 * Both walk the user's award index (`USER_AWARDS#<userId>`, GSI2, on every award written since it
 * exists and, through the data migration `award-users-v1`, on the older ones) a Query page at a
 * time, so the cost grows with the user's awards, never with the project or the table. Each award
 * is read again consistently and written in one transaction conditioned on it still being the
 * user's (`store/award-emoji.ts`), so a re-run (the job retried after a crash) finds only what is
 * left, and a pass that changes nothing ends the walk:
 *
 * - moving keeps the vote (`upvotes`/`downvotes` unchanged) and moves the name claim
 *   (`AWARD_NAME#…#<userId>#<name>`) to the ghost's; when the ghost already holds that name on
 *   the awardable (another deleted user's award), the award is deleted instead, with its vote, as
 *   GitLab's unique index on (user, name, awardable) would refuse the move;
 * - deleting takes the award, its claim and, for an issue's or merge request's own
 *   `thumbsup`/`thumbsdown` while it is live, its vote (`ADD -1` in the same transaction), so the
 *   counts stay exact.
 */
import { getItem } from '../../platform/dynamo/query';
import { changeEveryItem } from '../../platform/dynamo/walks';
import type { UserRemoval } from '../../users';
import { awardFromItem, getAward, moveAward, removeUserAward, type AwardEmoji } from '../store/award-emoji';
import { issueCollections, issueKeys } from '../store/keys';
import type { VotedItem } from '../store/noteables';

/** Attempts at one award whose writes keep losing races before the job fails (and is retried). */
const MAX_ATTEMPTS = 8;

/** Internal: the award as it is now (consistent read), while it is still `userId`'s. */
async function currentAward(listed: AwardEmoji, userId: number): Promise<AwardEmoji | undefined> {
  const award = await getAward({ type: listed.awardableType, projectId: listed.projectId, localId: listed.localId }, listed.id);
  return award && award.userId === userId ? award : undefined;
}

/**
 * Internal: the live item whose vote counter an award moves (an issue's or merge request's own
 * award: the key it keeps, or, on an issue's award older than that, the issue's), if any.
 */
async function votedItem(award: AwardEmoji): Promise<VotedItem | undefined> {
  if (award.awardableType === 'Note') return undefined;
  const key = award.noteableKey ?? issueKeys.issue(award.projectId, award.localId);
  const item = await getItem(key);
  return item && !item.deletedAt ? { item: { key } } : undefined;
}

/** Internal: deletes an award of `userId` with its claim and vote; a lost race reads it again. Whether it deleted. */
async function deleteAward(listed: AwardEmoji, userId: number): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const award = await currentAward(listed, userId);
    if (!award) return false;
    // `award_gone` (deleted or moved meanwhile), `awardable_gone` (its issue deleted meanwhile): read again.
    if (!(await removeUserAward(award, await votedItem(award)))) return true;
  }
  throw new Error(`award ${listed.id} kept changing while its user was deleted`);
}

/** Internal: moves an award of `userId` to the ghost (`ghostId`), or deletes it when the ghost holds its name there. Whether it changed it. */
async function moveToGhost(listed: AwardEmoji, userId: number, ghostId: number): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const award = await currentAward(listed, userId);
    if (!award) return false;
    const failure = await moveAward(award, ghostId);
    if (!failure) return true;
    // A project being deleted takes its awards with it.
    if (failure === 'project_gone') return false;
    if (failure === 'taken') return deleteAward(award, userId);
  }
  throw new Error(`award ${listed.id} kept changing while its user was deleted`);
}

/**
 * Moves the award emoji `userId` gave to the ghost user (`ghostId`).
 * @returns how many awards it moved or, where the ghost held the same one, deleted.
 * @example
 * await reassignUserAwards(user.id, ghost.id);
 */
export const reassignUserAwards = (userId: number, ghostId: number): Promise<number> =>
  changeEveryItem(issueCollections.userAwards(userId), (item) => moveToGhost(awardFromItem(item), userId, ghostId), "deleted user's award emoji moved to the ghost user", {
    userId,
  });

/**
 * Deletes the award emoji `userId` gave, with their votes.
 * @returns how many awards it deleted.
 */
export const deleteUserAwards = (userId: number): Promise<number> =>
  changeEveryItem(issueCollections.userAwards(userId), (item) => deleteAward(awardFromItem(item), userId), "deleted user's award emoji deleted", { userId });

/**
 * The award emoji's part of deleting a user (a removal step, `removeWithUser`): they move to the
 * ghost user or, with `hard_delete`, are deleted.
 */
export const removeUserAwards: UserRemoval = (user, { hardDelete }, { ghost }) => (hardDelete ? deleteUserAwards(user.id) : reassignUserAwards(user.id, ghost.id));
