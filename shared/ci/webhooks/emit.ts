/**
 * Telling hooks about CI status changes: the commands call these right after the conditional
 * write that made the change won (so each change is told once), GitLab's `execute_hooks` of
 * `Ci::Build` (created, pending, running, success, failed, canceled) and of `Ci::Pipeline` (any
 * change of status). The event is put on its own, after the change: a failure to put it is logged
 * and never undoes or fails the change (a job's status write is a single conditional update, with
 * no transaction to carry the outbox item).
 *
 * A pipeline or job with no user (none here today: pushes and API calls have one) has no actor
 * for the payload's `user`, so it sends nothing.
 */
import { prepareHookEvent } from '../../hooks';
import { logger } from '../../platform/logger';
import { getPipeline, type Job, type Pipeline } from '../store/pipelines';
import { HOOKED_JOB_STATUSES, hookJobOf, hookPipelineOf } from './events';
import { putHookEvent } from './store';

/** A job's status changed to `job.status` (as written): a Job Hook when GitLab sends one for it. */
export async function jobStatusChanged(job: Job, pipeline?: Pipeline): Promise<void> {
  if (!HOOKED_JOB_STATUSES.has(job.status) || job.userId === null) return;
  try {
    const of = pipeline?.id === job.pipelineId ? pipeline : await getPipeline(job.pipelineId);
    if (!of) return;
    const { put } = await prepareHookEvent({ projectId: job.projectId, actorId: job.userId, kind: 'job', action: job.status, job: hookJobOf(job), pipeline: hookPipelineOf(of) });
    await putHookEvent(put);
  } catch (error) {
    logger.error('job hook event not written', { jobId: job.id, status: job.status, error });
  }
}

/** Jobs were created (a new pipeline, a retry): a Job Hook each, as GitLab's `after_create`. */
export async function jobsCreated(jobs: readonly Job[], pipeline: Pipeline): Promise<void> {
  await Promise.all(jobs.map((job) => jobStatusChanged(job, pipeline)));
}

/** A pipeline's status changed to `pipeline.status` (as written); `jobs`: its jobs then. */
export async function pipelineStatusChanged(pipeline: Pipeline, jobs: readonly Job[]): Promise<void> {
  if (pipeline.userId === null) return;
  try {
    const current = jobs.filter((job) => !job.retried).map(hookJobOf);
    const { put } = await prepareHookEvent({ projectId: pipeline.projectId, actorId: pipeline.userId, kind: 'pipeline', action: pipeline.status, pipeline: hookPipelineOf(pipeline), jobs: current });
    await putHookEvent(put);
  } catch (error) {
    logger.error('pipeline hook event not written', { pipelineId: pipeline.id, status: pipeline.status, error });
  }
}
