/**
 * Note writes on any noteable, an issue or a merge request (GitLab's `NotesService`s and
 * `NotePolicy`): whoever can read the noteable (confidential rules included) comments when signed
 * in; the author, a maintainer (or above) or an admin edits or deletes a note (GitLab's
 * `admin_note`, which its API checks for both). The route has found the noteable and the note as
 * the caller may see them; the per-note rule needs the note loaded, so it is checked here, first.
 * System notes (state, label, milestone, assignee changes, moves, merges) are written by the
 * noteable's writes in their own transactions (`systemNotePuts`) or alone
 * ({@link createSystemNote}), are not counted in `user_notes_count`, and cannot be edited or
 * deleted (GitLab: a system note is not `editable?`).
 *
 * The noteable's own item (an issue's, or a merge request's, which the merge-requests feature
 * owns) is updated through the {@link Noteable} its owner describes; what a comment leaves besides
 * the note (feed event, Note Hook) is the caller's ({@link NoteEffects}), since the webhook
 * payloads differ per noteable. A new note gives todos to the users it mentions who can read the
 * noteable (`mention-todos.ts`).
 */
import type { StringLimit } from '../../platform/http/params';
import { can, type ProjectSubject } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { sharedSequences } from '../../platform/dynamo/sequences';
import { ConflictError, ForbiddenError, NotFoundError, RecordNotFoundError, ValidationError } from '../../platform/http/errors';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { User } from '../../users';
import { participantUpsert } from '../store/issue-subscriptions';
import type { Noteable, NoteableType, WriteEffects } from '../store/noteables';
import { getDiscussionState, isResolvable, resolutionChange } from '../store/discussions';
import { noteMentionTodoItems } from './mention-todos';
import { convertToDiscussionPart, discussionRootOf, getNote, insertNote, newNote, removeNote, updateNoteBody, type Note, type NoteWriteFailure, type ResolutionChange } from '../store/notes';

/** GitLab's `Note` body limit. */
export const MAX_NOTE_LENGTH = 1_000_000;

/**
 * A note's body is stored in its item, its feed event and its webhook event, each bound by
 * DynamoDB's 400 KB item limit: longer bodies are refused up front rather than failing the write.
 */
export const MAX_NOTE_BYTES = 300_000;

/**
 * A note's `body` parameter, named `note` in GitLab's errors: {@link MAX_NOTE_LENGTH} characters,
 * and at most {@link MAX_NOTE_BYTES} bytes (issue and merge request notes alike).
 */
export const NOTE_BODY_LIMIT = { max: MAX_NOTE_LENGTH, maxBytes: MAX_NOTE_BYTES, field: 'note' } as const satisfies StringLimit;

/**
 * What a comment writes in its transaction besides the note and the noteable's count: built once
 * the note exists (`at` is its creation time, the noteable's new `updated_at`), e.g. the
 * `commented on` event (`commentEvent`) and the noteable's Note Hook event.
 */
export type NoteEffects = (note: Note, at: string) => Promise<Pick<WriteEffects, 'event' | 'hook'> & NoteSource>;

/**
 * The item a note is made from (a merge request's draft note, published), given by the effects:
 * a Delete conditioned on the item still being there, written in the note's transaction. Of two
 * requests making a note from one item, one writes the note; the other writes nothing and gets
 * GitLab's `404 Not found` (the `RecordNotFound` of a draft that is gone).
 */
export interface NoteSource {
  source?: TransactItem;
}

/** How a comment is threaded, and when it was made. */
export interface NoteOptions {
  /** `DiscussionNote`: the first note of a new discussion (`POST .../discussions`). */
  noteType?: 'DiscussionNote';
  /** The first note of the discussion the comment replies in (`POST .../discussions/:id/notes`). */
  inReplyTo?: Note;
  /** `created_at` given by an owner or admin (checked by the caller); default: now. */
  createdAt?: string;
  /**
   * A diff note's position and line code, checked by the caller (`POST .../discussions` with
   * `position`). A reply in a diff discussion takes its first note's (GitLab's `reply_attributes`).
   */
  diff?: Pick<Note, 'position' | 'lineCode'>;
}

/** Writes that lost a race on their discussion's resolution state re-read it; past this many, 409. */
const RESOLUTION_ATTEMPTS = 6;

/** GitLab's name of a noteable in `404 … Not Found`. */
const NOT_FOUND_NAME: Record<NoteableType, string> = { Issue: 'Issue', MergeRequest: 'Merge Request' };

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
function failWith(noteable: Pick<Noteable, 'type'>, failure: NoteWriteFailure): never {
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'discussion_gone') throw new NotFoundError('Discussion');
  if (failure === 'noteable_gone') throw new NotFoundError(NOT_FOUND_NAME[noteable.type]);
  throw new NotFoundError('Note');
}

/**
 * Comments on a noteable the caller can read (GitLab's `create_note`: that and being signed in),
 * counting it in the noteable's `user_notes_count` and stamping its `updated_at` in the same
 * transaction, with the effects `effects` builds; the commenter becomes a participant (subscribed
 * unless they chose otherwise).
 *
 * @throws ValidationError on a blank or too long body; NotFoundError `Issue` / `Merge Request`
 *   when the noteable went meanwhile.
 * @example
 * const note = await createNote(issueNoteable(issue), user, 'Reproduced on main', (note, at) => commentEffects(issue, note, user, at));
 */
