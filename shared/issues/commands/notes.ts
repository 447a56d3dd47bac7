/**
 * Note writes (GitLab's `NotesService`s and `NotePolicy`, for issues): whoever can read the issue
 * (confidential rules included) comments when signed in; the author, a maintainer (or above) or an
 * admin edits or deletes a note (GitLab's `admin_note`, which its API checks for both). The route
 * has found the issue and the note as the caller may see them; the per-note rule needs the note
 * loaded, so it is checked here, first. System notes (state, label, milestone, assignee changes, moves) are
 * written by the issue writes in their own transactions (`commands/issue-effects.ts`), are not
 * counted in `user_notes_count`, and cannot be edited or deleted (GitLab: a system note is not
 * `editable?`).
 */
import { can, type ProjectSubject } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/http/errors';
import type { User } from '../../users';
import { recordParticipant } from '../store/issue-subscriptions';
import type { Issue } from '../store/issues';
import { insertNote, removeNote, updateNoteBody, type Note, type NoteWriteFailure } from '../store/notes';
import { commentEffects } from './issue-effects';

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

/**
 * Internal: GitLab's `admin_note` on a user note (`NotePolicy`): its author, or whoever has
 * `admin_note` on the project (maintainers and above, admins). A system note is not `editable?`.
 */
const canAdminNote = (user: User, subject: ProjectSubject, note: Note) =>
  !note.system && (note.authorId === user.id || can(user, 'admin_note', subject));

/** Internal: maps a failed write to GitLab's answer. */
function failWith(failure: NoteWriteFailure): never {
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'issue_gone') throw new NotFoundError('Issue');
  throw new NotFoundError('Note');
}

/**
 * Comments on an issue the caller can read (GitLab's `create_note`: that and being signed in),
 * counting it in the issue's `user_notes_count` in the same transaction, and records
 * `commented on`.
 *
 * @throws ValidationError on a blank or too long body; NotFoundError `Issue` when it went meanwhile.
 * @example
 * const note = await createNote(issue, user, 'Reproduced on main');
 */
export async function createNote(issue: Issue, user: User, body: string): Promise<Note> {
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
  // The `commented on` event and the note's webhook event are written in the note's transaction.
  const failure = await insertNote(note, await commentEffects(issue, note, user, now));
  if (failure === 'note_gone') throw new ConflictError('Note id already in use; try again');
  if (failure) failWith(failure);
  // A commenter takes part in the issue, so is subscribed unless they chose otherwise (GitLab's participants).
  await recordParticipant(issue.projectId, issue.iid, user.id);
  return note;
}

/**
 * Edits a note's body: its author, a maintainer (or above) or an admin (403 otherwise, and for
 * system notes).
 * @throws ForbiddenError; ValidationError on a blank or too long body; NotFoundError `Note` when it went meanwhile.
 */
export async function updateNote(subject: ProjectSubject, user: User, note: Note, body: string): Promise<Note> {
  // Per-note rule (GitLab's `admin_note`): it needs the note loaded.
  if (!canAdminNote(user, subject, note)) throw new ForbiddenError();
  validate(body);
  const updated = await updateNoteBody(note, body, new Date().toISOString());
  if (!updated) throw new NotFoundError('Note');
  return updated;
}

/**
 * Deletes a note: its author, a maintainer (or above) or an admin; a user note leaves the issue's
 * `user_notes_count` in the same transaction.
 */
export async function deleteNote(subject: ProjectSubject, user: User, note: Note): Promise<void> {
  // Per-note rule (GitLab's `admin_note`): it needs the note loaded.
  if (!canAdminNote(user, subject, note)) throw new ForbiddenError();
  const failure = await removeNote(note);
  if (failure) failWith(failure);
}
