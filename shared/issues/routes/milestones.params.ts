/** Parameters of the project milestone routes (GitLab's `MilestoneResponses` parameter groups). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import type { MilestoneChanges, MilestoneInput } from '../commands/milestones';
import type { MilestoneFilters } from '../queries/milestones';
import { atLeastOneOf, clearableDate, clearableText, TITLE_LIMIT } from './params';

const milestoneIdParam = { milestone_id: required(p.int()) };

/** `:id` (a project id or URL-encoded full path) and `:milestone_id`. */
export const milestonePathParams = { ...idParam, ...milestoneIdParam };

/**
 * A full ISO 8601 timestamp; its date part is kept as written (no time-zone shift), as GitLab
 * does: it declares milestone dates as strings and its model casts them to a date.
 */
/** GitLab's `:optional_params`. */
const optionalParams = {
  description: clearableText(),
  due_date: clearableDate(),
  start_date: clearableDate(),
};

/** `POST /projects/:id/milestones`. */
export const createParams = z.object({ ...idParam, title: required(p.string(TITLE_LIMIT)), ...optionalParams });

const UPDATABLE = ['title', 'description', 'start_date', 'due_date', 'state_event'] as const;

/** `PUT /projects/:id/milestones/:milestone_id`: at least one change (Grape's `at_least_one_of`). */
export const updateParams = z
  .object({ ...milestonePathParams, title: p.string(TITLE_LIMIT), state_event: p.oneOf(['close', 'activate']), ...optionalParams })
  .superRefine(atLeastOneOf(UPDATABLE));

/** `GET /projects/:id/milestones`: GitLab's `:list_params`. */
export const listParams = z.object({
  ...idParam,
  ...paginationParams,
  state: p.oneOf(['active', 'closed', 'all']),
  iids: p.array(z.coerce.number().int()),
  title: p.string(),
  search: p.string(),
});

export const inputFrom = (params: z.output<typeof createParams>): MilestoneInput => ({
  title: params.title,
  description: params.description,
  dueDate: params.due_date,
  startDate: params.start_date,
});

export const changesFrom = (params: z.output<typeof updateParams>): MilestoneChanges => ({
  title: params.title,
  description: params.description,
  dueDate: params.due_date,
  startDate: params.start_date,
  stateEvent: params.state_event,
});

export const filtersFrom = (params: z.output<typeof listParams>): MilestoneFilters => ({
  state: params.state,
  iids: params.iids,
  title: params.title,
  search: params.search,
});
