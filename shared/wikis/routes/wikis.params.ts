/** Parameters of the Wikis API (GitLab's `lib/api/wikis.rb`). */
import * as z from 'zod';
import { ParamError } from '../../platform/http/errors';
import { idParam, p, required } from '../../platform/http/params';
import { WIKI_FORMATS } from '../pages';

const slugParam = { slug: required(p.string()) };
/** A title becomes a file path: at most 255 characters (GitLab refuses paths past its file system's limits). */
const TITLE_LIMIT = { max: 255 };

/** A multipart file part (absent or blank: `file is missing`; anything else: `file is invalid`). */
const uploadedFile = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.object({ filename: z.string(), contentType: z.string(), data: z.instanceof(Buffer) }).optional(),
);

export const listParams = z.object({ ...idParam, with_content: p.bool() });
export const showParams = z.object({ ...idParam, ...slugParam, render_html: p.bool(), version: p.string() });
export const deleteParams = z.object({ ...idParam, ...slugParam });
export const createParams = z.object({ ...idParam, title: required(p.string(TITLE_LIMIT)), content: required(p.string()), format: p.oneOf(WIKI_FORMATS) });
export const updateParams = z.object({ ...idParam, ...slugParam, title: p.string(TITLE_LIMIT), content: p.string(), format: p.oneOf(WIKI_FORMATS) });
export const attachmentParams = z.object({ ...idParam, file: required(uploadedFile), branch: p.string() });

/** Grape's `at_least_one_of :content, :title, :format`. */
export function requireAnEdit(params: { title?: string; content?: string; format?: string }): void {
  if (params.title === undefined && params.content === undefined && params.format === undefined) {
    throw new ParamError('content, title, format are missing, at least one parameter must be provided');
  }
}
