import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { HostingApi } from '../../infra/constructs/api';
import { METRICS_NAMESPACE } from '../../infra/constructs/group-function';
import { ProjectHostingStack } from '../../infra/stack';
import { HOOK_EVENT_STREAM_FILTER } from '../../shared/hooks/store/hook-events';
import { JOB_STREAM_FILTER, RUNNING_LEASE_MS } from '../../shared/platform/jobs';
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/platform/dynamo/table-definition';
import { allRoutes, gatewayResourceOf, parseRouteKey, routeCatalog, streamsResponses, type GroupName } from '../../shared/catalog';

type Resource = { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; DependsOn?: string[] };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const GROUPS = Object.keys(routeCatalog) as GroupName[];
/** The functions with the shared defaults: one per route group, plus the bootstrap (not a route group). */
const FUNCTION_GROUPS = [...GROUPS, 'bootstrap'];
/** The service's own functions: those, plus the webhook delivery (its own timeout, no bucket), the CI scheduler and the jobs worker. */
const ALL_FUNCTIONS = [...FUNCTION_GROUPS, 'hook_delivery', 'ci_scheduler', 'jobs'];

/** Memory (MB), timeout (s) and `/tmp` (MiB) of each function: 512 MB, 29 s and Lambda's 512 MiB unless listed. */
const DEFAULT_SIZE = { MemorySize: 512, Timeout: 29 };
const SIZES: Record<string, object> = {
  ...Object.fromEntries(FUNCTION_GROUPS.map((group) => [group, DEFAULT_SIZE])),
  // git's smart HTTP: packs in memory and /tmp, responses streamed for up to 15 minutes.
  web: { MemorySize: 2048, Timeout: 600, EphemeralStorage: { Size: 2048 } },
  repository: { MemorySize: 1024, Timeout: 29, EphemeralStorage: { Size: 1024 } },
  // Data migrations read whole collections once, on deploy: Lambda's longest run.
  bootstrap: { MemorySize: 512, Timeout: 900 },
};

let stack: ProjectHostingStack;
let template: Template;
let customUrlTemplate: Template;
/** A stack deployed with every deployment setting of the context given (`cdk deploy -c name=value` passes strings). */
let configured: ProjectHostingStack;
let configuredTemplate: Template;
const WEB_ACL_ARN = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/gitlab/abc';

/** Internal: logical ID of a construct's CloudFormation resource. */
function logicalId(construct: IConstruct): string {
  const resource = construct.node.defaultChild ?? construct;
  return Stack.of(construct).getLogicalId(resource as lambda.CfnFunction);
}

function functionId(group: string): string {
  if (group === 'bootstrap') return logicalId(stack.bootstrap.function);
  if (group === 'hook_delivery') return logicalId(stack.events.function);
  if (group === 'ci_scheduler') return logicalId(stack.ciScheduler.function);
  if (group === 'jobs') return logicalId(stack.jobs.function);
  return logicalId(stack.functions.byGroup[group as GroupName]);
}

function resourcesOfType(type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** Internal: every IAM statement of the policies attached to the role of a function. */
function statementsOf(functionLogicalId: string): Statement[] {
  const fn = resourcesOfType('AWS::Lambda::Function')[functionLogicalId];
  const role = (fn.Properties?.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOfType('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties?.Roles).includes(`"${role}"`))
    .flatMap((policy) => (policy.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
}

function allows(statements: Statement[], action: string, resourceLogicalId: string): boolean {
  return statements.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      [statement.Action].flat().includes(action) &&
      JSON.stringify(statement.Resource).includes(`"${resourceLogicalId}"`),
  );
}

type Operation = { responses?: unknown; 'x-amazon-apigateway-integration'?: { type: string; httpMethod: string; uri: unknown; responseTransferMode?: string } };
type ApiBody = { openapi: string; paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** Internal: the OpenAPI document the REST API is deployed from (its `Body`). */
function apiBody(): ApiBody {
  const [api] = Object.values(resourcesOfType('AWS::ApiGateway::RestApi'));
  return api.Properties!.Body as ApiBody;
}

/** Internal: every operation of the deployed document by `METHOD /path`. */
function bodyOperations(): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(apiBody().paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method !== 'parameters') operations.set(`${method.toUpperCase()} ${path}`, operation as Operation);
    }
  }
  return operations;
}

/** Internal: the stage variables of the prod stage. */
function stageVariables(): Record<string, unknown> {
  const [stage] = Object.values(resourcesOfType('AWS::ApiGateway::Stage'));
  return stage.Properties!.Variables as Record<string, unknown>;
}

/** Internal: asserts that an operation is a Lambda proxy integration with `group`'s function. */
function expectIntegratedWith(operation: Operation | undefined, group: GroupName, label: string): void {
  const integration = operation?.['x-amazon-apigateway-integration'];
  expect(integration?.type, label).toBe('aws_proxy');
  expect(integration?.httpMethod, label).toBe('POST');
  // The URI names the function through the group's stage variable, which holds the function's name;
  // a streaming group's is InvokeWithResponseStream's, with the STREAM transfer mode.
  const uri = JSON.stringify(integration?.uri);
  const variable = /\$\{!stageVariables\.([A-Za-z0-9_]+)\}/.exec(uri)?.[1];
  if (streamsResponses(group)) {
    expect(uri, label).toMatch(/:apigateway:\$\{AWS::Region\}:lambda:path\/2021-11-15\/functions\/arn:\$\{AWS::Partition\}:lambda:.*\/response-streaming-invocations/);
    expect(integration?.responseTransferMode, label).toBe('STREAM');
  } else {
    expect(uri, label).toMatch(/:apigateway:\$\{AWS::Region\}:lambda:path\/2015-03-31\/functions\/arn:\$\{AWS::Partition\}:lambda:.*\/invocations/);
    expect(integration?.responseTransferMode, label).toBeUndefined();
  }
  expect(variable, label).toBeDefined();
  expect(stageVariables()[variable!], label).toEqual({ Ref: logicalId(stack.functions.byGroup[group]) });
}

beforeAll(() => {
  // Prepare: the deployed feature flags; bundling skipped (`cdk synth` runs esbuild, not unit tests).
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });

  // Act
  stack = new ProjectHostingStack(app, 'Test');
  const customUrlStack = new ProjectHostingStack(app, 'CustomUrl', { externalUrl: 'https://git.example.com/' });
  template = Template.fromStack(stack);
  customUrlTemplate = Template.fromStack(customUrlStack);
  configured = new ProjectHostingStack(
    new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        bucketNoncurrentVersionDays: '90',
        apiThrottleRateLimit: '500',
        apiThrottleBurstLimit: 1000,
        apiGatewayCloudWatchRole: 'false',
        wafWebAclArn: WEB_ACL_ARN,
        alarmEmail: 'ops@example.com',
      },
    }),
    'Configured',
  );
  configuredTemplate = Template.fromStack(configured);
});

