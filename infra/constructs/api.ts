import { Fn, Lazy, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { gatewayRoutes, streamsResponses, type GroupName, type RouteSpec } from '../../shared/catalog';
import { apiGatewayDocument, stageVariableOf, type OpenApiDocument } from '../openapi';

export interface ApiThrottle {
  /** Steady-state requests per second for the whole stage. */
  readonly rateLimit: number;
  /** Maximum burst of concurrent requests. */
  readonly burstLimit: number;
}

export interface HostingApiProps {
  /** The routes the API serves: the route catalog's (`allRoutes()`). */
  readonly routes: readonly RouteSpec[];
  /** @default { rateLimit: 100, burstLimit: 200 } */
  readonly throttle?: ApiThrottle;
}

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

  private readonly groups: readonly GroupName[];
  private functions?: Readonly<Record<GroupName, lambda.IFunction>>;

  public constructor(scope: Construct, id: string, props: HostingApiProps) {
    super(scope, id);
    const throttle = props.throttle ?? { rateLimit: 100, burstLimit: 200 };
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
      cloudWatchRole: false,
      deployOptions: {
        stageName: HostingApi.STAGE_NAME,
        tracingEnabled: true,
        metricsEnabled: true,
        dataTraceEnabled: false,
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
