/** Groups: list, create, read (with projects), update, delete, and a group's projects. */
import * as z from 'zod';
import { ACCESS_LEVELS, authorize, can, isAdmin } from '../../auth';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { findProjectOrNotFound, presentProjects, projectList, transferProject } from '../../projects';
import { paginate } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok, type HttpResult } from '../../platform/http/response';
import { route, type AnyRoute, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { changeGroupAvatar } from '../commands/avatars';
import { scheduleGroupDeletion } from '../commands/delete-group';
import { createGroup, updateGroup } from '../commands/groups';
import { shareGroup, unshareGroup } from '../commands/group-links';
import { transferGroup } from '../commands/transfer-group';
import { assertValidAvatar, findGroupOrNotFound } from '../../namespaces';
import { presentGroupDetail, presentGroups } from '../presenters/groups';
import { groupDetailProjects } from '../queries/group-detail';
import { listGroups, listSubgroups } from '../queries/groups';
import { groupAvatarRoutes } from './avatars';
import { GROUP_TEXT_LIMIT, groupListParams, groupProjectsParams, groupSettingsParams, withGroupId } from './groups.params';

/** GitLab's `accepted!`: 202 `{"message":"202 Accepted"}`. */
const accepted = (): HttpResult => ({ statusCode: 202, body: { message: '202 Accepted' } });

/** `GET /groups/:id/<segment>`: the groups below a group the caller may read, filtered and paged as `GET /groups`. */
function subgroupRoutes<S extends 'subgroups' | 'descendant_groups'>(segment: S, scope: 'children' | 'descendants') {
  const key = `GET /groups/:id/${segment}` as const;
  return {
    [key]: route({
      anonymous: true,
      params: withGroupId(groupListParams),
      handler: async ({ params, user, link }) => {
        const { group } = await findGroupOrNotFound(params.id, user);
        const page = await paginate(params, link, await listSubgroups(user, group, params, scope));
        return ok(await presentGroups(page.items, { statistics: params.statistics && isAdmin(user) }), page.headers);
      },
    }),
  } as Record<`GET /groups/:id/${S}`, AnyRoute>;
}

export const groupRoutes = {
  ...groupAvatarRoutes,

  'GET /groups': route({
    anonymous: true,
    params: z.object(groupListParams),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, await listGroups(user, params));
      return ok(await presentGroups(page.items, { statistics: params.statistics && isAdmin(user) }), page.headers);
    },
  }),

  'POST /groups': route({
    params: z.object({
      ...groupSettingsParams,
      name: required(p.string(GROUP_TEXT_LIMIT)),
      path: required(p.string(GROUP_TEXT_LIMIT)),
      parent_id: p.int(),
    }),
    handler: async ({ params: { parent_id, avatar, ...settings }, user }) => {
      // A subgroup needs the right to administer its parent; a top-level group `create_group`.
      const parent = parent_id !== undefined ? await findGroupOrNotFound(parent_id, user) : null;
      if (parent) authorize(user, 'admin_group', parent);
      else authorize(user, 'create_group');
      assertValidAvatar(avatar); // a model error, as GitLab's: before anything is written
      const fresh = await createGroup(user, settings, parent?.group ?? null);
      const group = avatar ? await changeGroupAvatar(fresh, avatar) : fresh;
      return created(await presentGroupDetail(group, user, { projects: [], sharedProjects: [] }));
    },
  }),

  'GET /groups/:id': route({
    anonymous: true,
    params: withGroupId({ with_projects: p.bool() }),
    handler: async ({ params, user, link }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      if (params.with_projects === false) return ok((await presentGroups([group]))[0]);
      return ok(await presentGroupDetail(group, user, await groupDetailProjects(user, group, link)));
    },
  }),

  ...subgroupRoutes('subgroups', 'children'),
  ...subgroupRoutes('descendant_groups', 'descendants'),

  'PUT /groups/:id': route({
    params: withGroupId(groupSettingsParams),
    handler: async ({ params: { id, avatar, ...settings }, user, link }) => {
      const subject = await findGroupOrNotFound(id, user);
      authorize(user, 'admin_group', subject);
      assertValidAvatar(avatar); // a model error, as GitLab's: after the group was found and the caller authorized
      const edited = await updateGroup(subject.group, settings);
      const group = avatar === undefined ? edited : await changeGroupAvatar(edited, avatar);
      return ok(await presentGroupDetail(group, user, await groupDetailProjects(user, group, link)));
    },
  }),

  'DELETE /groups/:id': route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const subject = await findGroupOrNotFound(params.id, user);
      authorize(user, 'admin_group', subject);
      await scheduleGroupDeletion(subject.group);
      return accepted();
    },
  }),

  'POST /groups/:id/transfer': route({
    params: withGroupId({ group_id: p.int() }),
    handler: async ({ params, user, link }) => {
      const subject = await findGroupOrNotFound(params.id, user);
      authorize(user, 'admin_group', subject);
      const parent = params.group_id !== undefined ? (await findGroupOrNotFound(params.group_id, user)).group : null;
      const group = await transferGroup(user, subject.group, parent, can(user, 'create_group'));
      return created(await presentGroupDetail(group, user, await groupDetailProjects(user, group, link)));
    },
  }),

  /**
   * Transfers a project into the group (GitLab's `POST /groups/:id/projects/:project_id`): admins
   * only (403 otherwise), the group then the project found (404 `Group Not Found` / `Project Not
   * Found`), then `PUT /projects/:id/transfer`'s command and its 400s (`Failed to transfer project
   * …`). Answers 201 with the group (`GroupDetail`). `project_id` is an id or a URL-encoded path.
   */
  'POST /groups/:id/projects/:project_id': route({
    params: withGroupId({ project_id: required(p.string()) }),
    handler: async ({ params, user, link }) => {
      if (!isAdmin(user)) throw new ForbiddenError();
      const subject = await findGroupOrNotFound(params.id, user);
      const project = await findProjectOrNotFound(params.project_id, user);
      await transferProject(project.project, project.namespace, subject.group);
      return created(await presentGroupDetail(subject.group, user, await groupDetailProjects(user, subject.group, link)));
    },
  }),

  'POST /groups/:id/share': route({
    params: withGroupId({
      group_id: required(p.int()),
      group_access: required(p.intOneOf(Object.values(ACCESS_LEVELS))),
      expires_at: p.date(),
    }),
    handler: async ({ params, user, link }) => {
      const subject = await findGroupOrNotFound(params.id, user);
      const invited = await findGroupOrNotFound(params.group_id, user);
      // GitLab's `Groups::GroupLinks::CreateService`: owners of the shared group only, else 404.
      if (!can(user, 'admin_group', subject)) throw new NotFoundError();
      const group = await shareGroup(subject.group, invited.group, { groupAccess: params.group_access, expiresAt: params.expires_at ?? null });
      return created(await presentGroupDetail(group, user, await groupDetailProjects(user, group, link)));
    },
  }),

  'DELETE /groups/:id/share/:group_id': route({
    params: withGroupId({ group_id: required(p.int()) }),
    handler: async ({ params, user }) => {
      const subject = await findGroupOrNotFound(params.id, user);
      authorize(user, 'admin_group', subject);
      if (!(await unshareGroup(subject.group.id, params.group_id))) throw new NotFoundError('Group Link');
      return noContent();
    },
  }),

  'GET /groups/:id/projects': route({
    anonymous: true,
    params: z.object(groupProjectsParams),
    handler: async ({ params: { id, simple, statistics, ...filters }, user, link }) => {
      const { group } = await findGroupOrNotFound(id, user);
      // GitLab lists a group's archived projects only when asked (`archived` defaults to false).
      const list = await projectList(user, { ...filters, archived: filters.archived ?? false, namespaceId: group.id }, filters);
      const page = await paginate(filters, link, list);
      return ok(await presentProjects(page.items, user, { simple, statistics }), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
