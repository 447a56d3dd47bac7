/**
 * Telling hooks about CI status changes: the commands call these right after the conditional
 * write that made the change won (so each change is told once), GitLab's `execute_hooks` of
 * `Ci::Build` (created, pending, running, success, failed, canceled), of `Ci::Pipeline` (any
 * change of status) and of `Deployment` (running, success, failed, canceled). The event is put on its own, after the change: a failure to put it is logged
 * and never undoes or fails the change (a job's status write is a single conditional update, with
 * no transaction to carry the outbox item).
 *
 * A pipeline, job or deployment with no user (none here today: pushes and API calls have one)
 * has no actor for the payload's `user`, so it sends nothing.
 */
import { prepareHookEvent } from '../../hooks';
import { logger } from '../../platform/logger';
import { getProject } from '../../projects';
import { commitTitle } from '../../repository';
import { readCommit } from '../git';
import { getEnvironment, type Deployment, type Environment } from '../store/environments';
import { getPipeline, type Job, type Pipeline } from '../store/pipelines';
import { HOOKED_DEPLOYMENT_STATUSES, HOOKED_JOB_STATUSES, hookJobOf, hookPipelineOf } from './events';
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
  // Trigger jobs send no Job Hook (GitLab's are `Ci::Build`'s).
  await Promise.all(jobs.filter((job) => !job.bridge).map((job) => jobStatusChanged(job, pipeline)));
}

/** A pipeline's status changed to `pipeline.status` (as written); `jobs`: its jobs then. */
export async function pipelineStatusChanged(pipeline: Pipeline, jobs: readonly Job[]): Promise<void> {
  if (pipeline.userId === null) return;
  try {
    const current = jobs.filter((job) => !job.retried && !job.generic && !job.bridge).map(hookJobOf);
    const { put } = await prepareHookEvent({ projectId: pipeline.projectId, actorId: pipeline.userId, kind: 'pipeline', action: pipeline.status, pipeline: hookPipelineOf(pipeline), jobs: current });
    await putHookEvent(put);
  } catch (error) {
    logger.error('pipeline hook event not written', { pipelineId: pipeline.id, status: pipeline.status, error });
  }
}

/**
 * Internal: the message of a deployment's commit: its pipeline's commit (one GetItem) for a job's
 * deployment, else read from the repository (a deployment reported through the API); undefined
 * when there is none. A repository that cannot be read (a function without the bucket) gives
 * none: the hook is sent without the commit rather than not at all.
 */
async function commitMessageOf(deployment: Deployment): Promise<string | undefined> {
  const pipeline = deployment.pipelineId === null ? undefined : await getPipeline(deployment.pipelineId);
  if (pipeline?.commit && pipeline.commit.id === deployment.sha) return pipeline.commit.message;
  try {
    const project = await getProject(deployment.projectId);
    return project ? (await readCommit(project, deployment.sha))?.message : undefined;
  } catch (error) {
    logger.warn('deployment hook without its commit: the repository could not be read', { deploymentId: deployment.id, error });
    return undefined;
  }
}

/**
 * A deployment's status changed to `deployment.status` (as written, `updatedAt` its time): a
 * Deployment Hook when GitLab sends one for it. `environment`: its environment as the change left
 * it, when the caller has it (read otherwise).
 */
export async function deploymentStatusChanged(deployment: Deployment, environment?: Environment): Promise<void> {
  if (!HOOKED_DEPLOYMENT_STATUSES.has(deployment.status) || deployment.userId === null) return;
  try {
    const [of, message] = await Promise.all([environment ?? getEnvironment(deployment.projectId, deployment.environmentId), commitMessageOf(deployment)]);
    if (!of) return;
    const { put } = await prepareHookEvent({
      projectId: deployment.projectId,
      actorId: deployment.userId,
      kind: 'deployment',
      action: deployment.status,
      deployment: { id: deployment.id, jobId: deployment.jobId, ref: deployment.ref, sha: deployment.sha },
      environment: { name: of.name, slug: of.slug, tier: of.tier, externalUrl: of.externalUrl },
      statusChangedAt: deployment.updatedAt,
      commit: message === undefined ? null : { title: commitTitle(message) },
    });
    await putHookEvent(put);
  } catch (error) {
    logger.error('deployment hook event not written', { deploymentId: deployment.id, status: deployment.status, error });
  }
}