describe('ProjectHostingStack table', () => {
  it('creates the table with string keys from the table definition', () => {
    // Assess
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: TABLE_KEY.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE_KEY.sortKey, AttributeType: 'S' },
      ]),
      TableName: Match.absent(),
    });
  });

  it.each(GLOBAL_INDEXES.map((index) => [index.indexName, index] as const))(
    'creates global index %s with its keys and all attributes projected',
    (_name, index) => {
      // Assess
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ]),
        GlobalSecondaryIndexes: Match.arrayWith([
          {
            IndexName: index.indexName,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ]),
      });
    },
  );

  it('creates exactly the declared global indexes', () => {
    // Act
    const [table] = Object.values(resourcesOfType('AWS::DynamoDB::Table'));
    const names = (table.Properties!.GlobalSecondaryIndexes as { IndexName: string }[]).map((gsi) => gsi.IndexName);

    // Assess
    expect(names.sort()).toEqual(GLOBAL_INDEXES.map((index) => index.indexName).sort());
  });

  it('creates an on-demand, recoverable, streamed table with TTL, deletion protection, retained on deletion', () => {
    // Assess
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    });
  });
});

describe('ProjectHostingStack bucket', () => {
  it('creates a private, encrypted, versioned data bucket retained on deletion, logging its accesses', () => {
    // Act
    const bucket = resourcesOfType('AWS::S3::Bucket')[logicalId(stack.storage.bucket)];

    // Assess: the data bucket and the bucket of its access logs, nothing else.
    template.resourceCountIs('AWS::S3::Bucket', 2);
    expect(bucket).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        VersioningConfiguration: { Status: 'Enabled' },
        LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(stack.storage.accessLogsBucket) }, LogFilePrefix: 'data-bucket/' },
      },
    });
    expect(bucket.Properties?.BucketName).toBeUndefined();
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BucketName: Match.absent(),
        VersioningConfiguration: { Status: 'Enabled' },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      }),
    });
  });

  it('expires noncurrent versions after 30 days (cdk.json) and unfinished multipart uploads after a week, never current objects', () => {
    // Act
    const rules = (resourcesOfType('AWS::S3::Bucket')[logicalId(stack.storage.bucket)].Properties!.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;

    // Assess
    expect(rules).toEqual([
      {
        Id: 'ExpireNoncurrentVersions',
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: 30 },
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
        ExpiredObjectDeleteMarker: true,
      },
    ]);
    for (const rule of rules) expect(rule.ExpirationInDays, 'current objects never expire').toBeUndefined();
  });

  it('keeps the access logs in a private, TLS-only bucket for a year, delivered by the S3 logging service through its policy', () => {
    // Prepare
    const logsBucket = logicalId(stack.storage.accessLogsBucket);

    // Assess
    expect(resourcesOfType('AWS::S3::Bucket')[logsBucket]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        LifecycleConfiguration: { Rules: [{ ExpirationInDays: 365, Status: 'Enabled' }] },
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logsBucket },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Action: 's3:PutObject', Principal: { Service: 'logging.s3.amazonaws.com' } }),
        ]),
      },
    });
  });

  it('takes the noncurrent version retention from the context', () => {
    // Assess
    configuredTemplate.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 90 } })] },
    });
  });

  it('creates a bucket policy denying requests without TLS', () => {
    // Assess
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(stack.storage.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });
});

