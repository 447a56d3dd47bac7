import { Fn, Lazy, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { gatewayRoutes, streamsResponses, type GroupName, type RouteSpec } from '../../shared/catalog';
import { acknowledge, managedPolicyFinding } from '../nag';
import { apiGatewayDocument, stageVariableOf, type OpenApiDocument } from '../openapi';

export interface ApiThrottle {
  /** Steady-state requests per second for the whole stage. */
  readonly rateLimit: number;
  /** Maximum burst of concurrent requests. */
  readonly burstLimit: number;
}

/** The stage's throttling when none is given: per second, for the whole stage (all methods). */
export const DEFAULT_THROTTLE: ApiThrottle = { rateLimit: 100, burstLimit: 200 };

export interface HostingApiProps {
  /** The routes the API serves: the route catalog's (`allRoutes()`). */
  readonly routes: readonly RouteSpec[];
  /** @default {@link DEFAULT_THROTTLE} */
  readonly throttle?: ApiThrottle;
  /**
   * Whether the stack sets the region's API Gateway CloudWatch role (`AWS::ApiGateway::Account`),
   * which API Gateway needs to write access and execution logs. There is one per account and
   * region: turn this off where another stack already sets it.
   * @default true
   */
  readonly cloudWatchRole?: boolean;
  /**
   * An existing AWS WAFv2 web ACL (regional scope) to associate with the stage.
   * @default - none: the stage's ARN is exposed ({@link HostingApi.stageArn}) to associate one later
   */
  readonly wafWebAclArn?: string;
}

/**
 * The access log line of every request (JSON, one line each). The query string is left out on
 * purpose: GitLab clients may send `private_token` there. `errorType` is API Gateway's own error
 * (`THROTTLED`, `MISSING_AUTHENTICATION_TOKEN` for an unknown route, ...), empty when the function
 * answered; the throttling alarm counts `THROTTLED` lines.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  errorType: '$context.error.responseType',
  xrayTraceId: '$context.xrayTraceId',
} as const;

/** Numbers in {@link ACCESS_LOG_FIELDS}, written unquoted so that metric filters can compare them. */
const NUMERIC_FIELDS = new Set(['status', 'responseLength', 'responseLatency', 'integrationLatency']);

const DESCRIPTION = 'GitLab API v4 compatible project hosting';

/**
 * The public REST API (API Gateway v1), deployed from one OpenAPI document generated from the
 * route catalog (`infra/openapi.ts`): a route costs no CloudFormation resource, the whole API is
 * one `AWS::ApiGateway::RestApi` whose `Body` is the document.
 *
 * REST rather than HTTP API because GitLab clients address projects as `group%2Fproject`: a REST
 * API keeps the encoded slash inside a single `{id}` path parameter, an HTTP API decodes it and
 * misses the route. Every media type is declared binary, so every body reaches Lambda
 * base64-encoded and multipart uploads arrive byte-exact. Authentication is done by the handlers
 * (tokens), never by API Gateway, and request bodies are never logged (they carry tokens).
 *
 * Unknown routes, which API Gateway answers with `MISSING_AUTHENTICATION_TOKEN`, become GitLab's
 * `404 {"error":"404 Not Found"}`; the other gateway errors answer JSON. These gateway responses
 * are part of the document: the document is imported in `overwrite` mode, so anything set beside
 * it would be wiped by the next import.
 *
 * Guard rails of the `prod` stage: throttling of every method at the stage's rate and burst
 * ({@link DEFAULT_THROTTLE}, or the stack's context), X-Ray tracing, CloudWatch metrics, execution
 * logs of errors only (never request data), a JSON access log line per request
 * ({@link ACCESS_LOG_FIELDS}), the request validator of the document (declared path parameters),
 * and a WAFv2 web ACL when one is given ({@link HostingApiProps.wafWebAclArn}).
 *
 * Each operation invokes its group's function by name through a stage variable
 * (`${stageVariables.fn_users}`), not by ARN: the functions need the API's URL (`baseUrl`), so the
 * API definition cannot also need the functions (a dependency cycle). The stage, created after
 * both, maps each variable to its function ({@link integrate}).
 *
 * @example
 * const api = new HostingApi(this, 'Api', { routes: allRoutes() });
 * // ... functions, which may use api.baseUrl ...
 * api.integrate(functions.byGroup);
 */
export class HostingApi extends Construct {
  public static readonly STAGE_NAME = 'prod';

  public readonly restApi: apigateway.SpecRestApi;
  /** The OpenAPI document the API is deployed from (with CloudFormation tokens in its URIs). */
  public readonly definition: OpenApiDocument;
  /**
   * The stage URL (no trailing slash), built from the API id and the stage *name*: the functions
   * behind the API can read it without depending on the deployment, which depends on them.
   */
  public readonly baseUrl: string;
  /** The stage URL (no trailing slash), referencing the deployed stage: for outputs. */
  public readonly url: string;
  /** The ARN of the `prod` stage: what a WAF web ACL is associated with. */
  public readonly stageArn: string;
  /** The stage's access logs, one JSON line per request ({@link ACCESS_LOG_FIELDS}), kept a year. */
  public readonly accessLogs: logs.LogGroup;

  private readonly groups: readonly GroupName[];
  private functions?: Readonly<Record<GroupName, lambda.IFunction>>;

  public constructor(scope: Construct, id: string, props: HostingApiProps) {
    super(scope, id);
    const throttle = props.throttle ?? DEFAULT_THROTTLE;
    const cloudWatchRole = props.cloudWatchRole ?? true;
    const stack = Stack.of(this);
    this.groups = [...new Set(props.routes.map((route) => route.group))];

    // Subtrees served by one greedy resource each (`GATEWAY_SUBTREES`): the 300-resource quota.
    this.definition = apiGatewayDocument(gatewayRoutes(props.routes), {
      title: stack.stackName,
      description: DESCRIPTION,
      // `${!name}` is Fn::Sub's escape for a literal `${name}`: API Gateway reads the stage variable.
      // A streaming group's integration calls InvokeWithResponseStream (another API version and action).
      integrationUri: (group) =>
        Fn.sub(
          `arn:\${AWS::Partition}:apigateway:\${AWS::Region}:lambda:path/${streamsResponses(group) ? '2021-11-15' : '2015-03-31'}/functions/` +
            `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:\${!stageVariables.${stageVariableOf(group)}}/` +
            (streamsResponses(group) ? 'response-streaming-invocations' : 'invocations'),
        ),
      streams: streamsResponses,
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_YEAR,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.restApi = new apigateway.SpecRestApi(this, 'RestApi', {
      restApiName: stack.stackName,
      description: DESCRIPTION,
      apiDefinition: apigateway.ApiDefinition.fromInline(this.definition),
      // The document is the whole API: a route removed from it disappears on the next deployment.
      mode: apigateway.RestApiMode.OVERWRITE,
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      // The import itself must create a regional API (an import otherwise makes an edge-optimized one).
      parameters: { endpointConfigurationTypes: 'REGIONAL' },
      binaryMediaTypes: ['*/*'],
      // API Gateway writes access and execution logs with the region's CloudWatch role; retained,
      // since other APIs of the account may rely on it.
      cloudWatchRole,
      ...(cloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      deployOptions: {
        stageName: HostingApi.STAGE_NAME,
        tracingEnabled: true,
        metricsEnabled: true,
        // Execution logs of failures only; never request or response data (bodies carry tokens).
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.custom(
          `{${Object.entries(ACCESS_LOG_FIELDS)
            .map(([name, variable]) => (NUMERIC_FIELDS.has(name) ? `"${name}":${variable}` : `"${name}":"${variable}"`))
            .join(',')}}`,
        ),
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
        variables: Object.fromEntries(
          this.groups.map((group) => [stageVariableOf(group), Lazy.string({ produce: () => this.functionOf(group).functionName })]),
        ),
      },
    });

    // The stack outputs `ApiUrl` instead: this default output ends with a slash (`…/prod/`),
    // and GitLab clients given it as base URL would request `…/prod//api/v4`.
    this.restApi.node.tryRemoveChild('Endpoint');

    const host = `${this.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    this.baseUrl = `https://${host}/${HostingApi.STAGE_NAME}`;
    this.url = `https://${host}/${this.restApi.deploymentStage.stageName}`;
    this.stageArn = this.restApi.deploymentStage.stageArn;

    acknowledge(this.restApi, {
      'AwsSolutions-APIG2':
        'Request validation is declared in the imported OpenAPI document (x-amazon-apigateway-request-validators, see infra/openapi.ts), ' +
        'which cdk-nag cannot see; bodies are proxied as binary and validated by the functions against the routes\' zod schemas.',
    });
    if (cloudWatchRole) {
      acknowledge(this.restApi, {
        [managedPolicyFinding('service-role/AmazonAPIGatewayPushToCloudWatchLogs')]:
          "API Gateway's account-level CloudWatch role: the managed policy is AWS's own for exactly this role and is kept current by AWS.",
      });
    }
    if (props.wafWebAclArn) {
      new wafv2.CfnWebACLAssociation(this, 'WebAcl', { resourceArn: this.stageArn, webAclArn: props.wafWebAclArn });
    } else {
      acknowledge(this.restApi, {
        'AwsSolutions-APIG3':
          'WAF-ready: no web ACL is required to run the service; set the context value wafWebAclArn to associate an existing regional ' +
          'WAFv2 web ACL with the stage (output ApiStageArn). Throttling and token checks in the functions apply either way.',
      });
    }
  }

  /**
   * Puts the group functions behind the API: each group's stage variable names its function, and
   * each function gets a single invoke permission for the whole API rather than one per method,
   * which would overflow the Lambda resource-policy size limit with dozens of routes.
   */
  public integrate(functions: Readonly<Record<GroupName, lambda.IFunction>>): void {
    if (this.functions) throw new Error('HostingApi.integrate() may be called once');
    for (const group of this.groups) {
      const fn = functions[group];
      if (!fn) throw new Error(`No function for route group '${group}'`);
      // One permission for the whole API (it also covers the console's test invocations).
      fn.addPermission('ApiInvoke', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.restApi.arnForExecuteApi('*', '/*', '*'),
      });
    }
    this.functions = functions;
  }

  private functionOf(group: GroupName): lambda.IFunction {
    const fn = this.functions?.[group];
    if (!fn) throw new Error(`HostingApi: no function for route group '${group}' (call integrate())`);
    return fn;
  }
}
