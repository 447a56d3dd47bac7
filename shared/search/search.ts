/**
 * A search's request, as every scope's query reads it, and the scope's queries loaded on first
 * use: each scope reads other features' lists (issues, merge requests, projects, users), which a
 * function serving search loads only when that scope is asked for (`lazily`), so the meta,
 * projects and groups functions do not load them at cold start for search.
 */
import type { ProjectSubject } from '../auth';
import type { Namespace } from '../namespaces';
import type { PageLinkBase, PaginationParams } from '../platform/http/pagination';
import { lazily } from '../platform/lazy';
import type { User } from '../users';
import type { SEARCH_STATES, SearchScope } from './scopes';

/** Where a search looks: the whole instance, a group (and its subgroups), or a project. */
export type SearchLevel = { kind: 'global' } | { kind: 'group'; group: Namespace } | { kind: 'project'; subject: ProjectSubject };

export interface SearchInput {
  user: User;
  /** The query, not blank (a blank one finds nothing: the route answers it). */
  search: string;
  state?: (typeof SEARCH_STATES)[number];
  confidential?: boolean;
  /** `sort=asc` (GitLab's basic search: `created_at`, newest first by default). */
  ascending: boolean;
  /** A project's repository scopes: the branch, tag or commit searched (its default branch when not given). */
  ref?: string;
  paging: PaginationParams;
  link: PageLinkBase;
}

/** A page of a scope's results, presented, with GitLab's pagination headers. */
export interface SearchPage {
  items: unknown[];
  headers: Record<string, string>;
}

export type ScopeQuery = (level: SearchLevel, input: SearchInput) => Promise<SearchPage>;

const queries: Partial<Record<SearchScope, ScopeQuery>> = {
  projects: lazily(() => import('./queries/projects'), (m) => m.searchProjects),
  issues: lazily(() => import('./queries/issues'), (m) => m.searchIssues),
  merge_requests: lazily(() => import('./queries/merge-requests'), (m) => m.searchMergeRequests),
  milestones: lazily(() => import('./queries/milestones'), (m) => m.searchMilestones),
  users: lazily(() => import('./queries/users'), (m) => m.searchUsers),
  snippet_titles: lazily(() => import('./queries/snippets'), (m) => m.searchSnippetTitles),
  commits: lazily(() => import('./queries/repository'), (m) => m.searchCommits),
  blobs: lazily(() => import('./queries/repository'), (m) => m.searchBlobs),
};

/** The query of a scope this service answers (the route checked it is built at the level). */
export const scopeQuery = (scope: SearchScope): ScopeQuery => queries[scope]!;