describe('ProjectHostingStack functions', () => {
  it('creates one function per route group plus the bootstrap, hook delivery and CI scheduler functions', () => {
    // Act
    const ours = Object.values(resourcesOfType('AWS::Lambda::Function')).filter(
      (fn) => fn.Properties?.Handler === 'index.handler',
    );

    // Assess
    expect(ours).toHaveLength(ALL_FUNCTIONS.length);
    expect(new Set(ALL_FUNCTIONS.map(functionId)).size).toBe(ALL_FUNCTIONS.length);
  });

  it.each(FUNCTION_GROUPS)('creates the %s function with the shared defaults', (group) => {
    // Act
    const fn = resourcesOfType('AWS::Lambda::Function')[functionId(group)];

    // Assess
    expect(fn.Properties).toMatchObject({
      Handler: 'index.handler',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      ...SIZES[group],
      LoggingConfig: { LogFormat: 'JSON' },
      Environment: {
        Variables: {
          TABLE_NAME: { Ref: logicalId(stack.data.table) },
          EXTERNAL_URL: expect.anything(),
        },
      },
    });
    // Source maps stay out of the request path (infra/bundling.ts).
    expect(JSON.stringify(fn.Properties)).not.toContain('source-maps');
  });

  it('keeps function logs one month, and the API access logs a year', () => {
    // Act
    const accessLogs = logicalId(stack.api.accessLogs);
    const logGroups = Object.entries(resourcesOfType('AWS::Logs::LogGroup'));

    // Assess
    expect(logGroups.length).toBeGreaterThanOrEqual(FUNCTION_GROUPS.length + 1);
    for (const [id, logGroup] of logGroups) expect(logGroup.Properties?.RetentionInDays, id).toBe(id === accessLogs ? 365 : 30);
  });

  it.each(ALL_FUNCTIONS)('traces the %s function with X-Ray and gives it the metrics namespace', (group) => {
    // Act
    const fn = resourcesOfType('AWS::Lambda::Function')[functionId(group)];
    const statements = statementsOf(functionId(group));

    // Assess: active tracing, and the X-Ray writes it needs (on every resource, as X-Ray wants).
    expect(fn.Properties).toMatchObject({
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: { POWERTOOLS_SERVICE_NAME: 'project-hosting', POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE } },
    });
    expect(METRICS_NAMESPACE).toBe('ProjectHosting');
    for (const action of ['xray:PutTraceSegments', 'xray:PutTelemetryRecords']) {
      expect(
        statements.some((statement) => statement.Effect === 'Allow' && [statement.Action].flat().includes(action) && statement.Resource === '*'),
        action,
      ).toBe(true);
    }
  });

  it('sets EXTERNAL_URL to the stage URL without depending on the deployment', () => {
    // Act
    const url = resourcesOfType('AWS::Lambda::Function')[logicalId(stack.functions.byGroup.users)].Properties!
      .Environment as { Variables: { EXTERNAL_URL: unknown } };
    const serialized = JSON.stringify(url.Variables.EXTERNAL_URL);

    // Assess
    expect(serialized).toContain(`"${logicalId(stack.api.restApi)}"`);
    expect(serialized).toContain('/prod');
    expect(serialized).not.toContain(logicalId(stack.api.restApi.deploymentStage));
  });

  it('sets EXTERNAL_URL to the external URL when one is given', () => {
    // Assess
    customUrlTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ EXTERNAL_URL: 'https://git.example.com' }) },
    });
  });

  it('grants the users function read-write access to the table and the bucket', () => {
    // Act
    const statements = statementsOf(logicalId(stack.functions.byGroup.users));

    // Assess
    const table = logicalId(stack.data.table);
    const bucket = logicalId(stack.storage.bucket);
    const tableActions = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
    for (const action of tableActions.map((name) => `dynamodb:${name}`)) {
      expect(allows(statements, action, table), action).toBe(true);
    }
    for (const action of ['s3:GetObject*', 's3:PutObject', 's3:DeleteObject*']) {
      expect(allows(statements, action, bucket), action).toBe(true);
    }
    expect(allows(statements, 's3:PutObjectAcl', bucket)).toBe(false);
  });

  it.each([
    ['uploads', 'readWrite'],
    ['projects', 'readWrite'],
    ['groups', 'readWrite'],
    ['users', 'readWrite'],
    ['web', 'readWrite'],
    ['repository', 'readWrite'],
    ['merge_requests', 'readWrite'],
    ['issues', 'none'],
    ['labels', 'none'],
    ['milestones', 'none'],
    ['todos', 'none'],
    ['members', 'none'],
    ['hooks', 'none'],
    ['meta', 'none'],
  ] as const)('gives the %s function %s access to the bucket, and its name only when it uses it', (group, access) => {
    // Act
    const statements = statementsOf(functionId(group));
    const variables = (resourcesOfType('AWS::Lambda::Function')[functionId(group)].Properties!.Environment as { Variables: Record<string, unknown> })
      .Variables;

    // Assess
    const bucket = logicalId(stack.storage.bucket);
    expect(allows(statements, 's3:GetObject*', bucket)).toBe(access !== 'none');
    expect(allows(statements, 's3:PutObject', bucket)).toBe(access === 'readWrite');
    expect(allows(statements, 's3:DeleteObject*', bucket)).toBe(access === 'readWrite');
    if (access === 'none') {
      expect(JSON.stringify(statements)).not.toContain(`"${bucket}"`);
      expect(variables).not.toHaveProperty('BUCKET_NAME');
    } else {
      expect(variables.BUCKET_NAME).toEqual({ Ref: bucket });
    }
  });

  it('grants the bootstrap function the root token secret and the table, not the bucket', () => {
    // Act
    const statements = statementsOf(logicalId(stack.bootstrap.function));

    // Assess
    expect(allows(statements, 'secretsmanager:GetSecretValue', logicalId(stack.bootstrap.rootTokenSecret))).toBe(true);
    expect(allows(statements, 'dynamodb:PutItem', logicalId(stack.data.table))).toBe(true);
    expect(JSON.stringify(statements)).not.toContain(`"${logicalId(stack.storage.bucket)}"`);
  });
});

