/**
 * The Search API's parameters (GitLab's `lib/api/search.rb`): `search` and `scope` required, in
 * that order (Grape names them so when both are missing), the scope one of the level's; `state`
 * and `confidential`; `order_by` (`created_at` only) and `sort`, which GitLab's basic search
 * applies to issues, merge requests and projects; pagination. A project's search also takes `ref`
 * (for its repository scopes, not built).
 */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, requiredKey } from '../../platform/http/params';
import { GLOBAL_SCOPES, GROUP_SCOPES, PROJECT_SCOPES, SEARCH_STATES } from '../scopes';

const common = <const T extends readonly [string, ...string[]]>(scopes: T) => ({
  // Grape's `requires :search, type: String`: absent is missing, blank is passed on (and finds nothing).
  search: requiredKey(p.string()),
  scope: requiredKey(p.oneOf(scopes)),
  state: p.oneOf(SEARCH_STATES),
  confidential: p.bool(),
  order_by: p.oneOf(['created_at']),
  sort: p.oneOf(['asc', 'desc']),
  ...paginationParams,
});

export const globalSearchParams = z.object(common(GLOBAL_SCOPES));
export const groupSearchParams = z.object({ ...idParam, ...common(GROUP_SCOPES) });
export const projectSearchParams = z.object({ ...idParam, ...common(PROJECT_SCOPES), ref: p.string() });
