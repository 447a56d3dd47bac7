/**
 * Pipelines: created from `.gitlab-ci.yml` (on push, or `POST /projects/:id/pipeline`), processed
 * after every job change (GitLab's `Ci::ProcessPipelineService`: waiting jobs start when what they
 * wait for settled, then the pipeline's status is the composite of its jobs), canceled, retried
 * and deleted.
 *
 * Every status change made here tells the project's hooks right after the write that made it won
 * (`webhooks/emit.ts`): a Pipeline Hook on each change of a pipeline's status, a Job Hook when a
 * job is created or becomes pending, running, success, failed or canceled (GitLab's). Job status
 * changes made elsewhere go through {@link changeJobStatus} for the same reason.
 */
import { randomBytes } from 'node:crypto';
import { getProject, type Project } from '../../projects';
import { getNamespace } from '../../namespaces';
import type { ProjectSubject } from '../../auth';
import type { User } from '../../users';
import { expandAll, expandVariables, refSlug } from '../config/expand';
import type { AutoCancelSettings, CiConfig, SelectedJob } from '../config/parse';
import type { IncludedFileRecord } from '../config/includes';
import { logger } from '../../platform/logger';
import { ValidationError } from '../../platform/http/errors';
import { configPathOf, includeReader, readCommitAndConfig, refOpenTo, refProtected, resolveRef, type RefProtections } from '../git';
import { notifyPipelineFinished } from '../listeners';
import { variablesFor, type ProjectVariable } from '../queries/variables';
import { archiveTrace, deleteJobObjects, readTraceChunks } from '../store/blobs';
import { jobsCreated, jobStatusChanged, pipelineStatusChanged } from '../webhooks/emit';
import {
  bumpQueueVersion,
  deletePipelineItems,
  getJob,
  getPipeline,
  insertJobs,
  insertPipeline,
  newJobId,
  newJobIds,
  newPipelineId,
  newPipelineIid,
  readPipeline,
  revokeJobToken,
  updateJob,
  updatePipeline,
  type Job,
  type JobChanges,
  type JobSpec,
  type MergeRequestSnapshot,
  type Pipeline,
  type RunnerQueues,
} from '../store/pipelines';
import { mergeRequestVariables } from '../merge-request-variables';
import { CANCELABLE, COMPLETED, compositeStatus, nextStatuses, type JobStatus } from '../status';
import { sealPipelineVariables } from '../pipeline-variables';
import { nameFromWorkflow } from '../pipeline-name';
import { serverVariables } from '../server-variables';
import type { Deployment } from '../store/environments';
import { deploymentFollowsJob, isOutdatedDeploymentJob, linkEnvironments, olderActiveDeployments, redeploy, storeDeployments } from './deployments';
import { refFollowsPipeline, refForgetsPipeline } from './refs';
import { jobsToAutoCancel, PIPELINE_CANCELABLE, redundantPipelines } from './auto-cancel';

export interface PipelineRequest {
  project: Project;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  /** `push`, `api`, `web`, ... */
  source: string;
  user: User | null;
  variables?: Array<{ key: string; value: string; variableType?: string }>;
  /** Values for the `spec:inputs` of the configuration file (`config/inputs.ts`). */
  inputs?: Record<string, unknown>;
  /** The protections this request has read already (`refOpenTo`): read again only if absent. */
  protections?: RefProtections;
  /** A merge request pipeline's merge request (`ref` its `refs/merge-requests/<iid>/head`, `source` `merge_request_event`). */
  mergeRequest?: MergeRequestSnapshot;
  /** The configuration to read instead of the project's file (a child pipeline's `include:` of its trigger's files). */
  config?: string;
  /** A child pipeline's parent pipeline and trigger job (`downstream.ts`). */
  parent?: { pipelineId: number; jobId: number };
  /** A multi-project downstream pipeline's upstream pipeline and trigger job (`downstream.ts`). */
  upstream?: { pipelineId: number; jobId: number };
  /** The project's full path, when known (the CI Lint API's `includes` name it). */
  projectPath?: string;
}

/** A request whose merge request is read only once the commit is known to have a `.gitlab-ci.yml`. */
export type LazyPipelineRequest = Omit<PipelineRequest, 'mergeRequest'> & { mergeRequest: () => Promise<MergeRequestSnapshot> };

export type CreatePipelineResult =
  | { result: 'created'; pipeline: Pipeline }
  /** No `.gitlab-ci.yml` (or `ci_config_path` file) at that commit. */
  | { result: 'no_config' }
  /** `workflow: rules`, `only`/`except` or `rules` left no job: GitLab creates nothing. */
  | { result: 'no_jobs' }
  | { result: 'commit_not_found' };

const ZERO = '0000000000000000000000000000000000000000';

/** What a job that has not run yet carries: a new one, a retry's copy, a generic commit status. */
export const NOT_RUN = {
  status: 'created',
  queuedAt: null,
  startedAt: null,
  finishedAt: null,
  erasedAt: null,
  runnerId: null,
  failureReason: null,
  exitCode: null,
  retried: false,
  tokenDigest: null,
  traceLength: 0,
  traceArchived: false,
  artifacts: null,
  testReport: undefined,
  touchedAt: null,
  // Fixed again when a runner takes it (the project's `build_timeout` may have changed).
  timeout: undefined,
  version: 1,
} as const satisfies Partial<Job>;

