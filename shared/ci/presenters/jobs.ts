/**
 * GitLab's `Job` entity (`Entities::Ci::Job`) as the spec lists it: with `pipeline` in lists and
 * single-job reads; without it in the answers of cancel, retry, play, erase and keep; erase and
 * keep show `download_url` instead of `artifacts_file`. `runner` is the runner that took the job
 * (GitLab's `Entities::Ci::Runner`), null before one did.
 */
import { presentUserPublic, type User } from '../../users';
import type { CommitSnapshot, Job, Pipeline } from '../store/pipelines';
import type { Runner } from '../store/runners';
import { presentPipelineBasic } from './pipelines';
import { presentRunner } from './runners';

export type JobVariant = 'full' | 'action' | 'download';

export interface JobContext {
  projectWebUrl: string;
  pipelines: Map<number, Pipeline>;
  users: Map<number, User>;
  /** The runners that took the jobs (`runner`: null when absent, e.g. deleted since). */
  runners?: Map<number, Runner>;
}

const seconds = (from: string | null, to: string | null) => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null);

export function presentCommitSnapshot(commit: CommitSnapshot | null, projectWebUrl: string) {
  if (!commit) return null;
  const title = /^\s*$/u.test(commit.message) ? 'No commit message' : commit.message.split(/[\r\n]/, 1)[0];
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: commit.committedDate,
    parent_ids: commit.parentIds,
    title,
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    trailers: {},
    extended_trailers: {},
    web_url: `${projectWebUrl}/-/commit/${commit.id}`,
  };
}

function runnerOf(job: Job, ctx: JobContext) {
  const runner = job.runnerId !== null && job.runnerId !== undefined ? ctx.runners?.get(job.runnerId) : undefined;
  return runner ? presentRunner(runner) : null;
}

export function presentJob(job: Job, ctx: JobContext, variant: JobVariant = 'full') {
  const pipeline = ctx.pipelines.get(job.pipelineId);
  const user = job.userId !== null ? ctx.users.get(job.userId) : undefined;
  const artifactsFile = job.artifacts ? { filename: job.artifacts.filename, size: job.artifacts.size } : null;
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: null,
    allow_failure: job.allowFailure,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    erased_at: job.erasedAt,
    duration: seconds(job.startedAt, job.finishedAt ?? (job.startedAt ? new Date().toISOString() : null)),
    queued_duration: seconds(job.queuedAt, job.startedAt ?? (job.queuedAt ? new Date().toISOString() : null)),
    user: user ? presentUserPublic(user) : null,
    commit: presentCommitSnapshot(pipeline?.commit ?? null, ctx.projectWebUrl),
    ...(variant === 'full' && pipeline
      ? {
          pipeline: presentPipelineBasic(pipeline, ctx.projectWebUrl),
        }
      : {}),
    failure_reason: job.failureReason ?? undefined,
    web_url: `${ctx.projectWebUrl}/-/jobs/${job.id}`,
    ...(variant === 'download' ? { download_url: null } : { artifacts_file: artifactsFile }),
    artifacts: job.artifacts ? [{ file_type: 'archive', size: job.artifacts.size, filename: job.artifacts.filename, file_format: job.artifacts.format }] : [],
    artifacts_expire_at: job.artifacts?.expireAt ?? null,
    runner: runnerOf(job, ctx),
    tag_list: job.spec.tags ?? [],
    archived: false,
  };
}

/**
 * GitLab's `Bridge` entity (a trigger job, `…/pipelines/:pipeline_id/bridges`): `JobBasic` (the
 * job's fields without its artifacts and runner; `failure_reason` only when it failed) and its
 * `downstream_pipeline` (`PipelineBasic`, null until created).
 */
export function presentBridge(job: Job, ctx: JobContext, downstream: Pipeline | undefined) {
  const full = presentJob(job, ctx);
  return {
    id: full.id,
    status: full.status,
    stage: full.stage,
    name: full.name,
    ref: full.ref,
    tag: full.tag,
    coverage: full.coverage,
    allow_failure: full.allow_failure,
    created_at: full.created_at,
    started_at: full.started_at,
    finished_at: full.finished_at,
    erased_at: full.erased_at,
    duration: full.duration,
    queued_duration: full.queued_duration,
    user: full.user,
    commit: full.commit,
    pipeline: full.pipeline,
    ...(job.status === 'failed' ? { failure_reason: job.failureReason } : {}),
    web_url: full.web_url,
    project: { ci_job_token_scope_enabled: false },
    downstream_pipeline: downstream ? presentPipelineBasic(downstream, ctx.projectWebUrl) : null,
  };
}
