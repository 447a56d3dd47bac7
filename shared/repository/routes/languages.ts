/**
 * `GET /projects/:id/languages` (GitLab's `lib/api/projects.rb`): the languages of the default
 * branch with their share in percent, `{}` for an empty repository. Readable by whoever may read
 * the code (anonymous on public projects; a private project is a 404 to strangers).
 */
import * as z from 'zod';
import { idParam } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { projectLanguages } from '../queries/languages';
import { findRepositoryOrNotFound } from './access';

export const languageRoutes = {
  'GET /projects/:id/languages': route({
    anonymous: true,
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
      return ok(await projectLanguages(reader, subject.project));
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
