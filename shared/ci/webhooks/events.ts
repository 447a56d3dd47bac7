/**
 * The CI feature's kinds of webhook events, declared to the hooks feature's outbox: `pipeline`
 * (GitLab's Pipeline Hook: every change of a pipeline's status), `job` (Job Hook: a job created,
 * pending, running, and finished as success, failed or canceled — GitLab's `Ci::Build` hooks;
 * `skipped` and `manual` jobs send none) and `deployment` (Deployment Hook: a deployment starting
 * to run, and succeeding, failing or being canceled — GitLab's `Deployment` transitions to
 * `running` and to its finished statuses; `created`, `blocked` and `skipped` send none).
 * Importing this module registers how they are stored, so every process writing or reading them
 * loads it (the writes through `emit.ts`, delivery through `builders.ts`, both through the
 * feature's `index.ts`).
 *
 * An event holds the pipeline and jobs (or the deployment and its environment) as they were at
 * the change (a hook tells what happened), reduced to what the payloads show: not the jobs'
 * scripts, not their tokens.
 */
import { HOOK_EVENT_MAX_BYTES, registerHookEventForms, type HookEvent, type HookEventForm, type HookEventOf } from '../../hooks';
import type { Deployment, DeploymentStatus, Environment } from '../store/environments';
import type { Job, Pipeline } from '../store/pipelines';
import type { JobStatus, PipelineStatus } from '../status';

/** A job as its hook events keep it: what the payload shows, without its spec, token or trace state. */
export type HookJob = Pick<
  Job,
  'id' | 'pipelineId' | 'name' | 'stage' | 'stageIdx' | 'status' | 'when' | 'allowFailure' | 'ref' | 'tag' | 'sha' | 'beforeSha' | 'userId' | 'runnerId' | 'createdAt' | 'queuedAt' | 'startedAt' | 'finishedAt' | 'failureReason' | 'retryCount'
> & {
  artifacts: { filename: string; size: number } | null;
  environment: string | null;
  /** `environment:`'s `action` and `deployment_tier` (absent on events stored before them). */
  environmentAction?: string;
  environmentTier?: string | null;
};

/** A pipeline as its hook events keep it (no optimistic-locking version). */
export type HookPipeline = Omit<Pipeline, 'version'>;

/** A deployment as its hook events keep it: what the payload shows of it (its user is the event's actor). */
export type HookDeployment = Pick<Deployment, 'id' | 'jobId' | 'ref' | 'sha'>;

/** Its environment as it was once the deployment changed (a success has updated it). */
export type HookEnvironment = Pick<Environment, 'name' | 'slug' | 'tier' | 'externalUrl'>;

declare module '../../hooks' {
  interface HookEventKinds {
    /** `jobs`: the pipeline's current jobs (retried ones left out, as GitLab's `latest_builds`). */
    pipeline: { action: PipelineStatus; pipeline: HookPipeline; jobs: HookJob[] };
    /** `pipeline`: the job's pipeline as it was when the job changed (`commit` of the payload). */
    job: { action: JobStatus; job: HookJob; pipeline: HookPipeline };
    /**
     * `action`: the status it moved to; `statusChangedAt`: when (the write's time); `commit`: its
     * commit's title (`Commit#title`), null when the repository has no such commit.
     */
    deployment: { action: DeploymentStatus; deployment: HookDeployment; environment: HookEnvironment; statusChangedAt: string; commit: { title: string } | null };
  }
}

export type PipelineHookEvent = HookEventOf<'pipeline'>;
export type JobHookEvent = HookEventOf<'job'>;
export type DeploymentHookEvent = HookEventOf<'deployment'>;

/** The deployment statuses GitLab sends a Deployment Hook for (`after_transition any => :running`, `=> FINISHED_STATUSES`). */
export const HOOKED_DEPLOYMENT_STATUSES: ReadonlySet<DeploymentStatus> = new Set(['running', 'success', 'failed', 'canceled']);

