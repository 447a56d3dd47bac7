/** Parameters of the repository routes (GitLab's `lib/api/repositories.rb`). */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';
import { unidiffParam } from '../presenters/diffs';

export const treeParams = {
  ref: p.string(),
  path: p.string(),
  recursive: p.bool(),
  /** GitLab's tree paging: `legacy` (offset, the default), `keyset` (after `page_token`), `none`. */
  pagination: p.oneOf(['legacy', 'keyset', 'none']),
  page_token: p.string(),
  page: p.int().transform((v) => Math.max(1, v ?? 1)),
  per_page: p.int().transform((v) => (v === undefined || v < 1 ? 20 : Math.min(v, 100))),
};

export const blobParam = { sha: required(p.string()) };

export const compareParams = {
  from: required(p.string()),
  to: required(p.string()),
  straight: p.bool(),
  from_project_id: p.int(),
  ...unidiffParam,
};

export const mergeBaseParams = {
  refs: required(p.array(z.string())),
};

/** `GET …/repository/contributors`: GitLab's defaults are the default branch, `commits`, `asc`. */
export const contributorsParams = {
  ref: p.string(),
  order_by: p.oneOf(['email', 'name', 'commits']),
  sort: p.oneOf(['asc', 'desc']),
};

/** `GET …/repository/archive[.format]`: `sha` is any revision (the default branch when absent). */
export const archiveParams = {
  sha: p.string(),
  path: p.string(),
  include_lfs_blobs: p.bool(),
};
