/**
 * `GET /groups/:id/avatar` (current GitLab, "Download a group avatar"): the group's avatar file,
 * for whoever may read the group (anonymous on public groups); `404 Avatar Not Found` when it has
 * none. Setting and removing it are `avatar` of `POST /groups` and `PUT /groups/:id`.
 */
import * as z from 'zod';
import { avatarHeaders, findGroupOrNotFound, groupAvatarFile } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { idParam } from '../../platform/http/params';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';

export const groupAvatarRoutes = {
  'GET /groups/:id/avatar': route({
    anonymous: true,
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const { group } = await findGroupOrNotFound(params.id, user);
      const file = await groupAvatarFile(group);
      if (!file) throw new NotFoundError('Avatar');
      return {
        statusCode: 200,
        binary: { data: file.data, contentType: file.avatar.contentType },
        headers: { ...avatarHeaders(file.avatar), 'Content-Disposition': `attachment; filename="${file.avatar.filename}"` },
      };
    },
  }),
} satisfies RoutesOf<typeof catalog.groups>;
