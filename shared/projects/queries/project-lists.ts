/**
 * Project lists (`GET /projects`, `/groups/:id/projects`, `/projects/search/:query`).
 *
 * Every source of candidates is a list of project ids in id order: an index partition (all
 * projects, one visibility, one namespace, a user's stars) or a small set computed from the
 * caller's memberships. Sources are merged by id, loaded a chunk at a time (BatchGetItem for the
 * projects, their namespaces and the caller's memberships), then filtered by what the caller may
 * see and by the request's filters. Ordering by id (= `created_at`) streams, so a page costs what
 * it returns plus what filters drop; other orders sort a bounded candidate set in memory. The
 * route pages the result (`paginate` for a stream, `paginateArray` for a sorted array).
 *
 * A `search` with an indexable term (`shared/platform/search.ts`) reads the term's search entries
 * (`SEARCH_PROJECTS#<term>`, by id) instead of the list's index, so its cost grows with the
 * projects the term matches, not with the table; each loaded project must then really match
 * (GitLab's rule on name, path and description) and pass the list's other filters (namespace,
 * `owned`, `membership`, visibility). A query without a term filters the list's own read.
 */
import { projectAccessForMany, can, isAdmin, isMembershipActive, OWNER, type ProjectSubject } from '../../auth';
import { ancestorsLive, entryIds, loadAncestors, mergeIdStreams, type IdStream, type Namespace, type Visibility } from '../../namespaces';
import type { User } from '../../users';
import { config } from '../../platform/config';
import { ParamError } from '../../platform/http/errors';
import { type PaginationParams, type StreamEntry, type StreamSource } from '../../platform/http/pagination';
import { matchesSearch, parseSearch, type SearchQuery } from '../../platform/search';
import { CONTRIBUTION_WINDOW_MS } from '../store/contributions';
import { projectSearchCollections } from '../store/keys';
import { getNamespacesById, groupsReachedFrom, membershipsOf, projectIds, type IdRange, type ProjectIndex } from '../store/lookups';
import { getProjects, type Project } from '../store/projects';

export type ProjectOrder = 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';

export interface ProjectListFilters {
  archived?: boolean;
  visibility?: Visibility;
  order_by?: ProjectOrder;
  sort?: 'asc' | 'desc';
  /** GitLab's `search`: every word a case-insensitive substring of the name, path or description. */
  search?: string;
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  /** Only the projects this user starred (`/users/:id/starred_projects`; `starred` is the caller's). */
  starredBy?: number;
  /**
   * Only the projects this user contributed to in the last year, outside its personal namespace
   * (`/users/:id/contributed_projects`: GitLab's `ContributedProjectsFinder` and `joined(user)`).
   */
  contributedBy?: { userId: number; namespaceId: number };
  /** Only the projects of this namespace (a group's projects). */
  namespaceId?: number;
  /** Only the forks of this project. */
  forksOf?: number;
}

/** A list of projects to page: a stream in id order, or an array already sorted in memory. */
export type ProjectList = StreamSource<ProjectSubject> | ProjectSubject[];

/** Most projects loaded per batch read. */
const CHUNK = 100;

async function* arrayIds(ids: number[], ascending: boolean, after: number | undefined): IdStream {
  const sorted = [...new Set(ids)].sort((a, b) => (ascending ? a - b : b - a));
  for (const id of sorted) if (after === undefined || (ascending ? id > after : id < after)) yield id;
}

/** Most groups a membership list expands to (the user's groups, their descendants and the groups shared with them). */
const MEMBERSHIP_GROUPS_LIMIT = 1000;

/**
 * The caller's memberships (GitLab's `authorized_projects`), as candidates: direct project ids,
 * the namespaces whose projects they may reach (their personal namespace, their groups with every
 * subgroup, and the groups shared with their groups, with theirs), and the groups whose shared
 * projects they may reach (the same groups). A superset: each candidate's access is computed after
 * (`matches`). `ownedOnly`: owned groups (and their subgroups) and the personal namespace alone.
 */
async function membershipScope(user: User, ownedOnly: boolean): Promise<{ projectIds: number[]; namespaceIds: number[]; sharingGroupIds: number[] }> {
  const projects: number[] = [];
  const groups: number[] = [];
  for await (const membership of membershipsOf(user.id)) {
    if (!isMembershipActive(membership)) continue;
    if (ownedOnly && Number(membership.accessLevel) < OWNER) continue;
    if (membership.sourceKind === 'project') projects.push(Number(membership.sourceId));
    else groups.push(Number(membership.sourceId));
  }
  const reached = groups.length > 0 ? await groupsReachedFrom(groups, { links: !ownedOnly, limit: MEMBERSHIP_GROUPS_LIMIT }) : [];
  return { projectIds: ownedOnly ? [] : projects, namespaceIds: [user.namespaceId, ...reached], sharingGroupIds: ownedOnly ? [] : reached };
}

