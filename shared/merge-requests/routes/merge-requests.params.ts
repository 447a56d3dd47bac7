/** Parameters of the merge request routes (GitLab's `lib/api/merge_requests.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required, type StringLimit } from '../../platform/http/params';
import { userIdForFilter } from '../../users';
import type { MergeRequestInput } from '../commands/merge-requests';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../commands/shared';
import type { MergeRequestFilters, MergeRequestOrder } from '../queries/merge-requests';

export const mergeRequestIidParam = { merge_request_iid: required(p.int()) };

/** `:id` and `:merge_request_iid` of `/projects/:id/merge_requests/:merge_request_iid/...`. */
export const mergeRequestPathParams = { ...idParam, ...mergeRequestIidParam };

/** GitLab's `Issuable` title: 255 characters (stripped first). */
const TITLE_LIMIT = { max: MAX_TITLE_LENGTH, trim: true } as const satisfies StringLimit;

export { NOTE_BODY_LIMIT } from '../../issues';

/**
 * A description that `null` clears; absent stays `undefined`. GitLab allows 1,048,576
 * characters; a DynamoDB item holds 400 KB, so {@link MAX_DESCRIPTION_LENGTH}.
 */
const DESCRIPTION_LIMIT = { max: MAX_DESCRIPTION_LENGTH } as const satisfies StringLimit;

/** What create and edit share (GitLab's `optional_params_ce`). */
const optionalParams = {
  description: p.clearableText(DESCRIPTION_LIMIT),
  assignee_id: p.clearableId(),
  // GitLab's `CommaSeparatedToIntegerArray`: blank, `null` and `[0]` clear.
  reviewer_ids: p.idList(z.coerce.number().int().min(0)),
  milestone_id: p.clearableId(),
  labels: p.nameList({ ...TITLE_LIMIT, field: 'title' }),
  remove_source_branch: p.bool(),
};

/** `POST /projects/:id/merge_requests`. */
export const createParams = z.object({
  ...idParam,
  title: required(p.string(TITLE_LIMIT)),
  source_branch: required(p.string()),
  target_branch: required(p.string()),
  target_project_id: p.int(),
  ...optionalParams,
});

/** GitLab's `optional_params` of the edit, in its order (the 400's wording lists them so). */
const UPDATABLE = ['assignee_id', 'description', 'labels', 'milestone_id', 'remove_source_branch', 'reviewer_ids', 'state_event', 'target_branch', 'title'] as const;

/** Grape's `at_least_one_of` on the edit: `a, b, ... are missing, at least one parameter must be provided`. */
function atLeastOneOf(names: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (names.some((name) => value[name] !== undefined)) return;
    ctx.addIssue({ code: 'custom', message: `${names.join(', ')} are missing, at least one parameter must be provided` });
  };
}

/** `PUT /projects/:id/merge_requests/:merge_request_iid`. */
export const updateParams = z
  .object({
    ...mergeRequestPathParams,
    title: p.string(TITLE_LIMIT),
    target_branch: p.string(),
    state_event: p.oneOf(['close', 'reopen']),
    ...optionalParams,
  })
  .superRefine(atLeastOneOf(UPDATABLE));

/** `GET …/:merge_request_iid`: what a single response may add (`render_html` is not built). */
export const showParams = z.object({
  ...mergeRequestPathParams,
  include_diverged_commits_count: p.bool(),
  include_rebase_in_progress: p.bool(),
});

/** `PUT …/rebase`. */
export const rebaseParams = z.object({ ...mergeRequestPathParams, skip_ci: p.bool() });

/** `PUT …/merge`. */
export const mergeParams = z.object({
  ...mergeRequestPathParams,
  // Kept in the merge request's item until it merges, beside a description of up to 262 KB: at
  // most 100,000 bytes (GitLab sets no limit).
  merge_commit_message: p.string({ max: MAX_DESCRIPTION_LENGTH, maxBytes: 100_000 }),
  should_remove_source_branch: p.bool(),
  merge_when_pipeline_succeeds: p.bool(),
  sha: p.string(),
});

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

export const inputFrom = (params: z.output<typeof createParams> | z.output<typeof updateParams>): MergeRequestInput => ({
  title: params.title,
  description: params.description,
  targetBranch: params.target_branch,
  assigneeId: params.assignee_id,
  reviewerIds: params.reviewer_ids,
  milestoneId: params.milestone_id,
  labels: params.labels,
  removeSourceBranch: params.remove_source_branch,
  stateEvent: 'state_event' in params ? params.state_event : undefined,
});
