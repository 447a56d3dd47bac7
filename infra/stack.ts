import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { allRoutes } from '../shared/catalog';
import { HostingApi, type ApiThrottle } from './constructs/api';
import { RootUserBootstrap } from './constructs/bootstrap';
import { DataTable } from './constructs/data';
import { HookDelivery } from './constructs/events';
import { GroupFunctions } from './constructs/functions';
import { CiScheduler } from './constructs/scheduler';
import { ObjectStorage } from './constructs/storage';

export interface ProjectHostingStackProps extends StackProps {
  /**
   * Public base URL of the service (e.g. behind a custom domain), used in links the API returns.
   * @default - context value `externalUrl`, else the API's own stage URL
   */
  readonly externalUrl?: string;
  /** @default - see {@link HostingApi} */
  readonly throttle?: ApiThrottle;
}

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
  public readonly bootstrap: RootUserBootstrap;
  /** Key material of the secret box: the AES-256 key sealing stored secrets is its SHA-256. */
  public readonly secretBoxKey: secretsmanager.Secret;

  public constructor(scope: Construct, id: string, props: ProjectHostingStackProps = {}) {
    super(scope, id, props);

    this.data = new DataTable(this, 'Data');
    this.storage = new ObjectStorage(this, 'Storage');
    // The API exists before its functions so that they can know its URL (see HostingApi.baseUrl).
    this.api = new HostingApi(this, 'Api', { routes: allRoutes(), throttle: props.throttle });

    const contextUrl: unknown = this.node.tryGetContext('externalUrl');
    const externalUrl = (
      props.externalUrl ?? (typeof contextUrl === 'string' && contextUrl !== '' ? contextUrl : this.api.baseUrl)
    ).replace(/\/+$/, '');

    // Retained like the table: the secrets sealed in it cannot be opened without this key.
    this.secretBoxKey = new secretsmanager.Secret(this, 'SecretBoxKey', {
      description: 'Key material of the secret box (stored secrets are sealed with its SHA-256)',
      generateSecretString: { passwordLength: 44, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const shared = { table: this.data.table, bucket: this.storage.bucket, externalUrl };
    this.functions = new GroupFunctions(this, 'Functions', { ...shared, secretBoxKey: this.secretBoxKey });
    this.api.integrate(this.functions.byGroup);
    this.events = new HookDelivery(this, 'Events', { table: this.data.table, externalUrl, secretBoxKey: this.secretBoxKey });
    this.ciScheduler = new CiScheduler(this, 'CiScheduler', shared);
    this.bootstrap = new RootUserBootstrap(this, 'Bootstrap', shared);

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
  }
}
