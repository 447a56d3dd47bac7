/**
 * `GET /projects/:id/avatar` (current GitLab, `lib/api/project_avatar.rb`): the project's avatar
 * file, for whoever may read the project (anonymous on public projects); `404 Avatar Not Found`
 * when it has none. Setting and removing it are `avatar` of `POST /projects` and `PUT /projects/:id`.
 */
import * as z from 'zod';
import { NotFoundError } from '../../platform/http/errors';
import { idParam } from '../../platform/http/params';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { findProjectOrNotFound } from '../finders';
import { projectAvatarFile } from '../queries/avatars';

export const projectAvatarRoutes = {
  'GET /projects/:id/avatar': route({
    anonymous: true,
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const { project } = await findProjectOrNotFound(params.id, user);
      const file = await projectAvatarFile(project);
      if (!file) throw new NotFoundError('Avatar');
      return {
        statusCode: 200,
        binary: { data: file.data, contentType: file.avatar.contentType },
        headers: { 'Content-Disposition': `attachment; filename="${file.avatar.filename}"`, 'X-Content-Type-Options': 'nosniff' },
      };
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
