/** Reading pipelines and jobs for the API: found within their project (404 otherwise), with what presenters need. */
import type { ProjectSubject } from '../../auth';
import { RecordNotFoundError, NotFoundError } from '../../platform/http/errors';
import { projectFullPath, webUrlOf } from '../../projects';
import { getUser, type User } from '../../users';
import type { Collection } from '../../platform/dynamo/keys';
import type { Item } from '../../platform/dynamo/query';
import { mergedCollections, type ListSource } from '../../platform/http/pagination';
import type { JobContext } from '../presenters/jobs';
import { ciCollections } from '../store/keys';
import { isMergeRequestRef, mergeRequestRefPath } from '../merge-request-variables';
import { getJob, getPipeline, jobFromItem, mergeRequestRefPipelines, pipelineFromItem, readPipeline, refPipelines, type Job, type Pipeline } from '../store/pipelines';
import { runnersByIds } from '../store/runners';
import { latestSuccessfulPipelineId } from '../store/refs';
import type { JobStatus, PipelineStatus } from '../status';

export const projectWebUrl = (subject: ProjectSubject) => webUrlOf(projectFullPath(subject.namespace, subject.project));

export async function findPipelineOrNotFound(subject: ProjectSubject, pipelineId: number): Promise<Pipeline> {
  const pipeline = await getPipeline(pipelineId);
  if (!pipeline || pipeline.projectId !== subject.project.id) throw new NotFoundError();
  return pipeline;
}

/** GitLab's `find_job!`: a job of this project, or `404 Not found`. */
export async function findJobOrNotFound(subject: ProjectSubject, jobId: number, options: { bridges?: boolean } = {}): Promise<Job> {
  const job = await getJob(jobId, options);
  if (!job || job.projectId !== subject.project.id) throw new RecordNotFoundError();
  return job;
}

/** Users by id (point reads of one turn, one BatchGetItem), each once; the ones gone left out. */
export async function usersById(ids: Array<number | null>): Promise<Map<number, User>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  const users = await Promise.all(unique.map((id) => getUser(id)));
  return new Map(users.filter((user): user is User => user !== undefined).map((user) => [user.id, user]));
}

/**
 * What job presenters need: the jobs' pipelines, users and runners (two batch reads), loaded once;
 * pipelines and users the caller already read (`known`, `knownUsers`) are not read again.
 */
export async function jobContext(subject: ProjectSubject, jobs: readonly Job[], known: Pipeline[] = [], knownUsers: ReadonlyMap<number, User> = new Map()): Promise<JobContext> {
  const pipelines = new Map(known.map((pipeline) => [pipeline.id, pipeline]));
  const missing = [...new Set(jobs.map((job) => job.pipelineId))].filter((id) => !pipelines.has(id));
  const [loaded, loadedUsers, runners] = await Promise.all([
    Promise.all(missing.map((id) => getPipeline(id))),
    usersById(jobs.map((job) => (job.userId !== null && knownUsers.has(job.userId) ? null : job.userId))),
    runnersByIds(jobs.flatMap((job) => (job.runnerId ? [job.runnerId] : []))),
  ]);
  for (const pipeline of loaded) if (pipeline) pipelines.set(pipeline.id, pipeline);
  return { projectWebUrl: projectWebUrl(subject), pipelines, users: new Map([...knownUsers, ...loadedUsers]), runners };
}

export const userOf = async (id: number | null): Promise<User | undefined> => (id === null ? undefined : getUser(id));

/** Sort keys of the CI lists by id (`pad(id)`): what a merged list's cursor must be. */
const isIdSortKey = (key: string) => /^\d{12}$/.test(key);

/**
 * Internal: a list over one collection or several merged by id, newest first. The list's entries
 * are checked again by `select` (an index entry may lag its item's last status change).
 */
