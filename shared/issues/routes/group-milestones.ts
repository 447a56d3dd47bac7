/**
 * Group milestones (GitLab's `lib/api/group_milestones.rb`). Every route needs a token, as in
 * GitLab. Reading needs read access to the group (404 otherwise); writing needs
 * `admin_milestone` on the group (`abilities.ts`: reporter or above, as GitLab's `GroupPolicy`; admins) (403).
 */
import * as z from 'zod';
import { authorize, type GroupSubject, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { p } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createGroupMilestone, deleteGroupMilestone, updateGroupMilestone } from '../commands/group-milestones';
import { presentIssues } from '../presenters/issues';
import { presentGroupMilestone } from '../presenters/milestones';
import { findGroupMilestoneOrNotFound, listMilestonesOfGroup } from '../queries/group-milestones';
import { groupMilestoneIssueStream } from '../queries/issues';
import { milestoneAliasKeys } from '../store/group-milestones';
import { projectFullPath } from '../../projects';
import { changesFrom, createParams, filtersFrom, inputFrom, listParams, milestonePathParams, updateParams } from './milestones.params';

/** The group whose milestones the caller may manage: 404 when they cannot see it, 403 when they may not manage. */
async function findManagedGroup(idOrPath: string, user: User): Promise<GroupSubject> {
  const subject = await findGroupOrNotFound(idOrPath, user);
  authorize(user, 'admin_milestone', subject);
  return subject;
}

/** Internal: the `path_with_namespace` of each listed issue's project. */
const pathsIn = (subjects: Map<number, ProjectSubject>) => (projectId: number) => {
  const { namespace, project } = subjects.get(projectId)!;
  return projectFullPath(namespace, project);
};

/** `GET /groups/:id/milestones`: the project list's filters, and `include_ancestors` (`include_parent_milestones`, its old name). */
const groupListParams = listParams.extend({ include_ancestors: p.bool(), include_parent_milestones: p.bool() });

export const groupMilestoneRoutes = {
  'GET /groups/:id/milestones': route({
    params: groupListParams,
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const includeAncestors = params.include_ancestors ?? params.include_parent_milestones ?? false;
      const page = paginateArray(params, link, await listMilestonesOfGroup(group, { ...filtersFrom(params), includeAncestors }));
      return ok(page.items.map((milestone) => presentGroupMilestone(milestone, group.fullPath)), page.headers);
    },
  }),

  'GET /groups/:id/milestones/:milestone_id': route({
    params: z.object(milestonePathParams),
    handler: async ({ params, user }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      return ok(presentGroupMilestone(await findGroupMilestoneOrNotFound(group.id, params.milestone_id), group.fullPath));
    },
  }),

  /**
   * The milestone's issues the caller may read, newest first: those of the group's projects (and
   * its subgroups') that use it (see `groupMilestoneIssueStream`).
   */
  'GET /groups/:id/milestones/:milestone_id/issues': route({
    params: z.object({ ...milestonePathParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const milestone = await findGroupMilestoneOrNotFound(group.id, params.milestone_id);
      const { stream, subjects } = await groupMilestoneIssueStream(group, milestoneAliasKeys(milestone), user);
      const page = await paginate(params, link, stream);
      return ok(await presentIssues(page.items, pathsIn(subjects), { from: { group: group.fullPath } }), page.headers);
    },
  }),

  'POST /groups/:id/milestones': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const { group } = await findManagedGroup(params.id, user);
      return created(presentGroupMilestone(await createGroupMilestone(group.id, inputFrom(params)), group.fullPath));
    },
  }),

  'PUT /groups/:id/milestones/:milestone_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const { group } = await findManagedGroup(params.id, user);
      const milestone = await findGroupMilestoneOrNotFound(group.id, params.milestone_id);
      return ok(presentGroupMilestone(await updateGroupMilestone(milestone, changesFrom(params)), group.fullPath));
    },
  }),

  'DELETE /groups/:id/milestones/:milestone_id': route({
    params: z.object(milestonePathParams),
    handler: async ({ params, user }) => {
      const { group } = await findManagedGroup(params.id, user);
      await deleteGroupMilestone(await findGroupMilestoneOrNotFound(group.id, params.milestone_id));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.milestones>;
