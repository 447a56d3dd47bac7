/** Parameters of the files routes (GitLab's `lib/api/files.rb`). */
import * as z from 'zod';
import { hashParam, p, required } from '../../platform/http/params';

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

/** A positive integer of the blame's `range` hash, with Grape's messages for `range[start]`/`range[end]`. */
const rangeLine = (value: unknown, name: string, ctx: z.RefinementCtx): number | undefined => {
  if (value === undefined || value === null || value === '') {
    ctx.addIssue({ code: 'custom', message: `range[${name}] is missing` });
    return undefined;
  }
  const line = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(line)) ctx.addIssue({ code: 'custom', message: `range[${name}] is invalid` });
  else if (line <= 0) ctx.addIssue({ code: 'custom', message: `range[${name}] does not have a valid value` });
  return line;
};

/** `range[start]` and `range[end]` of `GET …/files/:file_path/blame`: both, positive, when `range` is given. */
export const blameRangeParam = {
  range: hashParam().transform((range, ctx) => {
    if (range === undefined) return undefined;
    const start = rangeLine(range.start, 'start', ctx);
    const end = rangeLine(range.end, 'end', ctx);
    return start === undefined || end === undefined ? z.NEVER : { start, end };
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
