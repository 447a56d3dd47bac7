/** Parameters of the issue routes (GitLab's `issue_params` and `issues_params` groups). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { userIdForFilter } from '../../users';
import type { IssueInput } from '../commands/issues';
import type { IssueFilters, IssueOrder } from '../queries/issues';
import { atLeastOneOf, clearableDate, clearableText, TITLE_LIMIT } from './params';

export const issueIidParam = { issue_iid: required(p.int()) };

/** `:id` (a project id or URL-encoded full path) and `:issue_iid` of `/projects/:id/issues/:issue_iid/...`. */
export const issuePathParams = { ...idParam, ...issueIidParam };

/** GitLab's `:issue_params`: what create and edit share. */
const issueParams = {
  description: clearableText(),
  confidential: p.bool(),
  labels: p.nameList({ ...TITLE_LIMIT, field: 'title' }),
  milestone_id: p.clearableId(),
  assignee_ids: p.idList(),
  due_date: clearableDate(),
};

/**
 * `POST /projects/:id/issues`. `merge_request_to_resolve_discussions_of` and
 * `discussion_to_resolve` are typed as GitLab declares them; GitLab ignores a merge request it
 * cannot find, and none can exist before merge requests are built, so they change nothing yet.
 */
export const createParams = z.object({
  ...idParam,
  title: required(p.string(TITLE_LIMIT)),
  created_at: p.string(),
  merge_request_to_resolve_discussions_of: p.int(),
  discussion_to_resolve: p.string(),
  ...issueParams,
});

const UPDATABLE = ['title', 'description', 'confidential', 'labels', 'milestone_id', 'assignee_ids', 'due_date', 'state_event', 'updated_at'] as const;

/** `PUT /projects/:id/issues/:issue_iid`: at least one change (Grape's `at_least_one_of`). */
export const updateParams = z
  .object({
    ...issuePathParams,
    title: p.string(TITLE_LIMIT),
    state_event: p.oneOf(['close', 'reopen']),
    updated_at: p.string(),
    ...issueParams,
  })
  .superRefine(atLeastOneOf(UPDATABLE));

/** `POST /projects/:id/issues/:issue_iid/move`. */
export const moveParams = z.object({ ...issuePathParams, to_project_id: required(p.int()) });

/** GitLab's `:issues_stats_params`: the filters of the list endpoints, which `issues_statistics` shares. */
const filterParams = {
  labels: p.string(),
  milestone: p.string(),
  iids: p.array(z.coerce.number().int()),
  search: p.string(),
  author_id: p.int(),
  author_username: p.string(),
  assignee_id: p.noneAnyOrId(),
  assignee_username: p.array(z.string()),
  confidential: p.bool(),
  created_after: p.dateTime(),
  created_before: p.dateTime(),
  updated_after: p.dateTime(),
  updated_before: p.dateTime(),
  // GitLab's `negatable_issue_filter_params` (`not[labels]=bug`, a JSON object).
  not: z
    .object({
      labels: p.string(),
      milestone: p.string(),
      iids: p.array(z.coerce.number().int()),
      author_id: p.int(),
      author_username: p.string(),
      assignee_id: p.int(),
      assignee_username: p.array(z.string()),
    })
    .optional(),
};

/** GitLab's `:issues_params`: the filters and order of the list endpoints. */
const listFilterParams = {
  ...paginationParams,
  state: p.oneOf(['opened', 'closed', 'all']),
  ...filterParams,
  order_by: p.oneOf(['created_at', 'updated_at']).transform((v) => v ?? 'created_at'),
  sort: p.oneOf(['asc', 'desc']).transform((v) => v ?? 'desc'),
};

/** Grape's `mutually_exclusive` of a user filter by id and by username. */
const oneUserFilter = (value: { author_id?: number; author_username?: string; assignee_id?: unknown; assignee_username?: string[] }, ctx: z.RefinementCtx) => {
  if (value.author_id !== undefined && value.author_username !== undefined) ctx.addIssue({ code: 'custom', message: 'author_id, author_username are mutually exclusive' });
  if (value.assignee_id !== undefined && value.assignee_username !== undefined) ctx.addIssue({ code: 'custom', message: 'assignee_id, assignee_username are mutually exclusive' });
};

