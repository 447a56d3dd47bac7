/**
 * Project milestones: list, read, create, edit (rename, dates, close/activate), delete.
 * Reads need only read access to the project (anonymous for public projects); writes need
 * `admin_milestone` (reporter or above, or an admin), as in GitLab.
 */
import * as z from 'zod';
import { authorize, can, groupAccessFor, type ProjectSubject } from '../../auth';
import { ForbiddenError } from '../../platform/http/errors';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { getNamespaces } from '../../namespaces';
import { p } from '../../platform/http/params';
import { findProjectOrNotFound, projectFullPath } from '../../projects';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { promoteMilestone } from '../commands/group-milestones';
import { createMilestone, deleteMilestone, updateMilestone } from '../commands/milestones';
import { presentIssues } from '../presenters/issues';
import { presentGroupMilestone, presentMilestone } from '../presenters/milestones';
import { listMilestonesOfGroup } from '../queries/group-milestones';
import { projectIssueStream } from '../queries/issues';
import { findMilestoneOrNotFound, listProjectMilestones } from '../queries/milestones';
import type { GroupMilestone } from '../store/group-milestones';
import type { Milestone } from '../store/milestones';
import { changesFrom, createParams, filtersFrom, inputFrom, listParams, milestonePathParams, updateParams } from './milestones.params';

/** `GET /projects/:id/milestones`: the list filters, and `include_ancestors` (the project's group and its ancestors' milestones too). */
const projectListParams = listParams.extend({ include_ancestors: p.bool() });

const pathOf = (subject: ProjectSubject) => projectFullPath(subject.namespace, subject.project);

/** The project whose milestones the caller may manage: 404 when they cannot see it, 403 when they can but not manage. */
async function findManagedProject(idOrPath: string, user: User): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, 'admin_milestone', subject);
  return subject;
}

/** Internal: the full paths of the groups holding the page's group milestones (one BatchGetItem, when there are any). */
async function groupPathsOf(milestones: Array<Milestone | GroupMilestone>): Promise<Map<number, string>> {
  const ids = [...new Set(milestones.flatMap((milestone) => ('groupId' in milestone ? [milestone.groupId] : [])))];
  return new Map(ids.length === 0 ? [] : (await getNamespaces(ids)).map((group) => [group.id, group.fullPath]));
}

export const milestoneRoutes = {
  'GET /projects/:id/milestones': route({
    params: projectListParams,
    anonymous: true,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const filters = filtersFrom(params);
      const [own, inherited] = await Promise.all([
        listProjectMilestones(subject.project.id, filters),
        params.include_ancestors && subject.namespace.kind === 'group' ? listMilestonesOfGroup(subject.namespace, { ...filters, includeAncestors: true }) : [],
      ]);
      const all: Array<Milestone | GroupMilestone> = [...own, ...inherited].sort((a, b) => a.id - b.id);
      const page = paginateArray(params, link, all);
      const groupPaths = await groupPathsOf(page.items);
      return ok(
        page.items.map((milestone) =>
          'groupId' in milestone ? presentGroupMilestone(milestone, groupPaths.get(milestone.groupId) ?? '') : presentMilestone(milestone, pathOf(subject)),
        ),
        page.headers,
      );
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

  /**
   * Promotes one of the project's milestones to its group (GitLab's `promote`): `admin_milestone`
   * on the project and on its group, 403 otherwise, also for a project outside any group (GitLab
   * authorizes on `user_project.group`, nil there: nobody may, admins included); 400
   * `Promotion failed - …` (see `promoteMilestone`). Answers 200 with the JSON body `200`, as
   * GitLab's `status(200)` does (the group milestone is not returned).
   */
  'POST /projects/:id/milestones/:milestone_id/promote': route({
    params: z.object(milestonePathParams),
    handler: async ({ params, user }) => {
      const subject = await findManagedProject(params.id, user);
      const { namespace } = subject;
      if (namespace.kind !== 'group') throw new ForbiddenError();
      authorize(user, 'admin_milestone', { kind: 'group', group: namespace, level: await groupAccessFor(user, namespace) });
      const milestone = await findMilestoneOrNotFound(subject.project.id, params.milestone_id);
      await promoteMilestone(milestone, namespace);
      return ok(200);
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
