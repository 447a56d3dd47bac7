/**
 * The API definition, generated from the route catalog (`shared/catalog.ts`) as one OpenAPI 3
 * document, never written by hand. Two variants come from the same enumeration of paths and
 * methods:
 *
 * - {@link apiGatewayDocument}: what API Gateway deploys (`infra/constructs/api.ts`): paths,
 *   methods, path parameters and API Gateway's extensions (Lambda proxy integrations, binary media
 *   types, gateway responses, a request validator for the declared path parameters). It carries
 *   no body schemas: the functions validate bodies with the routes' zod schemas, and schemas
 *   would only grow the CloudFormation template.
 * - {@link openApiDocument}: what clients read (`openapi.json` at the repository root): the
 *   same paths and methods with the parameters the handlers validate, taken from the routes' zod
 *   schemas, and their responses by status code; no AWS extensions.
 *
 * A route costs no CloudFormation resource this way: the whole API is one `AWS::ApiGateway::RestApi`
 * whose `Body` is the document.
 */
import * as z from 'zod';
import type { GroupName, HttpMethod, RouteSpec } from '../shared/catalog';
import type { AnyRoute } from '../shared/platform/http/route';
import { servingRoute } from '../shared/platform/http/route-matcher';

/** API Gateway imports OpenAPI 3.0.x (not 3.1); both variants use the same version. */
export const OPENAPI_VERSION = '3.0.1';

/** An OpenAPI document, as plain JSON (the gateway variant also holds CDK tokens). */
export type OpenApiDocument = { openapi: string; info: Record<string, unknown>; paths: Record<string, PathItem> } & Record<string, unknown>;
export type PathItem = Record<string, unknown>;
export type Operation = Record<string, unknown>;

/** The route tables of every endpoint group, as the features export them (`shared/<feature>/routes`). */
export type RouteDefinitions = { readonly [G in GroupName]: Readonly<Record<string, AnyRoute>> };

export { servingRoute };

/** The stage variable holding the name of a group's function (`fn_issue_actions`). */
export function stageVariableOf(group: GroupName): string {
  return `fn_${group}`;
}

/** The gateway responses of the API: unknown routes answer GitLab's 404; other errors JSON with the request id. */
export const GATEWAY_RESPONSES = {
  MISSING_AUTHENTICATION_TOKEN: {
    statusCode: '404',
    responseParameters: { 'gatewayresponse.header.X-Request-Id': 'context.requestId' },
    responseTemplates: { 'application/json': '{"error":"404 Not Found"}' },
  },
  DEFAULT_4XX: {
    responseParameters: { 'gatewayresponse.header.X-Request-Id': 'context.requestId' },
    responseTemplates: { 'application/json': '{"message":$context.error.messageString}' },
  },
  DEFAULT_5XX: {
    responseParameters: { 'gatewayresponse.header.X-Request-Id': 'context.requestId' },
    responseTemplates: { 'application/json': '{"message":$context.error.messageString}' },
  },
} as const;

/**
 * The request validator of every operation (`x-amazon-apigateway-request-validators`): API
 * Gateway refuses a request missing a parameter the document declares required (the path
 * parameters) before invoking a function. Bodies are not validated at the gateway: every body is
 * proxied as binary and its fields are validated by the route's zod schema in the function, which
 * answers GitLab's `400 {"error":"title is missing"}`.
 */
export const REQUEST_VALIDATORS = {
  params: { validateRequestParameters: true, validateRequestBody: false },
} as const;