export async function createNote(noteable: Noteable, user: User, body: string, effects?: NoteEffects, options: NoteOptions = {}): Promise<Note> {
  validate(body);
  const now = new Date().toISOString();
  const createdAt = options.createdAt ?? now;
  const { inReplyTo } = options;
  const thread = inReplyTo
    ? { rootId: discussionRootOf(inReplyTo), noteType: 'DiscussionNote' as const, position: inReplyTo.position, lineCode: inReplyTo.lineCode }
    : options.noteType
      ? { noteType: options.noteType, ...options.diff }
      : {};
  const note = newNote(noteable, { id: await nextId(sharedSequences.notes), body, authorId: user.id, system: false, createdAt, updatedAt: createdAt, ...thread });
  // The effects (feed event, webhook event) are written in the note's transaction, and so is
  // the conversion of an individual note the reply answers into a discussion's first note.
  // With them, at once, the todos of the users the note mentions (none without an `@`: no read),
  // in the same transaction: they exist exactly when the note does.
  const [written, mentionTodos] = await Promise.all([effects ? effects(note, now) : {}, noteMentionTodoItems(noteable, note, user)]);
  let todos = mentionTodos;
  let replyRoot = inReplyTo;
  for (let attempt = 1; ; attempt++) {
    const root = replyRoot && replyRoot.noteType !== 'DiscussionNote' ? convertToDiscussionPart(replyRoot) : undefined;
    // A commenter takes part in the noteable, so is subscribed unless they chose otherwise (GitLab's participants).
    const participant = participantUpsert(noteable, user.id);
    const failure = await insertNote(noteable, note, { ...written, root, participant, todos, resolution: await newNoteResolution(noteable, note, replyRoot) });
    if (!failure) break;
    if (failure === 'todos_changed' && attempt < RESOLUTION_ATTEMPTS) {
      // A racing write gave a mentioned user their pending todo: read them again.
      todos = await noteMentionTodoItems(noteable, note, user);
      continue;
    }
    if (failure === 'resolution_changed' && attempt < RESOLUTION_ATTEMPTS) {
      // Another write changed the discussion (a racing reply may have converted its first note).
      if (replyRoot && replyRoot.noteType !== 'DiscussionNote') replyRoot = (await getNote(noteable, replyRoot.id)) ?? replyRoot;
      continue;
    }
    if (failure === 'resolution_changed' || failure === 'todos_changed') throw new ConflictError('The discussion was changed by another request; try again');
    if (failure === 'note_gone') throw new ConflictError('Note id already in use; try again');
    if (failure === 'discussion_gone') throw new NotFoundError('Discussion');
    if (failure === 'source_gone') throw new RecordNotFoundError();
    failWith(noteable, failure);
  }
  return note;
}

/**
 * Internal: the resolution change a new note brings to its discussion (merge request discussions):
 * the note is unresolved, and so is the individual note it turns into the discussion's first note.
 * `undefined` for a note that is not resolvable.
 */
async function newNoteResolution(noteable: Noteable, note: Note, inReplyTo: Note | undefined): Promise<ResolutionChange | undefined> {
  if (!isResolvable(note)) return undefined;
  const rootId = discussionRootOf(note);
  const before = await getDiscussionState(noteable, rootId);
  const converted = inReplyTo && inReplyTo.noteType !== 'DiscussionNote' && !inReplyTo.system ? 1 : 0;
  return resolutionChange(noteable, rootId, before, (before ?? 0) + 1 + converted);
}

/**
 * Adds a system note by `author` on its own (a change whose transaction did not carry it: use
 * `systemNotePuts` for those), while the project is live and the noteable not deleted; not
 * counted in `user_notes_count`, `updated_at` left as it is.
 *
 * @throws NotFoundError `Project`, `Issue` / `Merge Request` when gone.
 * @example
 * await createSystemNote(noteable, user, addedCommitsNote(commits));
 */
export async function createSystemNote(noteable: Noteable, author: Pick<User, 'id'>, body: string): Promise<Note> {
  const now = new Date().toISOString();
  const note = newNote(noteable, { id: await nextId(sharedSequences.notes), body, authorId: author.id, system: true, createdAt: now, updatedAt: now });
  const failure = await insertNote(noteable, note);
  if (failure === 'note_gone') throw new ConflictError('Note id already in use; try again');
  if (failure) failWith(noteable, failure);
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
 * Deletes a note of `noteable`: its author, a maintainer (or above) or an admin; a user note
 * leaves the noteable's `user_notes_count` in the same transaction.
 */
export async function deleteNote(subject: ProjectSubject, user: User, noteable: Noteable, note: Note): Promise<void> {
  // Per-note rule (GitLab's `admin_note`): it needs the note loaded.
  if (!canAdminNote(user, subject, note)) throw new ForbiddenError();
  let current = note;
  for (let attempt = 1; ; attempt++) {
    // An unresolved resolvable note leaves its discussion's unresolved count (and may resolve it).
    let resolution: ResolutionChange | undefined;
    if (isResolvable(current) && current.resolvedAt === undefined) {
      const rootId = discussionRootOf(current);
      const before = await getDiscussionState(noteable, rootId);
      if (before !== undefined) resolution = resolutionChange(noteable, rootId, before, Math.max(before - 1, 0));
    }
    const failure = await removeNote(noteable, current, resolution);
    if (!failure) return;
    if ((failure === 'resolution_changed' || failure === 'note_gone') && attempt < RESOLUTION_ATTEMPTS) {
      // The note (resolved or unresolved meanwhile) or its discussion changed: read it again.
      const fresh = await getNote(noteable, current.id);
      if (!fresh) throw new NotFoundError('Note');
      current = fresh;
      continue;
    }
    if (failure === 'resolution_changed') throw new ConflictError('The discussion was changed by another request; try again');
    failWith(noteable, failure);
  }
}
