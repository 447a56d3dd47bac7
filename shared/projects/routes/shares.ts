/** Sharing a project with a group: `POST /projects/:id/share`, `DELETE /projects/:id/share/:group_id`. */
import * as z from 'zod';
import { authorize } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { shareProject, unshareProject } from '../commands/shares';
import { findProjectOrNotFound } from '../finders';

/** A project can be shared with a group at most as maintainer (owner is for groups). */
const SHARE_LEVELS = [10, 20, 30, 40];

export const shareRoutes = {
  'POST /projects/:id/share': route({
    params: z.object({
      ...idParam,
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
    params: z.object({ ...idParam, group_id: required(p.int()) }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      if (!(await unshareProject(subject.project.id, params.group_id))) throw new NotFoundError('Group Link');
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