/**
 * The variables rules are evaluated with: GitLab's predefined ones that decide, then the CI/CD
 * variables of the project's groups and the project (scope `*`; protected ones on a protected
 * ref), then the pipeline's, the later winning.
 */
function ruleVariables(request: PipelineRequest, projectVariables: readonly ProjectVariable[]): Record<string, string> {
  const variables: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    ...Object.fromEntries(serverVariables()),
    // A merge request pipeline's ref name is its source branch (GitLab's `source_ref`).
    CI_COMMIT_REF_NAME: request.mergeRequest?.sourceBranch ?? request.ref,
    CI_COMMIT_SHA: request.sha,
    CI_COMMIT_BEFORE_SHA: request.beforeSha,
    CI_PIPELINE_SOURCE: request.source,
    CI_DEFAULT_BRANCH: request.project.defaultBranch,
    CI_PROJECT_ID: String(request.project.id),
    CI_PROJECT_NAME: request.project.path,
    CI_CONFIG_PATH: configPathOf(request.project),
  };
  if (request.mergeRequest) Object.assign(variables, Object.fromEntries(mergeRequestVariables(request.mergeRequest)));
  else if (request.tag) variables.CI_COMMIT_TAG = request.ref;
  else variables.CI_COMMIT_BRANCH = request.ref;
  for (const variable of [...projectVariables, ...(request.variables ?? [])]) variables[variable.key] = variable.value;
  return variables;
}

/** The names whose value (the last one given, as {@link ruleVariables} takes it) is a masked variable's: `expand_vars` refuses them. */
function maskedNames(projectVariables: readonly ProjectVariable[], pipelineVariables: readonly { key: string }[]): Set<string> {
  const masked = new Set<string>();
  for (const variable of projectVariables) {
    if (variable.masked) masked.add(variable.key);
    else masked.delete(variable.key);
  }
  for (const variable of pipelineVariables) masked.delete(variable.key);
  return masked;
}

/**
 * What a job runs. Its environment's name and URL are expanded with `variables` (GitLab expands
 * them when it creates the job, with the job's variables: predefined, then the file's, then the
 * project's and the pipeline's).
 */
function specOf(job: SelectedJob, variables: Readonly<Record<string, string>>): JobSpec {
  const { url, ...options } = job.environmentOptions ?? {};
  const environmentOptions = { ...options, ...(url === undefined ? {} : { url: expandVariables(url, variables) }) };
  return {
    script: job.script,
    beforeScript: job.beforeScript,
    afterScript: job.afterScript,
    ...(job.image ? { image: job.image } : {}),
    services: job.services,
    variables: job.variables,
    tags: job.tags,
    ...(job.artifacts ? { artifacts: job.artifacts } : {}),
    ...(job.dependencies ? { dependencies: job.dependencies } : {}),
    ...(job.needs ? { needs: job.needs } : {}),
    cache: job.cache,
    retry: job.retry,
    ...(job.timeout !== undefined ? { timeout: job.timeout } : {}),
    ...(job.allowFailureExitCodes ? { allowFailureExitCodes: job.allowFailureExitCodes } : {}),
    ...(job.environment ? { environment: expandVariables(job.environment, variables) } : {}),
    ...(job.environment && job.environmentOptions ? { environmentOptions } : {}),
    ...(job.release ? { release: job.release } : {}),
    ...(job.trigger ? { trigger: job.trigger } : {}),
  };
}

/** What a pipeline's configuration gives for a request ({@link evaluatePipelineConfig}). */
export type ConfigEvaluation = { variables: EvaluationVariables; merged?: Record<string, unknown>; config?: CiConfig } & (
  | { result: 'jobs'; config: CiConfig; jobs: SelectedJob[]; autoCancel: AutoCancelSettings; name?: string }
  /** The file does not load, an include fails, the configuration is invalid, or a selected job needs one left out: GitLab's message. */
  | { result: 'invalid'; error: string }
  /** `workflow: rules` refuse the pipeline. */
  | { result: 'workflow_refused'; config: CiConfig }
  /** `only`/`except` or `rules` left no job. */
  | { result: 'no_jobs'; config: CiConfig }
);

/** The variables a configuration was evaluated with: the rules' ({@link ruleVariables}), the predefined ones of jobs, and the project's and pipeline's. */
export interface EvaluationVariables {
  rules: Record<string, string>;
  predefined: Record<string, string>;
  given: Record<string, string>;
}

/**
 * Reads a pipeline's configuration text for a request as pipeline creation does (GitLab's
 * `Gitlab::Ci::YamlProcessor` within `Ci::CreatePipelineService`): the `spec:inputs` header, the
 * `include:`s (`config/includes.ts`; each file read is pushed on `included` when given), the
 * configuration's checks, `workflow: rules`, then the jobs the ref and source get. Writes nothing:
 * {@link createPipeline} and the CI Lint API (`lint.ts`) use it. `merged` is the configuration
 * with its includes merged in (before `extends`), when it loaded.
 */
