/** Projects: list, search, read, create (also for another user), edit, delete, archive, the users with access, the feed. */
import * as z from 'zod';
import { authorize, can } from '../../auth';
import { findGroupOrNotFound, findNamespace, getNamespace, type Namespace } from '../../namespaces';
import { assertValidAvatar, avatarParam, findUserOrNotFound, presentUserPublic, type User } from '../../users';
import { NotFoundError } from '../../platform/http/errors';
import { paginate, paginateArray, paginationParams} from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { eventFilterParams, filterEvents, readsAscending } from '../queries/event-filters';
import type { catalog } from '../catalog';
import { changeProjectAvatar } from '../commands/avatars';
import { createProject, scheduleProjectDeletion, setArchived, updateProject } from '../commands/projects';
import { findProjectOrNotFound, projectSubject } from '../finders';
import { presentEvents } from '../presenters/events';
import { presentProject, presentProjects } from '../presenters/projects';
import { projectList} from '../queries/project-lists';
import { projectFeed, projectUsers } from '../queries/projects';
import { projectAvatarRoutes } from './avatars';
import { PROJECT_NAME_LIMIT, projectListParams, projectSettingsParams } from './projects.params';
import { transferRoutes } from './transfer';

const byId = z.object(idParam);

/**
 * `PUT /projects/:id`: every attribute optional, at least one given (Grape's `at_least_one_of`,
 * as current GitLab: python-gitlab's `save()` sends only the changed fields). The 9.x rule that
 * `name` is required is relaxed: a request with `name` still works as before. Listed in the order
 * of GitLab's `update_params_at_least_one_of`, restricted to what this route accepts.
 */
const EDITABLE = [
  'default_branch', 'description', 'lfs_enabled', 'name', 'only_allow_merge_if_all_discussions_are_resolved',
  'only_allow_merge_if_pipeline_succeeds', 'path', 'public_jobs', 'request_access_enabled', 'shared_runners_enabled',
  'tag_list', 'visibility', 'issues_enabled', 'jobs_enabled', 'merge_requests_enabled', 'wiki_enabled',
  'snippets_enabled', 'container_registry_enabled', 'import_url', 'ci_config_path', 'build_timeout',
  'ci_default_git_depth', 'build_git_strategy', 'auto_cancel_pending_pipelines', 'keep_latest_artifact',
  'ci_forward_deployment_enabled', 'topics', 'issues_access_level', 'merge_requests_access_level',
  'builds_access_level', 'wiki_access_level', 'snippets_access_level', 'container_registry_access_level',
  'group_runners_enabled',
] as const;

const editParams = z
  .object({ ...projectSettingsParams, ...idParam, name: p.string(PROJECT_NAME_LIMIT), path: p.string(PROJECT_NAME_LIMIT), avatar: avatarParam })
  .superRefine((value, ctx) => {
    // `avatar` (a file, or `""` to remove it) is enough too; the message keeps the list clients have always been answered.
    if (EDITABLE.some((name) => value[name] !== undefined) || value.avatar !== undefined) return;
    ctx.addIssue({ code: 'custom', message: `${EDITABLE.join(', ')} are missing, at least one parameter must be provided` });
  });

const nameOrPath = z
  .object({ ...projectSettingsParams, name: p.string(PROJECT_NAME_LIMIT), path: p.string(PROJECT_NAME_LIMIT), namespace_id: p.int(), avatar: avatarParam })
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

/** `POST /projects/:id/archive` and `/unarchive`: idempotent, 201 with the project. */
const archiveRoute = (archived: boolean) =>
  route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'archive_project', subject);
      return created(await presentProject({ ...subject, project: await setArchived(subject.project, archived) }, user));
    },
  });

/** A page of a project list: streamed in id order, or an array sorted in memory. */

export const projectRoutes = {
  ...projectAvatarRoutes,

  'GET /projects': route({
    anonymous: true,
    params: z.object({ ...paginationParams, ...projectListParams }),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, await projectList(user, params, params));
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
      const page = await paginate(params, link, await projectList(user, { search: params.query, order_by: params.order_by, sort: params.sort }, params));
      return ok(await presentProjects(page.items, user), page.headers);
    },
  }),

  'POST /projects': route({
    params: nameOrPath,
    handler: async ({ params: { namespace_id, avatar, ...input }, user }) => {
      assertValidAvatar(avatar);
      const namespace = await targetNamespace(user, user, namespace_id);
      let project = await createProject(user, namespace, input);
      if (avatar) project = await changeProjectAvatar(project, avatar);
      return created(await presentProject(await projectSubject(project, namespace, user), user));
    },
  }),

  'POST /projects/user/:user_id': route({
    params: z.object({
      ...projectSettingsParams,
      user_id: required(p.int()),
      name: required(p.string(PROJECT_NAME_LIMIT)),
      path: p.string(PROJECT_NAME_LIMIT),
      namespace_id: p.int(),
    }),
    handler: async ({ params: { user_id, namespace_id, ...input }, user }) => {
      authorize(user, 'admin_projects');
      const owner = await findUserOrNotFound(user_id);
      const namespace = await targetNamespace(user, owner, namespace_id);
      const project = await createProject(owner, namespace, input);
      return created(await presentProject(await projectSubject(project, namespace, user), user));
    },
  }),

  'GET /projects/:id': route({
    anonymous: true,
    params: z.object({ ...idParam, statistics: p.bool() }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentProject(subject, user, { statistics: params.statistics }));
    },
  }),

  'PUT /projects/:id': route({
    params: editParams,
    handler: async ({ params: { id, avatar, ...input }, user }) => {
      const subject = await findProjectOrNotFound(id, user);
      authorize(user, 'admin_project', subject);
      if (input.visibility !== undefined && input.visibility !== subject.project.visibility) {
        authorize(user, 'change_visibility_level', subject);
      }
      if (input.path !== undefined && input.path !== subject.project.path) authorize(user, 'rename_project', subject);
      assertValidAvatar(avatar); // a model error, as GitLab's: after the project was found and the caller authorized
      const edited = Object.values(input).some((value) => value !== undefined) ? await updateProject(subject, input) : subject.project;
      const project = avatar === undefined ? edited : await changeProjectAvatar(edited, avatar);
      return ok(await presentProject({ ...subject, project }, user));
    },
  }),

  'DELETE /projects/:id': route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'remove_project', subject);
      await scheduleProjectDeletion(subject.project);
      return { statusCode: 202, body: { message: '202 Accepted' } };
    },
  }),

  'POST /projects/:id/archive': archiveRoute(true),
  'POST /projects/:id/unarchive': archiveRoute(false),

  'GET /projects/:id/users': route({
    anonymous: true,
    params: z.object({ ...paginationParams, ...idParam, search: p.string() }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const page = paginateArray(params, link, await projectUsers(subject, params.search));
      return ok(page.items.map(presentUserPublic), page.headers);
    },
  }),

  'GET /projects/:id/events': route({
    anonymous: true,
    params: z.object({ ...paginationParams, ...idParam, ...eventFilterParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const page = await paginate(params, link, filterEvents(projectFeed(subject, user, readsAscending(params)), params));
      return ok(await presentEvents(page.items), page.headers);
    },
  }),

  // `PUT /projects/:id/transfer`, `GET /projects/:id/groups` (`transfer.ts`).
  ...transferRoutes,
} satisfies RoutesOf<typeof catalog.projects>;