function newestFirst<T>(colls: Collection[], select: (item: Item) => T | undefined): ListSource<T> {
  if (colls.length === 1) return { collection: colls[0], ascending: false, select };
  return mergedCollections(colls, { ascending: false, isSortKey: isIdSortKey, select });
}

/**
 * A project's jobs (newest first), only those in `scope` when given: the project's job list
 * (GSI1) without a scope, else the lists of its statuses (GSI5) merged by id, so a page reads
 * what it shows whatever the project's other jobs.
 */
export function jobList(projectId: number, scope: readonly JobStatus[] | undefined): ListSource<Job> {
  if (!scope) return { collection: ciCollections.projectJobs(projectId), ascending: false, select: jobFromItem };
  const statuses = [...new Set(scope)];
  return newestFirst(
    statuses.map((status) => ciCollections.projectJobsByStatus(projectId, status)),
    (item) => {
      const job = jobFromItem(item);
      return statuses.includes(job.status) ? job : undefined;
    },
  );
}

/** A pipeline's jobs (not retried unless asked), in GitLab's order (by id), filtered by scope. */
export async function pipelineJobs(pipelineId: number, scope: readonly JobStatus[] | undefined, includeRetried: boolean): Promise<{ pipeline: Pipeline; jobs: Job[] } | undefined> {
  const read = await readPipeline(pipelineId);
  if (!read) return undefined;
  // GitLab's jobs API lists builds: a pipeline's generic commit statuses and trigger jobs are left out.
  const jobs = read.jobs.filter((job) => !job.generic && !job.bridge && (includeRetried || !job.retried) && (!scope || scope.includes(job.status))).sort((a, b) => a.id - b.id);
  return { pipeline: read.pipeline, jobs };
}

/**
 * A pipeline's trigger jobs (not retried), by id, filtered by scope (GitLab's `JobsFinder` of
 * `Ci::Bridge`), with their downstream pipelines (point reads of one turn).
 */
export async function pipelineBridges(pipelineId: number, scope: readonly JobStatus[] | undefined): Promise<{ pipeline: Pipeline; bridges: Job[]; downstream: Map<number, Pipeline> } | undefined> {
  const read = await readPipeline(pipelineId);
  if (!read) return undefined;
  const bridges = read.jobs.filter((job) => job.bridge && !job.retried && (!scope || scope.includes(job.status))).sort((a, b) => a.id - b.id);
  const children = await Promise.all(bridges.flatMap((job) => (job.downstreamPipelineId === undefined ? [] : [getPipeline(job.downstreamPipelineId)])));
  return { pipeline: read.pipeline, bridges, downstream: new Map(children.filter((child): child is Pipeline => child !== undefined).map((child) => [child.id, child])) };
}

export interface PipelineFilters {
  scope?: string;
  status?: string;
  ref?: string;
  sha?: string;
  source?: string;
  username?: string;
  /** The pipeline's name, whole (GitLab's `for_name`). */
  name?: string;
}

/** The statuses of `scope=finished` (GitLab's `Ci::HasStatus::COMPLETED_STATUSES` as the spec lists them). */
const FINISHED: readonly PipelineStatus[] = ['success', 'failed', 'canceled', 'skipped'];

/** Whether a pipeline passes a list's filters (`scope`, `status`, `ref`, `sha`, `source`). */
export function pipelineMatches(pipeline: Pipeline, filters: PipelineFilters): boolean {
  if (filters.status && pipeline.status !== filters.status) return false;
  if (filters.ref && pipeline.ref !== filters.ref) return false;
  if (filters.sha && pipeline.sha !== filters.sha) return false;
  if (filters.source && pipeline.source !== filters.source) return false;
  if (filters.name && pipeline.name !== filters.name) return false;
  // Child pipelines are never listed (GitLab's `no_child`), whatever the filters (they have no list entries either).
  if (pipeline.parent) return false;
  if (filters.scope === 'running' && pipeline.status !== 'running') return false;
  if (filters.scope === 'pending' && pipeline.status !== 'pending') return false;
  if (filters.scope === 'finished' && !FINISHED.includes(pipeline.status)) return false;
  if (filters.scope === 'tags' && !pipeline.tag) return false;
  // A merge request pipeline's ref is the merge request's, not a branch (GitLab's `branches` scope: refs that are branches).
  if (filters.scope === 'branches' && (pipeline.tag || pipeline.mergeRequest)) return false;
  return true;
}

