/**
 * Project milestones: list, read, create, edit (rename, dates, close/activate), delete.
 * Reads need only read access to the project (anonymous for public projects); writes need
 * `admin_milestone` (reporter or above, or an admin), as in GitLab.
 */
import { z } from 'zod';
import { authorize, can, type ProjectSubject } from '../../auth';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createMilestone, deleteMilestone, updateMilestone } from '../commands/milestones';
import { presentIssues } from '../presenters/issues';
import { presentMilestone } from '../presenters/milestones';
import { projectIssueStream } from '../queries/issues';
import { findMilestoneOrNotFound, listProjectMilestones } from '../queries/milestones';
import { changesFrom, createParams, filtersFrom, inputFrom, listParams, milestonePathParams, updateParams } from './milestones.params';

const pathOf = (subject: ProjectSubject) => projectFullPath(subject.namespace, subject.project);

/** The project whose milestones the caller may manage: 404 when they cannot see it, 403 when they can but not manage. */
async function findManagedProject(idOrPath: string, user: User): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_milestone', subject);
  return subject;
}

export const milestoneRoutes = {
  'GET /projects/:id/milestones': route({
    params: listParams,
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const page = paginateArray(params, link, await listProjectMilestones(subject.project.id, filtersFrom(params)));
      return ok(page.items.map((milestone) => presentMilestone(milestone, pathOf(subject))), page.headers);
    },
  }),

  'GET /projects/:id/milestones/:milestone_id': route({
    params: z.object(milestonePathParams),
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(presentMilestone(await findMilestoneOrNotFound(subject.project.id, params.milestone_id), pathOf(subject)));
    },
  }),

  /** The milestone's issues the caller may read, as the project's issue list filtered by it. */
  'GET /projects/:id/milestones/:milestone_id/issues': route({
    params: z.object({ ...milestonePathParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const milestone = await findMilestoneOrNotFound(subject.project.id, params.milestone_id);
      if (!can(user, 'read_issue', subject)) return ok([], paginateArray(params, link, []).headers);
      const stream = await projectIssueStream(subject, user, { milestone: milestone.title }, { orderBy: 'created_at', ascending: false });
      const page = await paginate(params, link, stream);
      return ok(await presentIssues(page.items, () => pathOf(subject)), page.headers);
    },
  }),

  'POST /projects/:id/milestones': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findManagedProject(params.id, user);
      return created(presentMilestone(await createMilestone(subject.project.id, inputFrom(params)), pathOf(subject)));
    },
  }),

  'PUT /projects/:id/milestones/:milestone_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await findManagedProject(params.id, user);
      const milestone = await findMilestoneOrNotFound(subject.project.id, params.milestone_id);
      return ok(presentMilestone(await updateMilestone(milestone, changesFrom(params)), pathOf(subject)));
    },
  }),

  'DELETE /projects/:id/milestones/:milestone_id': route({
    params: z.object(milestonePathParams),
    handler: async ({ params, user }) => {
      const subject = await findManagedProject(params.id, user);
      await deleteMilestone(await findMilestoneOrNotFound(subject.project.id, params.milestone_id));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.milestones>;
