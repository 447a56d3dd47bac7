/**
 * The runner API (what gitlab-runner calls, `common/network.go`): register, verify and delete a
 * runner; ask for a job (201 with the job, 204 with `X-GitLab-Last-Update` when there is none);
 * report a job's state (`PUT /jobs/:id`), append its trace (`PATCH /jobs/:id/trace`, 202 with
 * `Range`, 416 on a gap), upload and download artifacts. Runners authenticate with their token,
 * job calls with the job token; a job that is no longer running answers 403 with `Job-Status`
 * (a canceled job tells its runner to stop).
 */
import * as z from 'zod';
import { config } from '../../platform/config';
import { ApiError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { tokenResetAnswer } from './runners-admin';
import { newRunnerSettings, RUNNER_SYSTEM_ID_LIMIT, runnerSettingParams } from './runners.params';
import { created, noContent, ok, withSerializedBody, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { getNamespace } from '../../namespaces';
import { gitlabDeployTokenFor } from '../../deploy-tokens';
import { ciSettingsOf, projectFullPath } from '../../projects';
import { getUser } from '../../users';
import type { catalog } from '../catalog';
import { appendTrace, digestOf, finishJob, jobForToken, registerRunner, requestJob, runnerCalled, runnerForToken, storeArtifacts, storeTestReport, unregisterRunner } from '../commands/runners';
import { removeRunnerManager } from '../store/runners';
import { configPathOf, refProtected } from '../git';
import { presentRunnerJob } from '../presenters/runner-job';
import { variablesFor } from '../queries/variables';
import { pipelineVariables } from '../pipeline-variables';
import { artifactsDownload } from './downloads';
import { getJob, jobTokenOwner, readPipeline, touchRunningJob, type Job } from '../store/pipelines';
import { COMPLETED } from '../status';

const jobStatus = (job: Job) => ({ 'Job-Status': job.status });

/**
 * The job named by the path, when the token is its own (403 otherwise), still running; a job
 * that is not answers GitLab's `job_forbidden!`: 403 with its status in `Job-Status`.
 */
async function runningJob(id: number, token: string | undefined): Promise<{ job: Job } | { response: HttpResult }> {
  const job = await jobForToken(id, token);
  if (!job) {
    if (!(await getJob(id))) throw new ApiError(404, { message: '404 Not Found' });
    throw new ForbiddenError();
  }
  if (job.status !== 'running') return { response: { statusCode: 403, headers: jobStatus(job), body: { message: '403 Forbidden - Job is not processing' } } };
  return { job };
}

/** What a runner says of itself; the strings kept (name, version, platform, …) at most 2,048 characters each. */
const runnerInfo = z
  .record(z.string(), z.unknown())
  .refine((info) => Object.values(info).every((value) => typeof value !== 'string' || value.length <= 2048), { message: 'info is invalid' })
  .optional();

export const runnerRoutes = {
  'POST /runners': route({
    params: z.object({ token: required(p.string()), info: runnerInfo, ...runnerSettingParams }),
    anonymous: true,
    handler: async ({ params }) => {
      const registered = await registerRunner({ token: params.token, info: params.info, ...newRunnerSettings(params) });
      if (!registered) throw new ForbiddenError();
      return created({ id: registered.runner.id, token: registered.token, token_expires_at: null });
    },
  }),

  'POST /runners/verify': route({
    params: z.object({ token: required(p.string()), system_id: p.string(RUNNER_SYSTEM_ID_LIMIT), info: runnerInfo }),
    anonymous: true,
    handler: async ({ params }) => {
      const runner = await runnerForToken(params.token);
      if (!runner) throw new ForbiddenError();
      // `gitlab-runner register --token` and every start: the machine becomes one of the runner's managers.
      await runnerCalled(runner, { systemId: params.system_id, info: params.info }, new Date());
      return ok({ id: runner.id, token: params.token, token_expires_at: null });
    },
  }),

  'POST /runners/reset_authentication_token': route({
    params: z.object({ token: required(p.string()) }),
    anonymous: true,
    handler: async ({ params }) => {
      const runner = await runnerForToken(params.token);
      if (!runner) throw new ForbiddenError();
      return created(await tokenResetAnswer(runner));
    },
  }),

  'DELETE /runners/managers': route({
    params: z.object({ token: required(p.string()), system_id: required(p.string()) }),
    anonymous: true,
    handler: async ({ params }) => {
      const runner = await runnerForToken(params.token);
      if (!runner) throw new ForbiddenError();
      if (!(await removeRunnerManager(runner, params.system_id))) throw new NotFoundError('Runner manager not found');
      return noContent();
    },
  }),

  'DELETE /runners': route({
    params: z.object({ token: required(p.string()) }),
    anonymous: true,
    handler: async ({ params }) => {
      const runner = await runnerForToken(params.token);
      if (!runner) throw new ForbiddenError();
      await unregisterRunner(runner);
      return noContent();
    },
  }),

  'POST /jobs/request': route({
    params: z.object({ token: required(p.string()), last_update: p.string(), info: runnerInfo, system_id: p.string(RUNNER_SYSTEM_ID_LIMIT) }),
    anonymous: true,
    handler: async ({ params, log }) => {
      const polled = await requestJob(params.token, params.last_update, { systemId: params.system_id, info: params.info });
      if (!polled) throw new ForbiddenError();
      const { runner, found } = polled;
      if (found.result === 'none') return { statusCode: 204, headers: { 'X-GitLab-Last-Update': found.lastUpdate } };
      if (found.result === 'conflict') throw new ApiError(409, { message: '409 Conflict' });
      const { job, pipeline, project, token } = found;
      // The project's and its groups' variables are read as the job is handed out: an edit applies to the next job picked.
      const protectedRef = refProtected(job);
      const namespaceRead = getNamespace(project.namespaceId);
      const [namespace, user, read, projectVariables, refIsProtected, openedVariables, deployToken] = await Promise.all([
        namespaceRead,
        job.userId ? getUser(job.userId) : undefined,
        readPipeline(job.pipelineId),
        variablesFor(project, { environment: job.spec.environment, protectedRef: () => protectedRef, namespace: namespaceRead }),
        protectedRef,
        pipelineVariables(pipeline),
        namespaceRead.then((found) => gitlabDeployTokenFor(project.id, found?.kind === 'group' ? found.id : null)),
      ]);
      const earlier = (read?.jobs ?? []).filter((other) => !other.retried && other.id !== job.id && COMPLETED.has(other.status));
      const wanted = job.spec.needs
        ? earlier.filter((other) => job.spec.needs!.some((need) => need.name === other.name && need.artifacts))
        : job.spec.dependencies
          ? earlier.filter((other) => job.spec.dependencies!.includes(other.name))
          : earlier.filter((other) => other.stageIdx < job.stageIdx);
      const fullPath = namespace ? projectFullPath(namespace, project) : project.path;
      const settings = ciSettingsOf(project);
      const payload = presentRunnerJob({
        job,
        token,
        pipeline,
        projectPath: fullPath,
        projectName: project.name,
        namespacePath: fullPath.slice(0, fullPath.lastIndexOf('/')),
        defaultBranch: project.defaultBranch,
        visibility: project.visibility,
        runner: { id: runner.id, description: runner.description, tags: runner.tags },
        dependencies: wanted.filter((other) => other.artifacts),
        user: user ? { id: user.id, username: user.username, name: user.name, email: user.email ?? '' } : null,
        refProtected: refIsProtected,
        projectVariables,
        pipelineVariables: openedVariables,
        deployToken,
        settings: { configPath: configPathOf(project), defaultGitDepth: settings.ciDefaultGitDepth, gitStrategy: settings.buildGitStrategy },
      });
      // Nothing caps what a job carries in all (the variables of up to 20 groups, then the
      // project's and the pipeline's): one the function could not send is dropped, as GitLab drops
      // a job it cannot present (`scheduler_failure`), and the runner polls again.
      // Serialised once: the text measured is the text sent.
      const { result, text } = withSerializedBody(created(payload));
      const bytes = Buffer.byteLength(text);
      if (bytes > config().jobPayloadLimitBytes) {
        log.warn('job payload over the limit: job dropped', { jobId: job.id, projectId: project.id, bytes, limit: config().jobPayloadLimitBytes });
        await finishJob(job, 'failed', { failureReason: 'scheduler_failure' });
        return { statusCode: 204, headers: {} };
      }
      return result;
    },
  }),

  'PUT /jobs/:id': route({
    params: z.object({
      id: required(p.int()),
      token: p.string(),
      state: p.oneOf(['running', 'success', 'failed', 'canceled']),
      failure_reason: p.string(),
      exit_code: p.int(),
      checksum: p.string(),
      output: z.record(z.string(), z.unknown()).optional(),
    }),
    anonymous: true,
    handler: async ({ params }) => {
      const found = await runningJob(params.id, params.token);
      if ('response' in found) return found.response;
      const { job } = found;
      if (params.state === 'success' || params.state === 'failed') {
        const finished = await finishJob(job, params.state, { failureReason: params.failure_reason, exitCode: params.exit_code ?? null });
        return ok<string>('200', jobStatus(finished));
      }
      // A runner's report is its job's heartbeat (the scheduler fails a running job not heard from).
      await touchRunningJob(job);
      return ok<string>('200', jobStatus(job));
    },
  }),

  'PATCH /jobs/:id/trace': route({
    params: z.object({ id: required(p.int()), token: p.string(), content_range: p.string(), chunk: p.string() }),
    anonymous: true,
    handler: async ({ params }) => {
      const found = await runningJob(params.id, params.token);
      if ('response' in found) return found.response;
      const { job } = found;
      const range = /^(\d+)-(\d+)$/.exec((params.content_range ?? '').trim());
      if (!range) throw new ApiError(400, { message: '400 Bad request - Missing header Content-Range' });
      const data = Buffer.from(params.chunk ?? '', 'base64');
      const appended = await appendTrace(job, Number(range[1]), data);
      const headers = { ...jobStatus(job), Range: `0-${appended.length}`, 'X-GitLab-Trace-Update-Interval': '3' };
      if (appended.result === 'range_not_satisfiable') return { statusCode: 416, headers, body: { message: '416 Range Not Satisfiable' } };
      return { statusCode: 202, headers, body: '202' };
    },
  }),

  'POST /jobs/:id/artifacts': route({
    params: z.object({
      id: required(p.int()),
      token: p.string(),
      artifact_format: p.oneOf(['zip', 'gzip', 'raw']),
      artifact_type: p.string(),
      expire_in: p.string(),
      file: z.unknown().optional(),
    }),
    anonymous: true,
    handler: async ({ params, files }) => {
      const found = await runningJob(params.id, params.token);
      if ('response' in found) return found.response;
      const { job } = found;
      const file = files.file;
      if (!file) throw new ApiError(400, { error: 'file is missing' });
      if (params.artifact_type === 'junit') {
        const stored = await storeTestReport(job, file.data, params.artifact_format);
        return created(stored ? { id: job.id } : {});
      }
      if (params.artifact_type && params.artifact_type !== 'archive') return created({});
      const stored = await storeArtifacts(job, file, { format: params.artifact_format, expireIn: params.expire_in });
      return created(stored ? { id: job.id } : {});
    },
  }),

  'GET /jobs/:id/artifacts': route({
    params: z.object({ id: required(p.int()), token: required(p.string()), direct_download: p.bool() }),
    anonymous: true,
    handler: async ({ params }) => {
      // The token of a running job of the same pipeline (a dependent job downloading what it needs).
      const job = await getJob(params.id);
      if (!job) throw new ApiError(404, { message: '404 Not Found' });
      const owner = await jobTokenOwner(digestOf(params.token));
      if (!owner || owner.projectId !== job.projectId) throw new ForbiddenError();
      return artifactsDownload(job);
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_runners>;
