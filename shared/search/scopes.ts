/**
 * The scopes of GitLab's Search API (`API::Helpers::SearchHelpers`, Community Edition), by level,
 * and the ones this service answers. A scope GitLab accepts at a level but this service does not
 * build (README: "Search") is answered 400, `Scope not supported without Elasticsearch!` (what
 * GitLab answered for its Elasticsearch-only scopes), never an empty list that would look like no
 * match.
 */
export const GLOBAL_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'] as const;
export const GROUP_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users'] as const;
export const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs', 'users'] as const;

export type SearchScope = (typeof GLOBAL_SCOPES)[number] | (typeof GROUP_SCOPES)[number] | (typeof PROJECT_SCOPES)[number];

/** The scopes answered, by level. */
export const BUILT = {
  global: new Set<SearchScope>(['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users']),
  group: new Set<SearchScope>(['projects', 'issues', 'merge_requests', 'milestones']),
  project: new Set<SearchScope>(['issues', 'merge_requests', 'milestones', 'commits', 'blobs']),
};

/** GitLab's `search_states`: `state` of issues and merge requests, ignored by the other scopes. */
export const SEARCH_STATES = ['all', 'opened', 'closed', 'merged'] as const;
