/** `POST /projects/:id/housekeeping`: repacks the repository's object pool (maintainers; GitLab answers 201 with no body). */
import * as z from 'zod';
import { authorize } from '../../auth';
import { idParam } from '../../platform/http/params';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { housekeep } from '../housekeeping';
import { openRepository } from '../repository';

export const housekeepingRoutes = {
  'POST /projects/:id/housekeeping': route({
    params: z.object(idParam),
    handler: async ({ params, user, log }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_project', subject);
      const result = await housekeep(await openRepository(subject.project));
      log.info('housekeeping', { projectId: subject.project.id, ...result });
      return { statusCode: 201 };
    },
  }),
} satisfies Partial<RoutesOf<typeof catalog.repository>>;
