/** The releases API's parameters (GitLab's `lib/api/releases.rb`, `lib/api/release/links.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required, type StringLimit } from '../../platform/http/params';
import { LINK_TYPES } from '../store/releases';

/**
 * Lengths (GitLab: 255 characters for names, 128 for a direct asset path, a text column for the
 * rest). A release and its links are one item of at most 400 KB: the description holds at most
 * 200,000 bytes, and a release at most `MAX_LINKS` links of at most ~3.5 KB each.
 */
const NAME_LIMIT = { max: 255 } as const satisfies StringLimit;
const DESCRIPTION_LIMIT = { max: 65_535, maxBytes: 200_000 } as const satisfies StringLimit;
const URL_LIMIT = { max: 2048, maxBytes: 2048 } as const satisfies StringLimit;
const FILEPATH_LIMIT = { max: 128 } as const satisfies StringLimit;

export const tagNameParam = { ...idParam, tag_name: required(p.string()) };
export const linkIdParam = { ...tagNameParam, link_id: required(p.int()) };

/** A link's fields; `direct_asset_path` or the deprecated `filepath`. */
const linkFields = {
  name: p.string(NAME_LIMIT),
  url: p.string(URL_LIMIT),
  direct_asset_path: p.string(FILEPATH_LIMIT),
  filepath: p.string(FILEPATH_LIMIT),
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
  name: p.string(NAME_LIMIT),
  description: p.string(DESCRIPTION_LIMIT),
  ref: p.string(),
  released_at: p.dateTime(),
  milestones,
  assets: z
    .object({ links: p.array(z.object({ ...linkFields, name: required(p.string(NAME_LIMIT)), url: required(p.string(URL_LIMIT)) })) })
    .optional(),
});

export const updateParams = z.object({ ...tagNameParam, name: p.string(NAME_LIMIT), description: p.string(DESCRIPTION_LIMIT), released_at: p.dateTime(), milestones });

export const createLinkParams = z.object({ ...tagNameParam, ...linkFields, name: required(p.string(NAME_LIMIT)), url: required(p.string(URL_LIMIT)) });
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

/** GitLab's `file_path: true` validator on a greedy path: no `..` segment, no NUL byte. */
const relativePath = (name: string) =>
  p.string().superRefine((path, ctx) => {
    if (path !== undefined && (path.includes('\0') || path.split('/').includes('..'))) ctx.addIssue({ code: 'custom', message: `${name} should be a valid file path` });
  });

export const latestParams = z.object({ ...idParam, suffix_path: relativePath('suffix_path') });
export const downloadParams = z.object({ ...tagNameParam, direct_asset_path: required(relativePath('direct_asset_path')) });
