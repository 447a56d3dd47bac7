/**
 * Issue discussions (GitLab's `API::Discussions` for issues): list, read, start, reply, and read,
 * edit or delete a note of one. Every call must be authenticated. Whoever can read the issue
 * (confidential rules included) reads discussions, starts them and replies; the author of a note,
 * a maintainer (or above) or an admin edits or deletes it (GitLab's `admin_note`, as the notes
 * routes). Issue discussions are not resolvable: `PUT .../notes/:note_id` with `resolved` is
 * GitLab's 400, and `PUT .../discussions/:discussion_id` (resolve) is not an issue route.
 */
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { replyToDiscussion, resolveNote, startDiscussion } from '../commands/discussions';
import { commentEffects } from '../commands/issue-effects';
import { deleteNote, updateNote } from '../commands/notes';
import { discussionOf, presentDiscussion, presentDiscussions } from '../presenters/discussions';
import { presentNote, presentNotes } from '../presenters/notes';
import { findDiscussionNoteOrNotFound, findDiscussionOrNotFound, noteableDiscussions } from '../queries/discussions';
import { findIssueOrNotFound } from '../queries/issues';
import { issueNoteable } from '../store/issues';
import { createParams, discussionParams, listParams, noteParams, replyParams, updateParams } from './discussions.params';

export const discussionRoutes = {
  'GET /projects/:id/issues/:issue_iid/discussions': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const page = await paginate(params, link, noteableDiscussions(issueNoteable(issue)));
      return ok(await presentDiscussions(page.items), page.headers);
    },
  }),

  'POST /projects/:id/issues/:issue_iid/discussions': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // Reading the issue is all GitLab's `create_note` needs besides being signed in.
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const input = { body: params.body, createdAt: params.created_at };
      // The `commented on` event and the Note Hook event are written in the note's transaction.
      const note = await startDiscussion(subject, issueNoteable(issue), user, input, (written, at) => commentEffects(issue, written, user, at));
      return created(await presentDiscussion(discussionOf(note)));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/discussions/:discussion_id': route({
    params: discussionParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return ok(await presentDiscussion(await findDiscussionOrNotFound(issueNoteable(issue), params.discussion_id)));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes': route({
    params: discussionParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const discussion = await findDiscussionOrNotFound(issueNoteable(issue), params.discussion_id);
      return ok(await presentNotes(discussion.notes));
    },
  }),

  'POST /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes': route({
    params: replyParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const noteable = issueNoteable(issue);
      const discussion = await findDiscussionOrNotFound(noteable, params.discussion_id);
      const input = { body: params.body, createdAt: params.created_at };
      const note = await replyToDiscussion(subject, noteable, user, discussion.notes, input, (written, at) => commentEffects(issue, written, user, at));
      return created(await presentNote(note, [user]));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return ok(await presentNote(await findDiscussionNoteOrNotFound(issueNoteable(issue), params.discussion_id, params.note_id)));
    },
  }),

  'PUT /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const note = await findDiscussionNoteOrNotFound(issueNoteable(issue), params.discussion_id, params.note_id);
      // Issue notes are never resolvable (GitLab's `resolve_note`: 400).
      if (params.body === undefined) resolveNote();
      // Who may edit a note is a per-note rule: `updateNote` checks it.
      return ok(await presentNote(await updateNote(subject, user, note, params.body)));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const noteable = issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid));
      const note = await findDiscussionNoteOrNotFound(noteable, params.discussion_id, params.note_id);
      // Who may delete a note is a per-note rule: `deleteNote` checks it.
      await deleteNote(subject, user, noteable, note);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.discussions>;
