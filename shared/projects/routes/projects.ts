/** Projects: list, search, read, create (also for another user), edit, delete, members' users, events. */
import { z } from 'zod';
import { authorize, can, membershipCollections } from '../../auth';
import { canReadEvent } from '../policy';
import { getMany } from '../../platform/dynamo/batch';
import { eventFromItem } from '../store/events';
import { projectCollections } from '../store/keys';
import { userKeys, userFromItem, type User, findUserOrNotFound, presentUserPublic } from '../../users';
import { getNamespace, type Namespace, findGroupOrNotFound, findNamespace } from '../../groups';
import { queryAll } from '../../platform/dynamo/query';
import { findProjectOrNotFound, projectSubject } from '../finders';
import { listProjects } from '../project-lists';
import { createProject, deleteProject, updateProject } from '../projects';
import { NotFoundError } from '../../platform/http/errors';
import { paginate, paginateArray, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentEvent } from '../presenters/events';
import { presentProject, presentProjects } from '../presenters/projects';
import { projectIdParam, projectListParams, projectSettingsParams } from './params';
import type { catalog } from '../catalog';

const nameOrPath = z
  .object({ ...projectSettingsParams, name: p.string(), path: p.string(), namespace_id: p.int() })
  .superRefine((value, ctx) => {
    if (value.name === undefined && value.path === undefined) {
      ctx.addIssue({ code: 'custom', message: 'name, path are missing, at least one parameter must be provided' });
    }
  });

/**
 * The namespace a new project goes to: the owner's personal namespace by default; another
 * namespace must be visible (404) and allow the caller to create projects there (403).
 */
async function targetNamespace(caller: User, owner: User, namespaceId: number | string | undefined): Promise<Namespace> {
  if (namespaceId === undefined) {
    const personal = await getNamespace(owner.namespaceId);
    if (!personal) throw new NotFoundError('Namespace');
    return personal;
  }
  const namespace = await findNamespace(namespaceId);
  if (!namespace) throw new NotFoundError('Namespace');
  if (namespace.kind === 'user') {
    if (namespace.ownerId !== caller.id && !can(caller, 'admin_projects')) throw new NotFoundError('Namespace');
    return namespace;
  }
  const group = await findGroupOrNotFound(namespace.id, caller).catch(() => {
    throw new NotFoundError('Namespace');
  });
  authorize(caller, 'create_projects', group);
  return namespace;
}

/** The user who owns a personal namespace (whose `projects_limit` applies). */
async function limitOwner(namespace: Namespace, fallback: User): Promise<User | undefined> {
  if (namespace.kind !== 'user') return undefined;
  return namespace.ownerId === fallback.id ? fallback : (await getMany([userKeys.user(namespace.ownerId ?? 0)])).map(userFromItem)[0];
}

