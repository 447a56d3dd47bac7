/**
 * A commit's statuses (`GET …/repository/commits/:sha/statuses`, GitLab's `CommitStatus` of the
 * commit's pipelines): every job of the commit's pipelines, builds and generic statuses alike, the
 * latest of each (not retried) unless `all`, filtered and ordered as GitLab's API does. The commit's
 * pipelines come from their index by commit (GSI5), at most its newest
 * {@link COMMIT_PIPELINES_LIMIT}, each read whole (C1) in parallel.
 */
import type { ProjectSubject } from '../../auth';
import { NotFoundError } from '../../platform/http/errors';
import { readCommit, resolveRef } from '../git';
import { commitPipelines, readPipeline, type Job } from '../store/pipelines';

/** How many of a commit's newest pipelines are looked at (GitLab's `DEFAULT_LIMIT_PIPELINES` of the create service). */
export const COMMIT_PIPELINES_LIMIT = 100;

export interface CommitStatusFilters {
  ref?: string;
  stage?: string;
  name?: string;
  pipelineId?: number;
  all?: boolean;
  orderBy?: 'id' | 'pipeline_id';
  sort?: 'asc' | 'desc';
}

export async function commitStatuses(projectId: number, sha: string, filters: CommitStatusFilters): Promise<Job[]> {
  const pipelines = (await commitPipelines(projectId, sha, COMMIT_PIPELINES_LIMIT)).filter((pipeline) => filters.pipelineId === undefined || pipeline.id === filters.pipelineId);
  const reads = await Promise.all(pipelines.map((pipeline) => readPipeline(pipeline.id)));
  const jobs = reads
    .flatMap((read) => read?.jobs ?? [])
    .filter((job) => (filters.all || !job.retried) && (!filters.ref || job.ref === filters.ref) && (!filters.stage || job.stage === filters.stage) && (!filters.name || job.name === filters.name));
  const key = (job: Job) => (filters.orderBy === 'pipeline_id' ? job.pipelineId : job.id);
  const direction = filters.sort === 'desc' ? -1 : 1;
  return jobs.sort((a, b) => direction * (key(a) - key(b) || a.id - b.id));
}
/** The commit a status is for: a commit id, or a branch or tag name (GitLab's `project.commit(sha)`); 404 `Commit Not Found`. */
export async function findCommitShaOrNotFound(subject: ProjectSubject, revision: string): Promise<string> {
  const sha = /^[0-9a-f]{40}$/i.test(revision) ? revision.toLowerCase() : (await resolveRef(subject.project, revision))?.sha;
  if (!sha || !(await readCommit(subject.project, sha))) throw new NotFoundError('Commit');
  return sha;
}

