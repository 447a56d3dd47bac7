/**
 * What becomes of the merge requests a deleted user authored (GitLab's `Users::DestroyService` and
 * `Users::MigrateRecordsToGhostUserService`): without `hard_delete` they move to the ghost user,
 * with it they are deleted. Either way the user is no longer the reviewer of any (GitLab's
 * `merge_request_reviewers` rows go with their user). Run by the user deletion job (a removal
 * step declared in `functions/api.ts`) while the user is marked as deleting.
 *
 * Each walks one of the user's indexes (author: `USER_MRS#<userId>`, GSI2; reviewer:
 * `USER_REVIEW_MRS#<userId>`, GSI7) a Query page at a time (the cost
 * grows with the user's merge requests, not the table) and write each merge request with the
 * write every edit uses (`writeMergeRequest`: one transaction conditioned on the `version` read,
 * only while the merge request, read consistently, is still the user's (or reviewed by them); a lost race reads it
 * again). Moving the author moves the item's author index attributes; merge requests keep no
 * other entry by author (`author_id=` is checked on each item read). No hook, feed event or system
 * note is written (GitLab's `update_all` fires none). A re-run finds only what is left; a pass
 * that changes nothing ends the walk.
 */
import { deleteAuthoredNotes } from '../../issues';
import type { Collection } from '../../platform/dynamo/keys';
import { changeEveryItem } from '../../platform/dynamo/walks';
import type { UserRemoval } from '../../users';
import { mergeRequestNoteable } from '../issuables';
import { mergeRequestCollections } from '../store/keys';
import { closingRefs, getMergeRequest, mergeRequestFromItem, writeMergeRequest, type MergeRequest, type MergeRequestChange } from '../store/merge-requests';
import { mentionRefs } from '../store/related';

/** Attempts at one merge request whose writes keep losing races before the job fails (and is retried). */
const MAX_ATTEMPTS = 8;

type ChangeOf = (current: MergeRequest) => Promise<MergeRequestChange>;

/** Internal: writes the change of the merge request as it is now, while it is live and `concerned` by the change. Whether it wrote. */
async function rewrite(projectId: number, iid: number, concerned: (mr: MergeRequest) => boolean, changeOf: ChangeOf): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const current = await getMergeRequest(projectId, iid);
    if (!current || current.deletedAt || !concerned(current)) return false;
    const result = await writeMergeRequest(await changeOf(current));
    // A project being deleted takes its merge requests with it; neither change takes a pair.
    if (result === 'project_gone' || typeof result === 'object' && 'pairTaken' in result) return false;
    if (result !== 'changed') return true;
  }
  throw new Error(`merge request ${projectId}!${iid} kept changing while its author or reviewer was deleted`);
}

/** Internal: applies a change to every merge request of one of `userId`'s indexes that it `concerns` (walked until a pass changes nothing). */
const walkMergeRequests = (userId: number, collection: Collection, concerned: (mr: MergeRequest) => boolean, what: string, changeOf: ChangeOf): Promise<number> =>
  changeEveryItem(
    collection,
    (item) => {
      const { projectId, iid } = mergeRequestFromItem(item);
      return rewrite(projectId, iid, concerned, changeOf);
    },
    `deleted user's merge requests ${what}`,
    { userId },
  );

/** Internal: {@link walkMergeRequests} over the merge requests `userId` authored. */
const walkAuthoredMergeRequests = (userId: number, what: string, changeOf: ChangeOf): Promise<number> =>
  walkMergeRequests(userId, mergeRequestCollections.userMergeRequests(userId), (mr) => mr.authorId === userId, what, changeOf);

/**
 * Takes `userId` off the merge requests whose review was requested from them; `updated_at` is kept.
 * @returns how many it changed.
 */
export function dropReviewRequests(userId: number): Promise<number> {
  return walkMergeRequests(userId, mergeRequestCollections.reviewingMergeRequests(userId), (mr) => mr.reviewer?.userId === userId, 'no longer reviewed by them', async (current) => ({
    previous: current,
    next: { ...current, reviewer: null },
  }));
}

/**
 * Moves the merge requests `userId` authored to the ghost user (`ghostId`); `updated_at` is kept.
 * @returns how many it moved.
 * @example
 * await reassignAuthoredMergeRequests(user.id, ghost.id);
 */
export function reassignAuthoredMergeRequests(userId: number, ghostId: number): Promise<number> {
  return walkAuthoredMergeRequests(userId, 'moved to the ghost user', async (current) => ({ previous: current, next: { ...current, authorId: ghostId } }));
}

/**
 * Deletes the merge requests `userId` authored as `DELETE /projects/:id/merge_requests/:iid` does
 * (soft deletion: they leave every list and read, release their source → target pair, their
 * closing and mention relations).
 * @returns how many it deleted.
 */
export function deleteAuthoredMergeRequests(userId: number): Promise<number> {
  return walkAuthoredMergeRequests(userId, 'deleted', async (current) => {
    const now = new Date().toISOString();
    const [before, mentioned] = await Promise.all([closingRefs(current.projectId, current.iid), mentionRefs(current.projectId, current.iid)]);
    return {
      previous: current,
      next: { ...current, deletedAt: now, updatedAt: now },
      closes: { before, after: [] },
      mentions: { before: mentioned, after: [] },
    };
  });
}

/** Internal: a merge request as a noteable, while it is live. */
async function liveMergeRequestNoteable(projectId: number, iid: number) {
  const mr = await getMergeRequest(projectId, iid);
  return mr && !mr.deletedAt ? mergeRequestNoteable(mr) : undefined;
}

/**
 * The merge requests' part of deleting a user (a removal step, `removeWithUser`, after the
 * issues'): it reviews none any more; its merge requests move to the ghost user; with
 * `hard_delete` they are deleted, and so are its comments on issues and merge requests (this
 * feature knows both kinds of noteable).
 */
export const removeAuthoredMergeRequests: UserRemoval = async (user, { hardDelete }, { ghost }) => {
  await dropReviewRequests(user.id);
  if (!hardDelete) return reassignAuthoredMergeRequests(user.id, ghost.id);
  await deleteAuthoredMergeRequests(user.id);
  return deleteAuthoredNotes(user.id, liveMergeRequestNoteable);
};
