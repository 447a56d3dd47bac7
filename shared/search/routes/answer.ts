/**
 * Internal: what the three search routes share once the level is found: a scope not built here is
 * GitLab's 400 for its Elasticsearch-only scopes (`render_api_error!`: `{"message":{"error":…}}`); a blank query finds nothing; otherwise the
 * scope's query (loaded on first use) answers a page. Every answer says `X-Search-Type: basic`,
 * as GitLab's basic (non-Elasticsearch) search.
 */
import { paginateArray, type PageLinkBase, type PaginationParams } from '../../platform/http/pagination';
import { ApiError } from '../../platform/http/errors';
import { ok } from '../../platform/http/response';
import type { User } from '../../users';
import { BUILT, type SEARCH_STATES, type SearchScope } from '../scopes';
import { scopeQuery, type SearchLevel } from '../search';

interface Params extends PaginationParams {
  search: string;
  scope: SearchScope;
  state?: (typeof SEARCH_STATES)[number];
  confidential?: boolean;
  sort?: 'asc' | 'desc';
  ref?: string;
}

export async function answerSearch(level: SearchLevel, params: Params, user: User, link: PageLinkBase) {
  if (!BUILT[level.kind].has(params.scope)) throw new ApiError(400, { message: { error: 'Scope not supported without Elasticsearch!' } });
  const headers = { 'X-Search-Type': 'basic' };
  if (params.search.trim() === '') {
    const page = paginateArray(params, link, []);
    return ok(page.items, { ...page.headers, ...headers });
  }
  const page = await scopeQuery(params.scope)(level, {
    user,
    search: params.search,
    state: params.state,
    confidential: params.confidential,
    ascending: params.sort === 'asc',
    ref: params.ref,
    paging: params,
    link,
  });
  return ok(page.items, { ...page.headers, ...headers });
}
