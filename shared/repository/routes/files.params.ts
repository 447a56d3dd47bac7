/** Parameters of the files routes (GitLab's `lib/api/files.rb`). */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';

/**
 * `:file_path` (URL-encoded, `lib%2Fclass.rb`): GitLab's `file_path: true` validator refuses
 * traversal (`..`) and absolute paths with `file_path should be a valid file path`.
 */
export const filePathParam = {
  file_path: required(p.string()).superRefine((path, ctx) => {
    if (path.startsWith('/') || path.includes('\0') || path.split('/').includes('..')) {
      ctx.addIssue({ code: 'custom', message: 'file_path should be a valid file path' });
    }
  }),
};

const simpleFileParams = {
  branch: required(p.string()),
  commit_message: required(p.string()),
  start_branch: p.string(),
  author_email: p.string(),
  author_name: p.string(),
};

/** `content` is required but may be empty (Grape's `requires ... type: String` without `allow_blank: false`). */
const contentParam = z
  .preprocess((value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value), z.string().optional())
  .superRefine((value, ctx) => {
    if (value === undefined) ctx.addIssue({ code: 'custom', message: 'content is missing' });
  })
  // A transform makes zod check the key even when it is absent.
  .transform((value) => value as string);

/** `POST` and `PUT …/files/:file_path`. */
export const fileWriteParams = {
  ...simpleFileParams,
  content: contentParam,
  encoding: p.oneOf(['base64', 'text']),
  last_commit_id: p.string(),
  execute_filemode: p.bool(),
};

/** `DELETE …/files/:file_path`. */
export const fileDeleteParams = {
  ...simpleFileParams,
  last_commit_id: p.string(),
};