export async function evaluatePipelineConfig(request: PipelineRequest, config: string, included?: IncludedFileRecord[]): Promise<ConfigEvaluation> {
  // The configuration's reader (with its YAML parser, ~110 KB) is loaded by the first pipeline a process creates, not at cold start.
  const [{ expandIncludes }, { buildCiConfig, loadCiYaml, missingNeedsError, selectJobs, workflowAllows, workflowAutoCancel, workflowRuleVariables }] = await Promise.all([import('../config/includes'), import('../config/parse')]);
  const projectId = request.project.id;
  const projectVariables = await variablesFor(request.project, { protectedRef: () => refProtected({ projectId, ref: request.ref, tag: request.tag }, request.protections) });
  const rules = ruleVariables(request, projectVariables);
  // What a job's environment name and URL are expanded with: the predefined variables, the job's own, then the project's and the pipeline's.
  const given = Object.fromEntries([...projectVariables, ...(request.variables ?? [])].map((variable) => [variable.key, variable.value]));
  const predefined = { ...rules, CI_COMMIT_REF_SLUG: refSlug(rules.CI_COMMIT_REF_NAME), CI_COMMIT_SHORT_SHA: request.sha.slice(0, 8) };
  const variables = { rules, predefined, given };
  const masked = maskedNames(projectVariables, request.variables ?? []);
  const loaded = loadCiYaml(config, { inputs: request.inputs, variables: rules, masked });
  if (!loaded.ok) return { result: 'invalid', error: loaded.error, variables };
  // A child pipeline's `include: artifact:` reads its parent's artifacts (the reader loaded only then).
  const reader = { ...includeReader(request.project, request.user), ...(request.parent ? { parentArtifact: (await import('../queries/artifact-includes')).parentArtifactReader(request.parent.pipelineId) } : {}) };
  const source = { projectId, sha: request.sha, ...(request.projectPath ? { fullPath: request.projectPath } : {}) };
  const expanded = await expandIncludes(loaded.value, source, reader, rules, masked, included);
  if (!expanded.ok) return { result: 'invalid', error: expanded.error, variables };
  const merged = expanded.value;
  const parsed = buildCiConfig(merged);
  if (!parsed.ok) return { result: 'invalid', error: parsed.error, variables, merged };
  const context = { ref: request.ref, tag: request.tag, source: request.source, variables: rules };
  if (!workflowAllows(parsed.config, context)) return { result: 'workflow_refused', config: parsed.config, variables, merged };
  const autoCancel = workflowAutoCancel(parsed.config, context);
  let name: string | undefined;
  // `workflow:name` expanded with the pipeline's variables, the file's global ones and its matching workflow rule's among them (GitLab's `PopulateMetadata`).
  if (parsed.config.workflowName) {
    const named = expandAll({ ...predefined, ...parsed.config.variables, ...workflowRuleVariables(parsed.config, context), ...given });
    name = nameFromWorkflow(expandVariables(parsed.config.workflowName, named));
  }
  const jobs = selectJobs(parsed.config, context);
  const missing = missingNeedsError(jobs);
  if (missing) return { result: 'invalid', error: missing, config: parsed.config, variables, merged };
  if (jobs.length === 0) return { result: 'no_jobs', config: parsed.config, variables, merged };
  return { result: 'jobs', config: parsed.config, jobs, autoCancel, ...(name ? { name } : {}), variables, merged };
}

/**
 * Creates the pipeline of a commit: its jobs as `.gitlab-ci.yml` (or the file the project's
 * `ci_config_path` names: `readCommitAndConfig` in `git.ts`) selects them for the ref and source,
 * all `created`, then processed (the first stage's jobs become pending). The file's `include:` is
 * resolved first (`config/includes.ts`: local files at this commit, other projects' files as the
 * pipeline's user may read them). A file that does not parse, or an include that
 * fails, gives a failed pipeline with the error in `yaml_errors` and no jobs. A merge request
 * pipeline's merge request may be given as a function, called only when the commit has the file.
 */
