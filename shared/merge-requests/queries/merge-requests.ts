/**
 * Merge request reads: one merge request as the caller may see it, and the list sources of
 * GitLab's `MergeRequestsFinder` (a project's, a group's, the caller's). Lists leave out what the
 * caller may not read as they read; the routes page them.
 */
import { can, projectAccessForMany, type ProjectSubject } from '../../auth';
import { pipelinesForCommits, type Pipeline } from '../../ci';
import { getNamespaces, type Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import { getMany } from '../../platform/dynamo/batch';
import type { Collection } from '../../platform/dynamo/keys';
import { queryAll } from '../../platform/dynamo/query';
import { NotFoundError, ParamError } from '../../platform/http/errors';
import { filteredCollection, mergedCollections, type StreamSource } from '../../platform/http/pagination';
import { getProject, getProjects, groupProjectIds, memberProjects, type Project } from '../../projects';
import { listLabels, listMilestones } from '../../issues';
import type { User } from '../../users';

import { branchHead, commitsBehind, repositoriesOf } from '../git';
import { isMergeRequestOrderKey, mergeRequestCollections, mergeRequestKeys, type MergeRequestOrderBy } from '../store/keys';
import { getMergeRequest, mergeRequestFromItem, type MergeRequest } from '../store/merge-requests';
import { commitLinks } from '../store/commit-links';
import { getVersion, listVersions, versionContent } from '../store/versions';

/** The merge request as the caller may see it; 404 `Merge Request Not Found` when absent, deleted or unreadable. */
export async function findMergeRequestOrNotFound(subject: ProjectSubject, user: User | null, iid: number): Promise<MergeRequest> {
  if (!can(user, 'read_merge_request', subject)) throw new NotFoundError('Merge Request');
  const mr = await getMergeRequest(subject.project.id, iid);
  if (!mr || mr.deletedAt) throw new NotFoundError('Merge Request');
  return mr;
}

export type StateFilter = 'opened' | 'closed' | 'merged' | 'locked' | 'all';

export interface MergeRequestFilters {
  state?: StateFilter;
  labels?: string[];
  milestone?: string;
  iids?: number[];
  search?: string;
  authorId?: number;
  assigneeId?: number;
  /** A reviewer's id, or `none` (no reviewer) / `any` (one). */
  reviewerId?: number | 'none' | 'any';
  sourceBranch?: string;
  targetBranch?: string;
  /** `yes`: only work in progress; `no`: none. */
  wip?: 'yes' | 'no';
  /** GitLab's `not[…]`: none of these labels, not in this milestone, not by this author, not assigned to or reviewed by this user. */
  not?: { labels?: string[]; milestone?: string; authorId?: number; assigneeId?: number; reviewerId?: number };
}

export type MergeRequestOrder = { orderBy: MergeRequestOrderBy; ascending: boolean };

const NONE = new Set(['no label', 'no milestone', 'none']);

/** `WIP:`/`[WIP]` (any case) at the start of the title (GitLab's `work_in_progress?`). */
export const isWorkInProgress = (title: string): boolean => /^\s*(?:\[WIP\]\s*|WIP:\s*|WIP\s+)+/i.test(title);

/** Internal: a predicate for the filters checked after the read (labels and milestone resolved once per project). */
async function matcherFor(projectId: number, filters: MergeRequestFilters): Promise<(mr: MergeRequest) => boolean> {
  const checks: Array<(mr: MergeRequest) => boolean> = [];
  if (filters.state === 'locked') checks.push((mr) => mr.state === 'locked');
  else if (filters.state === 'opened') checks.push((mr) => mr.state === 'opened' || mr.state === 'locked');
  else if (filters.state && filters.state !== 'all') checks.push((mr) => mr.state === filters.state);
  const labels = filters.labels ?? [];
  if (labels.length > 0) {
    const all = await listLabels(projectId);
    const live = new Set(all.map((label) => label.id));
    const none = labels.some((name) => NONE.has(name.toLowerCase()));
    if (none || (labels.length === 1 && labels[0].toLowerCase() === 'any')) {
      const labelled = (mr: MergeRequest) => mr.labelIds.some((id) => live.has(id));
      checks.push(none ? (mr) => !labelled(mr) : labelled);
    } else {
      const found = labels.map((name) => all.find((label) => label.name.toLowerCase() === name.toLowerCase()));
      if (found.some((label) => !label)) return () => false;
      checks.push((mr) => found.every((label) => mr.labelIds.includes(label!.id)));
    }
  }
  if (filters.milestone !== undefined) {
    const title = filters.milestone;
    const milestones = await listMilestones(projectId);
    if (NONE.has(title.toLowerCase()) || title.toLowerCase() === 'any') {
      const live = new Set(milestones.map((milestone) => milestone.id));
      const wanted = title.toLowerCase() === 'any';
      checks.push((mr) => (mr.milestoneId !== null && live.has(mr.milestoneId)) === wanted);
    } else {
      const milestone = milestones.find((m) => m.title === title);
      if (!milestone) return () => false;
      checks.push((mr) => mr.milestoneId === milestone.id);
    }
  }
  if (filters.iids && filters.iids.length > 0) {
    const iids = new Set(filters.iids);
    checks.push((mr) => iids.has(mr.iid));
  }
  const search = filters.search?.toLowerCase();
  if (search) checks.push((mr) => mr.title.toLowerCase().includes(search) || (mr.description ?? '').toLowerCase().includes(search));
  if (filters.authorId !== undefined) checks.push((mr) => mr.authorId === filters.authorId);
  if (filters.assigneeId !== undefined) checks.push((mr) => mr.assigneeId === filters.assigneeId);
  const reviewer = filters.reviewerId;
  if (reviewer !== undefined) checks.push((mr) => (reviewer === 'any' ? !!mr.reviewer : reviewer === 'none' ? !mr.reviewer : mr.reviewer?.userId === reviewer));
  if (filters.sourceBranch !== undefined) checks.push((mr) => mr.sourceBranch === filters.sourceBranch);
  if (filters.targetBranch !== undefined) checks.push((mr) => mr.targetBranch === filters.targetBranch);
  if (filters.wip === 'yes') checks.push((mr) => isWorkInProgress(mr.title));
  if (filters.wip === 'no') checks.push((mr) => !isWorkInProgress(mr.title));
  const not = filters.not ?? {};
  if (not.labels?.length || not.milestone !== undefined || not.authorId !== undefined || not.assigneeId !== undefined || not.reviewerId !== undefined) {
    const [labels, milestones] = await Promise.all([not.labels?.length ? listLabels(projectId) : [], not.milestone === undefined ? [] : listMilestones(projectId)]);
    const names = new Set((not.labels ?? []).map((name) => name.toLowerCase()));
    const labelIds = new Set(labels.filter((label) => names.has(label.name.toLowerCase())).map((label) => label.id));
    const milestoneId = milestones.find((m) => m.title === not.milestone)?.id;
    checks.push(
      (mr) =>
        !mr.labelIds.some((id) => labelIds.has(id)) &&
        (milestoneId === undefined || mr.milestoneId !== milestoneId) &&
        (not.authorId === undefined || mr.authorId !== not.authorId) &&
        (not.assigneeId === undefined || mr.assigneeId !== not.assigneeId) &&
        (not.reviewerId === undefined || mr.reviewer?.userId !== not.reviewerId),
    );
  }
  return (mr) => checks.every((check) => check(mr));
}

/** The list partitions a state filter reads (`locked` lives in the opened partition). */
const partitionsOf = (state: StateFilter | undefined): string[] =>
  state === 'opened' || state === 'locked' ? ['opened'] : state === 'closed' || state === 'merged' ? [state] : ['opened', 'closed', 'merged'];

/** Internal: the merge requests of several list collections in sort-key order ({@link mergedCollections}). */
const mergedStream = (colls: Collection[], ascending: boolean, select: (mr: MergeRequest) => MergeRequest | undefined): StreamSource<MergeRequest> =>
  mergedCollections(colls, { ascending, isSortKey: isMergeRequestOrderKey, select: (item) => select(mergeRequestFromItem(item)) });

/**
 * A project's merge requests matching `filters`, in `order`: one Query per state partition on
 * the index of that order (merged by sort key), so a page costs what it reads; the other filters
 * are checked after the read. The route checked the caller reads the project's merge requests.
 */
export async function projectMergeRequestStream(subject: ProjectSubject, filters: MergeRequestFilters, order: MergeRequestOrder): Promise<StreamSource<MergeRequest>> {
  const matches = await matcherFor(subject.project.id, filters);
  const colls = partitionsOf(filters.state).map((state) => mergeRequestCollections.projectMergeRequests(subject.project.id, state, order.orderBy));
  return mergedStream(colls, order.ascending, (mr) => (matches(mr) ? mr : undefined));
}

/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests` (GitLab's `MergeRequestsFinder` with
 * `commit_sha`): the project's merge requests whose latest version holds the commit, or whose merge
 * commit it is, of a state when asked, newest first. One Query of the commit's entries
 * (`store/commit-links.ts`) and one batch read of their merge requests.
 */
export async function commitMergeRequests(projectId: number, sha: string, state: StateFilter | undefined): Promise<MergeRequest[]> {
  const links = await commitLinks(projectId, sha);
  if (links.length === 0) return [];
  const iids = [...new Set(links.map((link) => link.iid))];
  const states = partitionsOf(state);
  return (await getMany(iids.map((iid) => mergeRequestKeys.mergeRequest(projectId, iid))))
    .map(mergeRequestFromItem)
    .filter((mr) => !mr.deletedAt && states.includes(mr.state === 'locked' ? 'opened' : mr.state))
    .filter((mr) => links.some((link) => link.iid === mr.iid && (link.versionId === 'merge' ? mr.mergeCommitSha === sha : link.versionId === mr.latestVersionId)))
    .sort(inOrder({ orderBy: 'created_at', ascending: false }));
}

/**
 * `GET /projects/:id/deployments/:deployment_id/merge_requests`: the merge requests linked to the
 * deployment when it succeeded (`commands/deployments.ts`, at most its `LINK_LIMIT`), one batch
 * read, matching `filters`, in `order` (sorted in memory: a bounded list).
 */
export async function deploymentMergeRequests(subject: ProjectSubject, deploymentId: number, filters: MergeRequestFilters, order: MergeRequestOrder): Promise<MergeRequest[]> {
  const iids = (await queryAll(mergeRequestCollections.deploymentLinks(subject.project.id, deploymentId))).map((item) => Number(item.iid));
  if (iids.length === 0) return [];
  const [items, matches] = await Promise.all([getMany(iids.map((iid) => mergeRequestKeys.mergeRequest(subject.project.id, iid))), matcherFor(subject.project.id, filters)]);
  const states = partitionsOf(filters.state);
  return items
    .map(mergeRequestFromItem)
    .filter((mr) => !mr.deletedAt && states.includes(mr.state === 'locked' ? 'opened' : mr.state) && matches(mr))
    .sort(inOrder(order));
}

/** Internal: a comparator of merge requests in a list's order (by creation or update time, ties by id), for bounded lists sorted in memory. */
function inOrder(order: Pick<MergeRequestOrder, 'orderBy' | 'ascending'>): (a: MergeRequest, b: MergeRequest) => number {
  const at = (mr: MergeRequest) => (order.orderBy === 'updated_at' ? mr.updatedAt : mr.createdAt);
  return (a, b) => (at(a) === at(b) ? a.id - b.id : at(a) < at(b) ? -1 : 1) * (order.ascending ? 1 : -1);
}

/**
 * `GET /groups/:id/merge_requests`: the merge requests of the group's projects (and its
 * subgroups') whose merge requests the caller may read; at most `GROUP_ISSUES_PROJECT_LIMIT`
 * projects (400 beyond).
 */
export async function groupMergeRequestStream(
  group: Namespace,
  user: User | null,
  filters: MergeRequestFilters,
  order: MergeRequestOrder,
): Promise<{ stream: StreamSource<MergeRequest>; subjects: Map<number, ProjectSubject> }> {
  const limit = config().groupIssuesProjectLimit;
  const projectIds = await groupProjectIds(group, limit);
  if (projectIds === 'too_many') throw new ParamError(`the group has more than ${limit} projects; list the merge requests of its projects or subgroups instead`);
  const all = await projectSubjects(user, projectIds);
  const subjects = new Map([...all].filter(([, subject]) => !subject.namespace.deleting && can(user, 'read_merge_request', subject)));
  const matchers = new Map(await Promise.all([...subjects.keys()].map(async (id) => [id, await matcherFor(id, filters)] as const)));
  const colls = [...subjects.keys()].flatMap((id) => partitionsOf(filters.state).map((state) => mergeRequestCollections.projectMergeRequests(id, state, order.orderBy)));
  const select = (mr: MergeRequest) => (matchers.get(mr.projectId)!(mr) ? mr : undefined);
  const stream: StreamSource<MergeRequest> = mergedStream(colls, order.ascending, select);
  return { stream, subjects };
}

/** The user index a list of the caller's reads: authored, assigned, or whose review is requested from a user. */
export type UserMergeRequestScope = 'created_by_me' | 'assigned_to_me' | { reviewer: number };

/**
 * `GET /merge_requests?scope=all`: the merge requests of the projects the caller is a member of
 * (GitLab lists those of every project the caller may see; a list over every public project has no
 * index here), at most `GROUP_ISSUES_PROJECT_LIMIT` projects (400 beyond), merged by sort key.
 */
export async function memberMergeRequestStream(user: User, filters: MergeRequestFilters, order: MergeRequestOrder): Promise<StreamSource<MergeRequest>> {
  const subjects = await memberProjects(user, 'list the merge requests of a project or group');
  const readable = subjects.filter((subject) => can(user, 'read_merge_request', subject));
  const matchers = new Map(await Promise.all(readable.map(async (subject) => [subject.project.id, await matcherFor(subject.project.id, filters)] as const)));
  const colls = readable.flatMap((subject) => partitionsOf(filters.state).map((state) => mergeRequestCollections.projectMergeRequests(subject.project.id, state, order.orderBy)));
  return mergedStream(colls, order.ascending, (mr) => (matchers.get(mr.projectId)!(mr) ? mr : undefined));
}

/**
 * `GET /merge_requests`: the merge requests the caller opened (GSI2/GSI5) or is assigned
 * (GSI3/GSI6), or whose review is requested from a user (GSI7/GSI8), each checked against the
 * caller's access to its project, a chunk at a time.
 */
export function userMergeRequestStream(user: User, scope: UserMergeRequestScope, filters: MergeRequestFilters, order: MergeRequestOrder): StreamSource<MergeRequest> {
  const matchers = new Map<number, Promise<(mr: MergeRequest) => boolean>>();
  const matcher = (projectId: number) => {
    if (!matchers.has(projectId)) matchers.set(projectId, matcherFor(projectId, filters));
    return matchers.get(projectId)!;
  };
  return filteredCollection<MergeRequest>({
    collection:
      typeof scope === 'object'
        ? mergeRequestCollections.reviewingMergeRequests(scope.reviewer, order.orderBy)
        : scope === 'assigned_to_me'
          ? mergeRequestCollections.assignedMergeRequests(user.id, order.orderBy)
          : mergeRequestCollections.userMergeRequests(user.id, order.orderBy),
    ascending: order.ascending,
    select: (item) => mergeRequestFromItem(item),
    keep: async (mrs) => {
      const subjects = await projectSubjects(user, [...new Set(mrs.map((mr) => mr.projectId))]);
      return Promise.all(
        mrs.map(async (mr) => {
          const subject = subjects.get(mr.projectId);
          return subject !== undefined && can(user, 'read_merge_request', subject) && (await matcher(mr.projectId))(mr);
        }),
      );
    },
  });
}

/** The subjects of the given projects for `user` (batch reads of the projects, namespaces and memberships). */
export async function projectSubjects(user: User | null, projectIds: number[]): Promise<Map<number, ProjectSubject>> {
  const projects = (await getProjects(projectIds)).filter((project) => !project.deleting);
  const namespaces = new Map((await getNamespaces([...new Set(projects.map((project) => project.namespaceId))])).map((namespace) => [namespace.id, namespace]));
  const entries = projects.flatMap((project) => {
    const namespace = namespaces.get(project.namespaceId);
    return namespace ? [{ project, namespace }] : [];
  });
  const access = user ? await projectAccessForMany(user, entries) : entries.map(() => ({ level: 0 }));
  return new Map(entries.map((entry, i) => [entry.project.id, { kind: 'project' as const, ...entry, access: access[i] } as ProjectSubject]));
}


/**
 * The pipelines of a merge request (GitLab's `all_pipelines`): those of its source branch, in the
 * source project, run for one of its commits (the latest version's commits and every version's
 * head), and its merge request pipelines wherever they ran (a fork's may run in the target),
 * newest first. Bounded: the versions (one Query), the latest version's content, and CI's newest
 * pipelines of the source branch (`pipelinesForCommits`, at most 100, and as many of the merge
 * request's ref in the target for a fork's). With `viewer`, only the pipelines of projects whose
 * pipelines they may read (GitLab's `PipelinesForMergeRequestFinder#execute`; `target` they may).
 */
export async function mergeRequestPipelines(mr: MergeRequest, viewer?: User | null, target?: ProjectSubject): Promise<Pipeline[]> {
  const [versions, latest] = await Promise.all([listVersions(mr.projectId, mr.iid), getVersion(mr.projectId, mr.iid, mr.latestVersionId)]);
  const commits = latest ? (await versionContent(latest)).commits : [];
  const shas = new Set([mr.sha, ...versions.map((version) => version.headCommitSha), ...commits.map((commit) => commit.id)]);
  const pipelines = await pipelinesForCommits(mr.sourceProjectId, mr.sourceBranch, shas, mr);
  if (viewer === undefined || !target || mr.sourceProjectId === target.project.id || !pipelines.some((pipeline) => pipeline.projectId === mr.sourceProjectId)) return pipelines;
  const fork = (await projectSubjects(viewer, [mr.sourceProjectId])).get(mr.sourceProjectId);
  const forkReadable = fork !== undefined && can(viewer, 'read_build', fork);
  return pipelines.filter((pipeline) => pipeline.projectId === target.project.id || forkReadable);
}

/**
 * GitLab's `diverged_commits_count`: how many commits of the target branch the source branch lacks
 * (`git rev-list --count source..target`); 0 when a branch or the source project is gone.
 */
export async function divergedCommitsCount(target: Project, mr: MergeRequest): Promise<number> {
  const source = mr.sourceProjectId === target.id ? target : await getProject(mr.sourceProjectId);
  if (!source) return 0;
  const repositories = await repositoriesOf(target, source);
  const [start, head] = await Promise.all([branchHead(repositories.target, mr.targetBranch), branchHead(repositories.source, mr.sourceBranch)]);
  return start && head ? commitsBehind(repositories, start, head) : 0;
}
