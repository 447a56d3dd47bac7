/** Parameters of the merge request discussion routes (GitLab's `lib/api/discussions.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { positionFrom } from '../diff-position';
import { mergeRequestPathParams as mrPath, NOTE_BODY_LIMIT } from './merge-requests.params';

const discussionIdParam = { discussion_id: required(p.string()) };
const noteIdParam = { note_id: required(p.int()) };

export const listParams = z.object({ ...mrPath, ...paginationParams });

export const discussionParams = z.object({ ...mrPath, ...discussionIdParam });

/**
 * `POST .../discussions`; `created_at` counts only from owners and admins. With `position` (a JSON
 * object, or form fields `position[base_sha]`, ...) the discussion is a diff note's
 * (`diff-position.ts`): a loose object keeps the bracketed fields for it, and only the declared
 * parameters come out.
 */
export const createParams = z
  .looseObject({ ...mrPath, body: required(p.string(NOTE_BODY_LIMIT)), created_at: p.string(), position: z.unknown().optional() })
  .transform(({ id, merge_request_iid, body, created_at, ...raw }, ctx) => ({ id, merge_request_iid, body, created_at, position: positionFrom(raw, ctx) }));

/** `POST .../discussions/:discussion_id/notes`. */
export const replyParams = z.object({ ...mrPath, ...discussionIdParam, body: required(p.string(NOTE_BODY_LIMIT)), created_at: p.string() });

/** `PUT .../discussions/:discussion_id?resolved=`: resolves or unresolves the whole discussion. */
export const resolveParams = z.object({ ...mrPath, ...discussionIdParam, resolved: required(p.bool()) });

export const noteParams = z.object({ ...mrPath, ...discussionIdParam, ...noteIdParam });

/** `PUT .../notes/:note_id`: Grape's `exactly_one_of :body, :resolved`. */
export const updateParams = z
  .object({ ...mrPath, ...discussionIdParam, ...noteIdParam, body: p.string(NOTE_BODY_LIMIT), resolved: p.bool() })
  .superRefine((value, ctx) => {
    const given = [value.body, value.resolved].filter((v) => v !== undefined).length;
    if (given === 0) ctx.addIssue({ code: 'custom', message: 'body, resolved are missing, exactly one parameter must be provided' });
    if (given > 1) ctx.addIssue({ code: 'custom', message: 'body, resolved are mutually exclusive' });
  });
