/** Groups: list, create, read (with projects), update, delete, and a group's projects. */
import { z } from 'zod';
import { authorize, isAdmin } from '../../auth';
import { presentProjects, projectList } from '../../projects';
import { paginate } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, ok, type HttpResult } from '../../platform/http/response';
import { route, type AnyRoute, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { deleteGroup } from '../commands/delete-group';
import { createGroup, updateGroup } from '../commands/groups';
import { findGroupOrNotFound } from '../../namespaces';
import { presentGroupDetail, presentGroups } from '../presenters/groups';
import { groupDetailProjects } from '../queries/group-detail';
import { listGroups, listSubgroups } from '../queries/groups';
import { groupListParams, groupProjectsParams, groupSettingsParams, withGroupId } from './groups.params';

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
      name: required(p.string()),
      path: required(p.string()),
      parent_id: p.int(),
    }),
    handler: async ({ params: { parent_id, ...settings }, user }) => {
      // A subgroup needs the right to administer its parent; a top-level group `create_group`.
      const parent = parent_id !== undefined ? await findGroupOrNotFound(parent_id, user) : null;
      if (parent) authorize(user, 'admin_group', parent);
      else authorize(user, 'create_group');
      const group = await createGroup(user, settings, parent?.group ?? null);
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
    handler: async ({ params: { id, ...settings }, user, link }) => {
      const subject = await findGroupOrNotFound(id, user);
      authorize(user, 'admin_group', subject);
      const group = await updateGroup(subject.group, settings);
      return ok(await presentGroupDetail(group, user, await groupDetailProjects(user, group, link)));
    },
  }),

  'DELETE /groups/:id': route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const subject = await findGroupOrNotFound(params.id, user);
      authorize(user, 'admin_group', subject);
      await deleteGroup(subject.group);
      return accepted();
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
