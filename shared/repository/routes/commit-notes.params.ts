/**
 * Parameters of the commit comments and discussions routes (GitLab's `lib/api/commits.rb` and
 * `lib/api/discussions.rb`): `note` / `body` required, `path` with `line` (required with it, as
 * Grape's `given :path`) and `line_type` (`new` or `old`, default `new`).
 */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { MAX_COMMIT_NOTE_LENGTH } from '../commands/commit-notes';
import { positionFrom } from '../diff-position';
import { shaParam } from './commits.params';

/** A note's text: GitLab names it `note` in its errors (`note is too long (maximum is 1000000 characters)`). */
const noteText = () => p.string({ max: MAX_COMMIT_NOTE_LENGTH, maxBytes: 390_000, field: 'note' });

/** A file path in the commit (git itself has no limit; Linux's `PATH_MAX`). */
const MAX_FILE_PATH_LENGTH = 4096;

const commitPath = { ...idParam, ...shaParam };

export const commentListParams = z.object({ ...commitPath, ...paginationParams });

export const commentCreateParams = z
  .object({ ...commitPath, note: required(noteText()), path: p.string({ max: MAX_FILE_PATH_LENGTH }), line: p.int(), line_type: p.oneOf(['new', 'old']) })
  .superRefine((value, ctx) => {
    if (value.path !== undefined && value.line === undefined) ctx.addIssue({ code: 'custom', message: 'line is missing' });
  });

export const discussionListParams = z.object({ ...commitPath, ...paginationParams });

export const discussionParams = z.object({ ...commitPath, discussion_id: required(p.string()) });

/**
 * `POST …/discussions`: with `position` (a JSON object, or form fields `position[base_sha]`, …)
 * the discussion is a diff note's (`diff-position.ts`): a loose object keeps the bracketed fields
 * for it, and only the declared parameters come out.
 */
export const discussionCreateParams = z
  .looseObject({ ...commitPath, body: required(noteText()), position: z.unknown().optional() })
  .transform(({ id, sha, body, ...raw }, ctx) => ({ id, sha, body, position: positionFrom(raw, ctx) }));

export const replyParams = z.object({ ...commitPath, discussion_id: required(p.string()), body: required(noteText()) });

export const noteParams = z.object({ ...commitPath, discussion_id: required(p.string()), note_id: required(p.int()) });

/** `PUT …/notes/:note_id`: Grape's `exactly_one_of :body, :resolved` (commit notes are never resolvable). */
export const noteUpdateParams = z
  .object({ ...commitPath, discussion_id: required(p.string()), note_id: required(p.int()), body: noteText(), resolved: p.bool() })
  .superRefine((value, ctx) => {
    const given = [value.body, value.resolved].filter((v) => v !== undefined).length;
    if (given === 0) ctx.addIssue({ code: 'custom', message: 'body, resolved are missing, exactly one parameter must be provided' });
    if (given > 1) ctx.addIssue({ code: 'custom', message: 'body, resolved are mutually exclusive' });
  });