export const projectRoutes = {
  'GET /projects': route({
    anonymous: true,
    params: z.object({ ...paginationParams, ...projectListParams }),
    handler: async ({ params, user, link }) => {
      const page = await listProjects(user, params, params, link);
      return ok(await presentProjects(page.items, user, params), page.headers);
    },
  }),

  'GET /projects/search/:query': route({
    anonymous: true,
    params: z.object({
      ...paginationParams,
      query: required(p.string()),
      order_by: p.oneOf(['id', 'name', 'created_at', 'last_activity_at']),
      sort: p.oneOf(['asc', 'desc']),
    }),
    handler: async ({ params, user, link }) => {
      const page = await listProjects(user, { search: params.query, order_by: params.order_by, sort: params.sort }, params, link);
      return ok(await presentProjects(page.items, user), page.headers);
    },
  }),

  'POST /projects': route({
    params: nameOrPath,
    handler: async ({ params: { namespace_id, ...input }, user }) => {
      const caller = user;
      const namespace = await targetNamespace(caller, caller, namespace_id);
      const project = await createProject(caller, namespace, input, { limitFor: await limitOwner(namespace, caller) });
      return created(await presentProject(await projectSubject(project, namespace, caller), caller));
    },
  }),

  'POST /projects/user/:user_id': route({
    params: z.object({
      ...projectSettingsParams,
      user_id: required(p.int()),
      name: required(p.string()),
      path: p.string(),
      namespace_id: p.int(),
    }),
    handler: async ({ params: { user_id, namespace_id, ...input }, user }) => {
      authorize(user, 'admin_projects');
      const owner = await findUserOrNotFound(user_id);
      const namespace = await targetNamespace(user, owner, namespace_id);
      const project = await createProject(owner, namespace, input, { limitFor: await limitOwner(namespace, owner) });
      return created(await presentProject(await projectSubject(project, namespace, user), user));
    },
  }),

  'GET /projects/:id': route({
    anonymous: true,
    params: z.object({ ...projectIdParam, statistics: p.bool() }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentProject(subject, user, { statistics: params.statistics }));
    },
  }),

  'PUT /projects/:id': route({
    params: z.object({ ...projectSettingsParams, ...projectIdParam, name: required(p.string()), path: p.string() }),
    handler: async ({ params: { id, ...input }, user }) => {
      const subject = await findProjectOrNotFound(id, user);
      authorize(user, 'admin_project', subject);
      if (input.visibility !== undefined && input.visibility !== subject.project.visibility) {
        authorize(user, 'change_visibility_level', subject);
      }
      if (input.path !== undefined && input.path !== subject.project.path) authorize(user, 'rename_project', subject);
      const project = await updateProject(subject, input);
      return ok(await presentProject({ ...subject, project }, user));
    },
  }),

  'DELETE /projects/:id': route({
    params: z.object(projectIdParam),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'remove_project', subject);
      await deleteProject(subject.project);
      return { statusCode: 202, body: { message: '202 Accepted' } };
    },
  }),

  'GET /projects/:id/users': route({
    anonymous: true,
    params: z.object({ ...paginationParams, ...projectIdParam, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const groups = namespace.kind === 'group' ? [namespace.id, ...namespace.ancestorIds] : [];
      const memberItems = (
        await Promise.all([
          queryAll(membershipCollections.members({ kind: 'project', id: project.id })),
          ...groups.map((id) => queryAll(membershipCollections.members({ kind: 'group', id }))),
        ])
      ).flat();
      const today = new Date().toISOString().slice(0, 10);
      const userIds = new Set(memberItems.filter((m) => m.expiresAt === null || m.expiresAt >= today).map((m) => Number(m.userId)));
      if (namespace.kind === 'user' && namespace.ownerId !== null) userIds.add(namespace.ownerId);
      const search = params.search?.toLowerCase();
      const users = (await getMany([...userIds].map((id) => userKeys.user(id))))
        .map(userFromItem)
        .filter((u) => !u.deleting && (!search || u.username.toLowerCase().includes(search) || u.name.toLowerCase().includes(search)))
        .sort((a, b) => a.id - b.id);
      const page = paginateArray(params, link, users);
      return ok(page.items.map(presentUserPublic), page.headers);
    },
  }),

  'GET /projects/:id/events': route({
    anonymous: true,
    params: z.object({ ...paginationParams, ...projectIdParam }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const page = await paginate(params, link, {
        collection: projectCollections.projectEvents(subject.project.id),
        ascending: false,
        // Events of confidential issues only for those who may read the issue.
        select: (item) => {
          const event = eventFromItem(item);
          return canReadEvent(user, subject, event) ? event : undefined;
        },
      });
      const authors = new Map(
        (await getMany([...new Set(page.items.map((e) => e.authorId))].map((id) => userKeys.user(id)))).map((item) => {
          const author = userFromItem(item);
          return [author.id, author] as const;
        }),
      );
      const events = page.items.flatMap((event) => {
        const author = authors.get(event.authorId);
        return author ? [presentEvent(event, author)] : [];
      });
      return ok(events, page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;

