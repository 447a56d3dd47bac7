/**
 * Route keys and their API Gateway resources. A route is declared as a key, `METHOD /path`, with
 * path parameters written `:name`; a greedy `:name+` (API Gateway's `{name+}`) may only end a
 * path and matches one or more segments. The catalog of every route (`shared/catalog.ts`) is
 * assembled from the features' slices; this module only knows the notation.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';

export interface RouteSpec {
  /** The endpoint group (Lambda function) serving the route. */
  group: string;
  key: string;
  method: HttpMethod;
  /** Path relative to the group's prefix, `:param` style, e.g. `/users/:id`. */
  path: string;
  /** The group's path prefix: `/api/v4`, or `''` for web routes. */
  prefix: string;
  /** API Gateway resource path, e.g. `/api/v4/users/{id}` (what `event.resource` carries). */
  resource: string;
}

/** Splits a route key such as `GET /users/:id` into its parts. */
export function parseRouteKey(group: string, key: string, prefix: string): RouteSpec {
  const [method, path] = key.split(' ') as [HttpMethod, string];
  return { group, key, method, path, prefix, resource: toResource(path, prefix) };
}

/** `/users/:id` → `/api/v4/users/{id}`; a greedy `/:path+` → `{prefix}/{path+}`. */
export function toResource(path: string, prefix: string): string {
  return prefix + path.replace(/:([a-z_]+)(\+?)/g, '{$1$2}');
}
