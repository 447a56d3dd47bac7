/** Stars: `POST /projects/:id/star` and `/unstar` (304 when nothing changes). */
import * as z from 'zod';
import { authorize } from '../../auth';
import { idParam } from '../../platform/http/params';
import { created } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { starProject, unstarProject } from '../commands/stars';
import { findProjectOrNotFound } from '../finders';
import { presentProject } from '../presenters/projects';

/** Both answer the project as it is afterwards, 201 as GitLab does. */
const starRoute = (command: typeof starProject) =>
  route({
    params: z.object(idParam),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'star_project', subject);
      const project = await command(subject.project, user);
      return created(await presentProject({ ...subject, project }, user));
    },
  });

export const starRoutes = {
  'POST /projects/:id/star': starRoute(starProject),
  'POST /projects/:id/unstar': starRoute(unstarProject),
} satisfies RoutesOf<typeof catalog.projects>;
