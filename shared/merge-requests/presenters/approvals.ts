/**
 * GitLab's merge request approvals entity as a GitLab Free instance answers it (`GET …/approvals`,
 * `POST …/approve`, `…/unapprove`): no approval rules, so none are required (`approvals_required`
 * and `approvals_left` 0); `approved` once someone approved; `approved_by` oldest approval first.
 * The approvals are one Query, their users one BatchGetItem; a user deleted since is left out.
 */
import type { ProjectSubject } from '../../auth';
import { getMany } from '../../platform/dynamo/batch';
import { presentUserPublic, userFromItem, userKeys, type User } from '../../users';
import { canUpdateMergeRequest } from '../policy';
import { listApprovals } from '../store/approvals';
import type { MergeRequest } from '../store/merge-requests';
import { mergeRequestHeading } from './merge-requests';

/**
 * The approvals of `mr` (in `subject`, its project) as `viewer` sees them: whether they approved it
 * (`user_has_approved`) and may (`user_can_approve`: not yet, not merged, and `approve_merge_request`).
 */
export async function presentApprovals(mr: MergeRequest, subject: ProjectSubject, viewer: User | null) {
  const approvals = await listApprovals(mr);
  const items = await getMany(approvals.map((approval) => userKeys.user(approval.userId)), { consistent: false });
  const users = new Map(items.map(userFromItem).filter((user) => !user.deleting).map((user) => [user.id, user] as const));
  const approvedBy = approvals.flatMap((approval) => {
    const user = users.get(approval.userId);
    return user ? [{ user: presentUserPublic(user) }] : [];
  });
  const userHasApproved = viewer !== null && users.has(viewer.id);
  return {
    ...mergeRequestHeading(mr),
    merge_status: mr.mergeStatus,
    approved: approvedBy.length > 0,
    approvals_required: 0,
    approvals_left: 0,
    approved_by: approvedBy,
    user_has_approved: userHasApproved,
    // False on a merged merge request, which takes no approval (the approve answers 401).
    user_can_approve: viewer !== null && mr.state !== 'merged' && !userHasApproved && canUpdateMergeRequest(viewer, subject, mr),
  };
}