/**
 * The collections a pipeline filter reads, the most selective first: the ref's pipelines (GSI3;
 * a branch's partition also lists the merge request pipelines of that source branch, dropped by
 * the `ref` check; a merge request's ref reads its merge request pipelines, GSI4),
 * else those of one status (`status`, `scope=running|pending`) or of the finished ones merged
 * (GSI2), else the project's whole list (GSI1).
 */
function pipelineCollections(projectId: number, filters: PipelineFilters): Collection[] {
  // A merge request's ref: its merge request pipelines (GSI4), with any branch of that very name (GSI3).
  if (filters.ref && isMergeRequestRef(filters.ref)) return [ciCollections.projectPipelinesByRef(projectId, filters.ref), ciCollections.projectMergeRequestPipelines(projectId, filters.ref)];
  if (filters.ref) return [ciCollections.projectPipelinesByRef(projectId, filters.ref)];
  if (filters.status) return [ciCollections.projectPipelinesByStatus(projectId, filters.status)];
  if (filters.scope === 'running' || filters.scope === 'pending') return [ciCollections.projectPipelinesByStatus(projectId, filters.scope)];
  if (filters.scope === 'finished') return FINISHED.map((status) => ciCollections.projectPipelinesByStatus(projectId, status));
  return [ciCollections.projectPipelines(projectId)];
}

/**
 * A project's pipelines, newest first, filtered as `GET /projects/:id/pipelines`. `ref`, `status`
 * and `scope=running|pending|finished` pick the index partitions read (above), so those pages cost
 * what they show. Every filter is then checked on each pipeline read: the ones no index serves
 * (`sha`, `source`, `scope=branches|tags`, and `status`/`scope` beside a `ref`) drop entries after
 * the read, so such a page still reads past what it shows (bounded per page, see `paginate`).
 */
export function pipelineList(projectId: number, filters: PipelineFilters): ListSource<Pipeline> {
  return newestFirst(pipelineCollections(projectId, filters), (item) => {
    const pipeline = pipelineFromItem(item);
    return pipelineMatches(pipeline, filters) ? pipeline : undefined;
  });
}

/**
 * How many of a ref's newest pipelines the merge request lookups read at most. A merge request's
 * pipelines are those of its source branch's heads (GSI3 reads only that branch, however many
 * other pipelines the project ran); past this many newer pipelines of the branch itself, an older
 * one is not found.
 */
export const REF_PIPELINES = 100;

/** A merge request (its target project and iid): whose merge request pipelines a lookup of its source branch includes. */
export interface MergeRequestOf {
  projectId: number;
  iid: number;
}

/**
 * Internal: the branch (or with `tag`, the tag) `ref`'s pipelines among its {@link REF_PIPELINES}
 * newest that `match`, newest first; with `mergeRequest`, that merge request's merge request
 * pipelines too (listed with their source branch's, GSI3), never other merge requests'. A merge
 * request from a fork (`projectId` its source project, not the merge request's) also has those
 * run in its target project (`refs/merge-requests/<iid>/head`, GSI4 of the target: only that
 * merge request's), merged by id.
 */
