import type { ApiMiddleware, ApiRequest, ResolvedRoute } from '../http/context';
import { RouteNotFoundError } from '../http/errors';

/**
 * Finds the route for `event.resource` + `event.httpMethod` (API Gateway already matched the
 * path) and decodes the path parameters. API Gateway REST APIs pass path parameters still
 * URL-encoded, which is what keeps `group%2Fproject` a single `:id`; we decode them exactly once.
 * A `HEAD` request is served by the resource's GET route (the group handler drops the body).
 */
export function resolveRoute(routes: Map<string, ResolvedRoute>): ApiMiddleware {
  const resolveRouteBefore = (request: ApiRequest) => {
    const { resource, httpMethod } = request.event;
    const found = routes.get(`${httpMethod === 'HEAD' ? 'GET' : httpMethod} ${resource}`);
    if (!found) throw new RouteNotFoundError();
    request.context.route = found;
    const pathParams: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.event.pathParameters ?? {})) {
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
