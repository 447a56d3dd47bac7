/**
 * Issue reads: one issue as the caller may see it, and the list sources of GitLab's
 * `IssuesFinder` (a project's issues, a group's, the caller's own). Lists leave out what the caller
 * may not read (confidential issues) as they read; the routes page them.
 */
import { can, projectAccessForMany, type ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import type { Collection } from '../../platform/dynamo/keys';
import { NotFoundError, ParamError } from '../../platform/http/errors';
import { filteredCollection, mergedCollections, type StreamSource } from '../../platform/http/pagination';
import { groupProjectIds } from '../../projects';
import type { User } from '../../users';
import { canReadIssue } from '../policy';
import { getProjectsWithNamespaces } from '../store/issue-lists';
import { getIssue, issueFromItem, type Issue, type IssueState } from '../store/issues';
import { isIssueOrderKey, issueCollections, type IssueOrderBy } from '../store/keys';
import { findLabelByName, listLabels } from '../store/labels';
import { findMilestoneByTitle, listMilestones } from '../store/milestones';

/** The issue as the caller may see it; 404 `Issue Not Found` when absent, deleted or confidential to them. */
export async function findIssueOrNotFound(subject: ProjectSubject, user: User, iid: number): Promise<Issue> {
  const issue = await getIssue(subject.project.id, iid);
  if (!issue || issue.deletedAt || !canReadIssue(user, subject, issue)) throw new NotFoundError('Issue');
  return issue;
}

/**
 * The issue of a project by iid, or `undefined` when there is none or it is deleted; no HTTP
 * error and no visibility check (the caller decides what the user may see, e.g. with `canReadIssue`).
 * @example
 * const issue = await findIssue(project.id, 7);
 */
export async function findIssue(projectId: number, iid: number): Promise<Issue | undefined> {
  const issue = await getIssue(projectId, iid);
  return issue && !issue.deletedAt ? issue : undefined;
}

export interface IssueFilters {
  state?: IssueState | 'all';
  /** All must be on the issue; `No Label`/`None`: issues without labels; `Any`: with some. */
  labels?: string[];
  /** A milestone title; `No Milestone`/`None`: without one; `Any`: with one. */
  milestone?: string;
  iids?: number[];
  /** Case-insensitive substring of the title or the description. */
  search?: string;
}

const NONE = new Set(['no label', 'no milestone', 'none']);

/**
 * Internal: a predicate for the filters that are checked after the read, with the project's
 * label names and milestone title resolved once (an unknown name matches nothing). "No label" and
 * "any label" (and the same for milestones) count only labels and milestones that still exist:
 * deleting one does not rewrite its issues, so an issue may still hold its id.
 */
async function matcherFor(projectId: number, filters: IssueFilters): Promise<(issue: Issue) => boolean> {
  const checks: Array<(issue: Issue) => boolean> = [];
  if (filters.state && filters.state !== 'all') checks.push((issue) => issue.state === filters.state);
  const labels = filters.labels ?? [];
  const none = labels.some((name) => NONE.has(name.toLowerCase()));
  if (none || (labels.length === 1 && labels[0].toLowerCase() === 'any')) {
    const live = new Set((await listLabels(projectId)).map((label) => label.id));
    const labelled = (issue: Issue) => issue.labelIds.some((id) => live.has(id));
    checks.push(none ? (issue) => !labelled(issue) : labelled);
  } else if (labels.length > 0) {
    const found = await Promise.all(labels.map((name) => findLabelByName(projectId, name)));
    if (found.some((label) => !label)) return () => false;
    checks.push((issue) => found.every((label) => issue.labelIds.includes(label!.id)));
  }
  if (filters.milestone !== undefined) {
    const title = filters.milestone;
    if (NONE.has(title.toLowerCase()) || title.toLowerCase() === 'any') {
      const live = new Set((await listMilestones(projectId)).map((milestone) => milestone.id));
      const wanted = title.toLowerCase() === 'any';
      checks.push((issue) => (issue.milestoneId !== null && live.has(issue.milestoneId)) === wanted);
    } else {
      const milestone = await findMilestoneByTitle(projectId, title);
      if (!milestone) return () => false;
      checks.push((issue) => issue.milestoneId === milestone.id);
    }
  }
  if (filters.iids && filters.iids.length > 0) {
    const iids = new Set(filters.iids);
    checks.push((issue) => iids.has(issue.iid));
  }
  const search = filters.search?.toLowerCase();
  if (search) {
    checks.push((issue) => issue.title.toLowerCase().includes(search) || (issue.description ?? '').toLowerCase().includes(search));
  }
  return (issue) => checks.every((check) => check(issue));
}

/** The order of an issue list: the index read (`created_at` or `updated_at`) and its direction. */
export type IssueOrder = { orderBy: IssueOrderBy; ascending: boolean };

/** The state partitions that a `state` filter reads. */
const statesOf = (state: IssueFilters['state']): IssueState[] => (state === 'opened' || state === 'closed' ? [state] : ['opened', 'closed']);

/** Internal: the issues of several list collections in sort-key order ({@link mergedCollections}). */
const mergedStream = <T>(colls: Collection[], ascending: boolean, select: (issue: Issue) => T | undefined): StreamSource<T> =>
  mergedCollections(colls, { ascending, isSortKey: isIssueOrderKey, select: (item) => select(issueFromItem(item)) });

/**
 * A project's issues visible to `user` matching `filters`, in `order`: one Query per state on the
 * index of that order (GSI1 by creation, GSI4 by update; `all` merges the two states by sort
 * key), so a page costs what it reads, not the project's size. Labels, milestone, iids, search
 * and confidentiality are checked after the read. Cursors are the sort key of the last entry.
 */
export async function projectIssueStream(subject: ProjectSubject, user: User, filters: IssueFilters, order: IssueOrder): Promise<StreamSource<Issue>> {
  const matches = await matcherFor(subject.project.id, filters);
  const colls = statesOf(filters.state).map((state) => issueCollections.projectIssues(subject.project.id, state, order.orderBy));
  return mergedStream(colls, order.ascending, (issue) => (matches(issue) && canReadIssue(user, subject, issue) ? issue : undefined));
}

/**
 * `GET /groups/:id/issues`: the issues of the projects of `group` and of its subgroups whose
 * issues `user` may read, in `order`. The group tree is walked on the subgroup
 * index (one Query per group), its projects read from the namespace index (one Query per group)
 * and loaded in batches; then the state partitions (GSI1 or GSI4) of every readable project are merged by
 * sort key, so the first page costs one Query per project and state. More than
 * `GROUP_ISSUES_PROJECT_LIMIT` (default 100) projects is refused with 400 rather than merged.
 *
 * @returns the stream and the projects' subjects (for `path_with_namespace` in the response).
 */
export async function groupIssueStream(
  group: Namespace,
  user: User,
  filters: IssueFilters,
  order: IssueOrder,
): Promise<{ stream: StreamSource<Issue>; subjects: Map<number, ProjectSubject> }> {
  const limit = config().groupIssuesProjectLimit;
  const projectIds = await groupProjectIds(group, limit);
  if (projectIds === 'too_many') {
    throw new ParamError(`the group has more than ${limit} projects; list the issues of its projects or subgroups instead`);
  }
  const all = await projectSubjects(user, projectIds);
  const subjects = new Map([...all].filter(([, subject]) => !subject.namespace.deleting && can(user, 'read_issue', subject)));
  const matchers = new Map(await Promise.all([...subjects.keys()].map(async (id) => [id, await matcherFor(id, filters)] as const)));
  const colls = [...subjects.keys()].flatMap((id) => statesOf(filters.state).map((state) => issueCollections.projectIssues(id, state, order.orderBy)));
  const select = (issue: Issue) =>
    matchers.get(issue.projectId)!(issue) && canReadIssue(user, subjects.get(issue.projectId)!, issue) ? issue : undefined;
  const stream: StreamSource<Issue> = mergedStream(colls, order.ascending, select);
  return { stream, subjects };
}

export type UserIssueScope = 'created_by_me' | 'assigned_to_me';

/**
 * `GET /issues`: the issues `user` opened (GSI2, or GSI5 by update) or is assigned (GSI3, or GSI6),
 * in `order`. Each chunk is checked with one batch read of the projects involved
 * (the caller must still be able to read the project and the issue); the state and the other
 * filters are checked after the read.
 */
export function userIssueStream(user: User, scope: UserIssueScope, filters: IssueFilters, order: IssueOrder): StreamSource<Issue> {
  const matchers = new Map<number, Promise<(issue: Issue) => boolean>>();
  const matcher = (projectId: number) => {
    if (!matchers.has(projectId)) matchers.set(projectId, matcherFor(projectId, filters));
    return matchers.get(projectId)!;
  };
  return filteredCollection<Issue>({
    collection: scope === 'created_by_me' ? issueCollections.userIssues(user.id, order.orderBy) : issueCollections.assignedIssues(user.id, order.orderBy),
    ascending: order.ascending,
    select: issueFromItem,
    keep: async (issues) => {
      const subjects = await projectSubjects(user, [...new Set(issues.map((issue) => issue.projectId))]);
      return Promise.all(
        issues.map(async (issue) => {
          const subject = subjects.get(issue.projectId);
          return subject !== undefined && canReadIssue(user, subject, issue) && (await matcher(issue.projectId))(issue);
        }),
      );
    },
  });
}

/** The subjects of the given projects for `user` (two batch reads and one for the memberships). */
export async function projectSubjects(user: User, projectIds: number[]): Promise<Map<number, ProjectSubject>> {
  const entries = await getProjectsWithNamespaces(projectIds);
  const access = await projectAccessForMany(user, entries);
  return new Map(entries.map((entry, i) => [entry.project.id, { kind: 'project' as const, ...entry, access: access[i] }]));
}
