/**
 * `GET /projects/:id/deployments/:deployment_id/merge_requests` (served by the `ci_jobs` group,
 * beside CI's deployments): the merge requests a deployment shipped, linked when it
 * succeeded (`commands/deployments.ts`), with a project list's filters and order, as the list's
 * basic entity. Reporters and above (GitLab's `read_deployment`: 403 below); a deployment of
 * another project, or none, lists nothing (GitLab's finder, which does not look the deployment up).
 */
import { authorize, can } from '../../auth';
import { paginateArray } from '../../platform/http/pagination';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { lazily } from '../../platform/lazy';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import { deploymentListParams, filtersFrom, orderFrom } from './list.params';

// The merge requests' reads and presenter (with what they reach of the issues feature, ~100 KB)
// load with the first request for the list, not with the `ci_jobs` function, which serves only it.
const deploymentMergeRequests = lazily(() => import('../queries/merge-requests'), (m) => m.deploymentMergeRequests);
const presentMergeRequests = lazily(() => import('../presenters/merge-requests'), (m) => m.presentMergeRequests);

export const deploymentMergeRequestRoutes = {
  'GET /projects/:id/deployments/:deployment_id/merge_requests': route({
    params: deploymentListParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'read_environment', subject);
      const mrs = can(user, 'read_merge_request', subject) ? await deploymentMergeRequests(subject, params.deployment_id, await filtersFrom(params, user?.id), orderFrom(params)) : [];
      const page = paginateArray(params, link, mrs);
      return ok(await presentMergeRequests(page.items, () => projectFullPath(subject.namespace, subject.project)), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_jobs>;
