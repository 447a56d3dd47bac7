import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from './config';
import type { ApiContext, ApiMiddleware, ResolvedRoute } from './http/context';
import { parseParams } from './http/params';
import type { HttpResult } from './http/response';
import type { AnyRoute } from './http/route';
import { parseRouteKey } from './http/routing';
import { responseLimits } from './http/response-size';
import { toProxyResult } from './http/serialize';
import { collectParams, jsonBody } from './middleware/collect-params';
import { rejectMalformedParams, rejectMalformedRequest } from './middleware/malformed-strings';
import { errorResponder } from './middleware/error-responder';
import { normalizeHeaders, resolveRoute } from './middleware/resolve-route';
import { requestLogger } from './middleware/request-logger';
import { withoutBody } from './streaming';
import { auditWrites, writeAuditEnabled, WRITES_HEADER } from './write-audit';

/** An endpoint group as the catalog declares it: its name, path prefix and route keys. */
export interface GroupDeclaration<Key extends string> {
  group: string;
  prefix: string;
  keys: readonly Key[];
}

/**
 * Builds the Lambda handler of one endpoint group: the common middleware stack followed by the
 * dispatcher. `routes` must implement exactly the group's declared routes. The platform knows no
 * user model: who the caller is, is decided by the `authentication` middlewares the composition
 * root passes (`functions/api.ts`), which set `context.auth`.
 *
 * `HEAD` requests run the GET route and answer its status and headers without the body.
 *
 * Middleware order (before: top to bottom; errors: bottom to top):
 * request id + access log → error shaping → header normalisation → malformed request (400) →
 * route → JSON body → parameters → malformed parameters (400) → authentication → handler.
 * The handler's JSON body goes through the response size guard (`http/response-size.ts`).
 */
export function createGroupHandler<Key extends string>(
  declaration: GroupDeclaration<Key>,
  routes: { [K in Key]: AnyRoute },
  authentication: ApiMiddleware[],
) {
  assertImplementsDeclaration(declaration, Object.keys(routes));
  const table = new Map<string, ResolvedRoute>();
  for (const [key, definition] of Object.entries<AnyRoute>(routes)) {
    const spec = parseRouteKey(declaration.group, key, declaration.prefix);
    table.set(`${spec.method} ${spec.resource}`, { spec, definition });
  }

  const dispatch = async (event: APIGatewayProxyEvent, context: ApiContext): Promise<APIGatewayProxyResult> => {
    const { definition, spec } = context.route;
    const params = parseParams(definition.params, context.rawParams);
    const run = (fn: () => Promise<HttpResult>) => (context.routeWrites ? auditWrites(context.routeWrites, fn) : fn());
    const result = await run(() => definition.handler({
      params,
      user: context.auth?.user ?? null,
      auth: context.auth,
      deployToken: context.deployToken ?? null,
      files: context.files,
      ...(context.body ? { body: context.body } : {}),
      requestId: context.requestId,
      log: context.log,
      link: { url: pageBaseUrl(spec.prefix, spec.path, context.pathParams, event), query: linkQuery(event), ...presentedPrivateToken(event) },
    }));
    // The response size guard: a page too large is ended early, a body too large for the function a 413.
    return toProxyResult(result, { limits: responseLimits(context.responseStreamed === true), log: context.log });
  };

  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>()
    .use(requestLogger())
    .use(errorResponder())
    .use(normalizeHeaders())
    .use(rejectMalformedRequest())
    .use(resolveRoute(table))
    .use(jsonBody())
    .use(collectParams())
    .use(rejectMalformedParams());
  for (const middleware of authentication) handler.use(middleware);
  const serve = handler.handler(dispatch);
  // HEAD is answered as GET with the same status and headers and no body (error answers included).
  return async (event: APIGatewayProxyEvent, context: ApiContext): Promise<APIGatewayProxyResult> => {
    // The write audit (tests only, `write-audit.ts`): the route's writes, answered in a header whatever the status.
    if (writeAuditEnabled()) context.routeWrites = [];
    let result = await serve(event, context);
    if (context.routeWrites) result = { ...result, headers: { ...result.headers, [WRITES_HEADER]: context.routeWrites.join(',') } };
    return event.httpMethod === 'HEAD' ? withoutBody(result) : result;
  };
}

/**
 * The types already demand every declared route; this also catches keys built at run time (route
 * factories) that do not match, at cold start rather than as a 404 in production.
 */
function assertImplementsDeclaration({ group, keys }: GroupDeclaration<string>, implemented: string[]): void {
  const missing = keys.filter((key) => !implemented.includes(key));
  const extra = implemented.filter((key) => !keys.includes(key));
  if (missing.length || extra.length) {
    throw new Error(`group '${group}' does not implement its catalog: missing [${missing.join(', ')}], extra [${extra.join(', ')}]`);
  }
}

/** The public URL of the requested path (path parameters re-encoded), for pagination links. */
function pageBaseUrl(prefix: string, path: string, pathParams: Record<string, string>, event: APIGatewayProxyEvent): string {
  const filled = path.replace(/:([a-z_]+)(\+?)/g, (_, name: string, greedy: string) => {
    const value = pathParams[name] ?? event.pathParameters?.[name] ?? '';
    return greedy ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
  return `${config().externalUrl}${prefix}${filled}`;
}

/** The `private_token` query parameter, when one was sent (its first value). */
function presentedPrivateToken(event: APIGatewayProxyEvent): { privateToken?: string } {
  const value = event.multiValueQueryStringParameters?.private_token?.[0] ?? event.queryStringParameters?.private_token;
  return value ? { privateToken: value } : {};
}

/** The query parameters a client sent, minus credentials, to be carried into pagination links. */
function linkQuery(event: APIGatewayProxyEvent): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    if (name === 'private_token' || !values) continue;
    query[name] = values.length === 1 ? values[0] : values;
  }
  return query;
}
