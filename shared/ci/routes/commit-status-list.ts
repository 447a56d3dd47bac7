/**
 * A commit's statuses (GitLab's `GET /projects/:id/repository/commits/:sha/statuses`, python-gitlab's
 * `commit.statuses.list()`): served by the `repository` group, under its subtree. Reporters
 * (`read_commit_status`): 401 anonymous, 403 below, 404 a project the caller may not see or an
 * unknown commit (`Commit Not Found`).
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { presentCommitStatus } from '../presenters/commit-statuses';
import { commitStatuses, findCommitShaOrNotFound } from '../queries/commit-statuses';
import { usersById } from '../queries/jobs';

export const commitStatusListRoutes = {
  'GET /projects/:id/repository/commits/:sha/statuses': route({
    params: z.object({
      ...idParam,
      sha: required(p.string()),
      ref: p.string(),
      stage: p.string(),
      name: p.string(),
      pipeline_id: p.int(),
      all: p.bool(),
      order_by: p.oneOf(['id', 'pipeline_id']),
      sort: p.oneOf(['asc', 'desc']),
      ...paginationParams,
    }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'read_commit_status', subject);
      const sha = await findCommitShaOrNotFound(subject, params.sha);
      const statuses = await commitStatuses(subject.project.id, sha, { ref: params.ref, stage: params.stage, name: params.name, pipelineId: params.pipeline_id, all: params.all, orderBy: params.order_by, sort: params.sort });
      const page = paginateArray(params, link, statuses);
      const users = await usersById(page.items.map((job) => job.userId));
      return ok(page.items.map((job) => presentCommitStatus(job, job.userId === null ? undefined : users.get(job.userId))), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
