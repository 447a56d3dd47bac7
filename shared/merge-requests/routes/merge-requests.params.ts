/** Parameters of the merge request routes (GitLab's `lib/api/merge_requests.rb`). */
import * as z from 'zod';
import { idParam, p, required, type StringLimit } from '../../platform/http/params';
import type { MergeRequestInput } from '../commands/merge-requests';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../commands/shared';

export const mergeRequestIidParam = { merge_request_iid: required(p.int()) };

/** `:id` and `:merge_request_iid` of `/projects/:id/merge_requests/:merge_request_iid/...`. */
export const mergeRequestPathParams = { ...idParam, ...mergeRequestIidParam };

/** GitLab's `Issuable` title: 255 characters (stripped first). */
const TITLE_LIMIT = { max: MAX_TITLE_LENGTH, trim: true } as const satisfies StringLimit;

export { NOTE_BODY_LIMIT } from '../../issues';
export { deploymentListParams, filtersFrom, groupListParams, orderFrom, projectListParams, userListParams } from './list.params';

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