/** The job statuses GitLab sends a Job Hook for (on creation, and on entering each of the others). */
export const HOOKED_JOB_STATUSES: ReadonlySet<JobStatus> = new Set(['created', 'pending', 'running', 'success', 'failed', 'canceled']);

/** A job reduced to what its hook payloads show. */
export function hookJobOf(job: Job): HookJob {
  return {
    id: job.id,
    pipelineId: job.pipelineId,
    name: job.name,
    stage: job.stage,
    stageIdx: job.stageIdx,
    status: job.status,
    when: job.when,
    allowFailure: job.allowFailure,
    ref: job.ref,
    tag: job.tag,
    sha: job.sha,
    beforeSha: job.beforeSha,
    userId: job.userId,
    runnerId: job.runnerId,
    createdAt: job.createdAt,
    queuedAt: job.queuedAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    failureReason: job.failureReason,
    retryCount: job.retryCount,
    artifacts: job.artifacts ? { filename: job.artifacts.filename, size: job.artifacts.size } : null,
    environment: job.spec.environment ?? null,
    environmentAction: job.spec.environmentOptions?.action ?? 'start',
    environmentTier: job.spec.environmentOptions?.deploymentTier ?? null,
  };
}

/** A pipeline without its bookkeeping. */
export function hookPipelineOf(pipeline: Pipeline): HookPipeline {
  const { version: _version, ...rest } = pipeline;
  return rest;
}

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/** What a long commit message or variable value is cut to when an event would not fit its item. */
const CUT = 4_096;

/**
 * Internal: keeps an event within {@link HOOK_EVENT_MAX_BYTES}: first the commit message is cut and
 * the variables with long values are left out, then (a pipeline of very many jobs) the newest jobs
 * are left out.
 */
function bounded<E extends PipelineHookEvent | JobHookEvent>(event: E): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...event };
  if (sizeOf(stored) <= HOOK_EVENT_MAX_BYTES) return stored;
  const pipeline = event.pipeline;
  stored.pipeline = {
    ...pipeline,
    commit: pipeline.commit ? { ...pipeline.commit, message: pipeline.commit.message.slice(0, CUT) } : null,
    // A sealed value cannot be cut: one too long for the event is left out of it.
    variables: pipeline.variables.filter((variable) => (variable.valueSealed ?? variable.value ?? '').length <= 2 * CUT),
  };
  if (event.kind === 'pipeline') {
    let jobs = [...event.jobs].sort((a, b) => a.id - b.id);
    while (jobs.length > 0 && sizeOf({ ...stored, jobs }) > HOOK_EVENT_MAX_BYTES) jobs = jobs.slice(0, Math.floor(jobs.length * 0.8));
    stored.jobs = jobs;
  }
  return stored;
}

/**
 * Internal: a deployment event as stored. Its fields are short (a commit title is cut to about 80
 * characters, names and refs are bounded), but an environment's URL taken from a job's
 * `environment:url` has no bound of its own: one too long to fit is cut.
 */
function boundedDeployment(event: DeploymentHookEvent): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...event };
  if (sizeOf(stored) <= HOOK_EVENT_MAX_BYTES) return stored;
  return { ...stored, environment: { ...event.environment, externalUrl: event.environment.externalUrl?.slice(0, CUT) ?? null } };
}

export const ciHookEventForms = {
  pipeline: { toStored: bounded, fromStored: (stored: HookEvent) => stored as unknown as PipelineHookEvent },
  job: { toStored: bounded, fromStored: (stored: HookEvent) => stored as unknown as JobHookEvent },
  deployment: { toStored: boundedDeployment, fromStored: (stored: HookEvent) => stored as unknown as DeploymentHookEvent },
} satisfies { pipeline: HookEventForm<PipelineHookEvent>; job: HookEventForm<JobHookEvent>; deployment: HookEventForm<DeploymentHookEvent> };

registerHookEventForms(ciHookEventForms);
