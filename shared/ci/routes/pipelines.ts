/**
 * The Pipelines API: list (scope, status, ref, sha, source), create on a ref (`POST
 * /projects/:id/pipeline`, with variables), read, retry, cancel, delete, a pipeline's jobs and the
 * variables it was created with, its JUnit test report and test report summary. Reads need
 * `read_build` (reporters, or everyone who reads the project when `public_jobs` is on), its variables `read_pipeline_variable` (maintainers, or the
 * developer who ran it); create, retry and cancel `update_build` (developers); delete needs the owner.
 * As GitLab's pipelines API authenticates writes only, a read refused answers 403 to everyone,
 * a write 401 to an anonymous caller.
 */
import * as z from 'zod';
import { can, type ProjectSubject } from '../../auth';
import { BadRequestError, ForbiddenError, NotFoundError, ParamError } from '../../platform/http/errors';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { hashParam, idParam, limitedString, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { cancelPipeline, createPipelineOnRef, deletePipeline, renamePipeline, retryPipeline } from '../commands/pipelines';
import { authorizeCi, authorizePipelineRead, canReadBuilds, canReadPipelineVariables, canUpdateBuilds, canUpdateOnRef } from '../policy';
import { presentBridge, presentJob } from '../presenters/jobs';
import { presentPipeline, presentPipelineBasicWithMetadata, presentPipelineWithMetadata } from '../presenters/pipelines';
import { presentPipelineVariable } from '../presenters/variables';
import { pipelineVariables } from '../pipeline-variables';
import { invalidName, PIPELINE_NAME_MAX } from '../pipeline-name';
import { latestPipelineOnRef } from '../queries/latest-pipeline';
import { pipelineTestReport, pipelineTestSummary } from '../queries/test-reports';
import { presentTestReport, presentTestReportSummary } from '../presenters/test-reports';
import { findPipelineOrNotFound, jobContext, pipelineBridges, pipelineJobs, pipelineList, projectWebUrl, userOf } from '../queries/jobs';
import type { Pipeline } from '../store/pipelines';
import { scopeParam, scopeFrom } from './scope';

/** A pipeline whose project's builds the caller may read (GitLab's `read_build`, 403 otherwise; 404 for no such pipeline). */
async function findReadablePipeline(params: { id: string; pipeline_id: number }, user: User | null): Promise<{ subject: ProjectSubject; pipeline: Pipeline }> {
  const subject = await findProjectOrNotFound(params.id, user);
  authorizePipelineRead(canReadBuilds(user, subject));
  return { subject, pipeline: await findPipelineOrNotFound(subject, params.pipeline_id) };
}

const pipelineParams = z.object({ ...idParam, pipeline_id: required(p.int()) });

/** What a pipeline's variables may take in all (its item holds them, within DynamoDB's 400 KB). */
const PIPELINE_VARIABLES_MAX_BYTES = 100_000;
const variablesBytes = (variables: ReadonlyArray<{ key: string; value: string }>) =>
  variables.reduce((sum, { key, value }) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);

/**
 * Variables a pipeline is created with: GitLab's `Ci::PipelineVariable`, a key of 255 characters
 * and a value of 10,000; and, as the pipeline's item holds them all, at most
 * PIPELINE_VARIABLES_MAX_BYTES in all.
 */
export const pipelineVariablesParam = p
  .array(z.object({ key: limitedString({ max: 255 }), value: z.preprocess((v) => (v === undefined || v === null ? '' : String(v)), limitedString({ max: 10_000 })), variable_type: z.enum(['env_var', 'file']).optional() }))
  .refine((variables) => variables === undefined || variablesBytes(variables) <= PIPELINE_VARIABLES_MAX_BYTES, {
    message: `variables are too large (maximum is ${PIPELINE_VARIABLES_MAX_BYTES} bytes in all)`,
  });

/** What a pipeline's `inputs` may take in all, as JSON (they are read, not stored: a bound on the work). */
const PIPELINE_INPUTS_MAX_BYTES = 100_000;

/** `inputs` of a pipeline's creation: a hash of values for the configuration file's `spec:inputs` (`config/inputs.ts`). */
export const pipelineInputsParam = hashParam().refine((inputs) => inputs === undefined || Buffer.byteLength(JSON.stringify(inputs)) <= PIPELINE_INPUTS_MAX_BYTES, {
  message: `inputs are too large (maximum is ${PIPELINE_INPUTS_MAX_BYTES} bytes in all)`,
});

export const pipelineRoutes = {
  'GET /projects/:id/pipelines': route({
    params: z.object({
      ...idParam,
      ...paginationParams,
      scope: p.oneOf(['running', 'pending', 'finished', 'branches', 'tags']),
      status: p.oneOf(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled']),
      ref: p.string(),
      sha: p.string(),
      source: p.string(),
      name: p.string(),
      order_by: p.oneOf(['id', 'status', 'ref', 'updated_at', 'user_id']),
      sort: p.oneOf(['asc', 'desc']),
    }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorizePipelineRead(canReadBuilds(user, subject));
      const page = await paginate(params, link, pipelineList(subject.project.id, params));
      const url = projectWebUrl(subject);
      return ok(page.items.map((pipeline) => presentPipelineBasicWithMetadata(pipeline, url)), page.headers);
    },
  }),

  'POST /projects/:id/pipeline': route({
    params: z.object({
      ...idParam,
      ref: required(p.string()),
      variables: pipelineVariablesParam,
      inputs: pipelineInputsParam,
    }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const variables = (params.variables ?? []).map((v) => ({ key: v.key, value: v.value, variableType: v.variable_type }));
      const pipeline = await createPipelineOnRef({ subject, ref: params.ref, source: 'api', user, variables, ...(params.inputs ? { inputs: params.inputs } : {}) });
      return created(presentPipeline(pipeline, projectWebUrl(subject), user));
    },
  }),

  'GET /projects/:id/pipelines/latest': route({
    params: z.object({ ...idParam, ref: p.string() }),
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorizePipelineRead(canReadBuilds(user, subject));
      const pipeline = await latestPipelineOnRef(subject.project, params.ref);
      // GitLab's `authorize! :read_pipeline, latest_pipeline`: no pipeline is a 403.
      if (!pipeline) throw new ForbiddenError();
      return ok(presentPipelineWithMetadata(pipeline, projectWebUrl(subject), await userOf(pipeline.userId)));
    },
  }),

  'GET /projects/:id/pipelines/:pipeline_id': route({
    params: pipelineParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject, pipeline } = await findReadablePipeline(params, user);
      return ok(presentPipelineWithMetadata(pipeline, projectWebUrl(subject), await userOf(pipeline.userId)));
    },
  }),

  // GitLab's `UpdateMetadataService`: the name stripped, then 1 to 255 characters (its model's validation, told after its message).
  'PUT /projects/:id/pipelines/:pipeline_id/metadata': route({
    // Not blanked nor cut by the parser: a blank or long name is GitLab's model error below (the limit published as `maxLength`).
    params: pipelineParams.extend({ name: z.preprocess((value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value ?? undefined), z.string().optional()).meta({ maxLength: PIPELINE_NAME_MAX }) }),
    handler: async ({ params, user }) => {
      if (params.name === undefined) throw new ParamError('name is missing');
      const subject = await findProjectOrNotFound(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const pipeline = await findPipelineOrNotFound(subject, params.pipeline_id);
      authorizeCi(user, await canUpdateOnRef(user, subject, pipeline));
      const name = params.name.trim();
      const invalid = invalidName(name);
      if (invalid) throw new BadRequestError(`Failed to update pipeline - ${invalid}`);
      const renamed = await renamePipeline(pipeline.id, name);
      if (!renamed) throw new NotFoundError();
      return ok(presentPipelineWithMetadata(renamed, projectWebUrl(subject), await userOf(renamed.userId)));
    },
  }),

  'DELETE /projects/:id/pipelines/:pipeline_id': route({
    params: pipelineParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorizeCi(user, canReadBuilds(user, subject));
      const pipeline = await findPipelineOrNotFound(subject, params.pipeline_id);
      authorizeCi(user, can(user, 'remove_project', subject));
      await deletePipeline(pipeline.id);
      return noContent();
    },
  }),

  'POST /projects/:id/pipelines/:pipeline_id/retry': route({
    params: pipelineParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const pipeline = await findPipelineOrNotFound(subject, params.pipeline_id);
      authorizeCi(user, await canUpdateOnRef(user, subject, pipeline));
      const retried = (await retryPipeline(pipeline.id, user)) ?? pipeline;
      return created(presentPipeline(retried, projectWebUrl(subject), await userOf(retried.userId)));
    },
  }),

  'POST /projects/:id/pipelines/:pipeline_id/cancel': route({
    params: pipelineParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorizeCi(user, canUpdateBuilds(user, subject));
      const pipeline = await findPipelineOrNotFound(subject, params.pipeline_id);
      authorizeCi(user, await canUpdateOnRef(user, subject, pipeline));
      const canceled = (await cancelPipeline(pipeline.id)) ?? pipeline;
      return created(presentPipeline(canceled, projectWebUrl(subject), await userOf(canceled.userId)));
    },
  }),

  'GET /projects/:id/pipelines/:pipeline_id/jobs': route({
    params: pipelineParams.extend({ ...paginationParams, scope: scopeParam, include_retried: p.bool() }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { subject } = await findReadablePipeline(params, user);
      const read = await pipelineJobs(params.pipeline_id, scopeFrom(params.scope), params.include_retried ?? false);
      if (!read) throw new NotFoundError();
      const page = paginateArray(params, link, read.jobs);
      const ctx = await jobContext(subject, page.items, [read.pipeline]);
      return ok(page.items.map((job) => presentJob(job, ctx)), page.headers);
    },
  }),

  // GitLab's `read_build`: a pipeline's trigger jobs and their downstream pipelines.
  'GET /projects/:id/pipelines/:pipeline_id/bridges': route({
    params: pipelineParams.extend({ ...paginationParams, scope: scopeParam }),
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const { subject } = await findReadablePipeline(params, user);
      const read = await pipelineBridges(params.pipeline_id, scopeFrom(params.scope));
      if (!read) throw new NotFoundError();
      const page = paginateArray(params, link, read.bridges);
      const ctx = await jobContext(subject, page.items, [read.pipeline]);
      return ok(page.items.map((job) => presentBridge(job, ctx, job.downstreamPipelineId === undefined ? undefined : read.downstream.get(job.downstreamPipelineId))), page.headers);
    },
  }),

  'GET /projects/:id/pipelines/:pipeline_id/variables': route({
    params: pipelineParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject, pipeline } = await findReadablePipeline(params, user);
      authorizePipelineRead(await canReadPipelineVariables(user, subject, pipeline));
      return ok((await pipelineVariables(pipeline)).map(presentPipelineVariable));
    },
  }),

  // The pipeline's JUnit test reports (`artifacts:reports:junit`), read as GitLab reads them (`read_build`).
  'GET /projects/:id/pipelines/:pipeline_id/test_report': route({
    params: pipelineParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject } = await findReadablePipeline(params, user);
      return ok(presentTestReport(await pipelineTestReport(params.pipeline_id), projectWebUrl(subject)));
    },
  }),

  'GET /projects/:id/pipelines/:pipeline_id/test_report_summary': route({
    params: pipelineParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      await findReadablePipeline(params, user);
      return ok(presentTestReportSummary(await pipelineTestSummary(params.pipeline_id)));
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_jobs>;

