/**
 * Merge request discussions (GitLab's `API::Discussions` for merge requests): list, read, start,
 * reply, resolve, and read, edit, resolve or delete a note of one. Every call must be
 * authenticated. Whoever reads the merge request reads discussions, starts them and replies (a
 * comment writes its `commented on` event and Note Hook event in its own transaction); the author
 * of a note, a maintainer (or above) or an admin edits or deletes it (`admin_note`). Discussion
 * notes of merge requests are resolvable: who may resolve is the issues feature's rule
 * (`resolveDiscussionNote`, `resolveDiscussion`), and the merge request's count of unresolved
 * discussions (`blocking_discussions_resolved`) moves in the same transactions.
 * With `position`, the discussion is a diff note's (`DiffNote`), checked against the merge
 * request's diff versions (`diff-position.ts`); replies in it are diff notes at the same position.
 */
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { mergeRequestCommentEffects } from '../commands/comments';
import { checkPosition } from '../diff-position';
import {
  deleteNote,
  discussionOf,
  findDiscussionNoteOrNotFound,
  findDiscussionOrNotFound,
  noteableDiscussions,
  presentDiscussion,
  presentDiscussions,
  presentNote,
  presentNotes,
  replyToDiscussion,
  resolveDiscussion,
  resolveDiscussionNote,
  startDiscussion,
  updateNote,
} from '../issuables';
import { createParams, discussionParams, listParams, noteParams, replyParams, resolveParams, updateParams } from './discussions.params';
import { findMergeRequestOf } from './find';

export const mergeRequestDiscussionRoutes = {
  'GET /projects/:id/merge_requests/:merge_request_iid/discussions': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const { noteable } = await findMergeRequestOf(params, user);
      const page = await paginate(params, link, noteableDiscussions(noteable));
      return ok(await presentDiscussions(page.items), page.headers);
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/discussions': route({
    params: createParams,
    handler: async ({ params, user }) => {
      // Reading the merge request is all GitLab's `create_note` needs besides being signed in.
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      const diff = params.position && (await checkPosition(mr, params.position));
      const input = { body: params.body, createdAt: params.created_at, ...(diff ? { diff } : {}) };
      const note = await startDiscussion(subject, noteable, user, input, mergeRequestCommentEffects(mr, user));
      return created(await presentDiscussion(discussionOf(note)));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id': route({
    params: discussionParams,
    handler: async ({ params, user }) => {
      const { noteable } = await findMergeRequestOf(params, user);
      return ok(await presentDiscussion(await findDiscussionOrNotFound(noteable, params.discussion_id)));
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id': route({
    params: resolveParams,
    handler: async ({ params, user }) => {
      const { subject, noteable } = await findMergeRequestOf(params, user);
      const discussion = await findDiscussionOrNotFound(noteable, params.discussion_id);
      // Who may resolve is a per-discussion rule: `resolveDiscussion` checks it.
      return ok(await presentDiscussion(await resolveDiscussion(subject, user, noteable, discussion, params.resolved)));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes': route({
    params: discussionParams,
    handler: async ({ params, user }) => {
      const { noteable } = await findMergeRequestOf(params, user);
      return ok(await presentNotes((await findDiscussionOrNotFound(noteable, params.discussion_id)).notes));
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes': route({
    params: replyParams,
    handler: async ({ params, user }) => {
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      const discussion = await findDiscussionOrNotFound(noteable, params.discussion_id);
      const input = { body: params.body, createdAt: params.created_at };
      const note = await replyToDiscussion(subject, noteable, user, discussion.notes, input, mergeRequestCommentEffects(mr, user));
      return created(await presentNote(note, [user]));
    },
  }),

  'GET /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const { noteable } = await findMergeRequestOf(params, user);
      return ok(await presentNote(await findDiscussionNoteOrNotFound(noteable, params.discussion_id, params.note_id)));
    },
  }),

  'PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const { subject, noteable } = await findMergeRequestOf(params, user);
      const note = await findDiscussionNoteOrNotFound(noteable, params.discussion_id, params.note_id);
      // Who may edit or resolve a note is a per-note rule: the commands check it.
      if (params.body === undefined) return ok(await presentNote(await resolveDiscussionNote(subject, user, noteable, note, params.resolved!)));
      return ok(await presentNote(await updateNote(subject, user, note, params.body)));
    },
  }),

  'DELETE /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const { subject, noteable } = await findMergeRequestOf(params, user);
      const note = await findDiscussionNoteOrNotFound(noteable, params.discussion_id, params.note_id);
      // Who may delete a note is a per-note rule: `deleteNote` checks it.
      await deleteNote(subject, user, noteable, note);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
