/**
 * Group milestones (GitLab's `lib/api/group_milestones.rb`). Every route needs a token, as in
 * GitLab. Reading needs read access to the group (404 otherwise); writing needs
 * `admin_milestone` on the group: reporter or above (GitLab's `GroupPolicy`), or an admin (403).
 */
import { z } from 'zod';
import { ACCESS_LEVELS, isAdmin, type GroupSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { ForbiddenError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { p } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createGroupMilestone, deleteGroupMilestone, updateGroupMilestone } from '../commands/group-milestones';
import { presentGroupMilestone } from '../presenters/milestones';
import { findGroupMilestoneOrNotFound, listMilestonesOfGroup } from '../queries/group-milestones';
import { changesFrom, createParams, filtersFrom, inputFrom, listParams, milestonePathParams, updateParams } from './milestones.params';

/**
 * Internal: GitLab's group `admin_milestone` (reporter or above; admins). Declared here until the
 * auth policy assembles group abilities from the issues feature (see the feature's report).
 */
const mayAdminMilestones = (user: User, subject: GroupSubject) => isAdmin(user) || subject.level >= ACCESS_LEVELS.reporter;

/** The group whose milestones the caller may manage: 404 when they cannot see it, 403 when they may not manage. */
async function findManagedGroup(idOrPath: string, user: User): Promise<GroupSubject> {
  const subject = await findGroupOrNotFound(idOrPath, user);
  if (!mayAdminMilestones(user, subject)) throw new ForbiddenError();
  return subject;
}

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
   * The milestone's issues the caller may read. Issues take only their project's milestones so
   * far (see the feature's notes), so a group milestone has none: an empty page, once the
   * milestone is found.
   */
  'GET /groups/:id/milestones/:milestone_id/issues': route({
    params: z.object({ ...milestonePathParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      await findGroupMilestoneOrNotFound(group.id, params.milestone_id);
      return ok([], paginateArray(params, link, []).headers);
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
