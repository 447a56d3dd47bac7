/**
 * The parameters of the project and personal snippets routes, as GitLab's Grape declarations
 * check them (`lib/api/project_snippets.rb`, `lib/api/snippets.rb`, `helpers/snippets_helpers.rb`): `title` required and not blank
 * (`title is empty`), `visibility` one of three, `files` or the deprecated `content` with
 * `file_name` (`files, content are mutually exclusive`, …), each file path refused when it climbs
 * out of the snippet (`files[0][file_path] should be a valid file path`).
 */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required, requiredKey } from '../../platform/http/params';
import { FILE_ACTIONS, humanSize, isSafeFilePath, SNIPPET_VISIBILITIES, type FileActionInput } from '../files';

type Issues = z.core.$RefinementCtx;
const fail = (ctx: Issues, message: string) => ctx.addIssue({ code: 'custom', message });

/** Grape's `allow_blank: false`: a given value that is blank is `<name> is empty`. */
const notBlank = (name: string) => (value: string | undefined, ctx: Issues) => {
  if (value !== undefined && value.trim() === '') fail(ctx, `${name} is empty`);
};

/** GitLab's model limit of `title` and `file_name` (characters). */
export const NAME_MAX = 255;

/**
 * A stored text with GitLab's model limit, answered as its snippet services answer it (the
 * sentence in `{"error": …}`): `Title is too long (maximum is 255 characters)`; with `bytes`, the
 * limit counts UTF-8 bytes and reads as GitLab's size messages (`… (300 KB). The maximum size is 256 KB.`).
 */
function boundedText(label: string, max: number, bytes = false) {
  return z.preprocess(
    (value) => (value === null ? undefined : typeof value === 'number' ? String(value) : value),
    z
      .string()
      .superRefine((value, ctx) => {
        if (!bytes && [...value].length > max) fail(ctx, `${label} is too long (maximum is ${max} characters)`);
        if (bytes && Buffer.byteLength(value, 'utf8') > max) fail(ctx, `${label} is too long (${humanSize(Buffer.byteLength(value, 'utf8'))}). The maximum size is ${humanSize(max)}.`);
      })
      .meta({ maxLength: max })
      .optional(),
  );
}

/** A snippet's description: kept in its item, so bounded in bytes (DynamoDB's 400 KB; README). */
export const DESCRIPTION_MAX_BYTES = 256 * 1024;

/** A loose file entry: each key checked by {@link filesParam} with Grape's messages, by index. */
const fileEntry = z.object({ action: p.string(), file_path: p.string(), previous_path: p.string(), content: p.string() });

/**
 * `files[]`: on create each needs `file_path` and `content`, not blank; on update each needs an
 * `action` of GitLab's four. Paths are checked as Grape's `file_path` validator does.
 */
function filesParam(kind: 'create' | 'update') {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .array(fileEntry)
      .superRefine((files, ctx) => {
        files.forEach((file, i) => {
          const name = (key: string) => `files[${i}][${key}]`;
          if (kind === 'create') {
            for (const key of ['file_path', 'content'] as const) {
              if (file[key] === undefined) fail(ctx, `${name(key)} is missing`);
              else notBlank(name(key))(file[key], ctx);
            }
          } else if (file.action === undefined) fail(ctx, `${name('action')} is missing`);
          else if (!(FILE_ACTIONS as readonly string[]).includes(file.action)) fail(ctx, `${name('action')} does not have a valid value`);
          for (const key of ['file_path', 'previous_path'] as const) {
            const path = file[key];
            if (path !== undefined && path !== '' && !isSafeFilePath(path)) fail(ctx, `${name(key)} should be a valid file path`);
            // The model's limit of `file_name` (the first file's path), held to every path here.
            else if (path !== undefined && [...path].length > NAME_MAX) fail(ctx, `File name is too long (maximum is ${NAME_MAX} characters)`);
          }
        });
      })
      .transform((files) => files.map((file): FileActionInput => ({ ...file, action: (file.action ?? 'create') as FileActionInput['action'] })))
      .optional(),
  );
}

export const listParams = z.object({ ...idParam, ...paginationParams });
export const snippetParams = z.object({ ...idParam, snippet_id: required(p.int()) });
export const fileParams = z.object({ ...idParam, snippet_id: required(p.int()), ref: required(p.string()), file_path: required(p.string()) });

const given = (params: Record<string, unknown>, ...names: string[]) => names.filter((name) => params[name] !== undefined);

/**
 * The fields of a create, with or without a project (`files`, or the deprecated `content` with
 * `file_name`); `visibility` is required of a project snippet, defaults to `internal` for a
 * personal one (GitLab's declarations).
 */
const createFields = {
  title: requiredKey(boundedText('Title', NAME_MAX)).superRefine(notBlank('title')),
  description: boundedText('Description', DESCRIPTION_MAX_BYTES, true),
  files: filesParam('create'),
  content: p.string().superRefine(notBlank('content')),
  file_name: boundedText('File name', NAME_MAX),
};

function checkCreate(params: Record<string, unknown>, ctx: Issues) {
  if (params.content !== undefined && params.file_name === undefined) fail(ctx, 'file_name is missing');
  const both = given(params, 'files', 'content');
  if (both.length === 2) fail(ctx, 'files, content are mutually exclusive');
  if (both.length === 0) fail(ctx, 'files, content are missing, exactly one parameter must be provided');
}

export const createParams = z.object({ ...idParam, ...createFields, visibility: required(p.oneOf(SNIPPET_VISIBILITIES)) }).superRefine(checkCreate);

const EDITABLE = ['content', 'description', 'files', 'file_name', 'title', 'visibility'];

/** The fields of an edit, with or without a project. */
const updateFields = {
  content: p.string().superRefine(notBlank('content')),
  description: boundedText('Description', DESCRIPTION_MAX_BYTES, true),
  file_name: boundedText('File name', NAME_MAX),
  title: boundedText('Title', NAME_MAX).superRefine(notBlank('title')),
  visibility: p.oneOf(SNIPPET_VISIBILITIES),
  files: filesParam('update'),
};

function checkUpdate(params: Record<string, unknown>, ctx: Issues) {
  if (given(params, 'files', 'content').length === 2) fail(ctx, 'files, content are mutually exclusive');
  if (given(params, 'files', 'file_name').length === 2) fail(ctx, 'files, file_name are mutually exclusive');
  if (given(params, ...EDITABLE).length === 0) fail(ctx, `${EDITABLE.join(', ')} are missing, at least one parameter must be provided`);
}

export const updateParams = z.object({ ...snippetParams.shape, ...updateFields }).superRefine(checkUpdate);

/** Personal snippets (`/snippets/:id`, GitLab's `lib/api/snippets.rb`): the snippet's own id. */
const personalId = { id: required(p.int()) };
export const personalListParams = z.object(paginationParams);
export const personalSnippetParams = z.object(personalId);
export const personalFileParams = z.object({ ...personalId, ref: required(p.string()), file_path: required(p.string()) });
export const personalCreateParams = z.object({ ...createFields, visibility: p.oneOf(SNIPPET_VISIBILITIES) }).superRefine(checkCreate);
export const personalUpdateParams = z.object({ ...personalId, ...updateFields }).superRefine(checkUpdate);
