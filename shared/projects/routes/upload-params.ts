/** Parameters of `POST /projects/:id/uploads`. */
import { z } from 'zod';
import { p, required } from '../../platform/http/params';

/** `:id` of `/projects/:id/...`: a project id or URL-encoded full path. */
export const projectIdParam = { id: required(p.string()) };

/**
 * A multipart file part (what the body parser puts in the parameters for a file). Absent or
 * blank → `file is missing`; any other value (a plain form field, a JSON string) → `file is invalid`.
 */
const uploadedFile = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.object({ filename: z.string(), contentType: z.string(), data: z.instanceof(Buffer) }).optional(),
);

export const uploadParams = { ...projectIdParam, file: required(uploadedFile) };