export async function createPipeline(asked: PipelineRequest | LazyPipelineRequest): Promise<CreatePipelineResult> {
  const read = await readCommitAndConfig(asked.project, asked.sha, configPathOf(asked.project));
  if (!read) return { result: 'commit_not_found' };
  const config = asked.config ?? read.config;
  if (config === undefined) return { result: 'no_config' };
  const request: PipelineRequest = { ...asked, mergeRequest: typeof asked.mergeRequest === 'function' ? await asked.mergeRequest() : asked.mergeRequest };
  const now = new Date().toISOString();
  const base = {
    projectId: request.project.id,
    ref: request.ref,
    tag: request.tag,
    sha: request.sha,
    beforeSha: request.beforeSha || ZERO,
    source: request.source,
    userId: request.user?.id ?? null,
    commit: read.commit,
    variables: await sealPipelineVariables((request.variables ?? []).map((v) => ({ key: v.key, value: v.value, variableType: v.variableType ?? 'env_var' }))),
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    ...(request.mergeRequest ? { mergeRequest: request.mergeRequest } : {}),
    ...(request.parent ? { parent: request.parent } : {}),
    ...(request.upstream ? { upstream: request.upstream } : {}),
    version: 1,
  };
  const evaluation = await evaluatePipelineConfig(request, config);
  if (evaluation.result === 'workflow_refused' || evaluation.result === 'no_jobs') return { result: 'no_jobs' };
  const yamlErrors = evaluation.result === 'invalid' ? evaluation.error : null;
  const jobs = evaluation.result === 'jobs' ? evaluation.jobs : [];
  const { autoCancel, name } = evaluation.result === 'jobs' ? evaluation : { autoCancel: undefined, name: undefined };
  const { predefined, given } = evaluation.variables;
  const jobVariables = (job: SelectedJob) => ({ ...predefined, ...job.variables, ...given });
  const pipeline: Pipeline = {
    ...base,
    id: await newPipelineId(),
    iid: await newPipelineIid(request.project.id),
    status: yamlErrors ? 'failed' : 'created',
    yamlErrors,
    finishedAt: yamlErrors ? now : null,
    ...(autoCancel ? { autoCancel } : {}),
    ...(name ? { name } : {}),
  };
  // Ids in stage order, file order within a stage (as GitLab creates them), taken in one write.
  const ordered = [...jobs].sort((a, b) => a.stageIdx - b.stageIdx);
  const ids = await newJobIds(ordered.length);
  const records: Job[] = ordered.map((job, i) => ({
    id: ids[i],
    projectId: request.project.id,
    pipelineId: pipeline.id,
    name: job.name,
    stage: job.stage,
    stageIdx: job.stageIdx,
    when: job.when,
    allowFailure: job.allowFailure,
    ref: request.ref,
    tag: request.tag,
    sha: request.sha,
    beforeSha: base.beforeSha,
    userId: base.userId,
    spec: specOf(job, jobVariables(job)),
    createdAt: now,
    retryCount: 0,
    ...(job.interruptible ? { interruptible: true } : {}),
    ...(job.trigger ? { bridge: true } : {}),
    ...NOT_RUN,
  }));
  const deployments = await linkEnvironments(records);
  await insertPipeline(pipeline, records);
  await storeDeployments(deployments);
  // A file that does not parse fails the pipeline at once (GitLab's `drop!`: a change of status).
  if (yamlErrors) {
    await pipelineStatusChanged(pipeline, []);
    return { result: 'created', pipeline };
  }
  await jobsCreated(records, pipeline);
  const processed = (await processPipeline(pipeline.id)) ?? pipeline;
  // Older pipelines of the ref made redundant by this one are canceled (`auto-cancel.ts`); never the creation's failure. A child pipeline cancels none (GitLab's).
  if (!pipeline.parent) {
    try {
      await cancelRedundantPipelines(request.project, pipeline);
    } catch (error) {
      logger.error('redundant pipelines not canceled', { pipelineId: pipeline.id, projectId: pipeline.projectId, ref: pipeline.ref, error });
    }
  }
  return { result: 'created', pipeline: processed };
}

/**
 * Creates a pipeline on a branch or tag (`POST /projects/:id/pipeline`, a trigger), answering it,
 * or GitLab's 400 with the reason under `base` (`render_validation_error!`): the ref does not
 * exist or is protected from the user (GitLab's `Chain::Validate::Abilities`: a branch they may
 * neither push nor merge to, a tag they may not create), the commit has no `.gitlab-ci.yml`, or
 * the rules left no job. The caller has authorized the user on the project.
 */
export async function createPipelineOnRef(request: Omit<PipelineRequest, 'project' | 'sha' | 'tag' | 'beforeSha'> & { subject: ProjectSubject }): Promise<Pipeline> {
  const { subject, ...rest } = request;
  const target = await resolveRef(subject.project, request.ref);
  const protections: RefProtections = new Map();
  if (target && !(await refOpenTo(request.user, subject, { ref: request.ref, tag: target.tag }, protections))) {
    throw new ValidationError({ base: [`You do not have sufficient permission to run a pipeline on '${request.ref}'. Please select a different branch or contact your administrator for assistance.`] });
  }
  const result = target ? await createPipeline({ ...rest, project: subject.project, tag: target.tag, sha: target.sha, beforeSha: '', protections }) : ({ result: 'commit_not_found' } as const);
  if (result.result === 'created') return result.pipeline;
  throw new ValidationError({ base: [REFUSALS[result.result]] });
}

/** Why no pipeline was created, as GitLab's 400 says it under `base`. */
export const REFUSALS = {
  no_config: 'Missing CI config file',
  no_jobs: 'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
  commit_not_found: 'Reference not found',
} as const;

/**
 * Moves waiting jobs on and recomputes the pipeline's status, until the pipeline write wins over
 * concurrent processors (version-conditioned). Answers the pipeline as written; calls the
 * pipeline-finished listeners when this call completed it.
 */
