/**
 * The protected tags API (GitLab's `lib/api/protected_tags.rb`): every route, reads included,
 * needs `admin_project` (maintainers; GitLab's `before { authorize_admin_project }`). Names may be
 * patterns (`v*`); `:name` is the exact name or pattern. A protection holds one create level
 * (maintainers when not given; 0: no one).
 */
import * as z from 'zod';
import { authorize, MAINTAINER } from '../../auth';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { createProtectedTag, removeProtectedTag } from '../commands/protected-tags';
import { presentProtectedTag } from '../presenters/protected-refs';
import { findProtectedTagOrNotFound, listProjectProtectedTags } from '../queries/protected-tags';
import { protectedNameParam, protectedTagCreateParams } from './branches.params';

export const protectedTagRoutes = {
  'GET /projects/:id/protected_tags': route({
    anonymous: true,
    params: z.object({ ...idParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      const page = paginateArray(params, link, await listProjectProtectedTags(subject.project.id));
      return ok(page.items.map(presentProtectedTag), page.headers);
    },
  }),

  'GET /projects/:id/protected_tags/:name': route({
    anonymous: true,
    params: z.object({ ...idParam, ...protectedNameParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      return ok(presentProtectedTag(await findProtectedTagOrNotFound(subject.project.id, params.name)));
    },
  }),

  'POST /projects/:id/protected_tags': route({
    params: z.object({ ...idParam, ...protectedTagCreateParams }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      return created(presentProtectedTag(await createProtectedTag(subject.project.id, params.name, params.create_access_level ?? MAINTAINER)));
    },
  }),

  'DELETE /projects/:id/protected_tags/:name': route({
    params: z.object({ ...idParam, ...protectedNameParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      await removeProtectedTag(subject.project.id, params.name);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
