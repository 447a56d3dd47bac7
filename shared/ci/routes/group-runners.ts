/**
 * `GET /groups/:id/runners` (GitLab's `API::Ci::Runners`, python-gitlab's `group.runners.list()`):
 * the runners available to a group — its own, its ancestors' and the instance runners — with the
 * runner lists' filters (`type`, `status`, `paused`, `tag_list`). Maintainers and owners (GitLab's
 * `read_group_runners`: 403 to other members, 404 to those who cannot see the group). Served by
 * the groups function (the `/groups/{id}` subtree: no API Gateway resource of its own), so the
 * list is loaded on first use.
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { paginate } from '../../platform/http/pagination';
import { idParam } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { filterParams, filtersOf } from './runners.params';

export const groupRunnerRoutes = {
  'GET /groups/:id/runners': route({
    params: z.object({ ...idParam, ...filterParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findGroupOrNotFound(params.id, user);
      authorize(user, 'read_group_runners', subject);
      const [{ groupRunnerList }, { presentRunner }] = await Promise.all([import('../queries/runners'), import('../presenters/runners')]);
      const page = await paginate(params, link, groupRunnerList(subject.group, filtersOf(params)));
      return ok(page.items.map(presentRunner), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
