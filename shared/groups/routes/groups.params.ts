/** Parameters of the groups routes. */
import * as z from 'zod';
import { GROUP_ACCESS_LEVELS } from '../../auth';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p } from '../../platform/http/params';
import { VISIBILITIES, avatarParam } from '../../namespaces';

/** GitLab's `Namespace` lengths: name, path and description at most 255 characters each. */
export const GROUP_TEXT_LIMIT = { max: 255 } as const;

/** Settings accepted by `POST /groups` and `PUT /groups/:id`. */
export const groupSettingsParams = {
  name: p.string(GROUP_TEXT_LIMIT),
  path: p.string(GROUP_TEXT_LIMIT),
  description: p.string(GROUP_TEXT_LIMIT),
  visibility: p.oneOf(VISIBILITIES),
  lfs_enabled: p.bool(),
  request_access_enabled: p.bool(),
  /** A multipart image file; `""` removes the avatar (`PUT`). */
  avatar: avatarParam,
};

const sort = p.oneOf(['asc', 'desc']);

/** GitLab's `group_list_params` (`GET /groups`). */
export const groupListParams = {
  ...paginationParams,
  statistics: p.bool(),
  skip_groups: p.array(z.coerce.number().int()),
  all_available: p.bool(),
  search: p.string(),
  owned: p.bool(),
  order_by: p.oneOf(['name', 'path', 'id']),
  sort,
  min_access_level: p.int().refine((level) => level === undefined || (GROUP_ACCESS_LEVELS as readonly number[]).includes(level), {
    message: 'min_access_level does not have a valid value',
  }),
  top_level_only: p.bool(),
};

/** `GET /groups/:id/projects`. */
export const groupProjectsParams = {
  ...idParam,
  ...paginationParams,
  archived: p.bool(),
  visibility: p.oneOf(VISIBILITIES),
  search: p.string(),
  order_by: p.oneOf(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']),
  sort,
  simple: p.bool(),
  statistics: p.bool(),
};

/** `:id` of `/groups/:id` (a numeric id or a URL-encoded full path) with the route's own parameters. */
export const withGroupId = <T extends z.ZodRawShape>(shape: T) => z.object({ ...idParam, ...shape });
