/**
 * `POST /projects/:id/uploads`: stores a file for a project (to link from Markdown) and answers
 * GitLab's `ProjectUpload`. Anyone signed in who can read the project may upload, as in GitLab.
 * The file is served back by the web group (`web.ts`).
 */
import * as z from 'zod';
import { idParam, required } from '../../platform/http/params';
import { created } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { storeUpload } from '../commands/uploads';
import { findProjectOrNotFound } from '../finders';
import { projectFullPath } from '../paths';
import { presentUpload } from '../presenters/uploads';

/**
 * A multipart file part (what the body parser puts in the parameters for a file). Absent or
 * blank → `file is missing`; any other value (a plain form field, a JSON string) → `file is invalid`.
 */
const uploadedFile = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.object({ filename: z.string(), contentType: z.string(), data: z.instanceof(Buffer) }).optional(),
);

export const uploadRoutes = {
  'POST /projects/:id/uploads': route({
    params: z.object({ ...idParam, file: required(uploadedFile) }),
    handler: async ({ params, user }) => {
      const { project, namespace } = await findProjectOrNotFound(params.id, user);
      const upload = await storeUpload(project, user, params.file);
      return created(presentUpload(upload, projectFullPath(namespace, project)));
    },
  }),
} satisfies RoutesOf<typeof catalog.uploads>;
