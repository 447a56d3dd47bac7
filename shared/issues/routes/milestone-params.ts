/** Parameters of the project milestone routes (GitLab's `MilestoneResponses` parameter groups). */
import { z } from 'zod';
import type { MilestoneChanges, MilestoneFilters, MilestoneInput } from '../milestones';
import { p, required } from '../../platform/http/params';
import { paginationParams } from '../../platform/http/pagination';

/** `:id` of `/projects/:id/...`: a project id or URL-encoded full path. */
export const projectIdParam = { id: required(p.string()) };

export const milestoneIdParam = { milestone_id: required(p.int()) };

/** A `YYYY-MM-DD` date that a blank value or `null` clears (`null`); absent stays `undefined`. */
const clearableDate = () => z.preprocess((value) => (value === '' || value === null ? null : value), z.union([z.null(), p.date()]));

/** A text that `null` clears; absent stays `undefined`. */
const clearableText = () =>
  z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().nullable().optional());

/** GitLab's `:optional_params`. */
const optionalParams = {
  description: clearableText(),
  due_date: clearableDate(),
  start_date: clearableDate(),
};

/** `POST /projects/:id/milestones`. */
export const createParams = z.object({ ...projectIdParam, title: required(p.string()), ...optionalParams });

const UPDATABLE = ['title', 'description', 'start_date', 'due_date', 'state_event'] as const;

/** `PUT /projects/:id/milestones/:milestone_id`: at least one change (Grape's `at_least_one_of`). */
export const updateParams = z
  .object({ ...projectIdParam, ...milestoneIdParam, title: p.string(), state_event: p.oneOf(['close', 'activate']), ...optionalParams })
  .superRefine((value, ctx) => {
    if (UPDATABLE.every((name) => value[name] === undefined)) {
      ctx.addIssue({ code: 'custom', message: `${UPDATABLE.join(', ')} are missing, at least one parameter must be provided` });
    }
  });

/** `GET /projects/:id/milestones`: GitLab's `:list_params`. */
export const listParams = z.object({
  ...projectIdParam,
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
