/**
 * Notes (comments) on merge requests (GitLab's `lib/api/notes.rb` for `merge_requests`): whoever
 * reads the merge request reads and adds notes; the author, a maintainer (or above) or an admin
 * edits or deletes one. A comment writes its `commented on` event and its Note Hook event in its
 * own transaction.
 */
import * as z from 'zod';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { mergeRequestCommentEffects } from '../commands/comments';
import { createNote, deleteNote, findNoteOrNotFound, noteableNotes, presentNote, presentNotes, updateNote } from '../issuables';
import { mergeRequestPathParams, NOTE_BODY_LIMIT } from './merge-requests.params';
import { findMergeRequestOf } from './find';

const noteIdParam = { note_id: required(p.int()) };
const listParams = z.object({
  ...mergeRequestPathParams,
  ...paginationParams,
  order_by: p.oneOf(['created_at', 'updated_at']).transform((v) => v ?? 'created_at'),
  sort: p.oneOf(['asc', 'desc']).transform((v) => v ?? 'desc'),
});
const createParams = z.object({ ...mergeRequestPathParams, body: required(p.string(NOTE_BODY_LIMIT)) });
const noteParams = z.object({ ...mergeRequestPathParams, ...noteIdParam });
const updateParams = z.object({ ...mergeRequestPathParams, ...noteIdParam, body: required(p.string(NOTE_BODY_LIMIT)) });

export const mergeRequestNoteRoutes = {
  'GET /projects/:id/merge_requests/:merge_request_iid/notes': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const { noteable } = await findMergeRequestOf(params, user);
      const page = await paginate(params, link, await noteableNotes(noteable, { orderBy: params.order_by, sort: params.sort }));
      return ok(await presentNotes(page.items), page.headers);
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/notes': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const { mr, noteable } = await findMergeRequestOf(params, user);
      const note = await createNote(noteable, user, params.body, mergeRequestCommentEffects(mr, user));
      return created(await presentNote(note, [user]));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const { noteable } = await findMergeRequestOf(params, user);
      return ok(await presentNote(await findNoteOrNotFound(noteable, params.note_id)));
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const { subject, noteable } = await findMergeRequestOf(params, user);
      const note = await findNoteOrNotFound(noteable, params.note_id);
      // Who may edit a note is a per-note rule: `updateNote` checks it.
      return ok(await presentNote(await updateNote(subject, user, note, params.body)));
    },
  }),

  'DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const { subject, noteable } = await findMergeRequestOf(params, user);
      const note = await findNoteOrNotFound(noteable, params.note_id);
      await deleteNote(subject, user, noteable, note);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