/** The OpenAPI operation keys, in the order the document lists them. */
const OPERATION_ORDER: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `{id}` → `id`; a greedy `{path+}` → `path` (API Gateway's own export names it so). */
export function pathParameterNames(resource: string): string[] {
  return [...resource.matchAll(/\{([a-z_]+)\+?\}/g)].map((match) => match[1]);
}

/**
 * The routes by resource path, then by method, sorted by path (a stable document). Fails on what
 * API Gateway would refuse to import: two routes with the same method and resource, differently
 * named `{param}` siblings (`/users/{id}` beside `/users/{user_id}/keys`), children of a greedy
 * parameter.
 */
export function routesByResource(routes: readonly RouteSpec[]): Map<string, Map<HttpMethod, RouteSpec>> {
  const paramChild = new Map<string, string>();
  const byResource = new Map<string, Map<HttpMethod, RouteSpec>>();
  for (const route of routes) {
    let parent = '';
    for (const segment of route.resource.split('/').filter(Boolean)) {
      if (parent.endsWith('+}')) throw new Error(`Route ${route.resource}: a greedy path parameter cannot have children`);
      if (segment.startsWith('{')) {
        const sibling = paramChild.get(parent);
        if (sibling !== undefined && sibling !== segment) {
          throw new Error(
            `Route ${route.resource}: API Gateway rejects sibling path parameters ${sibling} and ${segment} under '${parent || '/'}'`,
          );
        }
        paramChild.set(parent, segment);
      }
      parent = `${parent}/${segment}`;
    }
    const methods = byResource.get(route.resource) ?? new Map<HttpMethod, RouteSpec>();
    if (methods.has(route.method)) throw new Error(`Route ${route.method} ${route.resource} is declared twice`);
    methods.set(route.method, route);
    byResource.set(route.resource, methods);
  }
  return new Map([...byResource].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Every API Gateway resource a document's paths make: the root, each path and each of its
 * ancestors (`/api`, `/api/v4`, ...). This is what the "resources per REST API" quota counts.
 */
export function gatewayResources(paths: Iterable<string>): string[] {
  const resources = new Set<string>(['/']);
  for (const path of paths) {
    let current = '';
    for (const segment of path.split('/').filter(Boolean)) {
      current = `${current}/${segment}`;
      resources.add(current);
    }
  }
  return [...resources].sort();
}

const pathParameters = (resource: string) =>
  pathParameterNames(resource).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

// ---------------------------------------------------------------------------------------------
// The deployed variant
// ---------------------------------------------------------------------------------------------

export interface ApiGatewayDocumentOptions {
  /** `info.title`: the REST API's name. */
  readonly title: string;
  readonly description: string;
  /**
   * The Lambda invocation URI of a group's function (a string or a CDK token), for the operation's
   * `x-amazon-apigateway-integration`.
   */
  readonly integrationUri: (group: GroupName) => unknown;
  /** Whether a group's function answers through response streaming (the integration then uses the `STREAM` transfer mode). */
  readonly streams?: (group: GroupName) => boolean;
}

/**
 * The document API Gateway deploys: one path per resource, one operation per route (plus HEAD for
 * GET), each a Lambda proxy integration with its group's function; every media type binary, the
 * gateway responses of {@link GATEWAY_RESPONSES}, and the request validator of
 * {@link REQUEST_VALIDATORS} on every operation.
 *
 * @example
 * new apigateway.SpecRestApi(this, 'RestApi', {
 *   apiDefinition: apigateway.ApiDefinition.fromInline(apiGatewayDocument(allRoutes(), { title, description, integrationUri })),
 * });
 */
export function apiGatewayDocument(routes: readonly RouteSpec[], options: ApiGatewayDocumentOptions): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  for (const [resource, methods] of routesByResource(routes)) {
    const item: PathItem = {};
    const parameters = pathParameters(resource);
    if (parameters.length > 0) item.parameters = parameters;
    for (const method of OPERATION_ORDER) {
      const route = servingRoute(methods, method);
      if (!route) continue;
      item[method.toLowerCase()] = {
        // API Gateway creates no method response for a proxy integration; the function answers.
        responses: {},
        'x-amazon-apigateway-integration': {
          type: 'aws_proxy',
          httpMethod: 'POST',
          uri: options.integrationUri(route.group),
          ...(options.streams?.(route.group) ? { responseTransferMode: 'STREAM' } : {}),
        },
      };
    }
    paths[resource] = item;
  }
  return {
    openapi: OPENAPI_VERSION,
    info: { title: options.title, description: options.description, version: '1' },
    paths,
    'x-amazon-apigateway-binary-media-types': ['*/*'],
    'x-amazon-apigateway-gateway-responses': GATEWAY_RESPONSES,
    'x-amazon-apigateway-request-validators': REQUEST_VALIDATORS,
    'x-amazon-apigateway-request-validator': 'params',
  };
}

// ---------------------------------------------------------------------------------------------
// The published variant
// ---------------------------------------------------------------------------------------------

export interface OpenApiDocumentOptions {
  /** `info.version`: the service's version (package.json). */
  readonly version: string;
}

const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
};

const TOKEN_SECURITY = [{ PrivateToken: [] }, { Bearer: [] }, { PrivateTokenParameter: [] }];

const COMPONENTS = {
  securitySchemes: {
    PrivateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal, impersonation or admin token.' },
    Bearer: { type: 'http', scheme: 'bearer', description: 'The same tokens as `Authorization: Bearer <token>`.' },
    PrivateTokenParameter: { type: 'apiKey', in: 'query', name: 'private_token', description: 'The same tokens as a parameter.' },
  },
  schemas: {
    Error: {
      type: 'object',
      description: 'A parameter error (`{"error":"email is missing"}`) or an unknown route (`{"error":"404 Not Found"}`).',
      properties: { error: { type: 'string' } },
      required: ['error'],
    },
    Message: {
      type: 'object',
      description: 'GitLab\'s error message: `{"message":"404 User Not Found"}`, or validation errors by field (`{"message":{"path":["is taken"]}}`).',
      properties: { message: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }] } },
      required: ['message'],
    },
  },
  responses: {
    BadRequest: { description: 'Invalid or missing parameters', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    Unauthorized: { description: 'No valid token (`{"message":"401 Unauthorized"}`)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } } },
    Forbidden: { description: 'Not allowed', content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } } },
    NotFound: {
      description: 'Not found, or not visible to the caller',
      content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Message' }, { $ref: '#/components/schemas/Error' }] } } },
    },
  },
};

