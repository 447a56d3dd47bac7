/**
 * The CI scheduler's run (GitLab's `StuckCiJobsWorker` and `Ci::JobArtifacts::DestroyAllExpiredService`
 * cron jobs): ends jobs nobody will finish and removes expired artifacts. Run every minute by
 * `functions/ci_scheduler` (an EventBridge schedule; locally a timer of the runtime).
 *
 * It never scans: jobs carry their next deadline and their artifacts' expiry in two sparse
 * indexes (`store/keys.ts`: `CI_DEADLINES#<shard>`, `CI_ARTIFACT_EXPIRY#<shard>`, sorted by time),
 * and a run Queries each shard for what is due, in bounded batches. Each job found is read again
 * consistently and decided on (`config/scheduler.ts`): dropped with the same conditional update a
 * runner's report makes (only one of them wins), its token revoked and its pipeline processed; or
 * its deadline moved on (it was heard from meanwhile). A dropped job whose `retry:` covers the
 * failure (`stuck_or_timeout_failure`, `always`) gets a new attempt, pending or running alike. Expired artifacts are forgotten on the job
 * first (conditioned on the expiry seen, so a `keep` meanwhile wins), then deleted from S3.
 * Active pipeline schedules carry their next run in a third sparse index (`CI_SCHEDULES_DUE#<shard>`):
 * each one due is run once (`commands/schedules.ts` `runDueSchedule`). Environments
 * carry when the scheduler next acts on them in a fourth (`CI_ENV_DUE#<shard>`): an available
 * one's `auto_stop_at` (stopped as the stop API stops it), a stopped review app's scheduled
 * deletion (`commands/environments.ts` `settleDueEnvironment`).
 */
import { logger as rootLogger, type Logger } from '../../platform/logger';
import { artifactsExpired, decideDeadline, SCHEDULER_SETTINGS, type SchedulerSettings } from '../config/scheduler';
import { deleteArtifacts } from '../store/blobs';
import { CI_SCHEDULE_SHARDS } from '../store/keys';
import {
  dropExpiryEntry,
  dueDeadlineJobs,
  expiredArtifactJobs,
  forgetExpiredArtifacts,
  moveDeadline,
  postponeExpiryEntry,
  readJob,
  type Job,
  type ScheduledJob,
} from '../store/pipelines';
import { groupRunners, instanceRunners, projectRunners, type Runner } from '../store/runners';
import { dueSchedules } from '../store/schedules';
import { dropJob, runnerQueuesOf } from './pipelines';
import { runnerMatches } from './runners';
import { artifactsKept } from './refs';
import { runDueSchedule } from './schedules';
import { dueEnvironments } from '../store/environments';
import { settleDueEnvironment } from './environments';

export interface SweepOptions {
  /** The clock: what is due at this moment. @default now */
  now?: Date;
  /** Index entries read per shard in one batch. @default 100 */
  batchSize?: number;
  /** No new batch starts after this many milliseconds (the invocation's remaining time). @default 45 s */
  budgetMs?: number;
  /** Thresholds replacing GitLab's (tests). */
  settings?: Partial<SchedulerSettings>;
  logger?: Logger;
}

export interface SweepReport {
  /** Jobs failed as stuck (`stuck_or_timeout_failure`). */
  stuck: number;
  /** Running jobs failed past their timeout (`job_execution_timeout`). */
  timedOut: number;
  /** Deadlines moved on (the job was heard from) or removed (it had ended). */
  rescheduled: number;
  /** Jobs whose artifacts expired and were deleted. */
  artifactsExpired: number;
  /** Pipeline schedules whose run came: runs taken (a pipeline created or, logged, refused; or the schedule deactivated). */
  schedulesRun: number;
  /** Environments stopped (or set stopping) because their `auto_stop_at` passed. */
  environmentsStopped: number;
  /** Stopped review apps deleted because their scheduled deletion came. */
  environmentsDeleted: number;
  /** Entries whose handling failed (logged; retried on the next run). */
  failed: number;
  /** False when the budget ran out before every due entry was handled (the next run goes on). */
  complete: boolean;
}

/** What one run shares between the entries it settles. */
export interface SweepContext {
  now: Date;
  settings: SchedulerSettings;
  logger: Logger;
  /** The runners that could take a project's jobs (its own, the instance's, its groups'), read once per run. */
  runners: Map<number, Promise<Runner[]>>;
  /** The instance runners and each group's own runners, read once per run. */
  shared?: Map<string, Promise<Runner[]>>;
}

