/**
 * Pipeline Hook, Job Hook and Deployment Hook payloads, in GitLab's forms
 * (`Gitlab::DataBuilder::Pipeline`, `Gitlab::DataBuilder::Build`, `Gitlab::DataBuilder::Deployment`;
 * doc/user/project/integrations/webhook_events.md). Pure functions of the event's snapshot and
 * what delivery loaded (project, users, runners).
 *
 * Fields of GitLab features this service lacks carry their empty values: `name` (no
 * `workflow:name`) is `null`, `source_pipeline` (no multi-project pipelines) is left out. A merge
 * request pipeline's `merge_request` is its merge request as the pipeline keeps it (state and
 * merge statuses as they were when the pipeline was created: CI does not read merge requests),
 * `null` on other pipelines; its `object_attributes.ref` is, as GitLab's `source_ref`, the merge
 * request's source branch (the pipeline's own ref is `refs/merge-requests/<iid>/head`). As in GitLab's Job Hook, `commit.id` is the
 * pipeline's id. Times are the hooks' (`2013-12-03 17:15:43 UTC`, see `hookTime`), but a
 * Deployment Hook's `status_changed_at`, which GitLab writes as Ruby's `Time#to_s`
 * (`2021-04-28 21:50:00 +0000`, its doc's example; UTC here).
 */
import { gitRepositoryHookAttrs, hookTime, projectHookAttrs, userHookAttrs, type HookDeliveryContext } from '../../hooks';
import { config } from '../../platform/config';
import type { PipelineVariable } from '../pipeline-variables';
import type { Runner } from '../store/runners';
import type { DeploymentHookEvent, HookJob, HookPipeline, JobHookEvent, PipelineHookEvent } from './events';

/** What the payloads show besides the event: the runners its jobs ran on, read at delivery. */
export interface CiHookContext extends HookDeliveryContext {
  runners: Map<number, Runner>;
  /** The pipeline's variables, opened (a Pipeline Hook's `variables`). */
  pipelineVariables?: PipelineVariable[];
}

/** GitLab's detailed status labels (`detailed_status` of a pipeline payload). */
const LABELS: Record<string, string> = {
  created: 'created', pending: 'pending', running: 'running', success: 'passed', failed: 'failed', canceled: 'canceled', skipped: 'skipped', manual: 'manual action',
};

/** Internal: seconds between two times (`to` defaults to now while it runs), `null` without a start. */
/** A finished pipeline's whole seconds from start to finish (GitLab's `duration`), else null. */
const pipelineDuration = (pipeline: HookPipeline): number | null =>
  pipeline.startedAt && pipeline.finishedAt ? Math.round((Date.parse(pipeline.finishedAt) - Date.parse(pipeline.startedAt)) / 1000) : null;

function seconds(from: string | null, to: string | null, runningUntilNow = false): number | null {
  if (!from) return null;
  const end = to ?? (runningUntilNow ? new Date().toISOString() : null);
  return end ? (Date.parse(end) - Date.parse(from)) / 1000 : null;
}

const pipelineUrl = (projectWebUrl: string, pipeline: HookPipeline) => `${projectWebUrl}/-/pipelines/${pipeline.id}`;

/** Internal: `merge_request_attrs` of a merge request pipeline (its project is the merge request's target project), else null. */
function mergeRequestAttrs(projectWebUrl: string, pipeline: HookPipeline) {
  const mr = pipeline.mergeRequest;
  if (!mr) return null;
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    source_branch: mr.sourceBranch,
    source_project_id: mr.sourceProjectId,
    target_branch: mr.targetBranch,
    target_project_id: mr.projectId,
    state: mr.state ?? 'opened',
    merge_status: mr.mergeStatus ?? 'unchecked',
    detailed_merge_status: mr.detailedMergeStatus ?? 'unchecked',
    // The merge request's `web_url` as the merge requests API shows it.
    url: `${projectWebUrl}/merge_requests/${mr.iid}`,
  };
}

/** Internal: `runner_hook_attrs`. */
function runnerAttrs(ctx: CiHookContext, runnerId: number | null) {
  const runner = runnerId === null ? undefined : ctx.runners.get(runnerId);
  if (!runner) return null;
  const type = runner.runnerType ?? 'project_type';
  return { id: runner.id, description: runner.description, runner_type: type, active: runner.active, is_shared: type === 'instance_type', tags: runner.tags };
}

const environmentAttrs = (job: HookJob) => (job.environment ? { name: job.environment, action: job.environmentAction ?? 'start', deployment_tier: job.environmentTier ?? null } : null);

