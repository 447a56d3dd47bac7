/**
 * The route catalog: every HTTP route of the API, and the endpoint groups (one Lambda function
 * each) that serve them, declared here and nowhere else.
 *
 * Each feature owns its slice (`shared/<feature>/catalog.ts`, pure data); this module assembles
 * them. The CDK stack turns the catalog into the API definition and one function per group, the
 * local runtime matches incoming requests against it, and each group's handler
 * (`functions/<group>/handler.ts`) must implement exactly its group's routes (the type
 * {@link RouteKeyOf} makes a missing or extra route a compile error).
 *
 * Paths are relative to their group's prefix ({@link routePrefix}): {@link API_PREFIX} for the API,
 * the root for the `web` group (GitLab's web routes, such as uploaded files). Siblings in the path
 * tree must use the same parameter name, as API Gateway requires (a unit test checks it).
 */
import { catalog as badges } from './badges/catalog';
import { catalog as boards } from './boards/catalog';
import { catalog as ci } from './ci/catalog';
import { catalog as deployKeys } from './deploy-keys/catalog';
import { catalog as deployTokens } from './deploy-tokens/catalog';
import { catalog as groups } from './groups/catalog';
import { catalog as hooks } from './hooks/catalog';
import { catalog as issues } from './issues/catalog';
import { catalog as members } from './members/catalog';
import { catalog as mergeRequests } from './merge-requests/catalog';
import { catalog as notificationSettings } from './notification-settings/catalog';
import { catalog as packages } from './packages/catalog';
import { catalog as meta } from './meta/catalog';
import { parseRouteKey as parseKey, toResource as toPrefixedResource, type RouteSpec as AnyRouteSpec } from './platform/http/routing';
import { catalog as projects } from './projects/catalog';
import { catalog as releases } from './releases/catalog';
import { catalog as repository } from './repository/catalog';
import { catalog as search } from './search/catalog';
import { catalog as snippets } from './snippets/catalog';
import { catalog as terraformStates } from './terraform-states/catalog';
import { catalog as users } from './users/catalog';
import { catalog as wikis } from './wikis/catalog';

export type { HttpMethod } from './platform/http/routing';

export const API_PREFIX = '/api/v4';

/** The endpoint groups, each with the feature slice it serves. A new group is added here. */
export const routeCatalog = {
  // The API root's `shared` subtree: `/deploy_keys`, `/search`, personal snippets (`/snippets`), `/notification_settings`, `/topics`, `/user_counts` and system hooks (`/hooks`) need no resource of their own.
  meta: [...meta.meta, ...deployKeys.meta, ...search.meta, ...snippets.meta, ...notificationSettings.meta, ...projects.meta, ...mergeRequests.meta, ...hooks.meta],
  users: [...users.users, ...projects.users, ...members.users, ...ci.users, ...deployKeys.users],
  // A group's and a project's issue counts, badges, deploy tokens, access requests, search and issue boards, notification settings (and a group's access tokens, runners and packages, a project's deploy keys, wiki pages, snippets, Terraform states and packages) are answered by their functions (no resource of their own).
  groups: [...groups.groups, ...issues.groups, ...badges.groups, ...deployTokens.groups, ...members.groups, ...ci.groups, ...packages.groups, ...search.groups, ...boards.groups, ...notificationSettings.groups],
  members: members.members,
  projects: [...projects.projects, ...issues.projects, ...ci.projects, ...badges.projects, ...deployTokens.projects, ...deployKeys.projects, ...members.projects, ...wikis.projects, ...snippets.projects, ...terraformStates.projects, ...packages.projects, ...search.projects, ...boards.projects, ...notificationSettings.projects],
  hooks: hooks.hooks,
  milestones: issues.milestones,
  labels: issues.labels,
  // An issue's notes and actions are served with the issue (one subtree, `GATEWAY_SUBTREES`).
  issues: [...issues.issues, ...issues.notes, ...issues.discussions, ...issues.award_emoji, ...issues.issue_actions, ...mergeRequests.issues],
  todos: issues.todos,
  merge_requests: mergeRequests.merge_requests,
  uploads: projects.uploads,
  // Releases read and create tags from the same packs: served with the repository.
  repository: [...repository.repository, ...releases.repository, ...mergeRequests.repository, ...ci.repository],
  ci_jobs: [...ci.ci_jobs, ...mergeRequests.ci_jobs],
  ci_runners: ci.ci_runners,
  web: [...projects.web, ...repository.web],
} as const;

export type GroupName = keyof typeof routeCatalog;
export type RouteKeyOf<G extends GroupName> = (typeof routeCatalog)[G][number];

/** A route of the catalog, with its group. */
export type RouteSpec = AnyRouteSpec & { group: GroupName };

/** The route keys of one group. */
export function routeKeysOf<G extends GroupName>(group: G): ReadonlyArray<RouteKeyOf<G>> {
  return routeCatalog[group];
}

/**
 * Groups whose function answers through Lambda response streaming (API Gateway's `STREAM`
 * transfer mode): their responses are not held to Lambda's 6 MB payload limit nor API Gateway's
 * 29 s, which git clones and fetches of large repositories need (the web group serves git's smart
 * HTTP), and archives and raw files of the repository API. Requests still are: a streamed
 * invocation's request payload is limited to 6 MB too.
 */
export function streamsResponses(group: GroupName): boolean {
  return group === 'web' || group === 'repository' || group === 'ci_jobs' || group === 'ci_runners';
}

/** Where a group's routes live: web routes at the root, every other group under {@link API_PREFIX}. */
export function routePrefix(group: GroupName): string {
  return group === 'web' ? '' : API_PREFIX;
}