export function sweepContext(options: Pick<SweepOptions, 'now' | 'settings' | 'logger'> = {}): SweepContext {
  return {
    now: options.now ?? new Date(),
    settings: { ...SCHEDULER_SETTINGS, ...options.settings },
    logger: options.logger ?? rootLogger.child({ component: 'ci-scheduler' }),
    runners: new Map(),
  };
}

/**
 * The runners that could take a project's jobs (S3): its own, the instance runners while it has
 * shared runners enabled, and those of its groups (its namespace and every ancestor). The
 * instance's and each group's lists are read once per run.
 */
async function runnersOf(projectId: number, context: SweepContext): Promise<Runner[]> {
  const shared = (context.shared ??= new Map());
  const once = (key: string, read: () => Promise<Runner[]>) => {
    let found = shared.get(key);
    if (!found) shared.set(key, (found = read()));
    return found;
  };
  const [own, queues] = await Promise.all([projectRunners(projectId), runnerQueuesOf(projectId)]);
  const others = await Promise.all([
    ...(queues.shared ? [once('instance', instanceRunners)] : []),
    ...(queues.groupChain ?? []).map((groupId) => once(`group${groupId}`, () => groupRunners(groupId))),
  ]);
  return [...own, ...others.flat()];
}

/** Whether an online runner that serves the job's project could take it (GitLab's `Ci::Build#stuck?` inverted). */
async function runnerCanTake(job: Job, context: SweepContext): Promise<boolean> {
  let runners = context.runners.get(job.projectId);
  if (!runners) context.runners.set(job.projectId, (runners = runnersOf(job.projectId, context)));
  const online = context.now.getTime() - context.settings.runnerOnlineSeconds * 1000;
  return (await runners).some((runner) => runner.contactedAt !== null && Date.parse(runner.contactedAt) >= online && runnerMatches(runner, job));
}

export type DeadlineOutcome = 'stuck' | 'timed_out' | 'rescheduled' | 'lost_race' | 'gone';

/**
 * Settles one due deadline: reads the job consistently, then drops it, or moves its deadline on
 * (or removes it, when the job ended meanwhile).
 */
export async function settleDeadline(found: ScheduledJob, context: SweepContext): Promise<DeadlineOutcome> {
  const job = await readJob(found.job);
  if (!job) return 'gone';
  const canTake = job.status === 'pending' ? await runnerCanTake(job, context) : false;
  const decision = decideDeadline(job, context.now, canTake, context.settings);
  if (decision.action !== 'drop') {
    await moveDeadline(job, found.entry, decision.action === 'wait' ? decision.until : null);
    return 'rescheduled';
  }
  const fields = { jobId: job.id, pipelineId: job.pipelineId, projectId: job.projectId, status: job.status, failureReason: decision.reason };
  // As a runner's failure report (`dropJob`): token revoked, a running job's trace archived, `retry:` honoured, pipeline processed.
  const dropped = (await dropJob(job, decision.reason, { from: [job.status], finishedAt: context.now.toISOString() })) !== undefined;
  if (!dropped) {
    context.logger.info('ci job changed before it was dropped', fields);
    return 'lost_race';
  }
  context.logger.info('ci job dropped', fields);
  return decision.reason === 'job_execution_timeout' ? 'timed_out' : 'stuck';
}

/** When kept artifacts whose expiry passed are looked at again (a project may stop keeping them). */
const KEPT_ARTIFACTS_RECHECK_MS = 24 * 3600_000;

export type ArtifactsOutcome = 'expired' | 'rescheduled' | 'gone';

/** Settles one due artifacts expiry: forgets the artifacts on the job if they still expire then, and deletes the object. */
export async function settleExpiredArtifacts(found: ScheduledJob, context: SweepContext): Promise<ArtifactsOutcome> {
  const job = await readJob(found.job);
  if (!job) return 'gone';
  if (!artifactsExpired(job.artifacts, context.now)) {
    await dropExpiryEntry(job, found.entry);
    return 'rescheduled';
  }
  // Kept while their pipeline is its ref's latest success (`keep_latest_artifact`): looked at again a day on.
  if (await artifactsKept(job)) {
    await postponeExpiryEntry(job, found.entry, new Date(context.now.getTime() + KEPT_ARTIFACTS_RECHECK_MS).toISOString());
    return 'rescheduled';
  }
  if (!(await forgetExpiredArtifacts(job, job.artifacts!.expireAt!))) return 'rescheduled';
  await deleteArtifacts(job.id);
  context.logger.info('ci artifacts expired', { jobId: job.id, projectId: job.projectId, expireAt: job.artifacts!.expireAt, size: job.artifacts!.size });
  return 'expired';
}

