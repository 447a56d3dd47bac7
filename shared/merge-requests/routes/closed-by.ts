/**
 * `GET /projects/:id/issues/:issue_iid/closed_by` (served by the `issues` group): the merge
 * requests that close the issue when merged, as recorded when they were opened or edited
 * (`MR_CLOSING#` relations), those the caller may read.
 */
import { can } from '../../auth';
import * as z from 'zod';
import { getMany } from '../../platform/dynamo/batch';
import { NotFoundError } from '../../platform/http/errors';
import { p, required, idParam } from '../../platform/http/params';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import { canReadIssue, findIssue } from '../issuables';
import { presentMergeRequests } from '../presenters/merge-requests';
import { projectSubjects } from '../queries/merge-requests';
import { mergeRequestKeys } from '../store/keys';
import { closedByRefs, mergeRequestFromItem } from '../store/merge-requests';

export const closedByRoutes = {
  'GET /projects/:id/issues/:issue_iid/closed_by': route({
    params: z.object({ ...idParam, issue_iid: required(p.int()), ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssue(subject.project.id, params.issue_iid);
      if (!issue || !canReadIssue(user, subject, issue)) throw new NotFoundError('Issue');
      const refs = await closedByRefs(subject.project.id, issue.iid);
      const mrs = (await getMany(refs.map((ref) => mergeRequestKeys.mergeRequest(ref.projectId, ref.iid)))).map(mergeRequestFromItem).filter((mr) => !mr.deletedAt);
      const subjects = await projectSubjects(user, [...new Set(mrs.map((mr) => mr.projectId))]);
      const readable = mrs.filter((mr) => subjects.has(mr.projectId) && can(user, 'read_merge_request', subjects.get(mr.projectId)!)).sort((a, b) => a.id - b.id);
      const page = paginateArray(params, link, readable);
      const pathOf = (projectId: number) => {
        const s = subjects.get(projectId)!;
        return projectFullPath(s.namespace, s.project);
      };
      // References relative to the issue's project (GitLab's `project: user_project`).
      return ok(await presentMergeRequests(page.items, pathOf, { from: { project: projectFullPath(subject.namespace, subject.project) } }), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.issues>;
