/**
 * Commenting on a commit (GitLab's `POST …/commits/:sha/comments` and the commit discussions of
 * `lib/api/discussions.rb`). The route has found the commit (`404 Commit Not Found` otherwise)
 * and checked that the caller may read its code; GitLab's `create_note` adds only that the
 * project is not archived (403).
 *
 * A comment with `path` is put on the line of the commit's diff whose number (`line`: the new
 * number of an added line, the old one of a removed line) and side (`line_type`) match, as GitLab
 * finds it (`Gitlab::Diff::Line#line` and `#type`): it becomes a `LegacyDiffNote` with that
 * line's code (`<sha1 of the new path>_<old>_<new>`); a line that is not there leaves a plain
 * comment on the commit, as in GitLab. A discussion started with `position` is a `DiffNote`: the
 * position must be the commit's own diff (`base_sha` and `start_sha` its first parent, 40 zeros
 * for a root commit, `head_sha` the commit: GitLab's `diff_refs_match_commit`) and a text position
 * a line of that diff (or an unchanged line outside its hunks), else GitLab's `400 Bad request -
 * Note {…}`; replies in it carry the same position.
 *
 * Every comment records what GitLab's `EventCreateService#leave_note` records: the `commented on`
 * event (target `Note`, or `DiffNote` for a diff note; its title the commit's), in the note's
 * transaction. Editing a note is its author's, or a maintainer's (GitLab's `admin_note`, which its
 * API checks for editing and deleting alike); deleting the last note of a discussion removes the
 * discussion.
 */
