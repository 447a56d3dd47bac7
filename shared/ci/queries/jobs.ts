/** Reading pipelines and jobs for the API: found within their project (404 otherwise), with what presenters need. */
import type { ProjectSubject } from '../../auth';
import { RecordNotFoundError, NotFoundError } from '../../platform/http/errors';
import { projectFullPath, webUrlOf } from '../../projects';
import { getUser, type User } from '../../users';
import type { CollectionSource } from '../../platform/http/pagination';
import type { JobContext } from '../presenters/jobs';
import { ciCollections } from '../store/keys';
import { getJob, getPipeline, jobFromItem, pipelineFromItem, projectJobs, projectPipelines, readPipeline, type Job, type Pipeline } from '../store/pipelines';
import { runnersByIds } from '../store/runners';
import type { JobStatus } from '../status';

export const projectWebUrl = (subject: ProjectSubject) => webUrlOf(projectFullPath(subject.namespace, subject.project));

export async function findPipelineOrNotFound(subject: ProjectSubject, pipelineId: number): Promise<Pipeline> {
  const pipeline = await getPipeline(pipelineId);
  if (!pipeline || pipeline.projectId !== subject.project.id) throw new NotFoundError();
  return pipeline;
}

/** GitLab's `find_job!`: a job of this project, or `404 Not found`. */
export async function findJobOrNotFound(subject: ProjectSubject, jobId: number): Promise<Job> {
  const job = await getJob(jobId);
  if (!job || job.projectId !== subject.project.id) throw new RecordNotFoundError();
  return job;
}

async function usersById(ids: Array<number | null>): Promise<Map<number, User>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  const users = await Promise.all(unique.map((id) => getUser(id)));
  return new Map(users.filter((user): user is User => user !== undefined).map((user) => [user.id, user]));
}

/** What job presenters need: the jobs' pipelines, users and runners (two batch reads), loaded once. */
export async function jobContext(subject: ProjectSubject, jobs: readonly Job[], known: Pipeline[] = []): Promise<JobContext> {
  const pipelines = new Map(known.map((pipeline) => [pipeline.id, pipeline]));
  const missing = [...new Set(jobs.map((job) => job.pipelineId))].filter((id) => !pipelines.has(id));
  const [loaded, users, runners] = await Promise.all([
    Promise.all(missing.map((id) => getPipeline(id))),
    usersById(jobs.map((job) => job.userId)),
    runnersByIds(jobs.flatMap((job) => (job.runnerId ? [job.runnerId] : []))),
  ]);
  for (const pipeline of loaded) if (pipeline) pipelines.set(pipeline.id, pipeline);
  return { projectWebUrl: projectWebUrl(subject), pipelines, users, runners };
}

export const userOf = async (id: number | null): Promise<User | undefined> => (id === null ? undefined : getUser(id));

/** A project's jobs (newest first), only those in `scope` when given. */
export function jobList(projectId: number, scope: readonly JobStatus[] | undefined): CollectionSource<Job> {
  return {
    collection: ciCollections.projectJobs(projectId),
    ascending: false,
    select: (item) => {
      const job = jobFromItem(item);
      return !scope || scope.includes(job.status) ? job : undefined;
    },
  };
}

/** A pipeline's jobs (not retried unless asked), in GitLab's order (by id), filtered by scope. */
export async function pipelineJobs(pipelineId: number, scope: readonly JobStatus[] | undefined, includeRetried: boolean): Promise<{ pipeline: Pipeline; jobs: Job[] } | undefined> {
  const read = await readPipeline(pipelineId);
  if (!read) return undefined;
  const jobs = read.jobs.filter((job) => (includeRetried || !job.retried) && (!scope || scope.includes(job.status))).sort((a, b) => a.id - b.id);
  return { pipeline: read.pipeline, jobs };
}

export interface PipelineFilters {
  scope?: string;
  status?: string;
  ref?: string;
  sha?: string;
  source?: string;
  username?: string;
}

function pipelineMatches(pipeline: Pipeline, filters: PipelineFilters): boolean {
  if (filters.status && pipeline.status !== filters.status) return false;
  if (filters.ref && pipeline.ref !== filters.ref) return false;
  if (filters.sha && pipeline.sha !== filters.sha) return false;
  if (filters.source && pipeline.source !== filters.source) return false;
  if (filters.scope === 'running' && pipeline.status !== 'running') return false;
  if (filters.scope === 'pending' && pipeline.status !== 'pending') return false;
  if (filters.scope === 'finished' && !['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status)) return false;
  if (filters.scope === 'tags' && !pipeline.tag) return false;
  if (filters.scope === 'branches' && pipeline.tag) return false;
  return true;
}

/** A project's pipelines, newest first, filtered as `GET /projects/:id/pipelines`. */
export function pipelineList(projectId: number, filters: PipelineFilters): CollectionSource<Pipeline> {
  return {
    collection: ciCollections.projectPipelines(projectId),
    ascending: false,
    select: (item) => {
      const pipeline = pipelineFromItem(item);
      return pipelineMatches(pipeline, filters) ? pipeline : undefined;
    },
  };
}

/**
 * How many of a project's newest pipelines the merge request lookups read: one Query page. A
 * merge request's pipelines are those of its source branch's recent heads, so they are among the
 * project's newest; an older one (a branch left alone while hundreds of other pipelines ran) is
 * not found, as if it had none. Bounded, where an index by ref would be exact.
 */
export const RECENT_PIPELINES = 100;

/** Internal: the project's pipelines among its {@link RECENT_PIPELINES} newest that `match`, newest first. */
async function recentPipelines(projectId: number, match: (pipeline: Pipeline) => boolean, first = false): Promise<Pipeline[]> {
  const found: Pipeline[] = [];
  let read = 0;
  for await (const pipeline of projectPipelines(projectId)) {
    if (match(pipeline)) {
      found.push(pipeline);
      if (first) break;
    }
    if (++read >= RECENT_PIPELINES) break;
  }
  return found;
}

/**
 * The newest pipeline of a ref (and sha when given), among the project's recent ones: what merge
 * requests show as their head pipeline. Read again by id, so its status is current (the list is an
 * index, eventually consistent).
 */
export async function latestPipelineFor(projectId: number, ref: string, sha?: string): Promise<Pipeline | undefined> {
  const [found] = await recentPipelines(projectId, (pipeline) => !pipeline.tag && pipeline.ref === ref && (sha === undefined || pipeline.sha === sha), true);
  return found ? ((await getPipeline(found.id)) ?? found) : undefined;
}

/** The pipelines of a branch run for any of `shas` (a merge request's commits), newest first, among the project's recent ones. */
export async function pipelinesForCommits(projectId: number, ref: string, shas: ReadonlySet<string>): Promise<Pipeline[]> {
  return recentPipelines(projectId, (pipeline) => !pipeline.tag && pipeline.ref === ref && shas.has(pipeline.sha));
}

/** Whether a pipeline has yet to finish (GitLab's `active?` for a merge's head pipeline: created, pending, running). */
export const pipelineActive = (pipeline: Pick<Pipeline, 'status'>): boolean => ['created', 'pending', 'running'].includes(pipeline.status);

/** The newest successful job of that name on a ref (artifacts download by ref). */
export async function latestSuccessfulJob(projectId: number, ref: string, name: string): Promise<Job | undefined> {
  for await (const job of projectJobs(projectId)) {
    if (job.ref === ref && job.name === name && job.status === 'success') return job;
  }
  return undefined;
}
