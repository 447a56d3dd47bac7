/**
 * Parameters of the merge request lists (GitLab's `merge_requests_params`): a project's, a group's,
 * the user's and a deployment's, with the filters and order they share. Apart from
 * `merge-requests.params.ts` (which re-exports them) so that a function serving only a list (the
 * `ci_jobs` group's deployment merge requests) loads neither the commands nor the issues feature.
 */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { userIdForFilter } from '../../users';
import type { MergeRequestFilters, MergeRequestOrder } from '../queries/merge-requests';

/** Grape's `mutually_exclusive` of `reviewer_id` and `reviewer_username`. */
const oneReviewerFilter = (value: { reviewer_id?: unknown; reviewer_username?: string }, ctx: z.RefinementCtx) => {
  if (value.reviewer_id !== undefined && value.reviewer_username !== undefined) ctx.addIssue({ code: 'custom', message: 'reviewer_id, reviewer_username are mutually exclusive' });
};

/** The filters and order of the list endpoints (GitLab's `merge_requests_params`). */
const listFilterParams = {
  ...paginationParams,
  state: p.oneOf(['opened', 'closed', 'locked', 'merged', 'all']),
  order_by: p.oneOf(['created_at', 'updated_at']).transform((v) => v ?? 'created_at'),
  sort: p.oneOf(['asc', 'desc']).transform((v) => v ?? 'desc'),
  milestone: p.string(),
  labels: p.string(),
  iids: p.array(z.coerce.number().int()),
  search: p.string(),
  author_id: p.int(),
  assignee_id: p.int(),
  reviewer_id: p.noneAnyOrId(),
  reviewer_username: p.string(),
  source_branch: p.string(),
  target_branch: p.string(),
  wip: p.oneOf(['yes', 'no']),
  // GitLab's negated filters (`not[labels]=bug`, a JSON object).
  not: z
    .object({
      labels: p.string(),
      milestone: p.string(),
      author_id: p.int(),
      author_username: p.string(),
      assignee_id: p.int(),
      assignee_username: p.string(),
      reviewer_id: p.int(),
      reviewer_username: p.string(),
    })
    .optional(),
};

export const projectListParams = z.object({ ...idParam, ...listFilterParams, scope: p.oneOf(['created_by_me', 'assigned_to_me', 'all']) }).superRefine(oneReviewerFilter);
/** `GET /projects/:id/deployments/:deployment_id/merge_requests`: a project list's filters (GitLab's `merge_requests_base_params`). */
export const deploymentListParams = z
  .object({ ...idParam, deployment_id: required(p.int()), ...listFilterParams, scope: p.oneOf(['created_by_me', 'assigned_to_me', 'all']) })
  .superRefine(oneReviewerFilter);
export const groupListParams = z.object({ ...idParam, ...listFilterParams, scope: p.oneOf(['created_by_me', 'assigned_to_me', 'all']) }).superRefine(oneReviewerFilter);
export const userListParams = z
  .object({
    ...listFilterParams,
    scope: p.oneOf(['created_by_me', 'assigned_to_me', 'all']).transform((v) => v ?? 'created_by_me'),
  })
  .superRefine(oneReviewerFilter);

type ListParams = z.output<typeof projectListParams> | z.output<typeof groupListParams> | z.output<typeof userListParams>;

/**
 * The filters of a list; a `scope` narrows to the caller's authored or assigned ones; a reviewer
 * named by username is looked up (an unknown one matches nothing).
 */
export const filtersFrom = async (params: Omit<ListParams, 'scope'> & { scope?: string }, userId: number | undefined): Promise<MergeRequestFilters> => ({
  state: params.state,
  labels: params.labels?.split(',').map((s) => s.trim()).filter(Boolean),
  milestone: params.milestone,
  iids: params.iids,
  search: params.search,
  authorId: params.author_id ?? (params.scope === 'created_by_me' ? userId : undefined),
  assigneeId: params.assignee_id ?? (params.scope === 'assigned_to_me' ? userId : undefined),
  reviewerId: params.reviewer_username !== undefined ? await userIdForFilter(params.reviewer_username) : params.reviewer_id,
  sourceBranch: params.source_branch,
  targetBranch: params.target_branch,
  wip: params.wip,
  not: params.not && {
    labels: params.not.labels?.split(',').map((s) => s.trim()).filter(Boolean),
    milestone: params.not.milestone,
    authorId: params.not.author_username !== undefined ? await userIdForFilter(params.not.author_username) : params.not.author_id,
    assigneeId: params.not.assignee_username !== undefined ? await userIdForFilter(params.not.assignee_username) : params.not.assignee_id,
    reviewerId: params.not.reviewer_username !== undefined ? await userIdForFilter(params.not.reviewer_username) : params.not.reviewer_id,
  },
});

export const orderFrom = (params: { order_by: MergeRequestOrder['orderBy']; sort: 'asc' | 'desc' }): MergeRequestOrder => ({
  orderBy: params.order_by,
  ascending: params.sort === 'asc',
});
