import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { HOOK_EVENT_STREAM_FILTER } from '../../shared/hooks/store/hook-events';
import { acknowledge } from '../nag';
import { GroupFunction } from './group-function';

/**
 * The table's stream as a function's trigger, filtered to `filter` (the same pattern the local
 * stream poller applies): new records only, up to 10 per invocation within a second, a failing
 * batch bisected and retried 3 times; `reportBatchItemFailures` when the handler names its failed records.
 */
export function tableStreamSource(table: dynamodb.ITable, filter: Record<string, unknown>, options: { reportBatchItemFailures?: boolean } = {}): DynamoEventSource {
  return new DynamoEventSource(table, {
    startingPosition: lambda.StartingPosition.LATEST,
    batchSize: 10,
    maxBatchingWindow: Duration.seconds(1),
    retryAttempts: 3,
    bisectBatchOnError: true,
    reportBatchItemFailures: options.reportBatchItemFailures,
    filters: [lambda.FilterCriteria.filter(filter)],
  });
}

export interface HookDeliveryProps {
  /** The table whose stream carries the `HookEvent` outbox items; it must have a stream. */
  readonly table: dynamodb.ITable;
  /** Public base URL of the service (no trailing slash): links in the payloads. */
  readonly externalUrl: string;
  /** Key material of the secret box: hook secret tokens are stored sealed with it. */
  readonly secretBoxKey: secretsmanager.ISecret;
}

/**
 * Webhook delivery: the table's stream, filtered to new `HookEvent` items
 * (`HOOK_EVENT_STREAM_FILTER`, the same pattern the local stream poller applies), invokes
 * `functions/hook_delivery/handler.ts`, which sends each event to its project's hooks.
 *
 * The function only reads the table (hooks, projects, users, labels) and never the bucket. Its
 * timeout is 120 s: a batch's projects are delivered in parallel, but one project's events go one
 * after another (in order), and each may wait 10 s on a slow receiver. A record it reports as failed is
 * retried from there (3 attempts, the batch bisected to isolate it), then skipped: a hook is
 * not worth holding up the shard's later events.
 *
 * Local network receivers are refused (`HOOKS_ALLOW_LOCAL_NETWORK=false`): a project member must
 * not reach the VPC, the metadata endpoint or localhost through a hook URL (SSRF).
 *
 * @example
 * const events = new HookDelivery(this, 'Events', { table, externalUrl, secretBoxKey });
 * events.function; // the delivery Lambda
 */
export class HookDelivery extends Construct {
  public readonly function: GroupFunction;

  public constructor(scope: Construct, id: string, props: HookDeliveryProps) {
    super(scope, id);

    this.function = new GroupFunction(this, 'Function', {
      group: 'hook_delivery',
      table: props.table,
      externalUrl: props.externalUrl,
      description: 'project-hosting hook_delivery (sends webhook events)',
      timeout: Duration.seconds(120),
    });
    this.function.addEnvironment('HOOKS_ALLOW_LOCAL_NETWORK', 'false');
    this.function.grantTable(props.table, 'read');
    this.function.useSecretBoxKey(props.secretBoxKey);

    // Grants the stream read permissions itself.
    this.function.addEventSource(tableStreamSource(props.table, HOOK_EVENT_STREAM_FILTER, { reportBatchItemFailures: true }));
    acknowledge(this.function, {
      'AwsSolutions-IAM5[Resource::*]':
        'X-Ray active tracing (xray:PutTraceSegments, PutTelemetryRecords) and the stream event source (dynamodb:ListStreams) support ' +
        'no resource-level permission: AWS requires "*". Reading the stream itself is granted on the table\'s stream ARN only.',
    });
  }
}
