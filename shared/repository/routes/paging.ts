/**
 * GitLab's paging of lists it cannot count: the commits list tells Kaminari there is one more commit
 * after a full page (`total_count: offset + commits.size + 1`) and leaves out `X-Total` and
 * `X-Total-Pages` (`exclude_total_headers`). So a full page always links a next page, and the
 * `last` link points at the page after a full one; nothing past the page is read.
 */
import { offsetPageHeaders, pageStart, type PageLinkBase, type PaginationParams } from '../../platform/http/pagination';

/** Headers of a page of `count` items that are all the list read (GitLab's commits list paging). */
export function uncountedPageHeaders(params: PaginationParams, link: PageLinkBase, count: number): Record<string, string> {
  // The links are those of a list of the size Kaminari is told: one more item than read.
  const total = pageStart(params) + count + 1;
  const { 'X-Total': _total, 'X-Total-Pages': _pages, ...rest } = offsetPageHeaders(params, link, { hasNext: count >= params.per_page, total });
  return rest;
}
