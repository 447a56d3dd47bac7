/**
 * Issue counts by state (GitLab's `issues_statistics`): a project's, a group's, and the caller's
 * own. Every call must be authenticated, as the issue lists. The project's and the group's routes
 * are served by the projects and groups functions (`shared/catalog.ts`: their shared subtrees
 * take them without an API Gateway resource of their own), so this module is imported on its own.
 */
import { findGroupOrNotFound } from '../../namespaces';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectAndRead } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import {
  groupIssueStatistics,
  projectIssueListKeys,
  projectIssueStatistics,
  userIssueStatistics,
  type IssueFilters,
  type StateCounts,
} from '../queries/issues';
import { filtersFrom, statisticsParams, userStatisticsParams } from './issues.params';

/** GitLab's response: `{"statistics":{"counts":{"all":…,"closed":…,"opened":…}}}`. */
const presentStatistics = (counts: StateCounts) => ({
  statistics: { counts: { all: counts.opened + counts.closed, closed: counts.closed, opened: counts.opened } },
});

/**
 * Internal: `scope` as a filter (GitLab's `IssuableFinder#by_scope`): the caller's issues or those
 * assigned to them, besides `author_id`/`assignee_id` (a different user: nothing, user id 0).
 */
function scoped(filters: IssueFilters, scope: string | undefined, user: User): IssueFilters {
  const mine = (id: IssueFilters['authorId'] | IssueFilters['assigneeId']) => (id === undefined || id === user.id || id === 'any' ? user.id : 0);
  if (scope === 'created_by_me') return { ...filters, authorId: mine(filters.authorId) };
  if (scope === 'assigned_to_me') return { ...filters, assigneeId: mine(filters.assigneeId) };
  return filters;
}

export const issueStatisticsRoutes = {
  'GET /issues_statistics': route({
    params: userStatisticsParams,
    handler: async ({ params, user }) => ok(presentStatistics(await userIssueStatistics(user, params.scope, await filtersFrom(params)))),
  }),
} satisfies RoutesOf<typeof catalog.issues>;

export const projectIssueStatisticsRoutes = {
  'GET /projects/:id/issues_statistics': route({
    params: statisticsParams,
    handler: async ({ params, user }) => {
      const filters = scoped(await filtersFrom(params), params.scope, user);
      // The counts that may serve the filters, and the label claims, in the project's own read.
      const { subject, read } = await findProjectAndRead(params.id, user, projectIssueListKeys(filters));
      return ok(presentStatistics(await projectIssueStatistics(subject, user, filters, read)));
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;

export const groupIssueStatisticsRoutes = {
  'GET /groups/:id/issues_statistics': route({
    params: statisticsParams,
    handler: async ({ params, user }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      return ok(presentStatistics(await groupIssueStatistics(group, user, scoped(await filtersFrom(params), params.scope, user))));
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
