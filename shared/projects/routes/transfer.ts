/** A project's place: `PUT /projects/:id/transfer` (move it to another namespace) and `GET /projects/:id/groups`. */
import * as z from 'zod';
import { authorize, can, groupAccessFor, ACCESS_LEVELS, type ProjectSubject } from '../../auth';
import { findNamespace, findGroupOrNotFound, namespaceAvatarUrl, type Namespace } from '../../namespaces';
import type { User } from '../../users';
import { config } from '../../platform/config';
import { BadRequestError, NotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { matchesSearch, parseSearch } from '../../platform/search';
import type { catalog } from '../catalog';
import { transferProject } from '../commands/transfer';
import { findProjectOrNotFound } from '../finders';
import { presentProject } from '../presenters/projects';
import { getNamespacesById } from '../store/lookups';

/**
 * The namespace a project is transferred to (GitLab's `find_namespace!`, then `transfer_projects`
 * on it): 404 when the caller may not see it, 400 when they may not create projects there.
 */
async function transferTarget(user: User, idOrPath: string): Promise<Namespace> {
  const namespace = await findNamespace(idOrPath);
  if (!namespace) throw new NotFoundError('Namespace');
  if (namespace.kind === 'user') {
    if (namespace.ownerId === user.id || can(user, 'admin_projects')) return namespace;
    throw new NotFoundError('Namespace');
  }
  const group = await findGroupOrNotFound(namespace.id, user).catch(() => {
    throw new NotFoundError('Namespace');
  });
  if (!can(user, 'create_projects', group)) {
    throw new BadRequestError(`Failed to transfer project {:new_namespace=>["You don't have permission to transfer projects into that namespace."]}`);
  }
  return namespace;
}

/** GitLab's `PublicGroupDetails` entity, for a page of groups (their ancestors' names in one BatchGetItem). */
async function presentPublicGroups(groups: Namespace[]) {
  const known = new Map(groups.map((g) => [g.id, g]));
  const missing = [...new Set(groups.flatMap((g) => g.ancestorIds))].filter((id) => !known.has(id));
  for (const ancestor of await getNamespacesById(missing)) known.set(ancestor.id, ancestor);
  return groups.map((group) => ({
    id: group.id,
    web_url: `${config().externalUrl}/groups/${group.fullPath}`,
    name: group.name,
    avatar_url: namespaceAvatarUrl(group),
    full_name: [...[...group.ancestorIds].reverse().map((id) => known.get(id)?.name ?? String(id)), group.name].join(' / '),
    full_path: group.fullPath,
  }));
}

interface ProjectGroupsFilters {
  search?: string;
  skip_groups?: number[];
  with_shared?: boolean;
  shared_visible_only?: boolean;
  shared_min_access_level?: number;
}

/**
 * GitLab's `Projects::GroupsFinder`: the project's group and its ancestors, and with `with_shared`
 * the groups it is shared with (at least `shared_min_access_level`; with `shared_visible_only`
 * those the caller may read), newest id first. Bounded: at most 21 ancestors and the shares.
 */
async function projectGroups(user: User | null, subject: ProjectSubject, filters: ProjectGroupsFilters): Promise<Namespace[]> {
  const { project, namespace } = subject;
  const ancestors = namespace.kind === 'group' ? [namespace, ...(await getNamespacesById(namespace.ancestorIds))] : [];
  const shares = filters.with_shared
    ? project.sharedWith.filter((share) => filters.shared_min_access_level === undefined || share.groupAccess >= filters.shared_min_access_level)
    : [];
  let shared = (await getNamespacesById(shares.map((share) => share.groupId))).filter((group) => group.kind === 'group');
  if (filters.shared_visible_only) {
    const visible = await Promise.all(
      shared.map(async (group) => can(user, 'read_group', { kind: 'group', group, level: group.visibility === 'private' ? await groupAccessFor(user, group) : 0 })),
    );
    shared = shared.filter((_, i) => visible[i]);
  }
  const query = filters.search === undefined ? undefined : parseSearch(filters.search);
  const skip = new Set(filters.skip_groups ?? []);
  const all = new Map([...ancestors, ...shared].filter((group) => !group.deleting).map((group) => [group.id, group]));
  return [...all.values()]
    .filter((group) => !skip.has(group.id) && (!query || matchesSearch(query, group.name, group.path)))
    .sort((a, b) => b.id - a.id);
}

export const transferRoutes = {
  'PUT /projects/:id/transfer': route({
    params: z.object({ ...idParam, namespace: required(p.string()) }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // GitLab's `change_namespace`: owners (and admins), like renaming the path.
      authorize(user, 'change_namespace', subject);
      const target = await transferTarget(user, params.namespace);
      const project = await transferProject(subject.project, subject.namespace, target);
      return ok(await presentProject({ ...subject, project, namespace: target }, user));
    },
  }),

  'GET /projects/:id/groups': route({
    anonymous: true,
    params: z.object({
      ...idParam,
      ...paginationParams,
      search: p.string(),
      skip_groups: p.array(z.coerce.number().int()),
      with_shared: p.bool(),
      shared_visible_only: p.bool(),
      shared_min_access_level: p.intOneOf(Object.values(ACCESS_LEVELS)),
    }),
    handler: async ({ params: { id, ...filters }, user, link }) => {
      const subject = await findProjectOrNotFound(id, user);
      const page = paginateArray(filters, link, await projectGroups(user, subject, filters));
      return ok(await presentPublicGroups(page.items), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
