/**
 * The background jobs worker (`shared/platform/jobs.ts`): deletions of projects, group trees and
 * users, of a project's CI artifacts, and merge request rebases, which can outlast API Gateway's 29 s, and the data migrations a deploy had no time to
 * finish, which can outlast a Lambda's 15 minutes (a run stops before its time is up and the job
 * is queued again at once; the next run resumes). Two triggers invoke it (`infra/constructs/jobs.ts`):
 * - the table's stream, filtered to queued jobs (`JOB_STREAM_FILTER`): each record's job is
 *   claimed in its round, run, and removed once done; a failed run is left to the sweep, which
 *   tries it again after a growing pause;
 * - an EventBridge schedule (every minute): the sweep puts back in the queue every job whose lease
 *   ran out (its worker timed out or crashed, it failed, or its stream record never came).
 * Locally the runtime's stream poller and timer invoke it the same way.
 *
 * Its failures are never reported to the stream: a job is retried by the sweep, not by holding up
 * the shard, so a record is processed once and a broken job cannot block the others.
 *
 * The composition root of the work: which feature runs each kind of job. Deleting a project
 * runs the other features' removal steps, registered by the API's composition root, loaded here.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import '../api';
import { MIGRATIONS_JOB, nearlyOver, runMigrationsJob } from '../bootstrap/migrations';
import { CI_ARTIFACTS_DELETION, runProjectArtifactsDeletion } from '../../shared/ci';
import { GROUP_DELETION, runGroupDeletion } from '../../shared/groups';
import { MERGE_REQUEST_REBASE, runRebaseJob } from '../../shared/merge-requests';
import { PROJECT_DELETION, runProjectDeletion } from '../../shared/projects';
import { runUserDeletion, USER_DELETION } from '../../shared/users';
import { claimJob, continueJob, deferJob, expiredJobs, finishJob, jobFromImage, requeueJob, type Job } from '../../shared/platform/jobs';
import { logger } from '../../shared/platform/logger';

/**
 * What each kind of job does; `timeUp` says when the invocation is nearly over. A job whose work
 * answers 'continue' stopped part way: it is queued again at once, and the next run goes on.
 */
export const work: Record<string, (job: Job, timeUp: () => boolean) => Promise<'continue' | void>> = {
  [PROJECT_DELETION]: (job) => runProjectDeletion(job.targetId),
  [GROUP_DELETION]: (job) => runGroupDeletion(job.targetId),
  [USER_DELETION]: (job) => runUserDeletion(job.targetId, job.options),
  [MIGRATIONS_JOB]: runMigrationsJob,
  [MERGE_REQUEST_REBASE]: (job) => runRebaseJob(job.options),
  [CI_ARTIFACTS_DELETION]: (job, timeUp) => runProjectArtifactsDeletion(job, timeUp),
};

/** Time kept back from the invocation's limit: a migration step under way (one project) finishes within it. */
const RESERVE_MS = 3 * 60_000;

/** What a run of the handler did (logged, and answered for the tests and the local runtime). */
export interface JobsReport {
  done: number;
  failed: number;
  skipped: number;
  requeued: number;
  /** Jobs that stopped part way and were queued again to go on. */
  continued: number;
}

/** Runs one queued job, if it can still be claimed in the round its record named. */
async function runJob(queued: Job, report: JobsReport, timeUp: () => boolean): Promise<void> {
  const job = await claimJob(queued);
  if (!job) {
    report.skipped++;
    return;
  }
  const log = logger.child({ job: { kind: job.kind, targetId: job.targetId, round: job.round, attempts: job.attempts } });
  const run = work[job.kind];
  try {
    if (!run) throw new Error(`no worker for jobs of kind ${job.kind}`);
    log.info('background job started');
    if ((await run(job, timeUp)) === 'continue') {
      await continueJob(job);
      log.info('background job stopped part way; queued to go on');
      report.continued++;
      return;
    }
    await finishJob(job);
    log.info('background job done');
    report.done++;
  } catch (error) {
    log.error('background job failed; it will be tried again', { error });
    await deferJob(job);
    report.failed++;
  }
}

/** Queues again every job whose lease ran out. */
async function sweep(report: JobsReport): Promise<void> {
  for await (const job of expiredJobs()) {
    if (await requeueJob(job)) report.requeued++;
  }
}

export async function handler(event: DynamoDBStreamEvent | { source?: string }, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<JobsReport> {
  const report: JobsReport = { done: 0, failed: 0, skipped: 0, requeued: 0, continued: 0 };
  const timeUp = nearlyOver(context, RESERVE_MS);
  if ('Records' in event) {
    // Jobs of one batch are independent (each names its own target): run side by side.
    await Promise.all(
      event.Records.flatMap((record) => {
        const image = record.dynamodb?.NewImage;
        return image ? [runJob(jobFromImage(unmarshall(image as Record<string, AttributeValue>)), report, timeUp)] : [];
      }),
    );
  } else {
    await sweep(report);
  }
  if (report.done + report.failed + report.requeued + report.continued > 0) logger.info('background jobs', { ...report });
  return report;
}