import { createHash } from 'node:crypto';
import { can, type ProjectSubject } from '../../auth';
import { ApiError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { prepareHookEvent } from '../../hooks';
import { prepareEvent } from '../../projects';
import type { User } from '../../users';
import { diffLines, isCompletePosition, lineCodeIn, positionNoteErrors, shownPosition, unfoldedLineCode, unfoldedNewLine, type PositionInput } from '../diff-position';
import { mentionTodoExtras } from '../commit-note-todos';
import { commitAttributes, commitTitle } from '../push/commits';
// Declares the `commit_note` hook event kind and how it is stored: every process writing notes loads it.
import '../webhooks/commit-notes';
import { ZERO_OID } from '../repository';
import { commitChanges } from '../queries/commits';
import { lineCountWith } from '../queries/file-lines';
import { commitDiscussion } from '../queries/commit-notes';
import { withPatches } from '../queries/diff';
import type { CommitObject, ObjectReader } from '../queries/objects';
import {
  commitDiscussionId,
  getCommitNote,
  getDiscussionPointer,
  insertFirstNote,
  insertReply,
  nextCommitNoteId,
  removeCommitNote,
  updateCommitNoteBody,
  type CommitDiscussionPointer,
  type CommitNote,
  type CommitNoteExtras,
} from '../store/commit-notes';

/** A note's body limit (GitLab's `Note` validation: 1,000,000 characters). */
export const MAX_COMMIT_NOTE_LENGTH = 1_000_000;

/** Internal: GitLab's `"Failed to save note #{note.errors.messages}"` (the comments API's 400). */
const failedToSave = (message: string) => new ApiError(400, { message: `Failed to save note {:note=>[${JSON.stringify(message)}]}` });

/** Internal: the discussions API's model validation (`render_validation_error!`): `{"message":{"note":[…]}}`. */
const invalidNote = (message: string) => new ApiError(400, { message: { note: [message] } });

/** Internal: what GitLab's `create_note` needs besides reading the code: a project that is not archived. */
function authorizeNote(subject: ProjectSubject): void {
  if (subject.project.archived) throw new ForbiddenError();
}

/** Internal: the blank-note check of `Note` (`validates :note, presence: true`). */
const blank = (body: string) => body.trim() === '';

/** A line of a diff as GitLab's parser numbers it, for `line` and `line_type`. */
interface ParsedLine {
  type: 'new' | 'old' | null;
  oldPos: number;
  newPos: number;
}

/** Internal: the added and removed lines of a diff, numbered as GitLab's parser does ({@link diffLines}). */
export function changedLines(patch: string): ParsedLine[] {
  return diffLines(patch).flatMap(({ type, oldPos, newPos }) => (type === 'new' || type === 'old' ? [{ type, oldPos, newPos }] : []));
}

/** Where a comment with `path` lands: the matching line's place, or nothing (a plain comment). */
async function diffLineOf(reader: ObjectReader, commit: CommitObject, path: string, line: number, lineType: 'new' | 'old') {
  for (const { change, patch } of await withPatches(reader, (await commitChanges(reader, commit)).filter((c) => c.newPath === path))) {
    const found = changedLines(patch.diff).find((l) => l.type === lineType && (l.type === 'new' ? l.newPos : l.oldPos) === line);
    if (found) {
      const code = `${createHash('sha1').update(change.newPath).digest('hex')}_${found.oldPos}_${found.newPos}`;
      return { path: change.newPath, line, lineType, lineCode: code };
    }
  }
  return undefined;
}

export interface CommitCommentInput {
  note: string;
  path?: string;
  line?: number;
  lineType?: 'new' | 'old';
}

/**
 * Internal: the `commented on` event of a note (GitLab's `EventCreateService#leave_note`), its
 * Note Hook event and the todos of the users it mentions (GitLab's `TodoService#new_note`, built
 * by the provider the root wires: `commit-note-todos.ts`), for the note's transaction: target
 * `DiffNote` for a diff note, `Note` otherwise; the note kept as data with `noteable_type: Commit`
 * and no `noteable_id` (a commit has none).
 */
async function noteEvent(subject: ProjectSubject, note: CommitNote, commit: CommitObject): Promise<CommitNoteExtras> {
  // A commit has no numeric id: the feed shows `noteable_id: null`, as GitLab does.
  const eventNote = { id: note.id, body: note.body, createdAt: note.createdAt, system: false, noteableId: null, noteableType: 'Commit' };
  const [{ put }, hook, todos] = await Promise.all([
    prepareEvent({
    projectId: note.projectId,
    authorId: note.authorId,
    actionName: 'commented on',
    targetId: note.id,
    targetType: note.noteType === 'DiffNote' ? 'DiffNote' : 'Note',
    targetTitle: commitTitle(commit.message),
    restrictedTo: null,
    note: eventNote,
    }),
    prepareHookEvent({ projectId: note.projectId, actorId: note.authorId, kind: 'commit_note', action: 'create', note, commit: commitAttributes({ id: note.commitSha, commit }) }),
    mentionTodoExtras({ subject, note }),
  ]);
  return { ...todos, event: put, hook: hook.put };
}

/** Internal: a note's write attempts: a conflict with an old note's id takes the next id, a few times at most. */
const ID_ATTEMPTS = 3;

/** Internal: a new first note of a discussion, written with its event. */
async function writeFirstNote(subject: ProjectSubject, user: User, commit: CommitObject, fields: Pick<CommitNote, 'body' | 'noteType'> & Partial<CommitNote>, individual: boolean) {
  for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
    const id = await nextCommitNoteId();
    const now = new Date().toISOString();
    const note: CommitNote = {
      ...fields,
      id,
      projectId: subject.project.id,
      commitSha: commit.id,
      rootId: id,
      discussionId: commitDiscussionId(subject.project.id, commit.id, id),
      authorId: user.id,
      createdAt: now,
      updatedAt: now,
    };
    const result = await insertFirstNote(note, individual, await noteEvent(subject, note, commit));
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result === 'created') return note;
  }
  throw new ConflictError('The note could not be saved; try again');
}

/**
 * `POST …/commits/:sha/comments`: a plain comment, or one on a diff line (`LegacyDiffNote`, a
 * discussion of its own). A blank note is GitLab's `400 Failed to save note {:note=>["can't be blank"]}`.
 */
export async function commentOnCommit(subject: ProjectSubject, user: User, reader: ObjectReader, commit: CommitObject, input: CommitCommentInput): Promise<CommitNote> {
  authorizeNote(subject);
  if (blank(input.note)) throw failedToSave("can't be blank");
  const onLine = input.path !== undefined && input.line !== undefined ? await diffLineOf(reader, commit, input.path, input.line, input.lineType ?? 'new') : undefined;
  return writeFirstNote(subject, user, commit, { body: input.note, noteType: onLine ? 'LegacyDiffNote' : null, ...onLine }, !onLine);
}

/**
 * Internal: the line code of a text position in the commit's diff: a line of a file's patch, or
 * an unchanged line outside its hunks (unfolded from the parent's file, up to its last line).
 */