describe('ProjectHostingStack hook delivery', () => {
  it('feeds the delivery function from the table stream, filtered to new hook events', () => {
    // Assess
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId('hook_delivery') },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.table), 'StreamArn'] },
      StartingPosition: 'LATEST',
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      MaximumRetryAttempts: 3,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('filters with exactly HOOK_EVENT_STREAM_FILTER', () => {
    // Act
    const [mapping] = Object.values(resourcesOfType('AWS::Lambda::EventSourceMapping')).filter((found) => JSON.stringify(found).includes(functionId('hook_delivery')));
    const { Filters } = mapping.Properties!.FilterCriteria as { Filters: { Pattern: string }[] };

    // Assess
    expect(Filters).toHaveLength(1);
    expect(JSON.parse(Filters[0].Pattern)).toEqual(HOOK_EVENT_STREAM_FILTER);
  });

  it('creates the delivery function with a 120 s timeout, no bucket and local network receivers refused', () => {
    // Act
    const fn = resourcesOfType('AWS::Lambda::Function')[functionId('hook_delivery')];
    const variables = (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

    // Assess
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 120 });
    expect(variables).toMatchObject({
      TABLE_NAME: { Ref: logicalId(stack.data.table) },
      EXTERNAL_URL: expect.anything(),
      SECRET_BOX_KEY_SECRET_ARN: { Ref: logicalId(stack.secretBoxKey) },
      HOOKS_ALLOW_LOCAL_NETWORK: 'false',
    });
    expect(variables.BUCKET_NAME).toBeUndefined();
  });

  it('grants the delivery function reading the table, its stream and the key secret only', () => {
    // Act
    const statements = statementsOf(functionId('hook_delivery'));
    const actions = statements.flatMap((statement) => [statement.Action].flat());

    // Assess
    const table = logicalId(stack.data.table);
    for (const action of ['GetItem', 'Query', 'BatchGetItem'].map((name) => `dynamodb:${name}`)) {
      expect(allows(statements, action, table), action).toBe(true);
    }
    const onStream = statements.filter(
      (statement) => JSON.stringify(statement.Resource) === JSON.stringify({ 'Fn::GetAtt': [table, 'StreamArn'] }),
    );
    expect(onStream.flatMap((statement) => [statement.Action].flat())).toEqual(
      expect.arrayContaining(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']),
    );
    expect(actions).toContain('dynamodb:ListStreams');
    for (const action of ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'].map((name) => `dynamodb:${name}`)) {
      expect(actions, action).not.toContain(action);
    }
    expect(actions.filter((action) => action.startsWith('s3:'))).toEqual([]);
    expect(JSON.stringify(statements)).not.toContain(`"${logicalId(stack.storage.bucket)}"`);
    expect(allows(statements, 'secretsmanager:GetSecretValue', logicalId(stack.secretBoxKey))).toBe(true);
    expect(actions).not.toContain('secretsmanager:PutSecretValue');
  });
});

describe('ProjectHostingStack CI scheduler', () => {
  it('invokes the scheduler function every minute, without retries', () => {
    // Act
    const rules = Object.values(resourcesOfType('AWS::Events::Rule')).filter((rule) => JSON.stringify(rule).includes(functionId('ci_scheduler')));

    // Assess
    expect(rules).toHaveLength(1);
    expect(rules[0].Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [functionId('ci_scheduler'), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionId('ci_scheduler'), 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
  });

  it('creates the scheduler function with a one-minute timeout, the table and the bucket', () => {
    // Act
    const fn = resourcesOfType('AWS::Lambda::Function')[functionId('ci_scheduler')];

    // Assess
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 60,
      Environment: { Variables: { TABLE_NAME: { Ref: logicalId(stack.data.table) }, BUCKET_NAME: { Ref: logicalId(stack.storage.bucket) } } },
    });
  });

  it('grants the scheduler function writing the table and the bucket, and no secret', () => {
    // Act
    const statements = statementsOf(functionId('ci_scheduler'));
    const actions = statements.flatMap((statement) => [statement.Action].flat());

    // Assess
    for (const action of ['Query', 'GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'].map((name) => `dynamodb:${name}`)) {
      expect(allows(statements, action, logicalId(stack.data.table)), action).toBe(true);
    }
    expect(allows(statements, 's3:DeleteObject*', logicalId(stack.storage.bucket))).toBe(true);
    expect(allows(statements, 's3:PutObject', logicalId(stack.storage.bucket))).toBe(true);
    expect(actions.filter((action) => action.startsWith('secretsmanager:'))).toEqual([]);
    expect(actions.filter((action) => action.startsWith('dynamodb:') && action.includes('Stream'))).toEqual([]);
  });
});