/** The id streams of a membership scope: direct projects, the namespaces' projects, the projects shared with the groups. */
function scopeStreams(scope: Awaited<ReturnType<typeof membershipScope>>, range: IdRange): IdStream[] {
  const { ascending, after } = range;
  return [
    arrayIds(scope.projectIds, ascending, after),
    ...scope.namespaceIds.map((namespaceId) => projectIds({ namespaceId }, range)),
    ...scope.sharingGroupIds.map((sharedWith) => projectIds({ sharedWith }, range)),
  ];
}

/** Whether a list is read from one user's own index: the projects they starred or contributed to. */
const byUser = (filters: ProjectListFilters): boolean => filters.starredBy !== undefined || filters.contributedBy !== undefined;

/**
 * Whether a list's candidates are read from the search entries of its term: a `search` with an
 * indexable term, unless the list is bounded by a smaller index anyway (a project's forks, the
 * caller's or a user's stars, a user's contributions). The namespace, `owned` and `membership` are then checked on each project.
 */
const readsSearchEntries = (filters: ProjectListFilters, query: SearchQuery | undefined): query is SearchQuery & { term: string } =>
  query?.term !== undefined && filters.forksOf === undefined && !filters.starred && !byUser(filters);

/** The candidate id streams for a request, before visibility and filters. */
async function candidates(viewer: User | null, filters: ProjectListFilters, range: IdRange, query: SearchQuery | undefined): Promise<IdStream> {
  const { ascending, after } = range;
  if (readsSearchEntries(filters, query)) return entryIds(projectSearchCollections.entries(query.term), range);
  const of = (index: ProjectIndex) => projectIds(index, range);
  if (filters.starredBy !== undefined) return of({ starredBy: filters.starredBy });
  if (filters.contributedBy !== undefined) {
    return of({ contributedBy: filters.contributedBy.userId, since: new Date(Date.now() - CONTRIBUTION_WINDOW_MS).toISOString() });
  }
  if (filters.namespaceId !== undefined) return of({ namespaceId: filters.namespaceId });
  if (filters.forksOf !== undefined) return of({ forksOf: filters.forksOf });
  if (filters.starred) return viewer ? of({ starredBy: viewer.id }) : arrayIds([], ascending, after);
  if (viewer && (filters.owned || filters.membership)) {
    return mergeIdStreams(scopeStreams(await membershipScope(viewer, Boolean(filters.owned)), range), ascending);
  }
  if (isAdmin(viewer)) return of(filters.visibility ? { visibility: filters.visibility } : { all: true });
  if (!viewer) return of({ visibility: 'public' });
  const visible: IdStream[] = (['public', 'internal'] as const)
    .filter((v) => !filters.visibility || filters.visibility === v)
    .map((visibility) => of({ visibility }));
  if (filters.visibility && filters.visibility !== 'private') return mergeIdStreams(visible, ascending);
  return mergeIdStreams([...visible, ...scopeStreams(await membershipScope(viewer, false), range)], ascending);
}

/** Loads a chunk of projects with their namespaces (and their ancestors not yet read) and the viewer's access, in batch reads. */
async function loadSubjects(ids: number[], viewer: User | null, namespaceCache: Map<number, Namespace>): Promise<Map<number, ProjectSubject>> {
  const projects = await getProjects(ids);
  const missing = [...new Set(projects.map((p) => p.namespaceId))].filter((id) => !namespaceCache.has(id));
  for (const namespace of await getNamespacesById(missing)) namespaceCache.set(namespace.id, namespace);
  // Their ancestors (kept in the cache, so a list reads each once): a project beneath a group
  // being deleted is left out at once, as if deleted.
  const namespaces = [...new Set(projects.map((p) => p.namespaceId))].flatMap((id) => namespaceCache.get(id) ?? []);
  await loadAncestors(namespaces, namespaceCache);
  const entries = projects.flatMap((project) => {
    const namespace = namespaceCache.get(project.namespaceId);
    return namespace && !namespace.deleting && ancestorsLive(namespace, namespaceCache) ? [{ project, namespace }] : [];
  });
  const access = await projectAccessForMany(viewer, entries);
  return new Map(entries.map((entry, i) => [entry.project.id, { kind: 'project' as const, ...entry, access: access[i] }]));
}

function matches(subject: ProjectSubject, viewer: User | null, filters: ProjectListFilters, query: SearchQuery | undefined): boolean {
  const { project } = subject;
  if (!can(viewer, 'read_project', subject)) return false;
  if (filters.archived !== undefined && project.archived !== filters.archived) return false;
  if (filters.visibility && project.visibility !== filters.visibility) return false;
  // A list read from the forks index or the search entries checks the membership filters (and
  // the namespace) on each project instead.
  const unscoped = filters.forksOf !== undefined || byUser(filters) || readsSearchEntries(filters, query);
  if (unscoped && filters.owned && subject.access.level < OWNER) return false;
  // Membership candidates are a superset (a group's links, shares): every list checks the access.
  if (filters.membership && subject.access.level === 0) return false;
  if (filters.namespaceId !== undefined && project.namespaceId !== filters.namespaceId) return false;
  if (filters.contributedBy && project.namespaceId === filters.contributedBy.namespaceId) return false;
  if (query && !matchesSearch(query, project.name, project.path, project.description)) return false;
  return true;
}

