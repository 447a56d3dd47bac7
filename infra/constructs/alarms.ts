import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { acknowledge } from '../nag';
import { METRICS_NAMESPACE } from './group-function';

/** The period every alarm sums over. */
export const ALARM_PERIOD = Duration.minutes(5);

/**
 * What raises each alarm, as a sum over {@link ALARM_PERIOD}. Throttling of any kind alarms at
 * once (a client or a write was refused); errors alarm from a handful, below which a retry or a
 * client's bad luck is not worth waking anyone.
 */
export const ALARM_THRESHOLDS = {
  /** API Gateway `5XXError`: answers 5xx (a function failed or timed out, or the gateway did). */
  apiServerErrors: 5,
  /** Requests API Gateway refused with 429 (stage throttling, account limit). */
  apiThrottles: 1,
  /** Lambda `Errors` of the service's functions together (unhandled errors, timeouts). */
  lambdaErrors: 5,
  /** Lambda `Throttles` of the service's functions together (concurrency exhausted). */
  lambdaThrottles: 1,
  /** DynamoDB `ThrottledRequests` on the table and its indexes, every operation the service uses. */
  dynamoThrottles: 1,
} as const;

/** CloudWatch allows at most 10 metrics in one alarm's expression. */
const METRICS_PER_ALARM = 10;

/** The table operations the service calls (no Scan): DynamoDB reports throttles per operation. */
const TABLE_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
] as const;

export interface ServiceAlarmsProps {
  readonly restApi: apigateway.RestApiBase;
  /** The stage's access logs (JSON lines with `errorType`), where throttled requests are counted. */
  readonly accessLogs: logs.ILogGroup;
  /** Every function of the service. */
  readonly functions: readonly lambda.IFunction[];
  readonly table: dynamodb.ITable;
  /**
   * An address subscribed to the alarm topic (it must confirm the subscription).
   * @default - none: operators subscribe to the topic themselves (output `AlarmTopicArn`)
   */
  readonly email?: string;
}

/**
 * The service's CloudWatch alarms, all notifying one SNS topic ({@link ServiceAlarms.topic}) when
 * they go off and when they recover: API 5xx answers, API throttling, Lambda errors and
 * throttles, DynamoDB throttled requests ({@link ALARM_THRESHOLDS}). Missing data is not
 * breaching: a quiet service is a healthy one.
 *
 * A few stack-level alarms rather than one per function (each resource counts toward the
 * stack's 500, and functions are added with endpoint groups): the functions' metrics are summed
 * in metric math expressions, ten functions each.
 *
 * @example
 * const alarms = new ServiceAlarms(this, 'Alarms', { restApi, accessLogs, functions, table });
 * new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
 */
export class ServiceAlarms extends Construct {
  public readonly topic: sns.Topic;
  public readonly alarms: cloudwatch.Alarm[] = [];

  public constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);

    this.topic = new sns.Topic(this, 'Topic', { displayName: 'project-hosting alarms', enforceSSL: true });
    acknowledge(this.topic, {
      'AwsSolutions-SNS2':
        'Alarm notifications carry no data of the service (alarm names and metric values); CloudWatch alarms cannot publish to a topic ' +
        'encrypted with the AWS managed SNS key, and a customer managed key for them alone is not worth its cost.',
    });
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));

    this.add('ApiServerErrors', 'API Gateway answered 5xx', props.restApi.metricServerError({ period: ALARM_PERIOD, statistic: 'Sum' }), ALARM_THRESHOLDS.apiServerErrors);

    // API Gateway has no throttle metric of its own: throttled requests are counted in the access logs.
    const throttled = new logs.MetricFilter(this, 'ApiThrottledFilter', {
      logGroup: props.accessLogs,
      filterPattern: logs.FilterPattern.stringValue('$.errorType', '=', 'THROTTLED'),
      metricNamespace: METRICS_NAMESPACE,
      metricName: 'ApiThrottled',
      metricValue: '1',
    });
    this.add('ApiThrottles', 'API Gateway refused requests with 429 (throttled)', throttled.metric({ period: ALARM_PERIOD, statistic: 'Sum' }), ALARM_THRESHOLDS.apiThrottles);

    chunks(props.functions, METRICS_PER_ALARM).forEach((functions, index) => {
      const suffix = index === 0 ? '' : String(index + 1);
      this.add(`LambdaErrors${suffix}`, 'Functions failed (unhandled errors or timeouts)', sumOf(functions.map((fn) => fn.metricErrors({ period: ALARM_PERIOD }))), ALARM_THRESHOLDS.lambdaErrors);
      this.add(`LambdaThrottles${suffix}`, 'Function invocations were throttled', sumOf(functions.map((fn) => fn.metricThrottles({ period: ALARM_PERIOD }))), ALARM_THRESHOLDS.lambdaThrottles);
    });

    const tableThrottles = TABLE_OPERATIONS.map((operation) =>
      props.table.metric('ThrottledRequests', { dimensionsMap: { TableName: props.table.tableName, Operation: operation }, period: ALARM_PERIOD, statistic: 'Sum' }),
    );
    this.add('TableThrottles', 'DynamoDB throttled requests on the table or its indexes', sumOf(tableThrottles), ALARM_THRESHOLDS.dynamoThrottles);
  }

  private add(id: string, description: string, metric: cloudwatch.IMetric, threshold: number): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: `project-hosting: ${description} (${threshold} or more in ${ALARM_PERIOD.toMinutes()} minutes)`,
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    alarm.addOkAction(new actions.SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}

/** Internal: one series summing several (a missing series counts as nothing, not as no data). */
function sumOf(metrics: readonly cloudwatch.IMetric[]): cloudwatch.IMetric {
  const usingMetrics = Object.fromEntries(metrics.map((metric, index) => [`m${index}`, metric]));
  return new cloudwatch.MathExpression({
    expression: `SUM([${Object.keys(usingMetrics).join(',')}])`,
    usingMetrics,
    period: ALARM_PERIOD,
  });
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
