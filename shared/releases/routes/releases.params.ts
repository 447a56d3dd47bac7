/** The releases API's parameters (GitLab's `lib/api/releases.rb`, `lib/api/release/links.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { LINK_TYPES } from '../store/releases';

export const tagNameParam = { ...idParam, tag_name: required(p.string()) };
export const linkIdParam = { ...tagNameParam, link_id: required(p.int()) };

/** A link's fields; `direct_asset_path` or the deprecated `filepath`. */
const linkFields = {
  name: p.string(),
  url: p.string(),
  direct_asset_path: p.string(),
  filepath: p.string(),
  link_type: p.oneOf(LINK_TYPES),
};

/** Milestone titles: an array, or one comma-separated string (GitLab's `CommaSeparatedToArray`). */
const milestones = p.nameList({ max: 255 });

export const listParams = z.object({
  ...idParam,
  order_by: p.oneOf(['released_at', 'created_at']),
  sort: p.oneOf(['asc', 'desc']),
  include_html_description: p.bool(),
  ...paginationParams,
});

export const showParams = z.object({ ...tagNameParam, include_html_description: p.bool() });

export const createParams = z.object({
  ...idParam,
  tag_name: required(p.string()),
  tag_message: p.string(),
  name: p.string(),
  description: p.string(),
  ref: p.string(),
  released_at: p.dateTime(),
  milestones,
  assets: z
    .object({ links: p.array(z.object({ ...linkFields, name: required(p.string()), url: required(p.string()) })) })
    .optional(),
});

export const updateParams = z.object({ ...tagNameParam, name: p.string(), description: p.string(), released_at: p.dateTime(), milestones });

export const createLinkParams = z.object({ ...tagNameParam, ...linkFields, name: required(p.string()), url: required(p.string()) });
export const updateLinkParams = z.object({ ...linkIdParam, ...linkFields });
export const linkListParams = z.object({ ...tagNameParam, ...paginationParams });

type LinkParams = { name?: string; url?: string; direct_asset_path?: string; filepath?: string; link_type?: (typeof LINK_TYPES)[number] };

/** A link's parameters as the commands take them. */
export const linkInput = (params: LinkParams) => ({
  name: params.name,
  url: params.url,
  filepath: params.direct_asset_path ?? params.filepath,
  linkType: params.link_type,
});
