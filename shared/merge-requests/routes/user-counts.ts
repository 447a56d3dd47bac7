/**
 * `GET /user_counts` (GitLab's `API::UserCounts`): the caller's counts, 401 without a token.
 * Served by the meta function (the API root's subtree); the query, which reaches the issues
 * feature, is loaded on the first request (`lazily`), so the meta function's cold start does not
 * hold it.
 */
import { ok } from '../../platform/http/response';
import { lazily } from '../../platform/lazy';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';

const userCounts = lazily(
  () => import('../queries/user-counts'),
  (m) => m.userCounts,
);

export const userCountRoutes = {
  'GET /user_counts': route({
    params: noParams,
    handler: async ({ user }) => ok(await userCounts(user.id)),
  }),
} satisfies RoutesOf<typeof catalog.meta>;