/**
 * The document published to clients: every route with its parameters (from the zod schema its
 * handler validates with: path parameters `in: path`; for GET and DELETE the rest `in: query`; for
 * POST and PUT a request body, JSON or form, multipart when the route takes files, bytes when it
 * declares `rawBody`) and its
 * responses by status code. Deterministic: paths sorted, methods in a fixed order.
 *
 * @example
 * writeFileSync('openapi.json', `${JSON.stringify(openApiDocument(allRoutes(), definitions, { version }), null, 2)}\n`);
 */
export function openApiDocument(
  routes: readonly RouteSpec[],
  definitions: RouteDefinitions,
  options: OpenApiDocumentOptions,
): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  const operationIds = new Set<string>();
  for (const [resource, methods] of routesByResource(routes)) {
    const item: PathItem = {};
    for (const method of OPERATION_ORDER) {
      const route = methods.get(method);
      if (!route) continue;
      const definition = definitions[route.group]?.[route.key];
      if (!definition) throw new Error(`No route definition for ${route.group} '${route.key}'`);
      const operation = publishedOperation(route, definition);
      if (operationIds.has(operation.operationId as string)) throw new Error(`Duplicate operationId ${String(operation.operationId)}`);
      operationIds.add(operation.operationId as string);
      item[method.toLowerCase()] = operation;
    }
    paths[resource] = item;
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Project hosting (GitLab API v4 compatible)',
      version: options.version,
      description:
        'A GitLab API v4 compatible REST API. Generated from the route catalog (`npm run openapi`); never edit by hand. ' +
        'Paths under `/api/v4` are the API; `/{path+}` serves uploaded files (`/:namespace/:project/uploads/:secret/:filename`). ' +
        'Ids in paths may be URL-encoded full paths (`group%2Fproject`). Admins may act as another user with `sudo` (parameter or `Sudo` header). ' +
        'Lists are paginated with `page`/`per_page` (headers `X-Page`, `X-Next-Page`, `X-Total`, `Link`) or `pagination=keyset`.',
    },
    servers: [
      {
        url: '{baseUrl}',
        description: 'The `ApiUrl` output of the deployed stack, or http://127.0.0.1:3000 for `npm start`',
        variables: { baseUrl: { default: 'http://127.0.0.1:3000' } },
      },
    ],
    security: TOKEN_SECURITY,
    tags: [...new Set(routes.map((route) => route.group))].sort().map((name) => ({ name, description: `Endpoint group \`${name}\` (one Lambda function)` })),
    paths,
    components: COMPONENTS,
  };
}

