/**
 * Issue notes (GitLab's `NotesService`s and `NotePolicy`, for issues): whoever can read the issue
 * (confidential rules included) reads and, when signed in, writes notes; only the author or an
 * admin edits one; the author, a maintainer (or above) or an admin deletes one. System notes
 * (state, label, milestone, assignee changes, moves) are written by the issue writes in their own
 * transactions (`domain/issues.ts`), are not counted in `user_notes_count`, and cannot be edited or
 * deleted (GitLab: a system note is not `editable?`).
 */
import { can, isAdmin, type ProjectSubject } from '../auth';
import { nextId } from '../platform/dynamo/counters';
import { prepareEvent } from '../projects';
import { prepareHookEvent } from '../hooks';
import { recordParticipant } from './store/issue-subscriptions';
import type { Issue } from './store/issues';
import { issueCollections } from './store/keys';
import { getNote, insertNote, listIssueNotes, noteFromItem, removeNote, updateNoteBody, type Note, type NoteWriteFailure } from './store/notes';
import { type User, presentUserPublic } from '../users';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../platform/http/errors';
import type { CollectionSource } from '../platform/http/pagination';
import { findIssueOrNotFound } from './issues';

/** GitLab's `Note` body limit. */
export const MAX_NOTE_LENGTH = 1_000_000;

/**
 * A note's body is stored in its item, its feed event and its webhook event, each bound by
 * DynamoDB's 400 KB item limit: longer bodies are refused up front rather than failing the write.
 */
export const MAX_NOTE_BYTES = 300_000;

/** Internal: GitLab's note validations, and the storage bound. */
function validate(body: string): void {
  if (body.trim() === '') throw new ValidationError({ note: ["can't be blank"] });
  if ([...body].length > MAX_NOTE_LENGTH) throw new ValidationError({ note: [`is too long (maximum is ${MAX_NOTE_LENGTH} characters)`] });
  if (Buffer.byteLength(body, 'utf8') > MAX_NOTE_BYTES) throw new ValidationError({ note: [`is too long (maximum is ${MAX_NOTE_BYTES} bytes)`] });
}

/** Internal: GitLab's `admin_note` on a user note: its author or an admin. */
const canEditNote = (user: User, note: Note) => !note.system && (note.authorId === user.id || isAdmin(user));

/** Internal: deleting also allowed to maintainers and above (`admin_project`). */
const canDeleteNote = (user: User, subject: ProjectSubject, note: Note) =>
  !note.system && (canEditNote(user, note) || can(user, 'admin_project', subject));

/** Internal: maps a failed write to GitLab's answer. */
function failWith(failure: NoteWriteFailure): never {
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'issue_gone') throw new NotFoundError('Issue');
  throw new NotFoundError('Note');
}

/** A note of a readable issue; 404 `Note Not Found` when absent. */
export async function findNoteOrNotFound(issue: Issue, noteId: number): Promise<Note> {
  const note = await getNote(issue.projectId, issue.iid, noteId);
  if (!note) throw new NotFoundError('Note');
  return note;
}

export type NoteOrder = { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };

/**
 * The notes of an issue the caller can read. By `created_at`: one Query of the issue's range in
 * id order (ids are taken just before the creation time is stamped), paged by the key position.
 * By `updated_at`: the issue's notes are read whole and sorted in memory (bounded by the issue).
 *
 * @example
 * const notes = await issueNotes(subject, user, 3, { orderBy: 'created_at', sort: 'desc' });
 * const page = Array.isArray(notes) ? paginateArray(params, link, notes) : await paginate(params, link, notes);
 */
export async function issueNotes(subject: ProjectSubject, user: User | null, iid: number, order: NoteOrder): Promise<CollectionSource<Note> | Note[]> {
  const issue = await findIssueOrNotFound(subject, user, iid);
  const collection = issueCollections.issueNotes(issue.projectId, issue.iid);
  const ascending = order.sort === 'asc';
  if (order.orderBy === 'created_at') return { collection, ascending, select: noteFromItem };
  return (await listIssueNotes(issue.projectId, issue.iid))
    .sort((a, b) => (ascending ? 1 : -1) * (a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id));
}

/** One note of an issue the caller can read. */
export async function findIssueNote(subject: ProjectSubject, user: User | null, iid: number, noteId: number): Promise<Note> {
  return findNoteOrNotFound(await findIssueOrNotFound(subject, user, iid), noteId);
}

/**
 * Comments on an issue (GitLab's `create_note`: signed in and can read the issue), counting it
 * in the issue's `user_notes_count` in the same transaction, and records `commented on`.
 *
 * @throws NotFoundError `Issue` when the caller cannot read it; ValidationError on a blank or too long body.
 * @example
 * const note = await createNote(subject, user, 3, 'Reproduced on main');
 */
export async function createNote(subject: ProjectSubject, user: User, iid: number, body: string): Promise<Note> {
  // Reading the issue is all `create_note` needs besides being signed in (every route is authenticated).
  const issue = await findIssueOrNotFound(subject, user, iid);
  validate(body);
  const now = new Date().toISOString();
  const note: Note = {
    id: await nextId('notes'),
    projectId: issue.projectId,
    issueIid: issue.iid,
    issueId: issue.id,
    body,
    authorId: user.id,
    system: false,
    createdAt: now,
    updatedAt: now,
  };
  // The `commented on` event is written in the note's transaction.
  const { put } = await prepareEvent({
    projectId: issue.projectId,
    authorId: user.id,
    actionName: 'commented on',
    targetId: note.id,
    targetType: 'Note',
    targetTitle: issue.title,
    restrictedTo: issue.confidential ? [...new Set([issue.authorId, ...issue.assigneeIds, user.id])] : null,
    note: {
      id: note.id,
      body: note.body,
      attachment: null,
      author: presentUserPublic(user),
      created_at: note.createdAt,
      system: false,
      noteable_id: issue.id,
      noteable_type: 'Issue',
    },
  });
  // So are the note's webhook event and the issue as commented on (notes touch `updated_at`).
  const hook = await prepareHookEvent({ projectId: issue.projectId, actorId: user.id, kind: 'note', action: 'create', note, issue: { ...issue, updatedAt: now } });
  const failure = await insertNote(note, [put, hook.put]);
  if (failure === 'note_gone') throw new ConflictError('Note id already in use; try again');
  if (failure) failWith(failure);
  // A commenter takes part in the issue, so is subscribed unless they chose otherwise (GitLab's participants).
  await recordParticipant(issue.projectId, issue.iid, user.id);
  return note;
}

/**
 * Edits a note's body: its author or an admin (403 otherwise, and for system notes).
 * @throws NotFoundError `Issue`/`Note`; ForbiddenError; ValidationError on a blank or too long body.
 */
export async function updateNote(subject: ProjectSubject, user: User, iid: number, noteId: number, body: string): Promise<Note> {
  const note = await findIssueNote(subject, user, iid, noteId);
  if (!canEditNote(user, note)) throw new ForbiddenError();
  validate(body);
  const updated = await updateNoteBody(note, body, new Date().toISOString());
  if (!updated) throw new NotFoundError('Note');
  return updated;
}

/**
 * Deletes a note: its author, a maintainer (or above) or an admin; a user note leaves the issue's
 * `user_notes_count` in the same transaction.
 */
export async function deleteNote(subject: ProjectSubject, user: User, iid: number, noteId: number): Promise<void> {
  const note = await findIssueNote(subject, user, iid, noteId);
  if (!canDeleteNote(user, subject, note)) throw new ForbiddenError();
  const failure = await removeNote(note);
  if (failure) failWith(failure);
}
