/**
 * Issue notes: list, read, comment, edit, delete. Every call must be authenticated. Whoever can
 * read the issue (confidential rules included) reads and adds notes; the author or an admin edits
 * one; the author, a maintainer or an admin deletes one.
 */
import { findProjectOrNotFound } from '../../projects';
import { createNote, deleteNote, findIssueNote, issueNotes, updateNote } from '../notes';
import { paginate, paginateArray } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { presentNote, presentNotes } from '../presenters/notes';
import { createParams, listParams, noteParams, updateParams } from './note-params';
import type { catalog } from '../catalog';

export const noteRoutes = {
  'GET /projects/:id/issues/:issue_iid/notes': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const notes = await issueNotes(subject, user, params.issue_iid, { orderBy: params.order_by, sort: params.sort });
      const page = Array.isArray(notes) ? paginateArray(params, link, notes) : await paginate(params, link, notes);
      return ok(await presentNotes(page.items), page.headers);
    },
  }),

  'POST /projects/:id/issues/:issue_iid/notes': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return created(await presentNote(await createNote(subject, user, params.issue_iid, params.body)));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentNote(await findIssueNote(subject, user, params.issue_iid, params.note_id)));
    },
  }),

  'PUT /projects/:id/issues/:issue_iid/notes/:note_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      return ok(await presentNote(await updateNote(subject, user, params.issue_iid, params.note_id, params.body)));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      await deleteNote(subject, user, params.issue_iid, params.note_id);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.notes>;
