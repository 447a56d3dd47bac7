/**
 * Deleting artifacts before they expire: one job's (GitLab's `Ci::JobArtifacts::DeleteService`,
 * `DELETE /projects/:id/jobs/:job_id/artifacts`) and every job's of a project (GitLab's
 * `DeleteProjectArtifactsService`, `DELETE /projects/:id/artifacts`, which answers 202 and leaves
 * the work to a worker). Here that worker is the background jobs worker (`shared/platform/jobs.ts`,
 * kind {@link CI_ARTIFACTS_DELETION}): the project's jobs have no index of those with artifacts,
 * so it walks the project's jobs list (GSI1 `CI_PROJECT_JOBS#<projectId>`), a Query page at a
 * time, and forgets each job's artifacts with a conditional write before deleting their objects.
 * The walk resumes: after each batch it stores the last job id walked on the background job, and
 * a run stopped part way (its time up) or failed goes on from there; it is also re-entrant (a job
 * already done has no artifacts), so a batch walked twice does nothing twice. While the project keeps its latest
 * artifacts (`keep_latest_artifact`), those of each ref's latest successful pipeline stay, as
 * GitLab's locked artifacts do.
 */
import { enqueueJob, saveJobProgress, type Job as BackgroundJob } from '../../platform/jobs';
import { ciSettingsOf, getProject } from '../../projects';
import { logger } from '../../platform/logger';
import { deleteArtifactObjects } from '../store/blobs';
import { forgetArtifacts, projectJobs, type Job } from '../store/pipelines';
import { latestSuccessfulPipelineIds } from '../store/refs';

/** The background job kind of a project's artifacts deletion (its target: the project id). */
export const CI_ARTIFACTS_DELETION = 'ci_artifacts_deletion';

/**
 * Jobs walked in one batch (one Query page): their artifacts' objects are deleted in one request
 * (`DeleteObjects` takes up to 1,000 keys), then the progress is stored and the time checked.
 */
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
 * The background job: deletes the artifacts of the project's jobs, oldest first, a batch of
 * `batchSize` jobs walked at a time. After each batch its objects are deleted, the job id it reached
 * is stored on the background job (`saveJobProgress`) and the time left is checked: when `timeUp`,
 * it answers 'continue' and the next run resumes after that job; a run that died (a timeout, a
 * crash) resumes from the last batch stored, which it walks again (its jobs' artifacts are already
 * forgotten, so nothing is done twice).
 */
export async function runProjectArtifactsDeletion(
  job: BackgroundJob,
  timeUp: () => boolean = () => false,
  options: { batchSize?: number } = {},
): Promise<'continue' | void> {
  const projectId = job.targetId;
  const batchSize = options.batchSize ?? BATCH;
  // GitLab deletes the artifacts "eligible for deletion": not those its refs' latest successful pipelines keep.
  const project = await getProject(projectId);
  const kept = project && ciSettingsOf(project).keepLatestArtifact ? await latestSuccessfulPipelineIds(projectId) : new Set<number>();
  const resumeAfter = job.progress === undefined ? undefined : Number(job.progress);
  let cleared: number[] = [];
  let walked = 0;
  let deleted = 0;
  for await (const each of projectJobs(projectId, { fromJobId: resumeAfter === undefined ? undefined : resumeAfter + 1, pageSize: batchSize })) {
    if (each.artifacts && !kept.has(each.pipelineId) && (await forgetArtifacts(each))) cleared.push(each.id);
    if (++walked % batchSize !== 0) continue;
    await deleteArtifactObjects(cleared);
    deleted += cleared.length;
    cleared = [];
    await saveJobProgress(job, String(each.id));
    if (timeUp()) {
      logger.info('ci artifacts deletion: stopped part way', { projectId, deleted, after: each.id });
      return 'continue';
    }
  }
  await deleteArtifactObjects(cleared);
  logger.info('ci artifacts deletion: done', { projectId, deleted: deleted + cleared.length, resumedAfter: resumeAfter });
}