export async function processPipeline(pipelineId: number): Promise<Pipeline | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const read = await readPipeline(pipelineId);
    if (!read) return undefined;
    const { pipeline } = read;
    let { jobs } = read;
    const now = new Date().toISOString();
    const changes = nextStatuses(jobs.map((job) => ({ ...job, needs: job.spec.needs?.map((need) => need.name) })));
    let queued = false;
    let dropped = false;
    // The instance and group runner queues its jobs enter as they become pending (C18): read once, when one does.
    const queues = [...changes.values()].includes('pending') ? await runnerQueuesOf(pipeline.projectId) : undefined;
    for (const [jobId, status] of changes) {
      const job = jobs.find((j) => j.id === jobId)!;
      // GitLab's `ProcessBuildService#enqueue`: a deployment job older than its environment's last
      // successful deployment is dropped instead of queued.
      const outdated = status === 'pending' && (await isOutdatedDeploymentJob(job));
      const updated = await updateJob(
        job,
        outdated
          ? { status: 'failed', failureReason: 'failed_outdated_deployment_job', finishedAt: now }
          : { status, ...(status === 'pending' ? { queuedAt: now } : {}), ...(status === 'skipped' ? { finishedAt: now } : {}) },
        ['created'],
        queues,
      );
      if (updated) {
        jobs = jobs.map((j) => (j.id === jobId ? updated : j));
        queued ||= updated.status === 'pending';
        dropped ||= outdated;
        await jobChanged(updated, pipeline);
      }
    }
    if (queued) await bumpQueueVersion(pipeline.projectId, randomBytes(8).toString('hex'), queues);
    // A pending trigger job starts its downstream pipeline instead of waiting for a runner (`downstream.ts`, loaded then); its parent is processed again.
    const triggered = jobs.filter((job) => job.bridge && !job.retried && job.status === 'pending');
    if (triggered.length > 0) {
      const { triggerDownstream } = await import('./downstream');
      for (const bridge of triggered) await triggerDownstream(bridge, pipeline, DOWNSTREAM_OPERATIONS);
      continue;
    }
    // A dropped job moves the jobs after it on: processed again.
    if (dropped) continue;
    if (pipeline.yamlErrors) return pipeline;
    const current = jobs.filter((job) => !job.retried);
    const status = compositeStatus(current) ?? 'skipped';
    const started = pipeline.startedAt ?? (current.some((job) => job.startedAt) ? now : null);
    const finishedAt = COMPLETED.has(status) ? (COMPLETED.has(pipeline.status) ? pipeline.finishedAt ?? now : now) : null;
    if (status === pipeline.status && started === pipeline.startedAt && finishedAt === pipeline.finishedAt) return pipeline;
    const next = { status, startedAt: started, finishedAt, updatedAt: now };
    if (await updatePipeline(pipeline, next)) {
      const written = { ...pipeline, ...next, version: pipeline.version + 1 };
      // A child pipeline moves no ref's latest pipeline and finishes nothing of its ref's (GitLab's `ci_ref` and merge requests see its parent); its trigger job may follow it.
      if (status !== pipeline.status) await Promise.all([pipelineStatusChanged(written, jobs), written.parent ? undefined : refFollowsPipeline(written, pipeline.status)]);
      if ((written.parent ?? written.upstream) && status !== pipeline.status) await (await import('./downstream')).bridgeFollowsChild(written, DOWNSTREAM_OPERATIONS);
      if (!written.parent && COMPLETED.has(status) && !COMPLETED.has(pipeline.status)) await notifyPipelineFinished(written);
      return written;
    }
  }
  return undefined;
}

/**
 * The runner queues beyond its project's that a job of the project enters as it becomes pending
 * (C18): the instance runners' while the project has shared runners enabled (GitLab's default),
 * its groups' (from the top-level group down) when it is in a group and has group runners enabled
 * (the default). Two GetItems.
 */
export async function runnerQueuesOf(projectId: number): Promise<RunnerQueues> {
  const project = await getProject(projectId);
  const namespace = project ? await getNamespace(project.namespaceId) : undefined;
  return {
    shared: project?.sharedRunnersEnabled !== false,
    // A project with `group_runners_enabled` off enters no group's queue (GitLab's `group_runners_enabled?`).
    groupChain: namespace?.kind === 'group' && project?.groupRunnersEnabled !== false ? [...namespace.ancestorIds].reverse().concat(namespace.id) : null,
  };
}

/**
 * A job's status changed (as written): the project's hooks are told, and its deployment follows
 * (`deployments.ts`). Every status change calls it once its write won.
 */
export async function jobChanged(job: Job, pipeline?: Pipeline): Promise<void> {
  // A generic commit status or a trigger job sends no Job Hook (GitLab's hooks are `Ci::Build`'s) and deploys nothing.
  if (job.generic || job.bridge) return;
  const [, moved] = await Promise.all([jobStatusChanged(job, pipeline), deploymentFollowsJob(job)]);
  if (moved) await dropOlderDeployments(moved);
}

