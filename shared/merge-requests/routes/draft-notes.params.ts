/** Parameters of the draft note routes (GitLab's `lib/api/draft_notes.rb`). */
import * as z from 'zod';
import { p, required, type StringLimit } from '../../platform/http/params';
import { positionFrom } from '../diff-position';
import { mergeRequestPathParams as mrPath, NOTE_BODY_LIMIT } from './merge-requests.params';

const draftIdParam = { draft_note_id: required(p.int()) };

/** A discussion id (40 hex digits, checked by the command) and a commit sha are short; longer is refused as a model's length. */
const ID_LIMIT = { max: 255 } as const satisfies StringLimit;

export const listParams = z.object(mrPath);

export const draftParams = z.object({ ...mrPath, ...draftIdParam });

/**
 * `POST …/draft_notes`: `note` is required; `position` (a JSON object, or form fields
 * `position[base_sha]`, …) as a diff note's, kept by a loose object for `positionFrom`.
 */
export const createParams = z
  .looseObject({
    ...mrPath,
    note: required(p.string(NOTE_BODY_LIMIT)),
    in_reply_to_discussion_id: p.string(ID_LIMIT),
    commit_id: p.string(ID_LIMIT),
    resolve_discussion: p.bool(),
    position: z.unknown().optional(),
  })
  .transform(({ id, merge_request_iid, note, in_reply_to_discussion_id, commit_id, resolve_discussion, ...raw }, ctx) => ({
    id,
    merge_request_iid,
    note,
    in_reply_to_discussion_id,
    commit_id,
    resolve_discussion,
    position: positionFrom(raw, ctx),
  }));

/** `PUT …/draft_notes/:draft_note_id`: `note` (the route answers its absence), `position`. */
export const updateParams = z
  .looseObject({ ...mrPath, ...draftIdParam, note: p.string(NOTE_BODY_LIMIT), position: z.unknown().optional() })
  .transform(({ id, merge_request_iid, draft_note_id, note, ...raw }, ctx) => ({ id, merge_request_iid, draft_note_id, note, position: positionFrom(raw, ctx) }));