/** Internal: one operation of the published document. */
function publishedOperation(route: RouteSpec, definition: AnyRoute): Operation {
  const fields = paramFields(route, definition.params);
  const inPath = new Set(pathParameterNames(route.resource));
  const parameters: unknown[] = pathParameterNames(route.resource).map((name) => {
    const field = fields.find((candidate) => candidate.name === name);
    return { name, in: 'path', required: true, schema: field && !field.file ? field.schema : { type: 'string' } };
  });
  const rest = fields.filter((field) => !inPath.has(field.name));
  const operation: Operation = {
    operationId: operationId(route),
    summary: route.key,
    tags: [route.group],
  };
  if (definition.anonymous) operation.security = [{}, ...TOKEN_SECURITY];

  let requestBody: unknown;
  // A route taking its body as bytes (`rawBody`: a package file) takes its other parameters in the query.
  if (route.method === 'GET' || route.method === 'DELETE' || route.method === 'HEAD' || definition.rawBody) {
    for (const field of rest) {
      const array = field.schema.type === 'array';
      parameters.push({
        name: array ? `${field.name}[]` : field.name,
        in: 'query',
        ...(field.required ? { required: true } : {}),
        ...(array ? { style: 'form', explode: true } : {}),
        schema: field.schema,
      });
    }
  } else if (rest.length > 0) {
    const schema = objectSchema(rest);
    // A file travels only in a multipart body; JSON and form bodies carry the other fields, so a
    // route whose files are optional (an avatar) takes all three, one that needs a file multipart only.
    const files = rest.filter((field) => field.file);
    const plain = objectSchema(rest.filter((field) => !field.file));
    const content =
      files.length === 0
        ? { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } }
        : files.some((field) => field.required)
          ? { 'multipart/form-data': { schema } }
          : { 'application/json': { schema: plain }, 'application/x-www-form-urlencoded': { schema: plain }, 'multipart/form-data': { schema } };
    requestBody = { required: rest.some((field) => field.required), content };
  }
  if (definition.rawBody) requestBody = { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
  if (parameters.length > 0) operation.parameters = parameters;
  if (requestBody) operation.requestBody = requestBody;

  const responses: Record<string, unknown> = {};
  for (const status of successStatuses(route, definition)) responses[String(status)] = { description: STATUS_DESCRIPTIONS[status] ?? 'Success' };
  if (fields.length > 0) responses['400'] = { $ref: '#/components/responses/BadRequest' };
  responses['401'] = { $ref: '#/components/responses/Unauthorized' };
  responses['403'] = { $ref: '#/components/responses/Forbidden' };
  responses['404'] = { $ref: '#/components/responses/NotFound' };
  operation.responses = responses;
  return operation;
}

/** `GET /projects/:id/issues/:issue_iid` → `getProjectsByIdIssuesByIssueIid`. */
function operationId(route: RouteSpec): string {
  const pascal = (word: string) => word.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((part) => part[0].toUpperCase() + part.slice(1)).join('');
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `By${pascal(segment.slice(1))}` : pascal(segment)));
  return `${route.method.toLowerCase()}${words.join('') || 'Root'}`;
}

