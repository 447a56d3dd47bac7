import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, type ILocalBundling, type Size } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { BUNDLE_LIMIT_BYTES, functionBuildOptions, loadedAtImport } from '../bundling';
import { acknowledge, managedPolicyFinding, nagArnOf } from '../nag';

/** Repository root: the project's `package-lock.json` and `functions/` live there. */
const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The CloudWatch namespace of the service's metrics (`POWERTOOLS_METRICS_NAMESPACE`). */
export const METRICS_NAMESPACE = 'ProjectHosting';

/**
 * Builds one handler with the project's esbuild configuration (`infra/bundling.ts`) into the
 * asset's directory, on this machine: `index.mjs` plus the chunks it loads at import or later
 * (code splitting needs an output directory, which CDK's `NodejsFunction` does not give esbuild).
 * `entry` is a property so that each function's bundling options differ (CDK caches assets by them).
 */
class EsbuildBundling implements ILocalBundling {
  public constructor(public readonly entry: string) {}

  public tryBundle(outputDir: string): boolean {
    const { metafile } = buildSync(functionBuildOptions(`${ROOT_DIR}${this.entry}`, outputDir));
    // Issue 12's cold-start budget holds for every build (`cdk synth`, part of `npm test`, and deploys).
    const { bytes } = loadedAtImport(metafile);
    if (bytes > BUNDLE_LIMIT_BYTES) {
      throw new Error(`${this.entry} loads ${Math.round(bytes / 1024)} KB of code at cold start, over ${BUNDLE_LIMIT_BYTES / 1024} KB: load what it rarely needs lazily (infra/bundling.ts)`);
    }
    return true;
  }
}

/** What a function may do with a data store. */
export type DataAccess = 'read' | 'readWrite';

export interface GroupFunctionProps {
  /**
   * Handler group: the code is `functions/<group>/handler.ts`, exporting `handler`. An API route
   * group, or a function of its own (`bootstrap`, `hook_delivery`).
   */
  readonly group: string;
  /** Exposed as `TABLE_NAME`. Nothing is granted: call {@link GroupFunction.grantTable}. */
  readonly table: dynamodb.ITable;
  /**
   * Exposed as `BUCKET_NAME`. Nothing is granted: call {@link GroupFunction.grantBucket}.
   * @default - none: the function does not use the bucket
   */
  readonly bucket?: s3.IBucket;
  /** Public base URL of the service (no trailing slash), exposed as `EXTERNAL_URL`. */
  readonly externalUrl: string;
  /** @default - `project-hosting <group>` */
  readonly description?: string;
  /** @default 29 s, API Gateway's integration limit (API functions cannot use more, unless they stream their responses) */
  readonly timeout?: Duration;
  /** @default 512 MB */
  readonly memorySize?: number;
  /** The size of `/tmp`. @default - Lambda's 512 MiB */
  readonly ephemeralStorageSize?: Size;
}

/**
 * A Lambda function running one handler group, with the defaults shared by every function of
 * the service: Node.js 22 on arm64, 512 MB, 29 s unless told (API Gateway's integration limit),
 * JSON logs kept one month, and the single bundling configuration of the project (`infra/bundling.ts`).
 *
 * Observability (`shared/platform/observability.ts`): X-Ray active tracing (Lambda's segment plus
 * the AWS SDK calls, traced by Powertools' Tracer; `Tracing.ACTIVE` also grants the X-Ray writes)
 * and Powertools' metrics (EMF lines on stdout) in the namespace {@link METRICS_NAMESPACE}.
 *
 * Grants default to least privilege: the function gets the names of the table and bucket but no
 * permission on them until {@link grantTable} / {@link grantBucket} is called.
 *
 * @example
 * const fn = new GroupFunction(this, 'Users', { group: 'users', table, bucket, externalUrl });
 * fn.grantTable(table, 'readWrite');
 */
export class GroupFunction extends lambda.Function {
  public readonly group: string;