/** Internal: `Commit#hook_attrs` of the pipeline's commit. */
function commitAttrs(projectWebUrl: string, pipeline: HookPipeline) {
  const commit = pipeline.commit;
  if (!commit) return null;
  return {
    id: commit.id,
    message: commit.message,
    title: commit.message.split(/\r?\n/, 1)[0],
    timestamp: commit.committedDate,
    url: `${projectWebUrl}/-/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
  };
}

/** Internal: one entry of a pipeline payload's `builds`. */
function buildAttrs(ctx: CiHookContext, job: HookJob) {
  const user = job.userId === null ? undefined : ctx.users.get(job.userId);
  return {
    id: job.id,
    stage: job.stage,
    name: job.name,
    status: job.status,
    created_at: hookTime(job.createdAt),
    started_at: hookTime(job.startedAt),
    finished_at: hookTime(job.finishedAt),
    duration: seconds(job.startedAt, job.finishedAt, job.status === 'running'),
    queued_duration: seconds(job.queuedAt, job.startedAt, job.status === 'pending'),
    failure_reason: job.status === 'failed' ? job.failureReason : null,
    when: job.when,
    manual: job.when === 'manual',
    allow_failure: job.allowFailure,
    user: user ? userHookAttrs(user) : null,
    runner: runnerAttrs(ctx, job.runnerId),
    artifacts_file: { filename: job.artifacts?.filename ?? null, size: job.artifacts?.size ?? null },
    environment: environmentAttrs(job),
  };
}

/** The Pipeline Hook payload of a pipeline's status change. */
export function pipelineHookPayload(ctx: CiHookContext, event: PipelineHookEvent): Record<string, unknown> {
  const { pipeline } = event;
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  const jobs = [...event.jobs].sort((a, b) => b.id - a.id);
  const stages = [...new Map([...event.jobs].sort((a, b) => a.stageIdx - b.stageIdx || a.id - b.id).map((job) => [job.stage, job.stageIdx])).keys()];
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      iid: pipeline.iid,
      name: null,
      ref: pipeline.mergeRequest?.sourceBranch ?? pipeline.ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      before_sha: pipeline.beforeSha,
      source: pipeline.source,
      status: pipeline.status,
      detailed_status: LABELS[pipeline.status] ?? pipeline.status,
      stages,
      created_at: hookTime(pipeline.createdAt),
      finished_at: hookTime(pipeline.finishedAt),
      duration: pipelineDuration(pipeline),
      queued_duration: pipeline.startedAt ? Math.round((Date.parse(pipeline.startedAt) - Date.parse(pipeline.createdAt)) / 1000) : null,
      variables: (ctx.pipelineVariables ?? []).map((variable) => ({ key: variable.key, value: variable.value })),
      url: pipelineUrl(project.web_url, pipeline),
    },
    merge_request: mergeRequestAttrs(project.web_url, pipeline),
    user: userHookAttrs(ctx.actor),
    project,
    commit: commitAttrs(project.web_url, pipeline),
    builds: jobs.map((job) => buildAttrs(ctx, job)),
  };
}

/** The Job Hook payload of a job's status change. */
export function jobHookPayload(ctx: CiHookContext, event: JobHookEvent): Record<string, unknown> {
  const { job, pipeline } = event;
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  const commit = pipeline.commit;
  return {
    object_kind: 'build',
    ref: job.ref,
    tag: job.tag,
    before_sha: job.beforeSha,
    sha: job.sha,
    build_id: job.id,
    build_name: job.name,
    build_stage: job.stage,
    build_status: job.status,
    build_created_at: hookTime(job.createdAt),
    build_started_at: hookTime(job.startedAt),
    build_finished_at: hookTime(job.finishedAt),
    build_duration: seconds(job.startedAt, job.finishedAt, job.status === 'running'),
    build_queued_duration: seconds(job.queuedAt, job.startedAt, job.status === 'pending'),
    build_allow_failure: job.allowFailure,
    build_failure_reason: job.failureReason,
    retries_count: job.retryCount,
    pipeline_id: pipeline.id,
    runner: runnerAttrs(ctx, job.runnerId),
    project_id: ctx.project.id,
    project_name: `${ctx.namespace.name} / ${ctx.project.name}`,
    user: userHookAttrs(ctx.actor),
    commit: {
      id: pipeline.id,
      name: null,
      sha: pipeline.sha,
      message: commit?.message ?? '',
      author_name: commit?.authorName ?? '',
      author_email: commit?.authorEmail ?? '',
      author_url: `mailto:${commit?.authorEmail ?? ''}`,
      status: pipeline.status,
      duration: pipelineDuration(pipeline),
      started_at: hookTime(pipeline.startedAt),
      finished_at: hookTime(pipeline.finishedAt),
    },
    repository: gitRepositoryHookAttrs(project),
    project,
    environment: job.environment ? { name: job.environment, action: job.environmentAction ?? 'start' } : null,
  };
}

/** Internal: a time as Ruby's `Time#to_s` writes it in UTC (`2021-04-28 21:50:00 +0000`). */
const rubyTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} +0000`;

/**
 * The Deployment Hook payload of a deployment's status change. `deployable_id` and
 * `deployable_url` are its job's, null for a deployment reported through the API; `user` is who
 * deployed (the event's actor); `commit_url` and `commit_title` are null when the repository has
 * no such commit.
 */
export function deploymentHookPayload(ctx: HookDeliveryContext, event: DeploymentHookEvent): Record<string, unknown> {
  const { deployment, environment } = event;
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  return {
    object_kind: 'deployment',
    status: event.action,
    status_changed_at: rubyTime(event.statusChangedAt),
    deployment_id: deployment.id,
    deployable_id: deployment.jobId,
    deployable_url: deployment.jobId === null ? null : `${project.web_url}/-/jobs/${deployment.jobId}`,
    environment: environment.name,
    environment_tier: environment.tier,
    environment_slug: environment.slug,
    environment_external_url: environment.externalUrl,
    project,
    short_sha: deployment.sha.slice(0, 8),
    user: userHookAttrs(ctx.actor),
    // The user's profile, as the users API's `web_url`.
    user_url: `${config().externalUrl}/${ctx.actor.username}`,
    commit_url: event.commit ? `${project.web_url}/-/commit/${deployment.sha}` : null,
    commit_title: event.commit?.title ?? null,
    ref: deployment.ref,
  };
}