/** `GET /projects/:id/issues`. */
export const projectListParams = z.object({ ...idParam, ...listFilterParams }).superRefine(oneUserFilter);

/** `GET /groups/:id/issues`: `:id` a group id or URL-encoded full path. */
export const groupListParams = z.object({ ...idParam, ...listFilterParams }).superRefine(oneUserFilter);

/** `GET /issues`: `scope` `created_by_me` (default) or `assigned_to_me`. */
export const userListParams = z
  .object({
    ...listFilterParams,
    scope: p.oneOf(['created_by_me', 'assigned_to_me']).transform((v) => v ?? 'created_by_me'),
  })
  .superRefine(oneUserFilter);

/**
 * `GET /projects/:id/issues_statistics` and `GET /groups/:id/issues_statistics`: the list filters
 * and `scope` (`created_by_me`, `assigned_to_me`, `all`; GitLab's dashed forms too), none by default.
 */
export const statisticsParams = z
  .object({
    ...idParam,
    ...filterParams,
    scope: p.oneOf(['created_by_me', 'assigned_to_me', 'created-by-me', 'assigned-to-me', 'all']).transform((v) => v?.replace(/-/g, '_')),
  })
  .superRefine(oneUserFilter);

/** `GET /issues_statistics`: the scopes of `GET /issues`, `created_by_me` by default. */
export const userStatisticsParams = z
  .object({
    ...filterParams,
    scope: p.oneOf(['created_by_me', 'assigned_to_me']).transform((v) => v ?? 'created_by_me'),
  })
  .superRefine(oneUserFilter);

export const inputFrom = (params: z.output<typeof createParams> | z.output<typeof updateParams>): IssueInput => ({
  title: params.title,
  description: params.description,
  confidential: params.confidential,
  labels: params.labels,
  milestoneId: params.milestone_id,
  assigneeIds: params.assignee_ids,
  dueDate: params.due_date,
  createdAt: 'created_at' in params ? params.created_at : undefined,
  updatedAt: 'updated_at' in params ? params.updated_at : undefined,
  stateEvent: 'state_event' in params ? params.state_event : undefined,
});

/** The order a list is read in (`order_by` picks the index, `sort` the direction). */
export const orderFrom = (params: { order_by: IssueOrder['orderBy']; sort: 'asc' | 'desc' }): IssueOrder => ({
  orderBy: params.order_by,
  ascending: params.sort === 'asc',
});

/** The list's filters; a user named by username (`author_username`, `assignee_username`: GitLab CE reads the first) is looked up. */
export const filtersFrom = async (
  params: z.output<typeof projectListParams> | z.output<typeof userListParams> | z.output<typeof groupListParams> | z.output<typeof statisticsParams> | z.output<typeof userStatisticsParams>,
): Promise<IssueFilters> => ({
  state: 'state' in params ? params.state : undefined,
  labels: params.labels?.split(',').map((s) => s.trim()).filter(Boolean),
  milestone: params.milestone,
  iids: params.iids,
  search: params.search,
  authorId: params.author_username !== undefined ? await userIdForFilter(params.author_username) : params.author_id,
  assigneeId: params.assignee_username?.length ? await userIdForFilter(params.assignee_username[0]) : params.assignee_id,
  confidential: params.confidential,
  createdAfter: params.created_after,
  createdBefore: params.created_before,
  updatedAfter: params.updated_after,
  updatedBefore: params.updated_before,
  not: params.not && {
    labels: params.not.labels?.split(',').map((s) => s.trim()).filter(Boolean),
    milestone: params.not.milestone,
    iids: params.not.iids,
    authorId: params.not.author_username !== undefined ? await userIdForFilter(params.not.author_username) : params.not.author_id,
    assigneeId: params.not.assignee_username?.length ? await userIdForFilter(params.not.assignee_username[0]) : params.not.assignee_id,
  },
});
