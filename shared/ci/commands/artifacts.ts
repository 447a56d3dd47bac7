/**
 * Deleting artifacts before they expire: one job's (GitLab's `Ci::JobArtifacts::DeleteService`,
 * `DELETE /projects/:id/jobs/:job_id/artifacts`) and every job's of a project (GitLab's
 * `DeleteProjectArtifactsService`, `DELETE /projects/:id/artifacts`, which answers 202 and leaves
 * the work to a worker). Here that worker is the background jobs worker (`shared/platform/jobs.ts`,
 * kind {@link CI_ARTIFACTS_DELETION}): the project's jobs have no index of those with artifacts,
 * so it walks the project's jobs list (GSI1 `CI_PROJECT_JOBS#<projectId>`), a Query page at a
 * time, and forgets each job's artifacts with a conditional write before deleting their objects.
 * The walk is re-entrant (a job already done has no artifacts): a run stopped part way (its time
 * up) or failed is run again from the start and finishes. While the project keeps its latest
 * artifacts (`keep_latest_artifact`), those of each ref's latest successful pipeline stay, as
 * GitLab's locked artifacts do.
 */
import { enqueueJob } from '../../platform/jobs';
import { ciSettingsOf, getProject } from '../../projects';
import { logger } from '../../platform/logger';
import { deleteArtifactObjects } from '../store/blobs';
import { forgetArtifacts, projectJobs, type Job } from '../store/pipelines';
import { latestSuccessfulPipelineIds } from '../store/refs';

/** The background job kind of a project's artifacts deletion (its target: the project id). */
export const CI_ARTIFACTS_DELETION = 'ci_artifacts_deletion';

/** Jobs whose objects are deleted in one request (`DeleteObjects` takes up to 1,000 keys). */
const BATCH = 100;

/** Deletes a job's artifacts: forgotten on the job (conditional write), then their object. Answers the job as it is now. */
export async function deleteJobArtifacts(job: Job): Promise<Job> {
  const forgotten = await forgetArtifacts(job);
  // Also when the job had none recorded: an object left by an earlier, interrupted deletion goes.
  await deleteArtifactObjects([job.id]);
  return forgotten ?? job;
}

/** Queues the deletion of every artifact of a project (GitLab answers 202 before its worker runs). */
export async function requestProjectArtifactsDeletion(projectId: number): Promise<void> {
  await enqueueJob(CI_ARTIFACTS_DELETION, projectId);
}

/**
 * The background job: deletes the artifacts of every job of the project, a batch at a time;
 * 'continue' when `timeUp` said to stop (the next run starts over, skipping what is done).
 */
export async function runProjectArtifactsDeletion(projectId: number, timeUp: () => boolean = () => false): Promise<'continue' | void> {
  // GitLab deletes the artifacts "eligible for deletion": not those its refs' latest successful pipelines keep.
  const project = await getProject(projectId);
  const kept = project && ciSettingsOf(project).keepLatestArtifact ? await latestSuccessfulPipelineIds(projectId) : new Set<number>();
  let batch: number[] = [];
  let deleted = 0;
  const flush = async () => {
    await deleteArtifactObjects(batch);
    deleted += batch.length;
    batch = [];
  };
  for await (const job of projectJobs(projectId)) {
    if (!job.artifacts || kept.has(job.pipelineId)) continue;
    if (await forgetArtifacts(job)) batch.push(job.id);
    if (batch.length >= BATCH) {
      await flush();
      if (timeUp()) {
        logger.info('ci artifacts deletion: stopped part way', { projectId, deleted });
        return 'continue';
      }
    }
  }
  await flush();
  logger.info('ci artifacts deletion: done', { projectId, deleted });
}
