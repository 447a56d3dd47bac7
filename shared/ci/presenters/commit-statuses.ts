/**
 * GitLab's `CommitStatus` entity (`lib/api/entities/commit_status.rb`): what `POST
 * /projects/:id/statuses/:sha` answers and `GET …/repository/commits/:sha/statuses` lists, for
 * generic statuses and builds alike (a build has no `target_url` nor `description`).
 */
import { presentUserPublic, type User } from '../../users';
import type { Job } from '../store/pipelines';

export function presentCommitStatus(job: Job, author: User | undefined) {
  return {
    id: job.id,
    sha: job.sha,
    ref: job.ref,
    status: job.status,
    name: job.name,
    target_url: job.targetUrl ?? null,
    description: job.description ?? null,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    allow_failure: job.allowFailure,
    coverage: job.coverage ?? null,
    pipeline_id: job.pipelineId,
    author: author ? presentUserPublic(author) : null,
  };
}
