/** Reading pipelines and jobs for the API: found within their project (404 otherwise), with what presenters need. */
import type { ProjectSubject } from '../../auth';
import { RecordNotFoundError, NotFoundError } from '../../platform/http/errors';
import { projectFullPath, webUrlOf } from '../../projects';
import { getUser, type User } from '../../users';
import type { CollectionSource } from '../../platform/http/pagination';
import type { JobContext } from '../presenters/jobs';
import { ciCollections } from '../store/keys';
import { getJob, getPipeline, jobFromItem, pipelineFromItem, projectJobs, projectPipelines, readPipeline, type Job, type Pipeline } from '../store/pipelines';
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

/** What job presenters need: the jobs' pipelines and users, loaded once. */
export async function jobContext(subject: ProjectSubject, jobs: readonly Job[], known: Pipeline[] = []): Promise<JobContext> {
  const pipelines = new Map(known.map((pipeline) => [pipeline.id, pipeline]));
  const missing = [...new Set(jobs.map((job) => job.pipelineId))].filter((id) => !pipelines.has(id));
  for (const pipeline of await Promise.all(missing.map((id) => getPipeline(id)))) if (pipeline) pipelines.set(pipeline.id, pipeline);
  return { projectWebUrl: projectWebUrl(subject), pipelines, users: await usersById(jobs.map((job) => job.userId)) };
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

/** The newest pipeline of a ref (and sha when given): what merge requests show as their head pipeline. */
export async function latestPipelineFor(projectId: number, ref: string, sha?: string): Promise<Pipeline | undefined> {
  for await (const pipeline of projectPipelines(projectId)) {
    if (pipeline.ref === ref && (sha === undefined || pipeline.sha === sha)) return pipeline;
  }
  return undefined;
}

/** The newest successful job of that name on a ref (artifacts download by ref). */
export async function latestSuccessfulJob(projectId: number, ref: string, name: string): Promise<Job | undefined> {
  for await (const job of projectJobs(projectId)) {
    if (job.ref === ref && job.name === name && job.status === 'success') return job;
  }
  return undefined;
}