async function branchPipelines(projectId: number, ref: string, match: (pipeline: Pipeline) => boolean, options: { first?: boolean; tag?: boolean; mergeRequest?: MergeRequestOf } = {}): Promise<Pipeline[]> {
  const { first = false, tag = false, mergeRequest } = options;
  const ofRef = (pipeline: Pipeline) =>
    pipeline.mergeRequest
      ? !tag && mergeRequest !== undefined && pipeline.mergeRequest.projectId === mergeRequest.projectId && pipeline.mergeRequest.iid === mergeRequest.iid
      : pipeline.tag === tag && pipeline.ref === ref;
  const fromFork = !tag && mergeRequest !== undefined && mergeRequest.projectId !== projectId;
  const [found, inTarget] = await Promise.all([
    // The head pipeline is nearly always the branch's newest: a first page of a few entries finds it.
    collect(refPipelines(projectId, ref, first ? 5 : REF_PIPELINES), (pipeline) => ofRef(pipeline) && match(pipeline), first),
    fromFork
      ? collect(mergeRequestRefPipelines(mergeRequest.projectId, mergeRequestRefPath(mergeRequest.iid), first ? 5 : REF_PIPELINES), (pipeline) => ofRef(pipeline) && match(pipeline), first)
      : [],
  ]);
  if (!inTarget.length) return found;
  const merged = [...found, ...inTarget].sort((a, b) => b.id - a.id);
  return first ? merged.slice(0, 1) : merged;
}

/** Internal: the pipelines of a list (newest first) that `keep`, among its {@link REF_PIPELINES} newest; with `first`, the first only. */
async function collect(pipelines: AsyncGenerator<Pipeline>, keep: (pipeline: Pipeline) => boolean, first: boolean): Promise<Pipeline[]> {
  const found: Pipeline[] = [];
  let read = 0;
  for await (const pipeline of pipelines) {
    if (keep(pipeline)) {
      found.push(pipeline);
      if (first) break;
    }
    if (++read >= REF_PIPELINES) break;
  }
  return found;
}

/**
 * The newest pipeline of a branch (and sha when given): what merge requests show as their head
 * pipeline (with `mergeRequest`, its merge request pipelines count too: GitLab's newest of the
 * head's branch and merge request pipelines). One Query on the branch's pipelines (GSI3, newest
 * first, a few entries), then read again by id, so its status is current (the index is
 * eventually consistent).
 */
export async function latestPipelineFor(projectId: number, ref: string, sha?: string, tag = false, mergeRequest?: MergeRequestOf): Promise<Pipeline | undefined> {
  const [found] = await branchPipelines(projectId, ref, (pipeline) => sha === undefined || pipeline.sha === sha, { first: true, tag, mergeRequest });
  return found ? ((await getPipeline(found.id)) ?? found) : undefined;
}

/**
 * The pipelines of a branch run for any of `shas` (a merge request's commits), with that merge
 * request's merge request pipelines when given, newest first, among its {@link REF_PIPELINES} newest.
 */
export async function pipelinesForCommits(projectId: number, ref: string, shas: ReadonlySet<string>, mergeRequest?: MergeRequestOf): Promise<Pipeline[]> {
  return branchPipelines(projectId, ref, (pipeline) => shas.has(pipeline.sha), { mergeRequest });
}

/** Whether a pipeline has yet to finish (GitLab's `active?` for a merge's head pipeline: created, pending, running). */
export const pipelineActive = (pipeline: Pick<Pipeline, 'status'>): boolean => ['created', 'pending', 'running'].includes(pipeline.status);

/**
 * The job of that name with artifacts in the ref's latest successful pipeline (GitLab's
 * `latest_successful_build_for_ref`: the pipeline, then its latest job of the name with
 * downloadable artifacts): the ref's item, then the pipeline's partition. Its cost does not grow
 * with the project's pipelines or jobs.
 */
export async function latestSuccessfulJob(projectId: number, ref: string, name: string): Promise<Job | undefined> {
  const pipelineId = await latestSuccessfulPipelineId(projectId, ref);
  const read = pipelineId === undefined ? undefined : await readPipeline(pipelineId);
  if (!read || read.pipeline.projectId !== projectId) return undefined;
  return read.jobs.filter((job) => job.name === name && !job.retried && job.artifacts).at(-1);
}