describe('ProjectHostingStack background jobs', () => {
  it('runs the worker on queued jobs of the stream and sweeps every minute, without retries', () => {
    // Act
    const rules = Object.values(resourcesOfType('AWS::Events::Rule')).filter((rule) => JSON.stringify(rule).includes(functionId('jobs')));

    // Assess
    expect(rules).toHaveLength(1);
    expect(rules[0].Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      Targets: [{ Arn: { 'Fn::GetAtt': [functionId('jobs'), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }],
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId('jobs') },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.table), 'StreamArn'] },
    });
    const [mapping] = Object.values(resourcesOfType('AWS::Lambda::EventSourceMapping')).filter((found) => JSON.stringify(found).includes(functionId('jobs')));
    const { Filters } = mapping.Properties!.FilterCriteria as { Filters: { Pattern: string }[] };
    expect(Filters.map((filter) => JSON.parse(filter.Pattern))).toEqual([JOB_STREAM_FILTER]);
  });

  it('gives the worker 15 minutes, within a running job\'s lease', () => {
    // Act
    const fn = resourcesOfType('AWS::Lambda::Function')[functionId('jobs')];

    // Assess
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 900 });
    expect((fn.Properties as { Timeout: number }).Timeout * 1000).toBeLessThan(RUNNING_LEASE_MS);
  });

  it('grants the worker writing the table and the bucket and opening the key secret', () => {
    // Act
    const statements = statementsOf(functionId('jobs'));

    // Assess
    for (const action of ['Query', 'GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'BatchWriteItem'].map((name) => `dynamodb:${name}`)) {
      expect(allows(statements, action, logicalId(stack.data.table)), action).toBe(true);
    }
    expect(allows(statements, 's3:DeleteObject*', logicalId(stack.storage.bucket))).toBe(true);
    expect(allows(statements, 'secretsmanager:GetSecretValue', logicalId(stack.secretBoxKey))).toBe(true);
  });
});

describe('ProjectHostingStack secret box', () => {
  it('generates the secret-box key material (44 alphanumeric characters), retained on deletion', () => {
    // Assess
    template.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        Name: Match.absent(),
        GenerateSecretString: { PasswordLength: 44, ExcludePunctuation: true, IncludeSpace: false },
      }),
    });
  });

  it.each(GROUPS)('gives the %s function the key secret ARN and read access to it', (group) => {
    // Prepare
    const secret = logicalId(stack.secretBoxKey);
    // Act
    const fn = resourcesOfType('AWS::Lambda::Function')[functionId(group)];
    const statements = statementsOf(functionId(group));
    // Assess
    expect(fn.Properties).toMatchObject({ Environment: { Variables: { SECRET_BOX_KEY_SECRET_ARN: { Ref: secret } } } });
    expect(allows(statements, 'secretsmanager:GetSecretValue', secret)).toBe(true);
    expect(allows(statements, 'secretsmanager:PutSecretValue', secret)).toBe(false);
  });
});

