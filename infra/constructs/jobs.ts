import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { JOB_STREAM_FILTER, RUNNING_LEASE_MS } from '../../shared/platform/jobs';
import { acknowledge } from '../nag';
import { tableStreamSource } from './events';
import { GroupFunction } from './group-function';

/** How often the worker sweeps jobs whose lease ran out. */
export const JOBS_SWEEP_RATE = Duration.minutes(1);
/** The worker's time limit: Lambda's longest; a job's running lease outlasts it. */
export const JOBS_TIMEOUT = Duration.minutes(15);

export interface BackgroundJobsProps {
  /** The table holding the jobs; it must have a stream. */
  readonly table: dynamodb.ITable;
  /** Deletions remove the objects of what they delete. */
  readonly bucket: s3.IBucket;
  /** Public base URL of the service (no trailing slash). */
  readonly externalUrl: string;
  /** Opens sealed secrets a deletion needs (a project's runners token, to remove its lookup). */
  readonly secretBoxKey: secretsmanager.ISecret;
}

/**
 * The background jobs worker (`functions/jobs/handler.ts`, `shared/platform/jobs.ts`): deletions
 * of projects, group trees and users, which can outlast API Gateway's 29 s. Two triggers:
 * - the table's stream, filtered to queued jobs (`JOB_STREAM_FILTER`, the same pattern the local
 *   stream poller applies): a job starts within a second of the request; the handler never
 *   reports a record as failed (a failed job is deferred in the table), so the mapping's retries
 *   only cover an invocation that could not run at all;
 * - an EventBridge schedule every minute ({@link JOBS_SWEEP_RATE}): the sweep queues again every
 *   job whose lease ran out, so a job whose run timed out, crashed or failed, or whose record was
 *   lost, always runs again (deletions resume where they stopped) until it is done.
 *
 * The function reads and writes the table and the bucket, and opens the secret box; its time
 * limit is 15 minutes ({@link JOBS_TIMEOUT}), within a running job's lease.
 *
 * @example
 * const jobs = new BackgroundJobs(this, 'Jobs', { table, bucket, externalUrl, secretBoxKey });
 * jobs.function; // the worker Lambda
 */
export class BackgroundJobs extends Construct {
  public readonly function: GroupFunction;
  public readonly rule: events.Rule;

  public constructor(scope: Construct, id: string, props: BackgroundJobsProps) {
    super(scope, id);
    if (JOBS_TIMEOUT.toMilliseconds() >= RUNNING_LEASE_MS) throw new Error('a running job lease must outlast the worker time limit');

    this.function = new GroupFunction(this, 'Function', {
      group: 'jobs',
      table: props.table,
      bucket: props.bucket,
      externalUrl: props.externalUrl,
      description: 'project-hosting jobs (background deletions of projects, groups and users; merge request rebases)',
      timeout: JOBS_TIMEOUT,
    });
    this.function.grantTable(props.table, 'readWrite');
    this.function.grantBucket(props.bucket, 'readWrite');
    this.function.useSecretBoxKey(props.secretBoxKey);

    this.function.addEventSource(tableStreamSource(props.table, JOB_STREAM_FILTER));

    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Sweeps background jobs whose lease ran out',
      schedule: events.Schedule.rate(JOBS_SWEEP_RATE),
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });

    acknowledge(this.function, {
      'AwsSolutions-IAM5[Resource::*]':
        'X-Ray active tracing (xray:PutTraceSegments, PutTelemetryRecords) and the stream event source (dynamodb:ListStreams) support ' +
        'no resource-level permission: AWS requires "*". Reading the stream itself is granted on the table\'s stream ARN only.',
    });
  }
}