interface ParamField {
  name: string;
  schema: Record<string, unknown>;
  required: boolean;
  /** An uploaded file (multipart only). */
  file: boolean;
}

/** Internal: the fields of a route's parameter schema, each as a JSON schema (OpenAPI 3.0 dialect). */
function paramFields(route: RouteSpec, params: z.ZodType): ParamField[] {
  const shape = objectShape(params);
  if (!shape) throw new Error(`${route.group} '${route.key}': params must be a z.object (found ${params._zod.def.type})`);
  return Object.entries(shape).map(([name, schema]) => {
    const file = containsInstanceOf(schema);
    return {
      name,
      file,
      // Absent is refused exactly when the field is required (`required(...)`, or not optional).
      required: !schema.safeParse(undefined).success,
      schema: file ? { type: 'string', format: 'binary' } : jsonSchema(schema),
    };
  });
}

/** Internal: the shape of a `z.object`, also behind refinements and pipes. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  if (schema instanceof z.ZodObject) return schema.shape;
  const def = schema._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType };
  // A pipe: the object it starts with (refinements, transforms), or the one a preprocess hands to.
  if (def.type === 'pipe') return (def.in && objectShape(def.in)) ?? (def.out && objectShape(def.out));
  if (def.innerType) return objectShape(def.innerType);
  return undefined;
}

/** Internal: whether a schema holds a `z.instanceof(...)` (a multipart file's bytes). */
function containsInstanceOf(schema: z.ZodType, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (def.type === 'custom') return true;
  const children = [def.in, def.out, def.innerType, def.element, ...(def.options as unknown[] | undefined ?? []), ...Object.values((def.shape as Record<string, unknown> | undefined) ?? {})];
  return children.some((child) => child instanceof z.ZodType && containsInstanceOf(child, seen));
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Internal: a field's JSON schema as clients send it (zod's input side: the parameter helpers
 * coerce strings first, so the schema after coercion is what a value must satisfy). zod's implicit
 * safe-integer bounds are left out.
 */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const clean = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(clean);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
      out[key] = clean(value);
    }
    return out;
  };
  return clean(json) as Record<string, unknown>;
}

function objectSchema(fields: readonly ParamField[]): Record<string, unknown> {
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field.name, field.schema])),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** GitLab's (Grape's) default status of a method, when a handler's own cannot be read. */
const DEFAULT_STATUS: Record<HttpMethod, number> = { GET: 200, HEAD: 200, POST: 201, PUT: 200, PATCH: 200, DELETE: 204 };

const RESULT_HELPERS: Record<string, number> = { ok: 200, emptyOk: 200, created: 201, accepted: 202, noContent: 204 };

/**
 * Internal: the success statuses a handler answers, read from the response helpers it calls
 * (`ok` 200, `created` 201, `noContent` 204, ... of `shared/platform/http/response.ts`) or the
 * status it sets itself (`statusCode: 202`); GitLab's default for the method when it calls none
 * that can be seen (a helper of its own). Whole-line comments are skipped, so a comment never
 * adds a status. A heuristic, kept honest by the test that regenerates `openapi.json`.
 */
function successStatuses(route: RouteSpec, definition: AnyRoute): number[] {
  const source = definition.handler
    .toString()
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const statuses = new Set<number>();
  for (const match of source.matchAll(/(?<![\w$])(ok|emptyOk|created|accepted|noContent)\)?\(/g)) statuses.add(RESULT_HELPERS[match[1]]);
  for (const match of source.matchAll(/\bstatusCode:\s*([1-5]\d\d)\b/g)) statuses.add(Number(match[1]));
  if (statuses.size === 0) statuses.add(DEFAULT_STATUS[route.method]);
  return [...statuses].sort((a, b) => a - b);
}