/**
 * A deployment started running (a job's, or one reported through the API): when its project
 * prevents outdated deployment jobs, the jobs of its environment's older deployments still created,
 * pending or running are dropped ({@link dropJob}, `forward_deployment_failure`: GitLab's
 * `OlderDeploymentsDropService`): ended as a runner's failure report ends a job. Never throws.
 */
export async function dropOlderDeployments(deployment: Deployment): Promise<void> {
  try {
    for (const older of await olderActiveDeployments(deployment)) {
      const job = await getJob(older.jobId!);
      if (!job || job.retried || !['created', 'pending', 'running'].includes(job.status)) continue;
      await dropJob(job, 'forward_deployment_failure');
    }
  } catch (error) {
    logger.error('older deployments not dropped', { deploymentId: deployment.id, error });
  }
}

/**
 * Changes a job's status if it is still one of `from` (the store's conditional update) and, when
 * the write won and the status changed, tells the project's hooks and moves its deployment. What
 * every job status change outside pipeline processing goes through (a runner's verdict, play, cancel).
 *
 * @example
 * const updated = await changeJobStatus(job, { status: 'success', finishedAt: now }, ['running']);
 */
export async function changeJobStatus(job: Job, changes: JobChanges & { status: JobStatus }, from?: readonly JobStatus[], queues?: RunnerQueues): Promise<Job | undefined> {
  const updated = await updateJob(job, changes, from, queues);
  if (updated && changes.status !== job.status) await jobChanged(updated);
  return updated;
}

/**
 * Plays a manual job (`POST /projects/:id/jobs/:job_id/play`, GitLab's `Ci::PlayBuildService`):
 * it becomes pending (runners polling with `last_update` learn of it: the queue version changes),
 * and the pipeline is processed. Answers the job as written, or undefined when it was no longer
 * manual.
 */
export async function playJob(job: Job): Promise<Job | undefined> {
  const queues = await runnerQueuesOf(job.projectId);
  const played = await changeJobStatus(job, { status: 'pending', queuedAt: new Date().toISOString(), finishedAt: null }, ['manual'], queues);
  if (played) {
    await bumpQueueVersion(job.projectId, randomBytes(8).toString('hex'), queues);
    await processPipeline(job.pipelineId);
  }
  return played;
}

/** How a cancel is made: from which statuses (default: every cancelable one), on behalf of which pipeline (auto-cancel). */
export interface CancelOptions {
  /** The statuses the job may be canceled from (the write is conditioned on them). */
  from?: readonly JobStatus[];
  /** The pipeline that auto-canceled it (GitLab's `auto_canceled_by_id`). */
  autoCanceledById?: number;
}

/**
 * Cancels a job if it may be (GitLab's `cancel`), ended by {@link endJob}: its token ends (a
 * runner holding it learns on its next call), a running job's trace is archived. The caller
 * processes the pipeline. A job whose status is no longer one of `from` when written is left as it is.
 */
export async function cancelJobRecord(job: Job, options: CancelOptions = {}): Promise<Job> {
  const from = options.from ?? [...CANCELABLE];
  if (!from.includes(job.status)) return job;
  return (await endJob(job, { status: 'canceled', autoCanceledById: options.autoCanceledById }, from, { process: false })) ?? job;
}

/** How a job ends (GitLab's transitions to `success`, `failed` and `canceled`). */
export type JobVerdict =
  | { status: 'success'; exitCode?: number | null }
  | { status: 'failed'; failureReason: string; exitCode?: number | null; allowFailure?: boolean }
  | { status: 'canceled'; autoCanceledById?: number };

/**
 * Failure reasons GitLab never retries whatever the job's `retry:` says (`Gitlab::Ci::Build::AutoRetry`'s
 * overrides to zero attempts).
 */
const NEVER_RETRIED = new Set(['forward_deployment_failure', 'missing_dependency_failure', 'environment_creation_failure', 'no_matching_runner', 'ci_quota_exceeded']);

/** Whether a failed job gets another attempt under its `retry:` (its `when` names the failure, or `always`), attempts left. */
export function retryable(job: Job): boolean {
  const { max, when } = job.spec.retry ?? { max: 0, when: [] };
  if (job.retryCount >= max || NEVER_RETRIED.has(job.failureReason ?? '')) return false;
  return when.includes('always') || when.includes(job.failureReason ?? '') || (when.includes('script_failure') && job.failureReason === 'script_failure');
}

/**
 * Ends a job while its status is one of `from` (GitLab's `Ci::BuildFinishedWorker` and what it
 * starts): the change written, then, as written, its token revoked (a job read pending may have
 * been claimed before the change won), the trace of a job read running archived into one object,
 * a failure retried under `retry:` (or, for good, `on_job_failure` applied), and the pipeline
 * processed unless `process` is false (a caller ending several jobs processes once). What a runner's
 * report, a cancel, a drop by the scheduler and a drop of an outdated deployment all go through.
 * Undefined when the job had moved on.
 *
 * @example
 * const ended = await endJob(job, { status: 'success', exitCode: 0 }, ['running']);
 */
