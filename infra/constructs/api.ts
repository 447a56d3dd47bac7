import { Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { GroupName, RouteSpec } from '../../shared/catalog';

export interface ApiThrottle {
  /** Steady-state requests per second for the whole stage. */
  readonly rateLimit: number;
  /** Maximum burst of concurrent requests. */
  readonly burstLimit: number;
}

export interface HostingApiProps {
  /** @default { rateLimit: 100, burstLimit: 200 } */
  readonly throttle?: ApiThrottle;
}

/**
 * The public REST API (API Gateway v1).
 *
 * REST rather than HTTP API because GitLab clients address projects as `group%2Fproject`: a REST
 * API keeps the encoded slash inside a single `{id}` path parameter, an HTTP API decodes it and
 * misses the route. Every media type is declared binary, so every body reaches Lambda
 * base64-encoded and multipart uploads arrive byte-exact. Authentication is done by the handlers (tokens), never by
 * API Gateway, and request bodies are never logged (they carry tokens).
 *
 * Unknown routes, which API Gateway answers with `MISSING_AUTHENTICATION_TOKEN`, become GitLab's
 * `404 {"error":"404 Not Found"}`; the other gateway errors answer JSON.
 *
 * @example
 * const api = new HostingApi(this, 'Api');
 * api.addRoutes(allRoutes(), functions.byGroup);
 */
export class HostingApi extends Construct {
  public static readonly STAGE_NAME = 'prod';

  public readonly restApi: apigateway.RestApi;
  /**
   * The stage URL (no trailing slash), built from the API id and the stage *name*: the functions
   * behind the API can read it without depending on the deployment, which depends on them.
   */
  public readonly baseUrl: string;
  /** The stage URL (no trailing slash), referencing the deployed stage: for outputs. */
  public readonly url: string;

  private readonly resources = new Map<string, apigateway.IResource>();
  /** Path of a resource → name of its `{param}` child, to catch conflicting siblings early. */
  private readonly paramChildren = new Map<string, string>();
  private readonly integrations = new Map<GroupName, apigateway.LambdaIntegration>();

  public constructor(scope: Construct, id: string, props: HostingApiProps = {}) {
    super(scope, id);
    const throttle = props.throttle ?? { rateLimit: 100, burstLimit: 200 };
    const stack = Stack.of(this);

    this.restApi = new apigateway.RestApi(this, 'RestApi', {
      restApiName: stack.stackName,
      description: 'GitLab API v4 compatible project hosting',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      binaryMediaTypes: ['*/*'],
      cloudWatchRole: false,
      deployOptions: {
        stageName: HostingApi.STAGE_NAME,
        tracingEnabled: true,
        metricsEnabled: true,
        dataTraceEnabled: false,
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
      },
    });

    // The stack outputs `ApiUrl` instead: this default output ends with a slash (`…/prod/`),
    // and GitLab clients given it as base URL would request `…/prod//api/v4`.
    this.restApi.node.tryRemoveChild('Endpoint');

    const host = `${this.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    this.baseUrl = `https://${host}/${HostingApi.STAGE_NAME}`;
    this.url = `https://${host}/${this.restApi.deploymentStage.stageName}`;
    this.resources.set('', this.restApi.root);

    this.addGatewayResponses();
  }

  /**
   * Adds one method per route, integrated with its group's function (Lambda proxy).
   *
   * Each function gets a single invoke permission for the whole API rather than one per method,
   * which would overflow the Lambda resource-policy size limit with dozens of routes.
   */
  public addRoutes(
    routes: readonly RouteSpec[],
    functions: Readonly<Record<GroupName, lambda.IFunction>>,
  ): void {
    for (const route of routes) {
      this.resourceFor(route.resource).addMethod(route.method, this.integrationFor(route.group, functions));
    }
  }

  private integrationFor(
    group: GroupName,
    functions: Readonly<Record<GroupName, lambda.IFunction>>,
  ): apigateway.LambdaIntegration {
    let integration = this.integrations.get(group);
    if (!integration) {
      const fn = functions[group];
      if (!fn) throw new Error(`No function for route group '${group}'`);
      integration = new apigateway.LambdaIntegration(fn, {
        proxy: true,
        // One permission for the whole API (it also covers the console's test invocations).
        scopePermissionToMethod: false,
      });
      this.integrations.set(group, integration);
    }
    return integration;
  }

  /** Internal: the resource for `/api/v4/users/{id}`, creating the missing path segments. */
  private resourceFor(resourcePath: string): apigateway.IResource {
    let path = '';
    let resource = this.resources.get(path)!;
    for (const segment of resourcePath.split('/').filter(Boolean)) {
      if (segment.startsWith('{')) {
        const sibling = this.paramChildren.get(path);
        if (sibling !== undefined && sibling !== segment) {
          throw new Error(
            `Route ${resourcePath}: API Gateway rejects sibling path parameters ` +
              `${sibling} and ${segment} under '${path || '/'}'`,
          );
        }
        this.paramChildren.set(path, segment);
      }
      const childPath = `${path}/${segment}`;
      let child = this.resources.get(childPath);
      if (!child) {
        child = resource.addResource(segment);
        this.resources.set(childPath, child);
      }
      path = childPath;
      resource = child;
    }
    return resource;
  }

  private addGatewayResponses(): void {
    const requestId = { 'X-Request-Id': 'context.requestId' };
    const jsonMessage = { 'application/json': '{"message":$context.error.messageString}' };

    this.restApi.addGatewayResponse('NotFound', {
      type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '404',
      responseHeaders: requestId,
      templates: { 'application/json': '{"error":"404 Not Found"}' },
    });
    this.restApi.addGatewayResponse('Default4xx', {
      type: apigateway.ResponseType.DEFAULT_4XX,
      responseHeaders: requestId,
      templates: jsonMessage,
    });
    this.restApi.addGatewayResponse('Default5xx', {
      type: apigateway.ResponseType.DEFAULT_5XX,
      responseHeaders: requestId,
      templates: jsonMessage,
    });
  }
}
