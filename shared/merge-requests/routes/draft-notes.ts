/**
 * Draft notes of merge requests (GitLab's `API::DraftNotes`): a reviewer's pending comments. Every
 * call must be authenticated and read the merge request; a draft is its author's alone: listed,
 * read, edited, deleted and published only by them (anyone else's draft id is GitLab's `404 Not
 * found`). Publishing one (`PUT …/:draft_note_id/publish`) or all the caller's
 * (`POST …/bulk_publish`) turns drafts into notes (`commands/draft-notes.ts`) and answers 204.
 */
import { BadRequestError } from '../../platform/http/errors';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import {
  createDraftNote,
  deleteOwnDraftNote,
  findDraftNoteOrNotFound,
  listOwnDraftNotes,
  publishAllDraftNotes,
  publishDraftNote,
  updateOwnDraftNote,
} from '../commands/draft-notes';
import { presentDraftNote } from '../presenters/draft-notes';
import { createParams, draftParams, listParams, updateParams } from './draft-notes.params';
import { findMergeRequestOf } from './find';

export const mergeRequestDraftNoteRoutes = {
  'GET /projects/:id/merge_requests/:merge_request_iid/draft_notes': route({
    params: listParams,
    handler: async ({ params, user }) => {
      const { mr } = await findMergeRequestOf(params, user);
      return ok((await listOwnDraftNotes(mr, user)).map(presentDraftNote));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id': route({
    params: draftParams,
    handler: async ({ params, user }) => {
      const { mr } = await findMergeRequestOf(params, user);
      return ok(presentDraftNote(await findDraftNoteOrNotFound(mr, user, params.draft_note_id)));
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/draft_notes': route({
    params: createParams,
    handler: async ({ params, user }) => {
      // Reading the merge request is all GitLab's `create_note` needs besides being signed in.
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      const input = {
        note: params.note,
        inReplyToDiscussionId: params.in_reply_to_discussion_id,
        commitId: params.commit_id,
        resolveDiscussion: params.resolve_discussion,
        position: params.position,
      };
      return created(presentDraftNote(await createDraftNote(subject, user, mr, noteable, input)));
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      if (params.note === undefined) throw new BadRequestError('400 Bad request - Missing params to modify');
      const { mr } = await findMergeRequestOf(params, user);
      const draft = await findDraftNoteOrNotFound(mr, user, params.draft_note_id);
      return ok(presentDraftNote(await updateOwnDraftNote(mr, draft, params.note, params.position)));
    },
  }),

  'DELETE /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id': route({
    params: draftParams,
    handler: async ({ params, user }) => {
      const { mr } = await findMergeRequestOf(params, user);
      await deleteOwnDraftNote(await findDraftNoteOrNotFound(mr, user, params.draft_note_id));
      return noContent();
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id/publish': route({
    params: draftParams,
    handler: async ({ params, user }) => {
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      const draft = await findDraftNoteOrNotFound(mr, user, params.draft_note_id);
      await publishDraftNote(subject, user, mr, noteable, draft);
      return noContent();
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/draft_notes/bulk_publish': route({
    params: listParams,
    handler: async ({ params, user }) => {
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      await publishAllDraftNotes(subject, user, mr, noteable);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