export async function endJob(job: Job, verdict: JobVerdict, from: readonly JobStatus[], options: { finishedAt?: string; process?: boolean } = {}): Promise<Job | undefined> {
  const archive = job.status === 'running' && !job.generic && !job.bridge;
  const changes: JobChanges & { status: JobStatus } = {
    status: verdict.status,
    finishedAt: options.finishedAt ?? new Date().toISOString(),
    ...(archive ? { traceArchived: true } : {}),
    ...(verdict.status === 'canceled'
      ? verdict.autoCanceledById === undefined ? {} : { autoCanceledById: verdict.autoCanceledById }
      : { failureReason: verdict.status === 'failed' ? verdict.failureReason : null, exitCode: verdict.exitCode ?? null }),
    ...(verdict.status === 'failed' && verdict.allowFailure !== undefined && verdict.allowFailure !== job.allowFailure ? { allowFailure: verdict.allowFailure } : {}),
  };
  const updated = await changeJobStatus(job, changes, from);
  if (!updated) return undefined;
  if (updated.tokenDigest) await revokeJobToken(updated.tokenDigest);
  if (archive) await archiveTrace(job.id, await readTraceChunks(job.id, updated.traceLength));
  if (updated.status === 'failed' && retryable(updated)) await cloneForRetry(updated, null);
  else await cancelOnJobFailure(updated);
  if (options.process !== false) await processPipeline(job.pipelineId);
  return updated;
}

/**
 * Drops a job that has not finished (failed with `failureReason`), ended as {@link endJob} ends
 * it: the scheduler's stuck and timed-out jobs, an outdated deployment's. `from` defaults to
 * every unfinished status a job is dropped from.
 *
 * @example
 * await dropJob(job, 'forward_deployment_failure');
 */
export function dropJob(job: Job, failureReason: string, options: { from?: readonly JobStatus[]; finishedAt?: string } = {}): Promise<Job | undefined> {
  return endJob(job, { status: 'failed', failureReason }, options.from ?? ['created', 'pending', 'running'], { finishedAt: options.finishedAt });
}

/** A job to cancel and how (a pipeline cancel's choice). */
export type JobCancel = readonly [Job, CancelOptions];

/**
 * Cancels the jobs of a pipeline that `pick` chooses (by default every cancelable job that was not
 * retried), from a consistent read of it, then processes it. With `autoCanceledById`, when there
 * is a job to cancel, the pipeline and its jobs are first marked canceled by that pipeline, as
 * GitLab's `CancelPipelineService` does (a version-conditioned write, read again on a race).
 */
export async function cancelPipeline(pipelineId: number, options: { autoCanceledById?: number; pick?: (pipeline: Pipeline, jobs: readonly Job[]) => readonly JobCancel[] } = {}): Promise<Pipeline | undefined> {
  let read = await readPipeline(pipelineId);
  if (!read) return undefined;
  const { autoCanceledById, pick = (_pipeline, jobs) => jobs.filter((job) => !job.retried && CANCELABLE.has(job.status)).map((job) => [job, {}] as const) } = options;
  const picked = pick(read.pipeline, read.jobs);
  if (autoCanceledById !== undefined && picked.length > 0) {
    for (let attempt = 0; read && attempt < 5 && !(await updatePipeline(read.pipeline, { autoCanceledById })); attempt++) read = await readPipeline(pipelineId);
  }
  for (const [job, chosen] of picked) await cancelJobRecord(job, { ...chosen, autoCanceledById });
  // Its child pipelines are canceled with it, whatever their trigger jobs' status (GitLab's `cascade_to_children`; `downstream.ts`).
  const bridges = read?.jobs.filter((job) => job.bridge && job.spec.trigger?.include && !job.retried && job.downstreamPipelineId !== undefined) ?? [];
  if (bridges.length > 0) await (await import('./downstream')).cancelDownstream(bridges, DOWNSTREAM_OPERATIONS);
  return (await processPipeline(pipelineId)) ?? (await readPipeline(pipelineId))?.pipeline;
}

/**
 * Cancels the older pipelines of a new pipeline's ref that it makes redundant (GitLab's
 * `CancelRedundantPipelinesService`, `auto-cancel.ts` decides which and how), oldest first, each
 * by {@link cancelPipeline} marked canceled by the new one. Answers the ids of those it canceled jobs of.
 */
export async function cancelRedundantPipelines(project: Project, pipeline: Pipeline): Promise<number[]> {
  const canceled: number[] = [];
  for (const older of await redundantPipelines(project, pipeline)) {
    let any = false;
    await cancelPipeline(older.id, {
      autoCanceledById: pipeline.id,
      pick: (current, jobs) => {
        const chosen = PIPELINE_CANCELABLE.has(current.status) ? jobsToAutoCancel(current.autoCancel?.onNewCommit ?? 'conservative', jobs) : [];
        any = chosen.length > 0;
        return chosen;
      },
    });
    if (any) canceled.push(older.id);
  }
  return canceled;
}

/**
 * A job failed for good (not allowed to fail, and `retry:` made no new attempt): with
 * `workflow:auto_cancel:on_job_failure: all` its pipeline's other cancelable jobs are canceled,
 * the pipeline marked canceled by itself (GitLab's `cancel_async_on_job_failure`).
 */