async function commitLineCode(reader: ObjectReader, commit: CommitObject, input: PositionInput): Promise<string | undefined> {
  // GitLab's `diffs(paths: [old_path, new_path].compact)`: the first file either names.
  const paths = [input.old_path, input.new_path].filter((path): path is string => !!path);
  const change = (await commitChanges(reader, commit)).find((c) => paths.includes(c.oldPath) || paths.includes(c.newPath));
  if (!change) return undefined;
  const [{ patch }] = await withPatches(reader, [change]);
  const file = { old_path: change.oldPath, new_path: change.newPath, diff: patch.diff, new_file: change.newFile, deleted_file: change.deletedFile };
  const inDiff = lineCodeIn(file, input.old_line, input.new_line);
  if (inDiff || input.old_line === undefined || input.new_line === undefined || unfoldedNewLine(file.diff, input.old_line) !== input.new_line) return inDiff;
  const parent = commit.parents[0];
  const oldLineCount = parent ? await lineCountWith(reader, parent, change.oldPath) : undefined;
  return unfoldedLineCode(file, input.old_line, input.new_line, oldLineCount);
}

/**
 * A diff note's position checked against the commit as `DiffNote`'s validations do: its shas must
 * be the commit's diff refs (`commit_id does not match the diff refs`); a text position must name
 * a line of the commit's diff (`line_code`); a position must be complete.
 * @throws BadRequestError `400 Bad request - Note {…}` with GitLab's errors.
 */
export async function checkCommitPosition(reader: ObjectReader, commit: CommitObject, input: PositionInput) {
  const errors: Record<string, string[]> = {};
  const parent = commit.parents[0] ?? ZERO_OID;
  const matches = input.base_sha === parent && input.start_sha === parent && input.head_sha === commit.id;
  let lineCode: string | undefined;
  if (input.position_type === 'text') {
    lineCode = matches ? await commitLineCode(reader, commit, input) : undefined;
    if (!lineCode) errors.line_code = ["can't be blank", 'must be a valid line code'];
  }
  if (!matches) errors.commit_id = ['does not match the diff refs'];
  if (!isCompletePosition(input)) errors.position = ['is incomplete'];
  if (Object.keys(errors).length > 0) throw positionNoteErrors(errors);
  return { position: shownPosition(input), ...(lineCode ? { lineCode } : {}) };
}

/**
 * `POST …/commits/:sha/discussions`: a new discussion (its first note a `DiscussionNote`, or a
 * `DiffNote` on `position`, checked against the commit's diff).
 */
export async function startCommitDiscussion(subject: ProjectSubject, user: User, reader: ObjectReader, commit: CommitObject, body: string, position?: PositionInput): Promise<CommitNote> {
  authorizeNote(subject);
  if (blank(body)) throw invalidNote("can't be blank");
  if (!position) return writeFirstNote(subject, user, commit, { body, noteType: 'DiscussionNote' }, false);
  const checked = await checkCommitPosition(reader, commit, position);
  return writeFirstNote(subject, user, commit, { body, noteType: 'DiffNote', position: checked.position, ...(checked.lineCode ? { lineCode: checked.lineCode } : {}) }, false);
}

/** The discussion `discussionId` of a commit: `404 Discussion Not Found` otherwise. */
export async function findCommitDiscussionOrNotFound(subject: ProjectSubject, sha: string, discussionId: string): Promise<CommitDiscussionPointer> {
  const pointer = await getDiscussionPointer(subject.project.id, sha, discussionId);
  if (!pointer) throw new NotFoundError('Discussion');
  return pointer;
}

/** The note `noteId` of the discussion `discussionId` of a commit: `404 Discussion Not Found` / `404 Note Not Found` otherwise. */
export async function findCommitNoteOrNotFound(subject: ProjectSubject, sha: string, discussionId: string, noteId: number): Promise<CommitNote> {
  await findCommitDiscussionOrNotFound(subject, sha, discussionId);
  const note = await getCommitNote(subject.project.id, sha, noteId);
  if (!note || note.discussionId !== discussionId) throw new NotFoundError('Note');
  return note;
}

/** Internal: what a reply takes of its discussion (GitLab's `reply_attributes`): its type and line, or its position. */
function replyFields(first: CommitNote): Pick<CommitNote, 'noteType'> & Partial<CommitNote> {
  if (first.noteType === 'LegacyDiffNote') return { noteType: 'LegacyDiffNote', path: first.path, line: first.line, lineType: first.lineType, lineCode: first.lineCode };
  if (first.noteType === 'DiffNote') return { noteType: 'DiffNote', position: first.position, lineCode: first.lineCode };
  return { noteType: 'DiscussionNote' };
}

