/**
 * `GET /projects/:id/issues/:issue_iid/related_merge_requests` (served by the `issues` group):
 * the merge requests that mention or close the issue, those the caller may read, oldest first.
 */
import * as z from 'zod';
import { NotFoundError } from '../../platform/http/errors';
import { p, required, idParam } from '../../platform/http/params';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import type { catalog } from '../catalog';
import { canReadIssue, findIssue } from '../issuables';
import { presentMergeRequests } from '../presenters/merge-requests';
import { relatedMergeRequests } from '../queries/related';

export const relatedRoutes = {
  'GET /projects/:id/issues/:issue_iid/related_merge_requests': route({
    params: z.object({ ...idParam, issue_iid: required(p.int()), ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssue(subject.project.id, params.issue_iid);
      if (!issue || !canReadIssue(user, subject, issue)) throw new NotFoundError('Issue');
      const { mergeRequests, subjects } = await relatedMergeRequests(user, issue);
      const page = paginateArray(params, link, mergeRequests);
      const pathOf = (projectId: number) => {
        const s = subjects.get(projectId)!;
        return projectFullPath(s.namespace, s.project);
      };
      // References relative to the issue's project (GitLab's `project: user_project`).
      return ok(await presentMergeRequests(page.items, pathOf, { from: { project: projectFullPath(subject.namespace, subject.project) } }), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.issues>;