/** Streams the matching projects in id order after `range.after`, loading `hint`-sized chunks. */
async function* matchingSubjects(viewer: User | null, filters: ProjectListFilters, range: IdRange): AsyncGenerator<StreamEntry<ProjectSubject>> {
  const query = filters.search === undefined ? undefined : parseSearch(filters.search);
  const ids = await candidates(viewer, filters, range, query);
  const namespaceCache = new Map<number, Namespace>();
  const chunkSize = Math.min(Math.max(range.hint, 20), CHUNK);
  let chunk: number[] = [];
  const flush = async function* () {
    const loaded = await loadSubjects(chunk, viewer, namespaceCache);
    for (const id of chunk) {
      const subject = loaded.get(id);
      yield { value: subject && matches(subject, viewer, filters, query) ? subject : undefined, cursor: () => String(id) };
    }
    chunk = [];
  };
  for await (const id of ids) {
    chunk.push(id);
    if (chunk.length >= chunkSize) yield* flush();
  }
  if (chunk.length > 0) yield* flush();
}

const parseCursor = (cursor: string | undefined): number | undefined => {
  if (cursor === undefined) return undefined;
  if (!/^\d+$/.test(cursor)) throw new ParamError('cursor is invalid');
  return Number(cursor);
};

const SORTERS: Record<Exclude<ProjectOrder, 'id' | 'created_at'>, (p: Project) => string> = {
  name: (p) => p.name.toLowerCase(),
  path: (p) => p.path.toLowerCase(),
  updated_at: (p) => p.updatedAt,
  last_activity_at: (p) => p.lastActivityAt,
};

/**
 * The projects `user` is a member of, in id order, for the lists read across them (the caller's
 * issues and merge requests, search, common deploy keys): at most `GROUP_ISSUES_PROJECT_LIMIT`, so
 * that such a list's cost stays bounded; beyond, a 400 saying what to do `instead`.
 * @example
 * const members = await memberProjects(user, 'list the merge requests of a project or group');
 */
export async function memberProjects(user: User, instead: string): Promise<ProjectSubject[]> {
  const limit = config().groupIssuesProjectLimit;
  const list = await projectList(user, { membership: true, order_by: 'id' }, {});
  const members: ProjectSubject[] = [];
  if (Array.isArray(list)) members.push(...list);
  else {
    for await (const entry of list.read(undefined, 100)) {
      if (entry.value) members.push(entry.value);
      if (members.length > limit) break;
    }
  }
  if (members.length > limit) throw new ParamError(`you are a member of more than ${limit} projects; ${instead} instead`);
  return members;
}

/**
 * The projects `viewer` may see that match `filters`: a stream in id order (`order_by` `id` or
 * `created_at`), or, for other orders, every match sorted in memory (at most
 * `config().projectSortLimit`, 400 beyond; offset pagination only).
 */
export async function projectList(viewer: User | null, filters: ProjectListFilters, pagination: Pick<PaginationParams, 'pagination'>): Promise<ProjectList> {
  const order = filters.order_by ?? 'created_at';
  const ascending = filters.sort === 'asc';
  if (order === 'id' || order === 'created_at') {
    return { read: (cursor, hint) => matchingSubjects(viewer, filters, { ascending, after: parseCursor(cursor), hint }) };
  }
  if (pagination.pagination === 'keyset') throw new ParamError('order_by is invalid: keyset pagination supports order_by=id only');
  const sortLimit = config().projectSortLimit;
  const all: ProjectSubject[] = [];
  for await (const entry of matchingSubjects(viewer, filters, { ascending: false, after: undefined, hint: CHUNK })) {
    if (entry.value) all.push(entry.value);
    if (all.length > sortLimit) {
      throw new ParamError(`order_by=${order} is supported for up to ${sortLimit} projects; narrow the list or use order_by=id`);
    }
  }
  const key = SORTERS[order];
  all.sort((a, b) => {
    const cmp = key(a.project).localeCompare(key(b.project)) || a.project.id - b.project.id;
    return ascending ? cmp : -cmp;
  });
  return all;
}

/** The projects among `ids` that `viewer` may read, as subjects (chunked batch loads; for feeds across projects). */
export async function readableProjects(viewer: User | null, ids: number[]): Promise<Map<number, ProjectSubject>> {
  const readable = new Map<number, ProjectSubject>();
  const unique = [...new Set(ids)];
  const namespaceCache = new Map<number, Namespace>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const loaded = await loadSubjects(unique.slice(i, i + CHUNK), viewer, namespaceCache);
    for (const [id, subject] of loaded) if (can(viewer, 'read_project', subject)) readable.set(id, subject);
  }
  return readable;
}
