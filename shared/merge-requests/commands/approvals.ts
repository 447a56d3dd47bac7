/**
 * Approving a merge request and taking the approval back, as GitLab Free does
 * (`MergeRequests::ApprovalService`, `RemoveApprovalService`). The route has found the merge
 * request; the caller needs `approve_merge_request` (GitLab's `update_merge_request`: the author,
 * the assignee, developers and above; 403 otherwise). A merged merge request takes neither.
 *
 * The approval item is put (or deleted) in the merge request's own write, conditioned on the
 * version read: the reviewer's state (`approved`, `unapproved` when the caller is its reviewer)
 * changes with it and a racing edit is re-read, never lost; two racing approvals by one user make
 * one. The write carries the system note, the `approved` feed event (approvals only) and the Merge
 * Request Hook (`approved`, `unapproved`); the merge request's `updatedAt` stays. After an
 * approval, the approver's pending todo on the merge request is marked done.
 */
import type { ProjectSubject } from '../../auth';
import { ConflictError, ForbiddenError, RecordNotFoundError, UnauthorizedError } from '../../platform/http/errors';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { User } from '../../users';
import { canUpdateMergeRequest } from '../policy';
import { findMergeRequestOrNotFound } from '../queries/merge-requests';
import { approvalDelete, approvalPut, deleteApprovals, hasApproved } from '../store/approvals';
import { writeMergeRequest, type MergeRequest, type ReviewerState } from '../store/merge-requests';
import { mergeRequestNoteable, resolveTodoOn } from '../issuables';
import { mergeRequestEffects } from './effects';
import { failOrAgain, retried, type AGAIN } from './shared';

/** Internal: what an approval or its removal writes besides the merge request. */
interface ApprovalChange {
  approval: TransactItem;
  review: ReviewerState;
  note: string;
  event?: 'approved';
  hook: 'approved' | 'unapproved';
}

/** Internal: writes `change` by `user` on `current` (the reviewer's state set when it is theirs); {@link AGAIN} when it lost a race. */
async function writeApprovalChange(target: ProjectSubject, user: User, current: MergeRequest, change: ApprovalChange): Promise<MergeRequest | typeof AGAIN> {
  const next = current.reviewer?.userId === user.id ? { ...current, reviewer: { ...current.reviewer, state: change.review } } : current;
  const effects = await mergeRequestEffects(next, user, target.project, {
    event: change.event,
    notes: [change.note],
    hook: { action: change.hook, previous: current, lastCommit: null },
  });
  const result = await writeMergeRequest({ previous: current, next, effects, approval: change.approval });
  return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
}

/**
 * Approves `mr` (as found by `user` in `target`, its project) as `user`; answers it as written.
 *
 * @throws ForbiddenError without `approve_merge_request`; ConflictError when `sha` is given and is
 *   not the source head recorded; UnauthorizedError when `user` approved it already or it is merged
 *   (GitLab's `unauthorized!` when the service refuses).
 */
export async function approveMergeRequest(target: ProjectSubject, user: User, mr: MergeRequest, sha?: string): Promise<MergeRequest> {
  if (!canUpdateMergeRequest(user, target, mr)) throw new ForbiddenError();
  if (sha !== undefined && sha !== mr.sha) throw new ConflictError('SHA does not match HEAD of source branch');
  const approved = await retried(mr, () => findMergeRequestOrNotFound(target, user, mr.iid), async (current) => {
    if (current.state === 'merged' || (await hasApproved(current, user.id))) throw new UnauthorizedError();
    const approval = approvalPut(current, { userId: user.id, createdAt: new Date().toISOString() });
    return writeApprovalChange(target, user, current, { approval, review: 'approved', note: 'approved this merge request', event: 'approved', hook: 'approved' });
  });
  // The approver's pending todo on it is done (GitLab resolves it after the approval, apart from it).
  await resolveTodoOn(mergeRequestNoteable(approved), user.id);
  return approved;
}

/**
 * Takes `user`'s approval of `mr` (as found by `user` in `target`) back; answers it as written.
 *
 * @throws ForbiddenError without `approve_merge_request`; RecordNotFoundError (`404 Not found`)
 *   when `user` has not approved it or it is merged (GitLab's `not_found!`).
 */
export async function unapproveMergeRequest(target: ProjectSubject, user: User, mr: MergeRequest): Promise<MergeRequest> {
  if (!canUpdateMergeRequest(user, target, mr)) throw new ForbiddenError();
  return retried(mr, () => findMergeRequestOrNotFound(target, user, mr.iid), async (current) => {
    if (current.state === 'merged' || !(await hasApproved(current, user.id))) throw new RecordNotFoundError();
    const approval = approvalDelete(current, user.id);
    return writeApprovalChange(target, user, current, { approval, review: 'unapproved', note: 'unapproved this merge request', hook: 'unapproved' });
  });
}

/**
 * Marks `user`'s review of `mr` done (`reviewed`) when they are its reviewer, as GitLab's
 * `MarkReviewerReviewedService` does once a review's draft notes are published; nothing otherwise.
 * Only the reviewer's state is written (no note, event or hook; `updatedAt` stays), conditioned on
 * the version read: a racing edit is re-read, never lost.
 */
export async function markReviewerReviewed(target: ProjectSubject, user: User, mr: MergeRequest): Promise<MergeRequest> {
  return retried(mr, () => findMergeRequestOrNotFound(target, user, mr.iid), async (current) => {
    if (current.reviewer?.userId !== user.id || current.reviewer.state === 'reviewed') return current;
    const result = await writeMergeRequest({ previous: current, next: { ...current, reviewer: { ...current.reviewer, state: 'reviewed' } } });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  });
}

/**
 * Clears every approval of `mr` (`PUT …/reset_approvals`, GitLab 15.4): only a bot user (a project
 * or group access token's) that may approve it (GitLab's `reset_merge_request_approvals`), and not
 * once merged; anyone else GitLab's `401 Unauthorized`. Like GitLab, it writes no system note,
 * event or hook and leaves the reviewer's state.
 * @example
 * await resetApprovals(subject, user, mr);
 */
export async function resetApprovals(target: ProjectSubject, user: User, mr: MergeRequest): Promise<void> {
  if (!user.bot || !canUpdateMergeRequest(user, target, mr) || mr.state === 'merged') throw new UnauthorizedError();
  await deleteApprovals(mr);
}