export async function cancelOnJobFailure(job: Job): Promise<void> {
  if (job.status !== 'failed' || job.allowFailure) return;
  const pipeline = await getPipeline(job.pipelineId);
  if (pipeline?.autoCancel?.onJobFailure !== 'all') return;
  await cancelPipeline(pipeline.id, { autoCanceledById: pipeline.id });
}

/** A fresh copy of a job (GitLab's `Ci::RetryJobService` clone): `created`, the old one marked retried. */
export async function cloneForRetry(job: Job, user: User | null, options: { enqueueImmediately?: boolean } = {}): Promise<Job> {
  const now = new Date().toISOString();
  const { autoCanceledById: _canceledBy, enqueueImmediately: _before, downstreamPipelineId: _downstream, ...kept } = job;
  const copy: Job = {
    ...kept,
    ...(options.enqueueImmediately === false ? {} : { enqueueImmediately: true }),
    id: await newJobId(),
    userId: user?.id ?? job.userId,
    createdAt: now,
    retryCount: job.retryCount + 1,
    ...NOT_RUN,
  };
  const deployment = await redeploy(copy);
  await insertJobs([copy]);
  if (deployment) await storeDeployments([deployment]);
  await updateJob(job, { retried: true });
  await jobStatusChanged(copy);
  return copy;
}

/**
 * Retries a job: a new job, processed at once (pending when what it waits for is done, or a
 * manual action stays manual). Answers the new job as it is then.
 */
export async function retryJobRecord(job: Job, user: User | null): Promise<Job> {
  const copy = await cloneForRetry(job, user);
  // A retried job runs even if it was manual (GitLab plays it): it waits only for its stage.
  await processPipeline(job.pipelineId);
  const read = await readPipeline(job.pipelineId);
  return read?.jobs.find((j) => j.id === copy.id) ?? copy;
}

/** Retries every failed or canceled job of a pipeline (`POST .../retry`). */
export async function retryPipeline(pipelineId: number, user: User | null): Promise<Pipeline | undefined> {
  const read = await readPipeline(pipelineId);
  if (!read) return undefined;
  for (const job of read.jobs) {
    // As GitLab's `RetryPipelineService`: a manual job retried with its pipeline waits to be played again.
    if (!job.retried && !job.generic && (job.status === 'failed' || job.status === 'canceled')) await cloneForRetry(job, user, { enqueueImmediately: false });
  }
  // Jobs skipped because of the failure wait again.
  for (const job of read.jobs) {
    if (job.retried || job.generic || job.status !== 'skipped') continue;
    const waiting = await updateJob(job, { status: 'created', finishedAt: null }, ['skipped']);
    if (waiting) await deploymentFollowsJob(waiting);
  }
  const after = await readPipeline(pipelineId);
  if (after && COMPLETED.has(after.pipeline.status)) {
    const waiting = { status: 'created', finishedAt: null, updatedAt: new Date().toISOString() } as const;
    if (await updatePipeline(after.pipeline, waiting)) await refFollowsPipeline({ ...after.pipeline, ...waiting }, after.pipeline.status);
  }
  return (await processPipeline(pipelineId)) ?? (await readPipeline(pipelineId))?.pipeline;
}

/**
 * Names a pipeline (`PUT /projects/:id/pipelines/:pipeline_id/metadata`, GitLab's
 * `UpdateMetadataService`): a version-conditioned write, read again on a race. The name is given
 * stripped and checked by the caller. Undefined when the pipeline is gone.
 */
export async function renamePipeline(pipelineId: number, name: string): Promise<Pipeline | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const pipeline = await getPipeline(pipelineId);
    if (!pipeline) return undefined;
    const changes = { name, updatedAt: new Date().toISOString() };
    if (await updatePipeline(pipeline, changes)) return { ...pipeline, ...changes, version: pipeline.version + 1 };
  }
  throw new Error(`pipeline ${pipelineId} not renamed: too many concurrent writes`);
}

/**
 * Deletes a pipeline, its jobs, their traces and artifacts, and its child pipelines (those of every
 * trigger job, retried ones too: a child is in no list of its project, so nothing else would find
 * it, a project's deletion included).
 */
export async function deletePipeline(pipelineId: number): Promise<void> {
  const read = await readPipeline(pipelineId);
  if (!read) return;
  for (const job of read.jobs) if (job.bridge && job.spec.trigger?.include && job.downstreamPipelineId !== undefined) await deletePipeline(job.downstreamPipelineId);
  await Promise.all(read.jobs.map((job) => deleteJobObjects(job.id)));
  await deletePipelineItems(pipelineId, read.jobs);
  await refForgetsPipeline(read.pipeline);
}

/** What `downstream.ts` (loaded lazily, with the first trigger job) creates, ends and cancels pipelines and jobs with. */
export type PipelineOperations = typeof DOWNSTREAM_OPERATIONS;

const DOWNSTREAM_OPERATIONS = {
  createPipeline,
  createPipelineOnRef,
  changeJobStatus,
  endJob,
  cancelPipeline: (pipelineId: number) => cancelPipeline(pipelineId),
};
