import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct, type IDependable } from 'constructs';
import { acknowledge, managedPolicyFinding, nagArnOf } from '../nag';
import { GroupFunction } from './group-function';

export interface RootUserBootstrapProps {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  /** Public base URL of the service (no trailing slash). */
  readonly externalUrl: string;
  /**
   * The jobs worker, which finishes the data migrations the bootstrap has no time for: the custom
   * resource runs once it is updated, so the job it may queue meets this release's code.
   */
  readonly jobsWorker?: IDependable;
}

/**
 * First-run bootstrap: creates the administrator `root` whose API token is a generated secret.
 *
 * A CloudFormation custom resource runs `functions/bootstrap/handler.ts` on the first deployment
 * and on every deployment that changes the bootstrap function's code (so the data migrations of
 * a release run when it is deployed); it reads the token from the secret and creates `root` if absent. Operators read the token from Secrets
 * Manager (output `RootTokenSecretArn`). The secret is retained like the table, so a retained
 * table never holds a root user whose token is lost.
 *
 * @example
 * const { rootTokenSecret } = new RootUserBootstrap(this, 'Bootstrap', { table, bucket, externalUrl });
 */
export class RootUserBootstrap extends Construct {
  public readonly rootTokenSecret: secretsmanager.Secret;
  public readonly function: GroupFunction;

  public constructor(scope: Construct, id: string, props: RootUserBootstrapProps) {
    super(scope, id);

    this.rootTokenSecret = new secretsmanager.Secret(this, 'RootToken', {
      description: 'API token of the administrator user root',
      generateSecretString: {
        passwordLength: 40,
        excludePunctuation: true,
        includeSpace: false,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.rootTokenSecret, {
      'AwsSolutions-SMG4':
        "Rotating the secret alone would lock root out: only the token's digest is stored, when root is created, and no rotation " +
        'function updates it. The secret seeds root\'s first token; operators rotate it through the API (POST /personal_access_tokens/self/rotate).',
    });

    this.function = new GroupFunction(this, 'Function', {
      group: 'bootstrap',
      table: props.table,
      bucket: props.bucket,
      externalUrl: props.externalUrl,
      description: 'project-hosting bootstrap (creates the root user, runs data migrations)',
      // Data migrations read whole collections: Lambda's longest run (what does not fit goes on in the jobs worker).
      timeout: Duration.minutes(15),
    });
    this.function.grantTable(props.table, 'readWrite');
    this.rootTokenSecret.grantRead(this.function);

    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: this.function,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', {
        retention: logs.RetentionDays.ONE_MONTH,
      }),
    });

    const functionArn = nagArnOf(this.function);
    acknowledge(provider, {
      [managedPolicyFinding('service-role/AWSLambdaBasicExecutionRole')]:
        "The custom resource provider framework's function (CDK's own) logs with AWSLambdaBasicExecutionRole: logs only.",
      ...(functionArn
        ? {
            [`AwsSolutions-IAM5[Resource::${functionArn}:*]`]:
              'The provider framework invokes the bootstrap function and any of its versions (`:*`): this one function only.',
          }
        : {}),
    });

    const resource = new CustomResource(this, 'RootUser', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::RootUser',
      properties: {
        RootTokenSecretArn: this.rootTokenSecret.secretArn,
        // CloudFormation updates a custom resource only when its properties change: the version of
        // the bootstrap function (a new one whenever its code or configuration changes, as a
        // release that adds a data migration does) makes every such deploy run it again.
        // It depends on the table through the function, so it runs once the table's update
        // (a new index created and filled) is complete.
        BootstrapVersion: this.function.currentVersion.version,
      },
    });
    if (props.jobsWorker) resource.node.addDependency(props.jobsWorker);
  }
}
