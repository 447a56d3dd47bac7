import type { ApiMiddleware, ApiRequest, ResolvedRoute } from '../http/context';
import { RouteNotFoundError } from '../http/errors';
import { matchRoute } from '../http/route-matcher';

/** The raw request path a greedy resource was matched with: the resource with its raw parameters put back. */
function rawPathOf(resource: string, parameters: Record<string, string | undefined>): string {
  return resource.replace(/\{([a-z_]+)\+?\}/g, (_, name: string) => parameters[name] ?? '');
}

/**
 * Finds the route for `event.resource` + `event.httpMethod` (API Gateway already matched the
 * path) and decodes the path parameters. API Gateway REST APIs pass path parameters still
 * URL-encoded, which is what keeps `group%2Fproject` a single `:id`; we decode them exactly once.
 * A `HEAD` request is served by the resource's GET route (the group handler drops the body).
 *
 * A resource that is none of the group's own is a subtree API Gateway serves with one greedy
 * resource (`shared/catalog.ts`, `GATEWAY_SUBTREES`): the route is then found by matching the raw
 * path against the group's routes, as API Gateway would have, and its parameters are the route's.
 */
export function resolveRoute(routes: Map<string, ResolvedRoute>): ApiMiddleware {
  const specs = [...routes.values()].map(({ spec }) => spec);
  const byKey = new Map([...routes.values()].map((route) => [route.spec.key, route]));
  const resolveRouteBefore = (request: ApiRequest) => {
    const { resource, httpMethod } = request.event;
    let found = routes.get(`${httpMethod === 'HEAD' ? 'GET' : httpMethod} ${resource}`);
    let rawParameters: Record<string, string | undefined> = request.event.pathParameters ?? {};
    if (!found && resource.includes('+}')) {
      const match = matchRoute(httpMethod, rawPathOf(resource, rawParameters), specs);
      found = match && byKey.get(match.route.key);
      rawParameters = match?.pathParameters ?? {};
    }
    if (!found) throw new RouteNotFoundError();
    request.context.route = found;
    const pathParams: Record<string, string> = {};
    for (const [name, value] of Object.entries(rawParameters)) {
      if (value === undefined) continue;
      try {
        pathParams[name] = decodeURIComponent(value);
      } catch {
        throw new RouteNotFoundError();
      }
    }
    request.context.pathParams = pathParams;
  };
  return { before: resolveRouteBefore };
}

/** Lower-cases header names (clients send `Content-type`, `PRIVATE-TOKEN`, ...). */
export function normalizeHeaders(): ApiMiddleware {
  const normalizeHeadersBefore = (request: ApiRequest) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.event.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = value;
    }
    request.event.headers = headers;
  };
  return { before: normalizeHeadersBefore };
}
