/**
 * Approvals of merge requests (GitLab's `approvals` rows): one item per approving user, in the
 * target project's partition (`mergeRequestKeys.approval`), put and deleted in the transaction of
 * the merge request write that approves or unapproves (`writeMergeRequest`'s `approval` entry), so
 * a user approves a merge request once however many requests race.
 */
import { tableName } from '../../platform/dynamo/client';
import { deleteMany } from '../../platform/dynamo/batch';
import { getItem, queryAll } from '../../platform/dynamo/query';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { mergeRequestCollections, mergeRequestKeys } from './keys';
import type { MergeRequest } from './merge-requests';

/** Who approved a merge request, and when. */
export interface Approval {
  userId: number;
  createdAt: string;
}

type ApprovedRef = Pick<MergeRequest, 'projectId' | 'iid'>;

/** The Put of `userId`'s approval of `mr`, refused (`attribute_not_exists`) when they approved it already. */
export const approvalPut = (mr: ApprovedRef, approval: Approval): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...mergeRequestKeys.approval(mr.projectId, mr.iid, approval.userId), type: 'MergeRequestApproval', ...approval },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The Delete of `userId`'s approval of `mr`, refused (`attribute_exists`) when there is none. */
export const approvalDelete = (mr: ApprovedRef, userId: number): TransactItem => ({
  Delete: { TableName: tableName(), Key: mergeRequestKeys.approval(mr.projectId, mr.iid, userId), ConditionExpression: 'attribute_exists(PK)' },
});

/** Whether `userId` approved `mr` (consistent read). */
export async function hasApproved(mr: ApprovedRef, userId: number): Promise<boolean> {
  return (await getItem(mergeRequestKeys.approval(mr.projectId, mr.iid, userId))) !== undefined;
}

/** The approvals of `mr`, oldest first (one Query). */
export async function listApprovals(mr: ApprovedRef): Promise<Approval[]> {
  const items = await queryAll(mergeRequestCollections.approvals(mr.projectId, mr.iid));
  return items
    .map((item) => ({ userId: Number(item.userId), createdAt: String(item.createdAt) }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.userId - b.userId);
}

/**
 * Deletes every approval of `mr` (GitLab's `approvals.delete_all`: no system note, hook or
 * reviewer state): one Query, then batched Deletes. An approval written meanwhile stays.
 */
export async function deleteApprovals(mr: ApprovedRef): Promise<void> {
  const approvals = await listApprovals(mr);
  await deleteMany(approvals.map((approval) => mergeRequestKeys.approval(mr.projectId, mr.iid, approval.userId)));
}