describe('ProjectHostingStack API', () => {
  it('deploys the API from one OpenAPI document: no resource or method of its own per route', () => {
    // Assess
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.resourceCountIs('AWS::ApiGateway::Resource', 0);
    template.resourceCountIs('AWS::ApiGateway::Method', 0);
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', 0);
    expect(apiBody().openapi).toMatch(/^3\.0\./);
  });

  it('defines an operation for every route of the catalog (a subtree: per method on its greedy resource), HEAD for every GET, and no other', () => {
    // Prepare
    const expected = [
      ...new Set(
        allRoutes().flatMap((route) => [
          `${route.method} ${gatewayResourceOf(route)}`,
          ...(route.method === 'GET' ? [`HEAD ${gatewayResourceOf(route)}`] : []),
        ]),
      ),
    ];

    // Act
    const operations = [...bodyOperations().keys()];

    // Assess
    expect(operations.sort()).toEqual(expected.sort());
  });

  it("integrates every route with its group's function through a Lambda proxy", () => {
    // Act
    const operations = bodyOperations();

    // Assess
    // A route of a subtree served by one greedy resource is integrated there (`GATEWAY_SUBTREES`).
    for (const route of allRoutes()) {
      expectIntegratedWith(operations.get(`${route.method} ${gatewayResourceOf(route)}`), route.group, route.key);
    }
  });

  it('answers HEAD with the function that serves GET', () => {
    // Act
    const operations = bodyOperations();

    // Assess
    for (const route of allRoutes().filter((candidate) => candidate.method === 'GET')) {
      expectIntegratedWith(operations.get(`HEAD ${gatewayResourceOf(route)}`), route.group, `HEAD ${route.resource}`);
    }
  });

  it('declares the path parameters of every path', () => {
    // Assess
    for (const [path, item] of Object.entries(apiBody().paths)) {
      const names = ((item.parameters ?? []) as { name: string; in: string; required: boolean }[]).map((parameter) => {
        expect(parameter).toMatchObject({ in: 'path', required: true });
        return parameter.name;
      });
      expect(names, path).toEqual([...path.matchAll(/\{([a-z_]+)\+?\}/g)].map((match) => match[1]));
    }
  });

  it('creates a regional REST API treating every media type as binary, imported in overwrite mode', () => {
    // Assess
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      BinaryMediaTypes: Match.arrayWith(['*/*']),
      EndpointConfiguration: { Types: ['REGIONAL'] },
      Parameters: { endpointConfigurationTypes: 'REGIONAL' },
      Mode: 'overwrite',
    });
    expect(apiBody()['x-amazon-apigateway-binary-media-types']).toEqual(['*/*']);
  });

  it('creates the prod stage with tracing, metrics, throttling from cdk.json, error logs and no data trace', () => {
    // Assess: every method (`/*`, `*`) throttled at the stage's rate and burst.
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      MethodSettings: [
        {
          HttpMethod: '*',
          ResourcePath: '/*',
          DataTraceEnabled: false,
          MetricsEnabled: true,
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
          LoggingLevel: 'ERROR',
        },
      ],
    });
  });

  it('takes the throttling figures from the context', () => {
    // Assess
    configuredTemplate.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 })],
    });
  });

  it('refuses a throttling figure that is not a positive number', () => {
    // Prepare
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], apiThrottleRateLimit: 'fast' } });

    // Act
    const act = () => new ProjectHostingStack(app, 'Bad');

    // Assess
    expect(act).toThrow(/apiThrottleRateLimit must be a positive number/);
  });

  it('writes a JSON access log line per request, with the request id and without the query string', () => {
    // Act
    const [stage] = Object.values(resourcesOfType('AWS::ApiGateway::Stage'));
    const setting = stage.Properties!.AccessLogSetting as { DestinationArn: unknown; Format: string };
    const line = JSON.parse(
      setting.Format.replace(/\$context\.[A-Za-z.]+/g, (variable) => (/status|Length|Latency/.test(variable) ? '200' : 'x')),
    ) as Record<string, unknown>;

    // Assess
    expect(setting.DestinationArn).toEqual({ 'Fn::GetAtt': [logicalId(stack.api.accessLogs), 'Arn'] });
    expect(setting.Format).toContain('"requestId":"$context.requestId"');
    expect(setting.Format).toContain('"status":$context.status');
    expect(setting.Format).toContain('"errorType":"$context.error.responseType"');
    expect(Object.keys(line)).toEqual(expect.arrayContaining(['requestId', 'ip', 'httpMethod', 'path', 'status', 'errorType']));
    expect(setting.Format).not.toMatch(/querystring|requestOverride|authorizer|\$input/i);
    template.hasResource('AWS::Logs::LogGroup', { DeletionPolicy: 'Retain', Properties: { RetentionInDays: 365 } });
  });

  it("sets the region's API Gateway logging role, retained on deletion, unless told not to", () => {
    // Assess
    template.hasResource('AWS::ApiGateway::Account', { DeletionPolicy: 'Retain' });
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'apigateway.amazonaws.com' } })] },
    });
    configuredTemplate.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('associates no web ACL unless one is given, and exposes the stage ARN to associate one', () => {
    // Assess
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    expect(JSON.stringify(template.findOutputs('ApiStageArn').ApiStageArn)).toContain(logicalId(stack.api.restApi.deploymentStage));
  });

  it('associates the web ACL of the wafWebAclArn context with the stage', () => {
    // Act
    const associations = Object.values(configuredTemplate.findResources('AWS::WAFv2::WebACLAssociation')) as Resource[];

    // Assess
    expect(associations).toHaveLength(1);
    expect(associations[0].Properties?.WebACLArn).toBe(WEB_ACL_ARN);
    expect(JSON.stringify(associations[0].Properties?.ResourceArn)).toContain(`"${logicalId(configured.api.restApi.deploymentStage)}"`);
  });

  it('serves the repository API from one greedy resource, the repository function routing inside', () => {
    // Act
    const item = apiBody().paths['/api/v4/projects/{id}/repository/{proxy+}'];

    // Assess
    for (const method of ['get', 'head', 'post', 'put', 'delete']) expectIntegratedWith(item?.[method] as Operation, 'repository', method);
    expect(Object.keys(apiBody().paths).filter((path) => path.startsWith('/api/v4/projects/{id}/repository/'))).toEqual([
      '/api/v4/projects/{id}/repository/{proxy+}',
    ]);
  });

  it('serves web routes from a greedy root resource, GET /{path+}, integrated with the web function', () => {
    // Act
    const item = apiBody().paths['/{path+}'];

    // Assess
    expectIntegratedWith(item?.get as Operation, 'web', 'GET /{path+}');
    expect(item?.parameters).toEqual([{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }]);
  });

  it('answers unknown routes with GitLab 404', () => {
    // Assess
    expect(apiBody()['x-amazon-apigateway-gateway-responses']).toMatchObject({
      MISSING_AUTHENTICATION_TOKEN: {
        statusCode: '404',
        responseParameters: { 'gatewayresponse.header.X-Request-Id': 'context.requestId' },
        responseTemplates: { 'application/json': '{"error":"404 Not Found"}' },
      },
    });
  });

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX'])('answers %s with a JSON message and the request id', (type) => {
    // Assess
    expect((apiBody()['x-amazon-apigateway-gateway-responses'] as Record<string, unknown>)[type]).toEqual({
      responseParameters: { 'gatewayresponse.header.X-Request-Id': 'context.requestId' },
      responseTemplates: { 'application/json': '{"message":$context.error.messageString}' },
    });
  });

  it('grants API Gateway one API-wide invoke permission per function, not one per method', () => {
    // Act
    const permissions = Object.values(resourcesOfType('AWS::Lambda::Permission'));

    // Assess
    for (const group of GROUPS) {
      const id = logicalId(stack.functions.byGroup[group]);
      const own = permissions.filter((p) => JSON.stringify(p.Properties?.FunctionName).includes(`"${id}"`));
      expect(own.length, group).toBeGreaterThanOrEqual(1);
      expect(own.length, group).toBeLessThanOrEqual(2);
      for (const permission of own) {
        expect(permission.Properties?.Principal).toBe('apigateway.amazonaws.com');
        expect(JSON.stringify(permission.Properties?.SourceArn)).toContain('/*/*/*');
      }
    }
    expect(permissions.length).toBeLessThanOrEqual(2 * FUNCTION_GROUPS.length);
  });
});

