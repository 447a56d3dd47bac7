/**
 * Comments and discussions on commits (GitLab's `GET/POST …/commits/:sha/comments` and the
 * commit part of `lib/api/discussions.rb`). Reads need `download_code` (anonymous on public
 * projects); writing needs a token as well (GitLab's `create_note`: whoever reads the code of a
 * project that is not archived). `:sha` is a commit id or a branch or tag name; the notes hang
 * on the commit it names (`404 Commit Not Found` for none). A note is edited or deleted by its
 * author or a maintainer (GitLab's `admin_note`).
 */
import { paginate, paginateArray } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { NotFoundError } from '../../platform/http/errors';
import type { catalog } from '../catalog';
import {
  commentOnCommit,
  deleteCommitNote,
  findCommitDiscussionOrNotFound,
  findCommitNoteOrNotFound,
  replyToCommitDiscussion,
  resolveCommitNote,
  startCommitDiscussion,
  updateCommitNote,
} from '../commands/commit-notes';
import { presentCommitComments, presentCommitDiscussions, presentCommitNote, presentCommitNotes } from '../presenters/commit-notes';
import { commitComments, commitDiscussion, commitDiscussions } from '../queries/commit-notes';
import { findCommitOrNotFound } from '../queries/commits';
import { findRepositoryOrNotFound } from './access';
import {
  commentCreateParams,
  commentListParams,
  discussionCreateParams,
  discussionListParams,
  discussionParams,
  noteParams,
  noteUpdateParams,
  replyParams,
} from './commit-notes.params';

/** Internal: the commit a route names, in a repository the caller may read (404s otherwise). */
async function findCommit(params: { id: string; sha: string }, user: Parameters<typeof findRepositoryOrNotFound>[1]) {
  const { subject, reader } = await findRepositoryOrNotFound(params.id, user);
  return { subject, reader, commit: await findCommitOrNotFound(reader, subject.project, params.sha) };
}

/** Internal: {@link findCommit} and the discussion a route names on it, with its notes (`404 Discussion Not Found`). */
async function findDiscussion(params: { id: string; sha: string; discussion_id: string }, user: Parameters<typeof findRepositoryOrNotFound>[1]) {
  const found = await findCommit(params, user);
  const pointer = await findCommitDiscussionOrNotFound(found.subject, found.commit.id, params.discussion_id);
  const discussion = await commitDiscussion(found.subject.project.id, pointer);
  if (!discussion) throw new NotFoundError('Discussion');
  return { ...found, discussion };
}

export const commitNoteRoutes = {
  'GET /projects/:id/repository/commits/:sha/comments': route({
    anonymous: true,
    params: commentListParams,
    handler: async ({ params, user, link }) => {
      const { subject, commit } = await findCommit(params, user);
      const page = await paginate(params, link, commitComments(subject.project.id, commit.id));
      return ok(await presentCommitComments(page.items), page.headers);
    },
  }),

  'POST /projects/:id/repository/commits/:sha/comments': route({
    params: commentCreateParams,
    handler: async ({ params, user }) => {
      const { subject, reader, commit } = await findCommit(params, user);
      const note = await commentOnCommit(subject, user, reader, commit, { note: params.note, path: params.path, line: params.line, lineType: params.line_type });
      return created((await presentCommitComments([note]))[0]);
    },
  }),

  'GET /projects/:id/repository/commits/:sha/discussions': route({
    anonymous: true,
    params: discussionListParams,
    handler: async ({ params, user, link }) => {
      const { subject, commit } = await findCommit(params, user);
      const page = paginateArray(params, link, await commitDiscussions(subject.project.id, commit.id));
      return ok(await presentCommitDiscussions(page.items), page.headers);
    },
  }),

  'POST /projects/:id/repository/commits/:sha/discussions': route({
    params: discussionCreateParams,
    handler: async ({ params, user }) => {
      const { subject, reader, commit } = await findCommit(params, user);
      const note = await startCommitDiscussion(subject, user, reader, commit, params.body, params.position);
      return created((await presentCommitDiscussions([{ id: note.discussionId, individualNote: false, notes: [note] }]))[0]);
    },
  }),

  'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id': route({
    anonymous: true,
    params: discussionParams,
    handler: async ({ params, user }) => {
      const { discussion } = await findDiscussion(params, user);
      return ok((await presentCommitDiscussions([discussion]))[0]);
    },
  }),

  'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes': route({
    anonymous: true,
    params: discussionParams,
    handler: async ({ params, user }) => {
      const { discussion } = await findDiscussion(params, user);
      return ok(await presentCommitNotes(discussion.notes));
    },
  }),

  'POST /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes': route({
    params: replyParams,
    handler: async ({ params, user }) => {
      const { subject, commit } = await findCommit(params, user);
      const note = await replyToCommitDiscussion(subject, user, commit, params.discussion_id, params.body);
      return created(await presentCommitNote(note));
    },
  }),

  'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id': route({
    anonymous: true,
    params: noteParams,
    handler: async ({ params, user }) => {
      const { subject, commit } = await findCommit(params, user);
      return ok(await presentCommitNote(await findCommitNoteOrNotFound(subject, commit.id, params.discussion_id, params.note_id)));
    },
  }),

  'PUT /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id': route({
    params: noteUpdateParams,
    handler: async ({ params, user }) => {
      const { subject, commit } = await findCommit(params, user);
      const note = await findCommitNoteOrNotFound(subject, commit.id, params.discussion_id, params.note_id);
      // Commit notes are never resolvable (GitLab's `resolve_note`: 400).
      if (params.body === undefined) resolveCommitNote();
      // Who may edit a note is a per-note rule (`admin_note`): `updateCommitNote` checks it.
      return ok(await presentCommitNote(await updateCommitNote(subject, user, note, params.body)));
    },
  }),

  'DELETE /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id': route({
    params: noteParams,
    handler: async ({ params, user }) => {
      const { subject, commit } = await findCommit(params, user);
      const note = await findCommitNoteOrNotFound(subject, commit.id, params.discussion_id, params.note_id);
      // Who may delete a note is a per-note rule (`admin_note`): `deleteCommitNote` checks it.
      await deleteCommitNote(subject, user, note);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
