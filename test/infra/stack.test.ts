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
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/platform/dynamo/table-definition';
import { allRoutes, gatewayResourceOf, parseRouteKey, routeCatalog, streamsResponses, type GroupName } from '../../shared/catalog';

type Resource = { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const GROUPS = Object.keys(routeCatalog) as GroupName[];
/** The functions with the shared defaults: one per route group, plus the bootstrap (not a route group). */
const FUNCTION_GROUPS = [...GROUPS, 'bootstrap'];
/** The service's own functions: those, plus the webhook delivery (its own timeout, no bucket) and the CI scheduler. */
const ALL_FUNCTIONS = [...FUNCTION_GROUPS, 'hook_delivery', 'ci_scheduler'];

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

/** Internal: logical ID of a construct's CloudFormation resource. */
function logicalId(construct: IConstruct): string {
  const resource = construct.node.defaultChild ?? construct;
  return Stack.of(construct).getLogicalId(resource as lambda.CfnFunction);
}

function functionId(group: string): string {
  if (group === 'bootstrap') return logicalId(stack.bootstrap.function);
  if (group === 'hook_delivery') return logicalId(stack.events.function);
  if (group === 'ci_scheduler') return logicalId(stack.ciScheduler.function);
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

  it('creates an on-demand, recoverable, streamed table with TTL, retained on deletion', () => {
    // Assess
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    });
  });
});

describe('ProjectHostingStack bucket', () => {
  it('creates a private, encrypted, unversioned bucket retained on deletion', () => {
    // Assess
    template.resourceCountIs('AWS::S3::Bucket', 1);
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BucketName: Match.absent(),
        VersioningConfiguration: Match.absent(),
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
          NODE_OPTIONS: '--enable-source-maps',
        },
      },
    });
  });

  it('keeps function logs one month', () => {
    // Act
    const logGroups = Object.values(resourcesOfType('AWS::Logs::LogGroup'));

    // Assess
    expect(logGroups.length).toBeGreaterThanOrEqual(FUNCTION_GROUPS.length);
    for (const logGroup of logGroups) expect(logGroup.Properties?.RetentionInDays).toBe(30);
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
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
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
    const [mapping] = Object.values(resourcesOfType('AWS::Lambda::EventSourceMapping'));
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
    const rules = Object.values(resourcesOfType('AWS::Events::Rule'));

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

  it('creates the prod stage with tracing, metrics, throttling and no data trace', () => {
    // Assess
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      MethodSettings: [
        Match.objectLike({
          DataTraceEnabled: false,
          MetricsEnabled: true,
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
          LoggingLevel: Match.absent(),
        }),
      ],
    });
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
});

describe('ProjectHostingStack outputs', () => {
  it.each(['ApiUrl', 'TableName', 'BucketName', 'RootTokenSecretArn'])('exports %s', (name) => {
    // Assess
    template.hasOutput(name, { Value: Match.anyValue() });
  });

  it('exports no other output', () => {
    // Assess
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual([
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