describe('ProjectHostingStack bootstrap', () => {
  it('generates a 40-character alphanumeric root token, retained on deletion', () => {
    // Assess
    template.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        Name: Match.absent(),
        GenerateSecretString: { PasswordLength: 40, ExcludePunctuation: true, IncludeSpace: false },
      }),
    });
  });

  it('creates the root user through a custom resource given the secret ARN', () => {
    // Assess
    template.hasResourceProperties('Custom::RootUser', {
      ServiceToken: Match.anyValue(),
      RootTokenSecretArn: { Ref: logicalId(stack.bootstrap.rootTokenSecret) },
    });
  });

  it("runs the bootstrap (root, data migrations) again on every deploy that changes the bootstrap function's code", () => {
    // Assess: CloudFormation sends a custom resource an update only when its properties change;
    // one of them is the version of the bootstrap function, a new one whenever its code changes.
    const [version] = Object.entries(resourcesOfType('AWS::Lambda::Version')).filter(
      ([, resource]) => JSON.stringify((resource.Properties as { FunctionName?: unknown }).FunctionName) === JSON.stringify({ Ref: logicalId(stack.bootstrap.function) }),
    );
    expect(version).toBeDefined();
    template.hasResourceProperties('Custom::RootUser', { BootstrapVersion: { 'Fn::GetAtt': [version[0], 'Version'] } });
  });

  it('runs the bootstrap once the jobs worker is updated: the migrations it has no time for go on there, in the same release', () => {
    // Assess
    const [[, resource]] = Object.entries(resourcesOfType('Custom::RootUser'));
    expect(resource.DependsOn).toEqual(expect.arrayContaining([logicalId(stack.jobs.function)]));
  });
});

type AlarmMetric = { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: unknown }[] }; Period: number; Stat: string } };
type AlarmProperties = {
  MetricName?: string;
  Namespace?: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Metrics?: AlarmMetric[];
  Threshold: number;
  AlarmActions: unknown[];
  OKActions: unknown[];
  TreatMissingData: string;
  ComparisonOperator: string;
};

