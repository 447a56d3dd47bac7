/**
 * The route catalog: every HTTP route of the API, declared once.
 *
 * The CDK stack turns it into API Gateway resources and methods, the local runtime matches
 * incoming requests against it, and each group handler must implement exactly its group's
 * routes (the type {@link RouteKeyOf} makes a missing or extra route a compile error).
 *
 * Paths are relative to their group's prefix ({@link routePrefix}): {@link API_PREFIX} for the API,
 * the root for the `web` group (GitLab's web routes, such as uploaded files). Path parameters are
 * written `:name`; a greedy `:name+` (API Gateway's `{name+}`) may only end a path and matches one
 * or more segments. Siblings in the path tree must use the same parameter name, as API Gateway
 * requires (a unit test checks it).
 */
export const API_PREFIX = '/api/v4';

export const routeCatalog = {
  meta: ['GET /version'],
  users: [
    'GET /users',
    'POST /users',
    'GET /users/:id',
    'PUT /users/:id',
    'DELETE /users/:id',
    'POST /users/:id/block',
    'POST /users/:id/unblock',
    'GET /users/:id/events',
    'GET /users/:id/keys',
    'POST /users/:id/keys',
    'DELETE /users/:id/keys/:key_id',
    'GET /users/:id/emails',
    'POST /users/:id/emails',
    'DELETE /users/:id/emails/:email_id',
    'GET /users/:id/impersonation_tokens',
    'POST /users/:id/impersonation_tokens',
    'GET /users/:id/impersonation_tokens/:impersonation_token_id',
    'DELETE /users/:id/impersonation_tokens/:impersonation_token_id',
    'GET /user',
    'GET /user/keys',
    'POST /user/keys',
    'GET /user/keys/:key_id',
    'DELETE /user/keys/:key_id',
    'GET /user/emails',
    'POST /user/emails',
    'GET /user/emails/:email_id',
    'DELETE /user/emails/:email_id',
    'GET /user/activities',
    'GET /keys/:id',
  ],
  groups: [
    'GET /groups',
    'POST /groups',
    'GET /groups/:id',
    'PUT /groups/:id',
    'DELETE /groups/:id',
    'GET /groups/:id/projects',
    'GET /namespaces',
  ],
  members: [
    'GET /groups/:id/members',
    'POST /groups/:id/members',
    'GET /groups/:id/members/:user_id',
    'PUT /groups/:id/members/:user_id',
    'DELETE /groups/:id/members/:user_id',
    'GET /projects/:id/members',
    'POST /projects/:id/members',
    'GET /projects/:id/members/:user_id',
    'PUT /projects/:id/members/:user_id',
    'DELETE /projects/:id/members/:user_id',
  ],
  projects: [
    'GET /projects',
    'POST /projects',
    'GET /projects/search/:query',
    'POST /projects/user/:user_id',
    'GET /projects/:id',
    'PUT /projects/:id',
    'DELETE /projects/:id',
    'GET /projects/:id/users',
    'GET /projects/:id/events',
    'POST /projects/:id/star',
    'POST /projects/:id/unstar',
    'POST /projects/:id/archive',
    'POST /projects/:id/unarchive',
    'POST /projects/:id/fork',
    'DELETE /projects/:id/fork',
    'POST /projects/:id/fork/:forked_from_id',
    'POST /projects/:id/share',
    'DELETE /projects/:id/share/:group_id',
    'POST /projects/:id/housekeeping',
  ],
  hooks: [
    'GET /projects/:id/hooks',
    'POST /projects/:id/hooks',
    'GET /projects/:id/hooks/:hook_id',
    'PUT /projects/:id/hooks/:hook_id',
    'DELETE /projects/:id/hooks/:hook_id',
  ],
  milestones: [
    'GET /projects/:id/milestones',
    'POST /projects/:id/milestones',
    'GET /projects/:id/milestones/:milestone_id',
    'PUT /projects/:id/milestones/:milestone_id',
    'DELETE /projects/:id/milestones/:milestone_id',
  ],
  labels: [
    'GET /projects/:id/labels',
    'POST /projects/:id/labels',
    'PUT /projects/:id/labels',
    'DELETE /projects/:id/labels',
    'GET /projects/:id/labels/:label_id',
    'PUT /projects/:id/labels/:label_id',
    'DELETE /projects/:id/labels/:label_id',
  ],
  issues: [
    'GET /issues',
    'GET /projects/:id/issues',
    'POST /projects/:id/issues',
    'GET /projects/:id/issues/:issue_iid',
    'PUT /projects/:id/issues/:issue_iid',
    'DELETE /projects/:id/issues/:issue_iid',
    'POST /projects/:id/issues/:issue_iid/move',
    'GET /projects/:id/issues/:issue_iid/closed_by',
    'GET /groups/:id/issues',
  ],
  notes: [
    'GET /projects/:id/issues/:issue_iid/notes',
    'POST /projects/:id/issues/:issue_iid/notes',
    'GET /projects/:id/issues/:issue_iid/notes/:note_id',
    'PUT /projects/:id/issues/:issue_iid/notes/:note_id',
    'DELETE /projects/:id/issues/:issue_iid/notes/:note_id',
  ],
  /** What a user does to an issue besides editing it: subscriptions, todos, time tracking. */
  issue_actions: [
    'POST /projects/:id/issues/:issue_iid/subscribe',
    'POST /projects/:id/issues/:issue_iid/unsubscribe',
    'POST /projects/:id/issues/:issue_iid/todo',
    'POST /projects/:id/issues/:issue_iid/time_estimate',
    'POST /projects/:id/issues/:issue_iid/reset_time_estimate',
    'POST /projects/:id/issues/:issue_iid/add_spent_time',
    'POST /projects/:id/issues/:issue_iid/reset_spent_time',
    'GET /projects/:id/issues/:issue_iid/time_stats',
  ],
  /** The caller's todo list (GitLab's `API::Todos`; creating a todo is an issue action). */
  todos: ['GET /todos', 'POST /todos/:id/mark_as_done', 'POST /todos/mark_as_done'],
  uploads: ['POST /projects/:id/uploads'],
  /**
   * Outside the API: `/:namespace/:project/uploads/:secret/:filename` (uploaded files). The
   * namespace may be nested, so this is one greedy resource at the root; API Gateway also sends
   * it every GET that no other resource matches, and the handler answers those with the 404.
   */
  web: ['GET /:path+'],
} as const;

