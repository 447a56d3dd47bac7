/**
 * The Jobs API (the spec's Jobs section): list a project's jobs (`scope`), read one, its trace
 * (live while it runs, the archived object once it ended) and artifacts (streamed from S3; by
 * ref and job name only for a successful job), one file of them (GitLab's `job_artifacts.rb`:
 * taken out of the zip with ranged reads, never the whole archive), cancel, retry (answers the
 * new job), play (manual jobs only), erase (artifacts and trace), keep and delete artifacts (one
 * job's, or every job's of the project in the background).
 */
import * as z from 'zod';
import { ApiError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { accepted, created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { Authentication } from '../../platform/http/context';
import { findProjectForJobOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { cancelJobRecord, playJob, processPipeline, retryJobRecord } from '../commands/pipelines';
import { isOutdatedDeploymentJob } from '../commands/deployments';
import { authorizeCi, canDestroyArtifacts, canEraseBuild, canReadBuilds, canUpdateBuilds, canUpdateOnRef } from '../policy';
import { presentBridge, presentJob } from '../presenters/jobs';
import { findJobOrNotFound, jobContext, jobList, latestSuccessfulJob } from '../queries/jobs';
import { deleteArtifacts, deleteTrace } from '../store/blobs';
import { deleteJobArtifacts, requestProjectArtifactsDeletion } from '../commands/artifacts';
import { artifactEntryDownload, artifactsDownload, traceDownload } from './downloads';
import { getJob, updateJob } from '../store/pipelines';
import { COMPLETED } from '../status';
import { scopeFrom, scopeParam } from './scope';

const jobParams = z.object({ ...idParam, job_id: required(p.int()) });
/** A file's path inside the archive (GitLab's `*artifact_path`; NUL bytes and invalid UTF-8 are refused before, with GitLab's 400). */
const artifactPath = { artifact_path: required(p.string()) };

/** The project whose jobs the caller may read; a CI job's token (on the artifact downloads) reaches its own project only. */
async function readable(id: string, user: Parameters<typeof canReadBuilds>[0], auth: Authentication | null = null) {
  const subject = await findProjectForJobOrNotFound(id, user, auth);
  authorizeCi(user, canReadBuilds(user, subject));
  return subject;
}


/** What playing answers: a build (GitLab's `Job` entity) or a trigger job (its `Bridge` entity). */
type PlayAnswer = (Omit<ReturnType<typeof presentJob>, 'status'> & { status: string }) | ReturnType<typeof presentBridge>;
export const jobRoutes = {
  'GET /projects/:id/jobs': route({
    params: z.object({ ...idParam, ...paginationParams, scope: scopeParam }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const subject = await readable(params.id, user);
      const page = await paginate(params, link, jobList(subject.project.id, scopeFrom(params.scope)));
      const ctx = await jobContext(subject, page.items);
      return ok(page.items.map((job) => presentJob(job, ctx)), page.headers);
    },
  }),

  'GET /projects/:id/jobs/:job_id': route({
    params: jobParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      const job = await findJobOrNotFound(subject, params.job_id);
      return ok(presentJob(job, await jobContext(subject, [job])));
    },
  }),

  'GET /projects/:id/jobs/:job_id/trace': route({
    params: jobParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      return traceDownload(await findJobOrNotFound(subject, params.job_id));
    },
  }),

  'GET /projects/:id/jobs/:job_id/artifacts': route({
    params: jobParams,
    anonymous: true,
    // GitLab's `job_token_allowed`: a job fetches another job's artifacts with its `JOB-TOKEN`.
    authentication: { jobToken: true },
    handler: async ({ params, user, auth }) => {
      const subject = await readable(params.id, user, auth);
      return artifactsDownload(await findJobOrNotFound(subject, params.job_id));
    },
  }),

  'GET /projects/:id/jobs/artifacts/:ref_name/download': route({
    params: z.object({ ...idParam, ref_name: required(p.string()), job: required(p.string()) }),
    anonymous: true,
    // GitLab's `job_token_allowed`: a job fetches another job's artifacts with its `JOB-TOKEN`.
    authentication: { jobToken: true },
    handler: async ({ params, user, auth }) => {
      const subject = await readable(params.id, user, auth);
      return artifactsDownload(await latestSuccessfulJob(subject.project.id, params.ref_name, params.job));
    },
  }),

  'GET /projects/:id/jobs/:job_id/artifacts/:artifact_path+': route({
    params: jobParams.extend(artifactPath),
    anonymous: true,
    // GitLab's `job_token_allowed`, as the whole archive.
    authentication: { jobToken: true },
    handler: async ({ params, user, auth }) => {
      const subject = await readable(params.id, user, auth);
      return artifactEntryDownload(await findJobOrNotFound(subject, params.job_id), params.artifact_path);
    },
  }),

  // A root file named `keep`: the resource of `POST …/artifacts/keep` is matched before the greedy
  // one (API Gateway chooses the resource from the path, then the method), so its GET is declared
  // here, serving the file as GitLab's wildcard route does.
  'GET /projects/:id/jobs/:job_id/artifacts/keep': route({
    params: jobParams,
    anonymous: true,
    authentication: { jobToken: true },
    handler: async ({ params, user, auth }) => {
      const subject = await readable(params.id, user, auth);
      return artifactEntryDownload(await findJobOrNotFound(subject, params.job_id), 'keep');
    },
  }),

  'GET /projects/:id/jobs/artifacts/:ref_name/raw/:artifact_path+': route({
    params: z.object({ ...idParam, ref_name: required(p.string()), job: required(p.string()), ...artifactPath }),
    anonymous: true,
    // GitLab's `job_token_allowed`, as the whole archive.
    authentication: { jobToken: true },
    handler: async ({ params, user, auth }) => {
      const subject = await readable(params.id, user, auth);
      return artifactEntryDownload(await latestSuccessfulJob(subject.project.id, params.ref_name, params.job), params.artifact_path);
    },
  }),

  'DELETE /projects/:id/jobs/:job_id/artifacts': route({
    params: jobParams,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canDestroyArtifacts(user, subject));
      await deleteJobArtifacts(await findJobOrNotFound(subject, params.job_id));
      return noContent();
    },
  }),

  'DELETE /projects/:id/artifacts': route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canDestroyArtifacts(user, subject));
      // GitLab's `accepted!`: its worker deletes them after the answer; here the background jobs worker.
      await requestProjectArtifactsDeletion(subject.project.id);
      return accepted({ message: '202 Accepted' });
    },
  }),

  'POST /projects/:id/jobs/:job_id/cancel': route({
    params: jobParams,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const job = await findJobOrNotFound(subject, params.job_id);
      authorizeCi(user, await canUpdateOnRef(user, subject, job));
      // GitLab's `DeployablePolicy`: an outdated deployment job takes no action.
      authorizeCi(user, !(await isOutdatedDeploymentJob(job, subject.project)));
      const canceled = await cancelJobRecord(job);
      if (canceled !== job) await processPipeline(job.pipelineId);
      return created(presentJob(canceled, await jobContext(subject, [canceled]), 'action'));
    },
  }),

  'POST /projects/:id/jobs/:job_id/retry': route({
    params: jobParams,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const job = await findJobOrNotFound(subject, params.job_id);
      authorizeCi(user, await canUpdateOnRef(user, subject, job));
      // GitLab's `Ci::Build#retryable?`: a finished job (success, failed or canceled), not replaced already.
      if (job.retried || !['success', 'failed', 'canceled'].includes(job.status)) throw new ForbiddenError('Job is not retryable');
      const retried = await retryJobRecord(job, user);
      return created(presentJob(retried, await jobContext(subject, [retried]), 'action'));
    },
  }),

  'POST /projects/:id/jobs/:job_id/play': route({
    params: jobParams,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      // A manual trigger job too (GitLab's processables), answered as a bridge.
      const job = await findJobOrNotFound(subject, params.job_id, { bridges: true });
      authorizeCi(user, await canUpdateOnRef(user, subject, job));
      authorizeCi(user, !(await isOutdatedDeploymentJob(job, subject.project)));
      if (job.status !== 'manual') throw new ApiError(400, { message: '400 Bad request - Unplayable Job' });
      const played = await playJob(job);
      if (!played) throw new ApiError(400, { message: '400 Bad request - Unplayable Job' });
      const ctx = await jobContext(subject, [played]);
      // The spec's job status table: the play response shows the action as `started` (the job
      // itself is pending until a runner takes it, as every later read shows).
      return ok<PlayAnswer>(played.bridge ? presentBridge(played, ctx, undefined) : { ...presentJob(played, ctx, 'action'), status: 'started' });
    },
  }),

  'POST /projects/:id/jobs/:job_id/erase': route({
    params: jobParams,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const job = await findJobOrNotFound(subject, params.job_id);
      authorizeCi(user, await canEraseBuild(user, subject, job));
      if (!COMPLETED.has(job.status) || (!job.artifacts && job.traceLength === 0)) throw new ForbiddenError('Job is not erasable!');
      await Promise.all([deleteArtifacts(job.id), deleteTrace(job.id)]);
      const erased = (await updateJob(job, { artifacts: null, testReport: null, erasedAt: new Date().toISOString(), traceLength: 0 })) ?? job;
      return created(presentJob(erased, await jobContext(subject, [erased]), 'download'));
    },
  }),

  'POST /projects/:id/jobs/:job_id/artifacts/keep': route({
    params: jobParams,
    handler: async ({ params, user }) => {
      const subject = await readable(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const job = await findJobOrNotFound(subject, params.job_id);
      authorizeCi(user, await canUpdateOnRef(user, subject, job));
      if (!job.artifacts) throw new NotFoundError();
      const kept = (await updateJob(job, { artifacts: { ...job.artifacts, expireAt: null } })) ?? (await getJob(job.id)) ?? job;
      return ok(presentJob(kept, await jobContext(subject, [kept]), 'download'));
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_jobs>;
