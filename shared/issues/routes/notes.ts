/**
 * Issue notes: list, read, comment, edit, delete. Every call must be authenticated. Whoever can
 * read the issue (confidential rules included) reads and adds notes; the author, a maintainer (or
 * above) or an admin edits or deletes one (GitLab's `admin_note`).
 */
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { commentEffects } from '../commands/issue-effects';
import { createNote, deleteNote, updateNote } from '../commands/notes';
import { presentNote, presentNotes } from '../presenters/notes';
import { findIssueOrNotFound } from '../queries/issues';
import { findNoteOrNotFound, noteableNotes } from '../queries/notes';
import { issueNoteable } from '../store/issues';
import { createParams, listParams, noteParams, updateParams } from './notes.params';

export const noteRoutes = {
  'GET /projects/:id/issues/:issue_iid/notes': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const notes = await noteableNotes(issueNoteable(issue), { orderBy: params.order_by, sort: params.sort });
      const page = await paginate(params, link, notes);
      return ok(await presentNotes(page.items), page.headers);
    },
  }),

  'POST /projects/:id/issues/:issue_iid/notes': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // Reading the issue is all GitLab's `create_note` needs besides being signed in.
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      // The `commented on` event and the Note Hook event are written in the note's transaction.
      const note = await createNote(issueNoteable(issue), user, params.body, (written, at) => commentEffects(issue, written, user, at));
      return created(await presentNote(note, [user]));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return ok(await presentNote(await findNoteOrNotFound(issueNoteable(issue), params.note_id)));
    },
  }),

  'PUT /projects/:id/issues/:issue_iid/notes/:note_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const note = await findNoteOrNotFound(issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid)), params.note_id);
      // Who may edit a note is a per-note rule: `updateNote` checks it.
      return ok(await presentNote(await updateNote(subject, user, note, params.body)));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const noteable = issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid));
      const note = await findNoteOrNotFound(noteable, params.note_id);
      // Who may delete a note is a per-note rule: `deleteNote` checks it.
      await deleteNote(subject, user, noteable, note);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.notes>;