/**
 * One run of the scheduler: every shard of both indexes, batch by batch, until nothing is due or
 * the budget is spent. Never throws for one entry: its failure is logged and it stays due.
 *
 * @example
 * const report = await sweepCi(); // { stuck: 0, timedOut: 1, rescheduled: 3, artifactsExpired: 2, failed: 0, complete: true }
 */
export async function sweepCi(options: SweepOptions = {}): Promise<SweepReport> {
  const started = Date.now();
  const context = sweepContext(options);
  const batchSize = options.batchSize ?? 100;
  const budgetMs = options.budgetMs ?? 45_000;
  const now = context.now.toISOString();
  const report: SweepReport = { stuck: 0, timedOut: 0, rescheduled: 0, artifactsExpired: 0, schedulesRun: 0, environmentsStopped: 0, environmentsDeleted: 0, failed: 0, complete: true };
  const outOfTime = () => Date.now() - started >= budgetMs;

  const drain = async <T extends { entry: string }>(read: (shard: number) => Promise<T[]>, settle: (found: T) => Promise<void>, describe: (found: T) => Record<string, unknown>) => {
    for (let shard = 0; shard < CI_SCHEDULE_SHARDS; shard++) {
      // The index is eventually consistent: an entry just handled may be read again; stop once a batch brings nothing new.
      const seen = new Set<string>();
      for (;;) {
        if (outOfTime()) {
          report.complete = false;
          return;
        }
        const due = await read(shard);
        const batch = due.filter((found) => !seen.has(found.entry));
        for (const found of batch) {
          seen.add(found.entry);
          try {
            await settle(found);
          } catch (error) {
            report.failed++;
            context.logger.error('ci scheduler could not settle an entry; the next run retries', { ...describe(found), entry: found.entry, error });
          }
        }
        if (batch.length === 0 || due.length < batchSize) break;
      }
    }
  };

  await drain(
    (shard) => dueDeadlineJobs(shard, now, batchSize),
    async (found) => {
      const outcome = await settleDeadline(found, context);
      if (outcome === 'stuck') report.stuck++;
      else if (outcome === 'timed_out') report.timedOut++;
      else if (outcome === 'rescheduled') report.rescheduled++;
    },
    (found) => ({ jobId: found.job.id }),
  );
  await drain(
    (shard) => expiredArtifactJobs(shard, now, batchSize),
    async (found) => {
      if ((await settleExpiredArtifacts(found, context)) === 'expired') report.artifactsExpired++;
    },
    (found) => ({ jobId: found.job.id }),
  );
  // Pipeline schedules whose next run passed (GitLab's `PipelineScheduleWorker`): each run taken once, then its pipeline.
  await drain(
    (shard) => dueSchedules(shard, now, batchSize),
    async (found) => {
      const outcome = await runDueSchedule(found, context);
      if (outcome !== 'lost_race' && outcome !== 'gone') report.schedulesRun++;
    },
    (found) => ({ scheduleId: found.schedule.id, projectId: found.schedule.projectId }),
  );
  // Environments whose `auto_stop_in` passed (GitLab's `Environments::AutoStopCronWorker`), stopped as the stop API does;
  // stopped review apps whose scheduled deletion came (`AutoDeleteCronWorker`), deleted.
  await drain(
    (shard) => dueEnvironments(shard, now, batchSize),
    async (found) => {
      const outcome = await settleDueEnvironment(found, context.now);
      if (outcome === 'stopped') report.environmentsStopped++;
      else if (outcome === 'deleted') report.environmentsDeleted++;
    },
    (found) => ({ environmentId: found.environment.id, projectId: found.environment.projectId }),
  );
  const level = report.stuck + report.timedOut + report.artifactsExpired + report.schedulesRun + report.environmentsStopped + report.environmentsDeleted + report.failed > 0 ? 'info' : 'debug';
  context.logger[level]('ci scheduler run', { ...report, now, durationMs: Date.now() - started });
  return report;
}