  public constructor(scope: Construct, id: string, props: GroupFunctionProps) {
    // Created beside the function (not inside it): `this` is not available before `super`.
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
    });

    super(scope, id, {
      description: props.description ?? `project-hosting ${props.group}`,
      // The project's one bundling configuration (`infra/bundling.ts`), built locally (no Docker):
      // the image is required by CDK's API and never used, since the local bundling never declines.
      // The asset's hash is its output's, as `NodejsFunction`'s.
      code: lambda.Code.fromAsset(`${ROOT_DIR}functions/${props.group}`, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: { image: DockerImage.fromRegistry('unused-local-bundling'), local: new EsbuildBundling(`functions/${props.group}/handler.ts`) },
      }),
      // `index.mjs`'s `handler` (`FUNCTION_ENTRY_FILE`).
      handler: 'index.handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      ephemeralStorageSize: props.ephemeralStorageSize,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      environment: {
        TABLE_NAME: props.table.tableName,
        ...(props.bucket ? { BUCKET_NAME: props.bucket.bucketName } : {}),
        EXTERNAL_URL: props.externalUrl,
        POWERTOOLS_SERVICE_NAME: 'project-hosting',
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      },
    });

    this.group = props.group;

    acknowledge(this, {
      [managedPolicyFinding('service-role/AWSLambdaBasicExecutionRole')]:
        'AWSLambdaBasicExecutionRole grants only logs:CreateLogGroup, CreateLogStream and PutLogEvents, what every function needs to log; ' +
        'an inline copy per function would only grow the role policies (IAM size limit) and the template.',
      'AwsSolutions-IAM5[Resource::*]':
        'X-Ray active tracing (xray:PutTraceSegments, PutTelemetryRecords) supports no resource-level permission: AWS requires "*".',
      'AwsSolutions-L1':
        'Node.js 22 is pinned on purpose: package.json engines, the esbuild target (node22) and the local runtime are Node 22, so what ' +
        'runs in Lambda is what is tested. The runtime is moved deliberately, all of them at once, never by a rule.',
    });
  }

  /** Grants access to the table and its indexes; read-only unless asked. */
  public grantTable(table: dynamodb.ITable, access: DataAccess = 'read'): void {
    if (access === 'readWrite') table.grantReadWriteData(this);
    else table.grantReadData(this);
    const arn = nagArnOf(table);
    if (arn) {
      acknowledge(this, {
        [`AwsSolutions-IAM5[Resource::${arn}/index/*]`]:
          "The single-table design queries the table's global secondary indexes, all of them (shared/platform/dynamo/table-definition.ts); " +
          'the wildcard covers only the indexes of this one table.',
      });
    }
  }

  /**
   * Lets the function seal and open stored secrets (`shared/platform/crypto/secret-box.ts`): exposes the
   * key secret as `SECRET_BOX_KEY_SECRET_ARN` and grants reading it.
   */
  public useSecretBoxKey(secret: secretsmanager.ISecret): void {
    this.addEnvironment('SECRET_BOX_KEY_SECRET_ARN', secret.secretArn);
    secret.grantRead(this);
  }

  /** Grants access to the bucket's objects; read-only unless asked. */
  public grantBucket(bucket: s3.IBucket, access: DataAccess = 'read'): void {
    if (access === 'readWrite') bucket.grantReadWrite(this);
    else bucket.grantRead(this);
    const arn = nagArnOf(bucket);
    const reason =
      "CDK's grant of this one bucket: its objects (keys are generated per project, shared/projects/store/objects.ts) and the action " +
      'groups reading them (Get*, List*) and, when writing, putting, deleting and aborting multipart uploads of them; no other bucket, no ACL or policy change.';
    const actions = access === 'readWrite' ? ['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'] : ['s3:GetBucket*', 's3:GetObject*', 's3:List*'];
    acknowledge(this, {
      ...Object.fromEntries(actions.map((action) => [`AwsSolutions-IAM5[Action::${action}]`, reason])),
      ...(arn ? { [`AwsSolutions-IAM5[Resource::${arn}/*]`]: reason } : {}),
    });
  }
}