/** Internal: the discussion's first note still there (its first one may have been deleted). */
async function firstNoteOf(projectId: number, pointer: CommitDiscussionPointer): Promise<CommitNote | undefined> {
  return (await getCommitNote(projectId, pointer.commitSha, pointer.rootId)) ?? (await commitDiscussion(projectId, pointer))?.notes[0];
}

/**
 * `POST …/discussions/:discussion_id/notes`: a reply. A reply to a plain comment makes it a
 * discussion (GitLab converts the individual note); a reply on a diff line keeps its line.
 */
export async function replyToCommitDiscussion(subject: ProjectSubject, user: User, commit: CommitObject, discussionId: string, body: string): Promise<CommitNote> {
  authorizeNote(subject);
  if (blank(body)) throw invalidNote("can't be blank");
  for (let attempt = 0; attempt < 3; attempt++) {
    const pointer = await findCommitDiscussionOrNotFound(subject, commit.id, discussionId);
    const first = await firstNoteOf(subject.project.id, pointer);
    if (!first) throw new NotFoundError('Discussion');
    const id = await nextCommitNoteId();
    const now = new Date().toISOString();
    const note: CommitNote = {
      id,
      projectId: subject.project.id,
      commitSha: commit.id,
      rootId: pointer.rootId,
      discussionId,
      body,
      authorId: user.id,
      createdAt: now,
      updatedAt: now,
      ...replyFields(first),
    };
    const result = await insertReply(note, pointer, await noteEvent(subject, note, commit));
    if (result === 'created') return note;
    if (result === 'project_gone') throw new NotFoundError('Project');
  }
  throw new ConflictError('The discussion changed while replying; try again');
}

/** Internal: GitLab's `admin_note` on a note: its author, or whoever may administer notes in the project (maintainers and up, admins). */
const canAdminNote = (user: User, subject: ProjectSubject, note: CommitNote) => note.authorId === user.id || can(user, 'admin_note', subject);

/** Internal: the discussions API's `bad_request!("Failed to save note …")` of an edit. */
const failedToUpdate = (message: string) => new BadRequestError(`400 Bad request - Failed to save note {:note=>[${JSON.stringify(message)}]}`);

/**
 * `PUT …/discussions/:discussion_id/notes/:note_id`: a new body for a note (GitLab's
 * `update_note`: `admin_note`, 403 otherwise; a blank body is its 400 and writes nothing).
 */
export async function updateCommitNote(subject: ProjectSubject, user: User, note: CommitNote, body: string): Promise<CommitNote> {
  if (!canAdminNote(user, subject, note)) throw new ForbiddenError();
  if (blank(body)) throw failedToUpdate("can't be blank");
  const updated = await updateCommitNoteBody(note, body, new Date().toISOString());
  if (!updated) throw new NotFoundError('Note');
  return updated;
}

/** Resolving a commit note: commit discussions are not resolvable (GitLab's 400). */
export function resolveCommitNote(): never {
  throw new BadRequestError('400 Bad request - Note is not resolvable');
}

/**
 * `DELETE …/discussions/:discussion_id/notes/:note_id`: the note goes (GitLab's `admin_note`, 403
 * otherwise); the discussion's last note takes the discussion with it. A discussion changed
 * meanwhile (a reply, another deletion) is read again.
 */
export async function deleteCommitNote(subject: ProjectSubject, user: User, note: CommitNote): Promise<void> {
  if (!canAdminNote(user, subject, note)) throw new ForbiddenError();
  for (let attempt = 0; attempt < 5; attempt++) {
    const pointer = await findCommitDiscussionOrNotFound(subject, note.commitSha, note.discussionId);
    const discussion = await commitDiscussion(subject.project.id, pointer);
    const notes = discussion?.notes ?? [];
    if (!notes.some((n) => n.id === note.id)) throw new NotFoundError('Note');
    const result = await removeCommitNote(note, pointer, notes.length === 1);
    if (result === 'removed') return;
    if (result === 'note_gone') throw new NotFoundError('Note');
  }
  throw new ConflictError('The discussion changed while deleting; try again');
}