export type GroupName = keyof typeof routeCatalog;
export type RouteKeyOf<G extends GroupName> = (typeof routeCatalog)[G][number];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';

export interface RouteSpec {
  group: GroupName;
  key: string;
  method: HttpMethod;
  /** Path relative to the group's prefix, `:param` style, e.g. `/users/:id`. */
  path: string;
  /** The group's path prefix ({@link routePrefix}): `/api/v4`, or `''` for web routes. */
  prefix: string;
  /** API Gateway resource path, e.g. `/api/v4/users/{id}` (what `event.resource` carries). */
  resource: string;
}

/** Where a group's routes live: web routes at the root, every other group under {@link API_PREFIX}. */
export function routePrefix(group: GroupName): string {
  return group === 'web' ? '' : API_PREFIX;
}

/** Splits a route key such as `GET /users/:id` into its parts. */
export function parseRouteKey(group: GroupName, key: string): RouteSpec {
  const [method, path] = key.split(' ') as [HttpMethod, string];
  const prefix = routePrefix(group);
  return { group, key, method, path, prefix, resource: toResource(path, prefix) };
}

/** `/users/:id` → `/api/v4/users/{id}`; a greedy `/:path+` → `{prefix}/{path+}`. */
export function toResource(path: string, prefix: string = API_PREFIX): string {
  return prefix + path.replace(/:([a-z_]+)(\+?)/g, '{$1$2}');
}

/** Every route of every group, flattened. */
export function allRoutes(): RouteSpec[] {
  return (Object.keys(routeCatalog) as GroupName[]).flatMap((group) =>
    routeCatalog[group].map((key) => parseRouteKey(group, key)),
  );
}
