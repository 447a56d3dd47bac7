/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests` (served by the `repository` group,
 * beside the commits API): the merge requests that hold a commit, as the list's basic entity
 * (semantic-release's and python-gitlab's `commit.merge_requests()`). GitLab's checks: the
 * project's merge requests readable (403 otherwise), the commit found (404 `Commit Not Found`);
 * `state` one of the list's states (any other value lists every state, as GitLab's finder).
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import type { catalog } from '../catalog';
import { commitIdOf } from '../git';
import { presentMergeRequests } from '../presenters/merge-requests';
import { commitMergeRequests, type StateFilter } from '../queries/merge-requests';

const STATES: readonly string[] = ['opened', 'closed', 'locked', 'merged', 'all'];

export const commitMergeRequestRoutes = {
  'GET /projects/:id/repository/commits/:sha/merge_requests': route({
    anonymous: true,
    params: z.object({ ...idParam, sha: required(p.string()), state: p.string(), ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'read_merge_request', subject);
      const sha = await commitIdOf(subject.project, params.sha);
      const state = params.state !== undefined && STATES.includes(params.state) ? (params.state as StateFilter) : undefined;
      const page = paginateArray(params, link, await commitMergeRequests(subject.project.id, sha, state));
      return ok(await presentMergeRequests(page.items, () => projectFullPath(subject.namespace, subject.project)), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