/** Internal: every alarm's properties. */
function alarms(): AlarmProperties[] {
  return Object.values(resourcesOfType('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties as AlarmProperties);
}

/** Internal: the metrics an alarm watches (its one metric, or those its expression sums). */
function watched(alarm: AlarmProperties): { name: string; namespace: string; dimensions: Record<string, string> }[] {
  const dimensionsOf = (dimensions: { Name: string; Value: unknown }[] = []) =>
    Object.fromEntries(dimensions.map((dimension) => [dimension.Name, JSON.stringify(dimension.Value)]));
  if (alarm.MetricName) return [{ name: alarm.MetricName, namespace: alarm.Namespace!, dimensions: dimensionsOf(alarm.Dimensions) }];
  return (alarm.Metrics ?? [])
    .filter((metric) => metric.MetricStat)
    .map((metric) => ({ name: metric.MetricStat!.Metric.MetricName, namespace: metric.MetricStat!.Metric.Namespace, dimensions: dimensionsOf(metric.MetricStat!.Metric.Dimensions) }));
}

describe('ProjectHostingStack alarms', () => {
  it('notifies one TLS-only SNS topic, exported for operators to subscribe to, when an alarm goes off and when it recovers', () => {
    // Prepare
    const topic = logicalId(stack.alarms.topic);

    // Assess
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topic }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    expect(template.findOutputs('AlarmTopicArn').AlarmTopicArn).toMatchObject({ Value: { Ref: topic } });
    expect(alarms().length).toBeGreaterThanOrEqual(5);
    for (const alarm of alarms()) {
      expect(alarm).toMatchObject({
        AlarmActions: [{ Ref: topic }],
        OKActions: [{ Ref: topic }],
        TreatMissingData: 'notBreaching',
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('subscribes the alarmEmail context address to the topic', () => {
    // Assess
    configuredTemplate.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it("alarms on the API's 5xx answers", () => {
    // Act
    const found = alarms().filter((alarm) => watched(alarm).some((metric) => metric.namespace === 'AWS/ApiGateway' && metric.name === '5XXError'));

    // Assess
    expect(found).toHaveLength(1);
    expect(found[0].Threshold).toBe(5);
    expect(watched(found[0])[0].dimensions.ApiName).toBe(JSON.stringify('Test'));
  });

  it('alarms on requests the API throttled, counted from the access logs', () => {
    // Act
    const found = alarms().filter((alarm) => watched(alarm).some((metric) => metric.name === 'ApiThrottled'));

    // Assess
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalId(stack.api.accessLogs) },
      FilterPattern: '{ $.errorType = "THROTTLED" }',
      MetricTransformations: [{ MetricNamespace: METRICS_NAMESPACE, MetricName: 'ApiThrottled', MetricValue: '1' }],
    });
    expect(found).toHaveLength(1);
    expect(found[0].Threshold).toBe(1);
  });

  it.each([
    ['Errors', 5],
    ['Throttles', 1],
  ])('alarms on the Lambda %s of every function of the service, in sums of at most ten functions', (metricName, threshold) => {
    // Act
    const found = alarms().filter((alarm) => watched(alarm).some((metric) => metric.namespace === 'AWS/Lambda' && metric.name === metricName));
    const functions = found.flatMap((alarm) => watched(alarm).map((metric) => metric.dimensions.FunctionName));

    // Assess
    expect(functions.sort()).toEqual(ALL_FUNCTIONS.map((group) => JSON.stringify({ Ref: functionId(group) })).sort());
    for (const alarm of found) {
      expect(alarm.Threshold).toBe(threshold);
      expect(watched(alarm).length).toBeLessThanOrEqual(10);
      expect(alarm.Metrics?.find((metric) => metric.Expression)?.Expression).toMatch(/^SUM\(\[m\d+(,m\d+)*\]\)$/);
    }
  });

  it('alarms on DynamoDB throttled requests of the table, for every operation the service calls', () => {
    // Act
    const found = alarms().filter((alarm) => watched(alarm).some((metric) => metric.namespace === 'AWS/DynamoDB'));
    const metrics = found.flatMap(watched);

    // Assess
    expect(found).toHaveLength(1);
    expect(found[0].Threshold).toBe(1);
    expect(new Set(metrics.map((metric) => metric.name))).toEqual(new Set(['ThrottledRequests']));
    for (const metric of metrics) expect(metric.dimensions.TableName).toBe(JSON.stringify({ Ref: logicalId(stack.data.table) }));
    expect(metrics.map((metric) => JSON.parse(metric.dimensions.Operation) as string).sort()).toEqual(
      ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactGetItems', 'TransactWriteItems', 'UpdateItem'],
    );
  });
});

describe('ProjectHostingStack outputs', () => {
  it.each(['ApiUrl', 'TableName', 'BucketName', 'RootTokenSecretArn', 'AlarmTopicArn', 'ApiStageArn'])('exports %s', (name) => {
    // Assess
    template.hasOutput(name, { Value: Match.anyValue() });
  });

  it('exports no other output', () => {
    // Assess
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual([
      'AlarmTopicArn',
      'ApiStageArn',
      'ApiUrl',
      'BucketName',
      'RootTokenSecretArn',
      'TableName',
    ]);
  });

  it('exports the deployed stage URL without a trailing slash', () => {
    // Act
    const { Value } = template.findOutputs('ApiUrl').ApiUrl as { Value: unknown };
    const serialized = JSON.stringify(Value);

    // Assess
    expect(serialized).toContain(`"${logicalId(stack.api.restApi.deploymentStage)}"`);
    expect(serialized).not.toMatch(/\/"\]\]\}$/);
  });
});

describe('HostingApi', () => {
  it('refuses differently named sibling path parameters, which API Gateway would reject', () => {
    // Prepare
    const scope = new Stack(new App(), 'Conflict');
    const routes = [parseRouteKey('users', 'GET /users/:id'), parseRouteKey('users', 'GET /users/:user_id/keys')];

    // Act
    const act = () => new HostingApi(scope, 'Api', { routes });

    // Assess
    expect(act).toThrow(/sibling path parameters \{id\} and \{user_id\}/);
  });

  it('refuses to synthesize without the functions of its routes', () => {
    // Prepare
    const scope = new Stack(new App(), 'NoFunctions');
    new HostingApi(scope, 'Api', { routes: [parseRouteKey('users', 'GET /users/:id')] });

    // Act
    const act = () => Template.fromStack(scope);

    // Assess
    expect(act).toThrow(/no function for route group 'users'/);
  });

  it('integrates an imported function by name, with an API-wide permission', () => {
    // Prepare
    const scope = new Stack(new App(), 'Imported', { env: { account: '123456789012', region: 'us-east-1' } });
    const api = new HostingApi(scope, 'Api', { routes: [parseRouteKey('users', 'GET /users/:id')] });
    const fn = lambda.Function.fromFunctionArn(scope, 'Fn', 'arn:aws:lambda:us-east-1:123456789012:function:f');

    // Act
    api.integrate({ ...stack.functions.byGroup, users: fn });
    const imported = Template.fromStack(scope);

    // Assess
    imported.hasResourceProperties('AWS::ApiGateway::Stage', { Variables: { fn_users: 'f' } });
    imported.resourceCountIs('AWS::Lambda::Permission', 1);
  });
});
