/** The parameters of a runner's settings, shared by the routes that create and change runners (kept apart from their routes, so that the users function's `POST /user/runners` loads only these). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { limitedString, p } from '../../platform/http/params';
import type { CreateRunnerInput } from '../commands/runners';
import type { RunnerFilters } from '../queries/runners';

const TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export const STATUSES = ['active', 'paused', 'online', 'offline', 'never_contacted', 'stale'] as const;
/** Every value of the deprecated `scope` (GitLab's `AVAILABLE_SCOPES`). */
export const SCOPES = ['specific', 'shared', ...TYPES, ...STATUSES] as const;
/** GitLab's `Ci::Build::AVAILABLE_STATUSES` (those this service never uses simply match nothing). */
export const BUILD_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running',
  'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;

/** GitLab's `use :filter_params` (with `use :pagination`) of the runner lists. */
export const filterParams = {
  type: p.oneOf(TYPES),
  status: p.oneOf(STATUSES),
  paused: p.bool(),
  tag_list: p.array(z.string()),
  version_prefix: p.string().refine((value) => value === undefined || /^[\d+.]+/.test(value), { message: 'version_prefix is invalid' }),
  ...paginationParams,
};

/** The list filters in the queries' terms. */
export const filtersOf = (params: { type?: string; status?: string; scope?: string; paused?: boolean; tag_list?: string[]; version_prefix?: string }): RunnerFilters => ({
  type: params.type,
  status: params.status,
  scope: params.scope,
  paused: params.paused,
  tagList: params.tag_list,
  versionPrefix: params.version_prefix,
});

/** GitLab's `Ci::Runner`: a description and a maintenance note of at most 1,024 characters each. */
export const RUNNER_TEXT_LIMIT = { max: 1024 } as const;
/** A runner's tag: 255 characters, in GitLab's words (`tags_list`). */
export const RUNNER_TAG_LIMIT = { max: 255, field: 'tags_list', message: 'tag is too long (maximum is 255 characters)' } as const;
/** A runner manager's `system_id` (GitLab's `ci_runner_machines.system_xid`: 64 characters). */
export const RUNNER_SYSTEM_ID_LIMIT = { max: 64 } as const;

/** A runner's settings as `POST /runners`, `POST /user/runners` and `PUT /runners/:id` take them. */
export const runnerSettingParams = {
  description: p.string(RUNNER_TEXT_LIMIT),
  active: p.bool(),
  paused: p.bool(),
  tag_list: p.array(limitedString(RUNNER_TAG_LIMIT)),
  run_untagged: p.bool(),
  locked: p.bool(),
  access_level: p.oneOf(['not_protected', 'ref_protected']),
  maximum_timeout: p.int(),
  maintenance_note: p.string(RUNNER_TEXT_LIMIT),
};

type RunnerSettings = { [name in keyof typeof runnerSettingParams]?: z.infer<(typeof runnerSettingParams)[name]> };

/** A new runner's settings (`POST /runners`, `POST /user/runners`) in the commands' terms. */
export const newRunnerSettings = (params: RunnerSettings): CreateRunnerInput => ({
  description: params.description,
  active: params.active,
  paused: params.paused,
  locked: params.locked,
  runUntagged: params.run_untagged,
  tagList: params.tag_list,
  maximumTimeout: params.maximum_timeout,
  accessLevel: params.access_level,
  maintenanceNote: params.maintenance_note,
});
