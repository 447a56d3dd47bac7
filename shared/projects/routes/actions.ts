/** Project actions: star, archive, fork and fork relations, sharing with groups, housekeeping. */
import { z } from 'zod';
import { authorize, can } from '../../auth';
import { findGroupOrNotFound, findNamespace } from '../../groups';
import { findProjectOrNotFound, projectSubject } from '../finders';
import { createProject, removeForkRelation, setArchived, setForkRelation, shareProject, starProject, unshareProject, unstarProject } from '../projects';
import { NotFoundError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { created, noContent } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentProject } from '../presenters/projects';
import { projectIdParam } from './params';
import type { catalog } from '../catalog';

const byId = z.object(projectIdParam);
/** A project can be shared with a group at most as maintainer (owner is for groups). */
const SHARE_LEVELS = [10, 20, 30, 40];

export const projectActionRoutes = {
  'POST /projects/:id/star': route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'star_project', subject);
      const project = await starProject(subject.project, user);
      return created(await presentProject({ ...subject, project }, user));
    },
  }),

  'POST /projects/:id/unstar': route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'star_project', subject);
      const project = await unstarProject(subject.project, user);
      return created(await presentProject({ ...subject, project }, user));
    },
  }),

  'POST /projects/:id/archive': route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'archive_project', subject);
      return created(await presentProject({ ...subject, project: await setArchived(subject.project, true) }, user));
    },
  }),

  'POST /projects/:id/unarchive': route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'archive_project', subject);
      return created(await presentProject({ ...subject, project: await setArchived(subject.project, false) }, user));
    },
  }),

  'POST /projects/:id/fork': route({
    // `namespace` (the spec's), or `namespace_id` / `namespace_path` as current clients send them;
    // `name`, `path` and `description` override the source's.
    params: z
      .object({ ...projectIdParam, namespace: p.string(), namespace_id: p.int(), namespace_path: p.string(), name: p.string(), path: p.string(), description: p.string() })
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
      const { project: original } = source;
      const fork = await createProject(
        user,
        target,
        {
          name: params.name ?? original.name,
          path: params.path ?? original.path,
          description: params.description ?? original.description ?? undefined,
          visibility: original.visibility,
          default_branch: original.defaultBranch,
          tag_list: original.tagList,
        },
        { forkOf: original, limitFor: target.kind === 'user' && target.ownerId === user.id ? user : undefined },
      );
      return created(await presentProject(await projectSubject(fork, target, user), user));
    },
  }),

  'POST /projects/:id/fork/:forked_from_id': route({
    params: z.object({ ...projectIdParam, forked_from_id: required(p.string()) }),
    handler: async ({ params, user }) => {
      authorize(user, 'admin_projects');
      const subject = await findProjectOrNotFound(params.id, user);
      const source = await findProjectOrNotFound(params.forked_from_id, user);
      const project = await setForkRelation(subject.project, source.project);
      return created(await presentProject({ ...subject, project }, user));
    },
  }),

  'DELETE /projects/:id/fork': route({
    params: byId,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_projects');
      const subject = await findProjectOrNotFound(params.id, user);
      await removeForkRelation(subject.project);
      return noContent();
    },
  }),

  'POST /projects/:id/share': route({
    params: z.object({
      ...projectIdParam,
      group_id: required(p.int()),
      group_access: required(p.intOneOf(SHARE_LEVELS)),
      expires_at: p.date(),
    }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      const { group } = await findGroupOrNotFound(params.group_id, user);
      const share = await shareProject(subject.project, group, {
        groupAccess: params.group_access,
        expiresAt: params.expires_at ?? null,
      });
      return created({
        project_id: subject.project.id,
        group_id: share.groupId,
        group_access: share.groupAccess,
        expires_at: share.expiresAt,
      });
    },
  }),

  'DELETE /projects/:id/share/:group_id': route({
    params: z.object({ ...projectIdParam, group_id: required(p.int()) }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      if (!(await unshareProject(subject.project.id, params.group_id))) throw new NotFoundError('Group Link');
      return noContent();
    },
  }),

  'POST /projects/:id/housekeeping': route({
    params: byId,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      // Nothing to compact yet: repositories arrive with the repository endpoints.
      return { statusCode: 201 };
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;

