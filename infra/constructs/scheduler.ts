import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { GroupFunction } from './group-function';

/** How often the CI scheduler runs (GitLab's stuck-jobs and expired-artifacts crons run from every minute to hourly). */
export const CI_SCHEDULER_RATE = Duration.minutes(1);

export interface CiSchedulerProps {
  readonly table: dynamodb.ITable;
  /** Traces are archived and expired artifacts deleted there. */
  readonly bucket: s3.IBucket;
  /** Public base URL of the service (no trailing slash): links in what finished pipelines trigger. */
  readonly externalUrl: string;
}

/**
 * The CI scheduler: an EventBridge schedule invokes `functions/ci_scheduler/handler.ts` every
 * minute ({@link CI_SCHEDULER_RATE}); each run ends stuck and timed-out jobs and deletes expired
 * artifacts, reading only the sparse deadline and expiry indexes (never a scan).
 *
 * The function writes the table (jobs, tokens, pipelines, and what a finished pipeline triggers)
 * and the bucket (archived traces, expired artifacts), and nothing else: no API, no secret. Its
 * timeout is a minute: a run stops starting batches 15 s before it and the next run goes on. A
 * failed invocation is not retried by EventBridge (the next run, a minute later, is the retry);
 * two runs that overlap are safe, since every change is a conditional write.
 *
 * @example
 * const scheduler = new CiScheduler(this, 'CiScheduler', { table, bucket, externalUrl });
 * scheduler.function; // the scheduler Lambda
 */
export class CiScheduler extends Construct {
  public readonly function: GroupFunction;
  public readonly rule: events.Rule;

  public constructor(scope: Construct, id: string, props: CiSchedulerProps) {
    super(scope, id);

    this.function = new GroupFunction(this, 'Function', {
      group: 'ci_scheduler',
      table: props.table,
      bucket: props.bucket,
      externalUrl: props.externalUrl,
      description: 'project-hosting ci_scheduler (stuck and timed-out jobs, expired artifacts)',
      timeout: Duration.seconds(60),
    });
    this.function.grantTable(props.table, 'readWrite');
    this.function.grantBucket(props.bucket, 'readWrite');

    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Runs the CI scheduler',
      schedule: events.Schedule.rate(CI_SCHEDULER_RATE),
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });
  }
}
