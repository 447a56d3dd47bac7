/**
 * The CI scheduler's thresholds and its decisions (pure): when a job nobody will finish is ended,
 * as GitLab's cron services do it.
 *
 * - A pending job no runner picks up (`Ci::StuckBuilds::DropPendingService`): failed with
 *   `stuck_or_timeout_failure` once pending for a day, or already after an hour when no online
 *   runner of its project could take it (active, matching its tags, heard from in the last two
 *   hours: GitLab's `ONLINE_CONTACT_TIMEOUT`).
 * - A running job its runner stopped reporting on (`Ci::StuckBuilds::DropRunningService`): failed
 *   with `stuck_or_timeout_failure` after an hour without an update (a trace append or a state
 *   report: the job's `touchedAt`).
 * - A running job past its timeout (`Ci::TimedOutBuilds::DropRunningService`): failed with
 *   `job_execution_timeout` once its timeout (fixed when a runner took it: its `timeout:`, else the
 *   project's `build_timeout`, capped by the runner's `maximum_timeout`) plus 15 minutes have
 *   passed since it started; the grace lets the runner, which enforces the timeout itself, report
 *   first.
 *
 * A job waiting for any of these carries one deadline (`nextDeadline`): the earliest moment one of
 * them could apply. The scheduler looks at a job only once its deadline passed; when the job was
 * heard from meanwhile, it moves the deadline on instead (so a trace append never writes an index).
 */
import type { JobStatus } from '../status';

export interface SchedulerSettings {
  /** A pending job no online runner could take is dropped after this long. */
  pendingStuckSeconds: number;
  /** Any pending job is dropped after this long. */
  pendingOutdatedSeconds: number;
  /** A running job not heard from for this long is dropped. */
  runningSilentSeconds: number;
  /** A running job's timeout when it was taken before its timeout was kept and `.gitlab-ci.yml` sets none (GitLab's default project build timeout). */
  defaultJobTimeoutSeconds: number;
  /** How long past its timeout a running job may still report before the server drops it. */
  timeoutGraceSeconds: number;
  /** A runner counts as online when it called within this long. */
  runnerOnlineSeconds: number;
}

/** GitLab's values. */
export const SCHEDULER_SETTINGS: Readonly<SchedulerSettings> = {
  pendingStuckSeconds: 3600,
  pendingOutdatedSeconds: 86_400,
  runningSilentSeconds: 3600,
  defaultJobTimeoutSeconds: 3600,
  timeoutGraceSeconds: 900,
  runnerOnlineSeconds: 7200,
};

/** What the decisions read of a job. */
export interface DeadlineJob {
  status: JobStatus;
  createdAt: string;
  queuedAt: string | null;
  startedAt: string | null;
  /** Last time the job was written (a trace append, a state report); absent on older items. */
  touchedAt?: string | null;
  /** The timeout fixed when a runner took it (absent on jobs taken before it was kept: the `timeout:`, else the default). */
  timeout?: number;
  spec: { timeout?: number };
}

export type DeadlineDecision =
  /** End the job as failed with this reason. */
  | { action: 'drop'; reason: 'stuck_or_timeout_failure' | 'job_execution_timeout' }
  /** Nothing to do yet: look again at `until`. */
  | { action: 'wait'; until: string }
  /** The job is neither pending nor running: it has no deadline. */
  | { action: 'release' };

const plus = (iso: string, seconds: number): number => Date.parse(iso) + seconds * 1000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** When a pending job started waiting. */
const queuedSince = (job: DeadlineJob): string => job.queuedAt ?? job.createdAt;

/** When a running job must have finished (its timeout and the grace), in epoch ms. */
function timeoutAt(job: DeadlineJob, settings: SchedulerSettings): number {
  return plus(job.startedAt ?? job.createdAt, (job.timeout ?? job.spec.timeout ?? settings.defaultJobTimeoutSeconds) + settings.timeoutGraceSeconds);
}

/** When a running job counts as abandoned if it is not heard from before, in epoch ms. */
function silentAt(job: DeadlineJob, settings: SchedulerSettings): number {
  const heard = [job.touchedAt, job.startedAt, job.createdAt].filter((time): time is string => Boolean(time)).map(Date.parse);
  return Math.max(...heard) + settings.runningSilentSeconds * 1000;
}

/**
 * The first moment the scheduler must look at a job (ISO), or null when it has no deadline
 * (neither pending nor running).
 *
 * @example nextDeadline({ status: 'pending', queuedAt: '2026-01-01T00:00:00.000Z', ... }); // '2026-01-01T01:00:00.000Z'
 */
export function nextDeadline(job: DeadlineJob, settings: SchedulerSettings = SCHEDULER_SETTINGS): string | null {
  if (job.status === 'pending') return iso(plus(queuedSince(job), settings.pendingStuckSeconds));
  if (job.status === 'running') return iso(Math.min(timeoutAt(job, settings), silentAt(job, settings)));
  return null;
}

/**
 * What to do with a job whose deadline came (`now`). `runnerCanTake`: whether an online runner of
 * its project could take it (read only for pending jobs).
 */
export function decideDeadline(job: DeadlineJob, now: Date, runnerCanTake: boolean, settings: SchedulerSettings = SCHEDULER_SETTINGS): DeadlineDecision {
  const at = now.getTime();
  if (job.status === 'pending') {
    const since = queuedSince(job);
    if (at >= plus(since, settings.pendingOutdatedSeconds)) return { action: 'drop', reason: 'stuck_or_timeout_failure' };
    const stuckAt = plus(since, settings.pendingStuckSeconds);
    if (at < stuckAt) return { action: 'wait', until: iso(stuckAt) };
    if (!runnerCanTake) return { action: 'drop', reason: 'stuck_or_timeout_failure' };
    // A runner could take it: look again in a while (runners go offline), at the latest when it is outdated.
    return { action: 'wait', until: iso(Math.min(plus(since, settings.pendingOutdatedSeconds), at + settings.pendingStuckSeconds * 1000)) };
  }
  if (job.status === 'running') {
    if (at >= timeoutAt(job, settings)) return { action: 'drop', reason: 'job_execution_timeout' };
    if (at >= silentAt(job, settings)) return { action: 'drop', reason: 'stuck_or_timeout_failure' };
    return { action: 'wait', until: nextDeadline(job, settings)! };
  }
  return { action: 'release' };
}

/** Whether artifacts are past their expiry (never when kept: `expireAt` null). */
export function artifactsExpired(artifacts: { expireAt: string | null } | null, now: Date): boolean {
  return Boolean(artifacts?.expireAt) && Date.parse(artifacts!.expireAt!) <= now.getTime();
}