/** Splits a route key of a group such as `GET /users/:id` into its parts. */
export function parseRouteKey(group: GroupName, key: string): RouteSpec {
  return { ...parseKey(group, key, routePrefix(group)), group };
}

/** `/users/:id` → `/api/v4/users/{id}`; a greedy `/:path+` → `{prefix}/{path+}`. */
export function toResource(path: string, prefix: string = API_PREFIX): string {
  return toPrefixedResource(path, prefix);
}

/** Every route of every group, flattened. */
export function allRoutes(): RouteSpec[] {
  return (Object.keys(routeCatalog) as GroupName[]).flatMap((group) =>
    routeCatalog[group].map((key) => parseRouteKey(group, key)),
  );
}

/**
 * Subtrees of the API that API Gateway serves with one greedy resource (`<subtree>/{proxy+}`, the
 * methods its routes use), the group's function finding the route inside: a REST API holds at
 * most 300 resources (a quota), and a subtree of many paths served by one function needs none of
 * them. Every route under a subtree belongs to its group (a test checks it), except under a
 * `shared` subtree: there only the group's own routes go to the greedy resource, and every other
 * group's keep resources of their own, which API Gateway prefers as the more specific (a test
 * checks that every route of the catalog still reaches its own group).
 */
export const GATEWAY_SUBTREES: ReadonlyArray<{ resource: string; group: GroupName; shared?: true }> = [
  { resource: `${API_PREFIX}/projects/{id}/repository`, group: 'repository' },
  { resource: `${API_PREFIX}/projects/{id}/merge_requests`, group: 'merge_requests' },
  { resource: `${API_PREFIX}/projects/{id}/releases`, group: 'repository' },
  { resource: `${API_PREFIX}/projects/{id}/pipelines`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/projects/{id}/jobs`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/projects/{id}/ref`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/projects/{id}/job_token_scope`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/projects/{id}/environments`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/projects/{id}/deployments`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/projects/{id}/pipeline_schedules`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/admin/ci`, group: 'ci_jobs' },
  { resource: `${API_PREFIX}/jobs`, group: 'ci_runners' },
  { resource: `${API_PREFIX}/runners`, group: 'ci_runners' },
  { resource: `${API_PREFIX}/projects/{id}/runners`, group: 'ci_runners' },
  { resource: `${API_PREFIX}/users/{id}`, group: 'users' },
  { resource: `${API_PREFIX}/user`, group: 'users' },
  { resource: `${API_PREFIX}/todos`, group: 'todos' },
  { resource: `${API_PREFIX}/personal_access_tokens`, group: 'users' },
  // From `issues` down (not `issues/{issue_iid}`): one resource fewer, for the pipeline trigger tokens'.
  { resource: `${API_PREFIX}/projects/{id}/issues`, group: 'issues' },
  { resource: `${API_PREFIX}/projects/{id}/labels`, group: 'labels' },
  { resource: `${API_PREFIX}/groups/{id}/labels`, group: 'labels' },
  { resource: `${API_PREFIX}/projects/{id}/milestones`, group: 'milestones' },
  { resource: `${API_PREFIX}/groups/{id}/milestones`, group: 'milestones' },
  { resource: `${API_PREFIX}/projects/{id}/members`, group: 'members' },
  { resource: `${API_PREFIX}/projects/{id}/access_tokens`, group: 'members' },
  { resource: `${API_PREFIX}/groups/{id}/members`, group: 'members' },
  { resource: `${API_PREFIX}/projects/{id}/hooks`, group: 'hooks' },
  // A project's and a group's own actions (archive, star, fork, share, transfer, avatar, …).
  { resource: `${API_PREFIX}/projects/{id}`, group: 'projects', shared: true },
  { resource: `${API_PREFIX}/groups/{id}`, group: 'groups', shared: true },
  // The API's root: the meta group's routes (`/version`, `/metadata`, …), and any top-level path
  // that has no group of its own, need no resource of their own (`/api/v4/{proxy+}`, which API
  // Gateway takes only when no more specific resource matches).
  { resource: API_PREFIX, group: 'meta', shared: true },
];

/** The subtree serving a route's resource, if any: the deepest that takes the route's group. */
function subtreeOf(route: RouteSpec) {
  let deepest: (typeof GATEWAY_SUBTREES)[number] | undefined;
  for (const subtree of GATEWAY_SUBTREES) {
    if (!route.resource.startsWith(`${subtree.resource}/`) || (subtree.shared && subtree.group !== route.group)) continue;
    if (!deepest || subtree.resource.length > deepest.resource.length) deepest = subtree;
  }
  return deepest;
}

/** The resource API Gateway matches for a route: its own, or its subtree's greedy resource. */
export function gatewayResourceOf(route: RouteSpec): string {
  const subtree = subtreeOf(route);
  return subtree ? `${subtree.resource}/{proxy+}` : route.resource;
}

/**
 * The routes as API Gateway is given them (the deployed definition, and the local gateway's
 * matching): each route, except that the routes of a subtree become one route per method on the
 * subtree's greedy resource.
 */
export function gatewayRoutes(routes: readonly RouteSpec[] = allRoutes()): RouteSpec[] {
  const byKey = new Map<string, RouteSpec>();
  for (const route of routes) {
    const subtree = subtreeOf(route);
    if (!subtree) {
      byKey.set(route.key + route.group, route);
      continue;
    }
    const path = `${subtree.resource.slice(route.prefix.length).replace(/\{([a-z_]+)\}/g, ':$1')}/:proxy+`;
    const key = `${route.method} ${path}`;
    byKey.set(key + subtree.group, { ...parseRouteKey(subtree.group, key), group: subtree.group });
  }
  return [...byKey.values()];
}
