/** Forks: `POST /projects/:id/fork`, and fork relations between existing projects (admins). */
import * as z from 'zod';
import { authorize, can } from '../../auth';
import { findGroupOrNotFound, findNamespace } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { idParam, p, required } from '../../platform/http/params';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { forkProject, removeForkRelation, setForkRelation } from '../commands/forks';
import { findProjectOrNotFound, projectSubject } from '../finders';
import { presentProject, presentProjects } from '../presenters/projects';
import { projectList } from '../queries/project-lists';
import { PROJECT_DESCRIPTION_LIMIT, PROJECT_NAME_LIMIT, projectListParams } from './projects.params';

export const forkRoutes = {
  /** The forks of a project the caller may see, with the project list's filters, order and paging. */
  'GET /projects/:id/forks': route({
    anonymous: true,
    params: z.object({ ...idParam, ...paginationParams, ...projectListParams }),
    handler: async ({ params: { id, simple, statistics, ...filters }, user, link }) => {
      const { project } = await findProjectOrNotFound(id, user);
      const page = await paginate(filters, link, await projectList(user, { ...filters, forksOf: project.id }, filters));
      return ok(await presentProjects(page.items, user, { simple, statistics }), page.headers);
    },
  }),

  'POST /projects/:id/fork': route({
    // `namespace` (the spec's), or `namespace_id` / `namespace_path` as current clients send them;
    // `name`, `path` and `description` override the source's.
    params: z
      .object({ ...idParam, namespace: p.string(), namespace_id: p.int(), namespace_path: p.string(), name: p.string(PROJECT_NAME_LIMIT), path: p.string(PROJECT_NAME_LIMIT), description: p.string(PROJECT_DESCRIPTION_LIMIT) })
      .superRefine((value, ctx) => {
        if (value.namespace === undefined && value.namespace_id === undefined && value.namespace_path === undefined) {
          ctx.addIssue({ code: 'custom', message: 'namespace is missing' });
        }
      }),
    handler: async ({ params, user }) => {
      const source = await findProjectOrNotFound(params.id, user);
      authorize(user, 'fork_project', source);
      const target = await findNamespace((params.namespace_id ?? params.namespace_path ?? params.namespace)!);
      if (!target) throw new NotFoundError('Target Namespace');
      if (target.kind === 'user' && target.ownerId !== user.id && !can(user, 'admin_projects')) {
        throw new NotFoundError('Target Namespace');
      }
      if (target.kind === 'group') authorize(user, 'create_projects', await findGroupOrNotFound(target.id, user));
      const fork = await forkProject(user, source.project, target, { name: params.name, path: params.path, description: params.description });
      return created(await presentProject(await projectSubject(fork, target, user), user));
    },
  }),

  'POST /projects/:id/fork/:forked_from_id': route({
    params: z.object({ ...idParam, forked_from_id: required(p.string()) }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_projects');
      const subject = await findProjectOrNotFound(params.id, user);
      const source = await findProjectOrNotFound(params.forked_from_id, user);
      const project = await setForkRelation(subject.project, source.project);
      return created(await presentProject({ ...subject, project }, user));
    },
  }),

  'DELETE /projects/:id/fork': route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_projects');
      const subject = await findProjectOrNotFound(params.id, user);
      await removeForkRelation(subject.project);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
