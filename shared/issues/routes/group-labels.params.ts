/** Parameters of the group label routes (GitLab's `lib/api/group_labels.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { atLeastOneOf, DESCRIPTION_LIMIT } from './params';
import { exactlyOneOf, LABEL_COLOR_LIMIT, LABEL_NAME_LIMIT, labelIdOrNameParam } from './labels.params';

/** `GET /groups/:id/labels`. */
export const groupLabelListParams = z.object({
  ...idParam,
  ...paginationParams,
  with_counts: p.bool(),
  /** Include the labels of the group's ancestors (default `true`). */
  include_ancestor_groups: p.bool(),
  /** Accepted; subgroups' labels are not listed (default `false` in GitLab too). */
  include_descendant_groups: p.bool(),
  /** Accepted; only group labels are listed (GitLab's default `true`). */
  only_group_labels: p.bool(),
  search: p.string(),
});

/** `GET /groups/:id/labels/:label_id`. */
export const groupLabelShowParams = z.object({ ...idParam, ...labelIdOrNameParam, include_ancestor_groups: p.bool(), include_descendant_groups: p.bool(), only_group_labels: p.bool() });

/** `POST /groups/:id/labels` (GitLab's `label_create_params`; a group label has no priority). */
export const groupLabelCreateParams = z.object({ ...idParam, name: required(p.string(LABEL_NAME_LIMIT)), color: required(p.string(LABEL_COLOR_LIMIT)), description: p.string(DESCRIPTION_LIMIT) });

const UPDATE_FIELDS = ['new_name', 'color', 'description'] as const;
const updateFields = { new_name: p.string(LABEL_NAME_LIMIT), color: p.string(LABEL_COLOR_LIMIT), description: p.string(DESCRIPTION_LIMIT) };

/** `PUT /groups/:id/labels/:label_id` (`group_label_update_params`: at least one change). */
export const groupLabelUpdateParams = z.object({ ...idParam, ...labelIdOrNameParam, ...updateFields }).superRefine(atLeastOneOf(UPDATE_FIELDS));

/** `PUT /groups/:id/labels` (deprecated form): exactly one of `label_id`, `name`. */
export const groupLabelCollectionUpdateParams = z
  .object({ ...idParam, label_id: p.int(), name: p.string(), ...updateFields })
  .superRefine(exactlyOneOf(['label_id', 'name']))
  .superRefine(atLeastOneOf(UPDATE_FIELDS));

/** `DELETE /groups/:id/labels` (deprecated form): `name` required. */
export const groupLabelCollectionDeleteParams = z.object({ ...idParam, name: required(p.string()) });

/** `:id` and `:label_id` (an id or a name). */
export const groupLabelPathParams = z.object({ ...idParam, ...labelIdOrNameParam });
