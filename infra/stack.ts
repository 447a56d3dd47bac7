import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { allRoutes } from '../shared/catalog';
import { ServiceAlarms } from './constructs/alarms';
import { DEFAULT_THROTTLE, HostingApi, type ApiThrottle } from './constructs/api';
import { RootUserBootstrap } from './constructs/bootstrap';
import { DataTable } from './constructs/data';
import { HookDelivery } from './constructs/events';
import { GroupFunctions } from './constructs/functions';
import { CiScheduler } from './constructs/scheduler';
import { BackgroundJobs } from './constructs/jobs';
import { ObjectStorage } from './constructs/storage';
import { acknowledge } from './nag';

export interface ProjectHostingStackProps extends StackProps {
  /**
   * Public base URL of the service (e.g. behind a custom domain), used in links the API returns.
   * @default - context value `externalUrl`, else the API's own stage URL
   */
  readonly externalUrl?: string;
  /** @default - context values `apiThrottleRateLimit` and `apiThrottleBurstLimit`, else {@link DEFAULT_THROTTLE} */
  readonly throttle?: ApiThrottle;
}

/**
 * The deployment settings read from the CDK context (`cdk.json`, or `cdk deploy -c name=value`):
 *
 * | context value | what | default |
 * |---|---|---|
 * | `externalUrl` | public base URL (custom domain) | the stage URL |
 * | `apiThrottleRateLimit`, `apiThrottleBurstLimit` | stage throttling, requests per second and burst | 100, 200 |
 * | `bucketNoncurrentVersionDays` | days an overwritten or deleted object stays recoverable | 30 |
 * | `apiGatewayCloudWatchRole` | set the region's API Gateway logging role (`false` where another stack does) | true |
 * | `wafWebAclArn` | an existing regional WAFv2 web ACL to associate with the stage | none |
 * | `alarmEmail` | an address subscribed to the alarm topic | none |
 */
export const CONTEXT_KEYS = [
  'externalUrl',
  'apiThrottleRateLimit',
  'apiThrottleBurstLimit',
  'bucketNoncurrentVersionDays',
  'apiGatewayCloudWatchRole',
  'wafWebAclArn',
  'alarmEmail',
] as const;

/**
 * The whole service: table, bucket, one function per route group, the REST API in front of them,
 * the webhook delivery behind the table's stream, the CI scheduler, and the root-user bootstrap.
 */
export class ProjectHostingStack extends Stack {
  public readonly data: DataTable;
  public readonly storage: ObjectStorage;
  public readonly api: HostingApi;
  public readonly functions: GroupFunctions;
  /** Webhook delivery, fed by the table's stream. */
  public readonly events: HookDelivery;
  /** Stuck and timed-out CI jobs, expired artifacts: run every minute. */
  public readonly ciScheduler: CiScheduler;
  /** The background jobs worker (deletions of projects, groups and users). */
  public readonly jobs: BackgroundJobs;
  public readonly bootstrap: RootUserBootstrap;
  /** CloudWatch alarms and the SNS topic they notify (output `AlarmTopicArn`). */
  public readonly alarms: ServiceAlarms;
  /** Key material of the secret box: the AES-256 key sealing stored secrets is its SHA-256. */
  public readonly secretBoxKey: secretsmanager.Secret;

  public constructor(scope: Construct, id: string, props: ProjectHostingStackProps = {}) {
    super(scope, id, props);

    this.data = new DataTable(this, 'Data');
    this.storage = new ObjectStorage(this, 'Storage', { noncurrentVersionDays: this.numberContext('bucketNoncurrentVersionDays') });
    // The API exists before its functions so that they can know its URL (see HostingApi.baseUrl).
    this.api = new HostingApi(this, 'Api', {
      routes: allRoutes(),
      throttle: props.throttle ?? {
        rateLimit: this.numberContext('apiThrottleRateLimit') ?? DEFAULT_THROTTLE.rateLimit,
        burstLimit: this.numberContext('apiThrottleBurstLimit') ?? DEFAULT_THROTTLE.burstLimit,
      },
      cloudWatchRole: this.booleanContext('apiGatewayCloudWatchRole'),
      wafWebAclArn: this.stringContext('wafWebAclArn'),
    });

    const externalUrl = (props.externalUrl ?? this.stringContext('externalUrl') ?? this.api.baseUrl).replace(/\/+$/, '');

    // Retained like the table: the secrets sealed in it cannot be opened without this key.
    this.secretBoxKey = new secretsmanager.Secret(this, 'SecretBoxKey', {
      description: 'Key material of the secret box (stored secrets are sealed with its SHA-256)',
      generateSecretString: { passwordLength: 44, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.secretBoxKey, {
      'AwsSolutions-SMG4':
        'The secret box key is not rotated: secrets sealed with it (webhook tokens) carry no key version, so a new key would make ' +
        'every one of them unreadable. Rotating it needs re-sealing them all, a data migration, not a schedule.',
    });

    const shared = { table: this.data.table, bucket: this.storage.bucket, externalUrl };
    this.functions = new GroupFunctions(this, 'Functions', { ...shared, secretBoxKey: this.secretBoxKey });
    this.api.integrate(this.functions.byGroup);
    this.events = new HookDelivery(this, 'Events', { table: this.data.table, externalUrl, secretBoxKey: this.secretBoxKey });
    this.ciScheduler = new CiScheduler(this, 'CiScheduler', shared);
    this.jobs = new BackgroundJobs(this, 'Jobs', { ...shared, secretBoxKey: this.secretBoxKey });
    this.bootstrap = new RootUserBootstrap(this, 'Bootstrap', { ...shared, jobsWorker: this.jobs.function });
    this.alarms = new ServiceAlarms(this, 'Alarms', {
      restApi: this.api.restApi,
      accessLogs: this.api.accessLogs,
      functions: [
        ...Object.values(this.functions.byGroup),
        this.events.function,
        this.ciScheduler.function,
        this.jobs.function,
        this.bootstrap.function,
      ],
      table: this.data.table,
      email: this.stringContext('alarmEmail'),
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'GitLab base URL of the service (API paths are /api/v4/...)',
      value: this.api.url,
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'RootTokenSecretArn', {
      description: 'Secret holding the API token of the administrator root',
      value: this.bootstrap.rootTokenSecret.secretArn,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic the alarms notify (API 5xx and throttling, Lambda errors and throttles, DynamoDB throttling): subscribe to it',
      value: this.alarms.topic.topicArn,
    });
    new CfnOutput(this, 'ApiStageArn', {
      description: 'ARN of the API stage, to associate a WAFv2 web ACL with (or set the context value wafWebAclArn)',
      value: this.api.stageArn,
    });
  }

  /** Internal: a non-empty string context value. */
  private stringContext(key: (typeof CONTEXT_KEYS)[number]): string | undefined {
    const value: unknown = this.node.tryGetContext(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** Internal: a boolean context value (`-c key=false` passes a string). */
  private booleanContext(key: (typeof CONTEXT_KEYS)[number]): boolean | undefined {
    const value: unknown = this.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw new Error(`Context value ${key} must be true or false (got ${JSON.stringify(value)})`);
  }

  /** Internal: a positive number context value (`-c key=500` passes a string). */
  private numberContext(key: (typeof CONTEXT_KEYS)[number]): number | undefined {
    const value: unknown = this.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    const number = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(number) || number <= 0) throw new Error(`Context value ${key} must be a positive number (got ${JSON.stringify(value)})`);
    return number;
  }
}
