/**
 * `POST /projects/:id/uploads`: stores a file for a project (to link from Markdown) and answers
 * GitLab's `ProjectUpload`. Anyone signed in who can read the project may upload, as in GitLab.
 * The file is served back by the web group (`functions/web`).
 */
import { z } from 'zod';
import { findProjectOrNotFound } from '../finders';
import { storeUpload } from '../uploads';
import { created } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentUpload } from '../presenters/uploads';
import { uploadParams } from './upload-params';
import type { catalog } from '../catalog';

export const uploadRoutes = {
  'POST /projects/:id/uploads': route({
    params: z.object(uploadParams),
    handler: async ({ params, user }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const upload = await storeUpload(project, user, params.file);
      return created(presentUpload(upload, `${namespace.fullPath}/${project.path}`));
    },
  }),
} satisfies RoutesOf<typeof catalog.uploads>;
