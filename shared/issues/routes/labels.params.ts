/** Parameters of the project label routes, with Grape's `exactly_one_of` / `at_least_one_of` rules. */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';
import { DESCRIPTION_LIMIT, TITLE_LIMIT } from './params';

/** GitLab's `Label` lengths: a name is its `title` (255); a colour longer than any is not one. */
export const LABEL_NAME_LIMIT = { ...TITLE_LIMIT, field: 'title' } as const;
export const LABEL_COLOR_LIMIT = { max: 255, message: 'must be a valid color code' } as const;

/** `:label_id` of `/projects/:id/labels/:label_id`: a label id or its (URL-encoded) name. */
export const labelIdOrNameParam = { label_id: required(p.string()) };

/**
 * `priority` (GitLab: `Integer, allow_blank: true`): a number sets it; an explicit `null` or blank
 * removes it (`null`); absent leaves it (`undefined`).
 */
const priorityParam = z.preprocess(
  (value) => {
    if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
    return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  },
  z.number().int().nullable().optional(),
);

export const labelListParams = {
  with_counts: p.bool(),
  /** Include the labels of the project's groups (default `true`, as in GitLab). */
  include_ancestor_groups: p.bool(),
  search: p.string(),
};

/** `POST /projects/:id/labels`. */
export const labelCreateParams = {
  name: required(p.string(LABEL_NAME_LIMIT)),
  color: required(p.string(LABEL_COLOR_LIMIT)),
  description: p.string(DESCRIPTION_LIMIT),
  priority: priorityParam,
};

/** What an edit may change (`PUT` routes); at least one must be given. */
export const labelUpdateParams = {
  new_name: p.string(LABEL_NAME_LIMIT),
  color: p.string(LABEL_COLOR_LIMIT),
  description: p.string(DESCRIPTION_LIMIT),
  priority: priorityParam,
};

/** The label of the collection forms (`PUT`/`DELETE /projects/:id/labels`): exactly one of them. */
export const labelSelectorParams = {
  label_id: p.int(),
  name: p.string(),
};

/** Grape's `exactly_one_of`: none → `a, b are missing, exactly one …`; several → `a, b are mutually exclusive`. */
export function exactlyOneOf(names: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const given = names.filter((name) => value[name] !== undefined);
    if (given.length === 0) ctx.addIssue({ code: 'custom', message: `${names.join(', ')} are missing, exactly one parameter must be provided` });
    else if (given.length > 1) ctx.addIssue({ code: 'custom', message: `${given.join(', ')} are mutually exclusive` });
  };
}

export const UPDATE_FIELDS = ['new_name', 'color', 'description', 'priority'] as const;
