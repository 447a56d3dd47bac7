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
 * comment on the commit, as in GitLab.
 */
import { createHash } from 'node:crypto';
import type { ProjectSubject } from '../../auth';
import { ApiError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import type { User } from '../../users';
import { commitChanges } from '../queries/commits';
import { withPatches } from '../queries/diff';
import type { CommitObject, ObjectReader } from '../queries/objects';
import {
  commitDiscussionId,
  getCommitNote,
  getDiscussionPointer,
  insertFirstNote,
  insertReply,
  nextCommitNoteId,
  type CommitDiscussionPointer,
  type CommitNote,
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

/** Internal: the added and removed lines of a diff (`Gitlab::Diff::Parser`), with their positions. */
export function changedLines(patch: string): ParsedLine[] {
  const lines: ParsedLine[] = [];
  let oldPos = 0;
  let newPos = 0;
  for (const row of patch.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(row);
    if (header) {
      oldPos = Number(header[1]);
      newPos = Number(header[2]);
    } else if (row.startsWith('+')) lines.push({ type: 'new', oldPos, newPos: newPos++ });
    else if (row.startsWith('-')) lines.push({ type: 'old', oldPos: oldPos++, newPos });
    else if (row.startsWith(' ')) {
      oldPos++;
      newPos++;
    }
  }
  return lines;
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

/** Internal: a new first note of a discussion, written. */
async function writeFirstNote(subject: ProjectSubject, user: User, commit: CommitObject, fields: Pick<CommitNote, 'body' | 'noteType'> & Partial<CommitNote>, individual: boolean) {
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
  if ((await insertFirstNote(note, individual)) === 'project_gone') throw new NotFoundError('Project');
  return note;
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

/** `POST …/commits/:sha/discussions`: a new discussion (its first note a `DiscussionNote`). */
export async function startCommitDiscussion(subject: ProjectSubject, user: User, commit: CommitObject, body: string): Promise<CommitNote> {
  authorizeNote(subject);
  if (blank(body)) throw invalidNote("can't be blank");
  return writeFirstNote(subject, user, commit, { body, noteType: 'DiscussionNote' }, false);
}

/** The discussion `discussionId` of a commit: `404 Discussion Not Found` otherwise. */
export async function findCommitDiscussionOrNotFound(subject: ProjectSubject, sha: string, discussionId: string): Promise<CommitDiscussionPointer> {
  const pointer = await getDiscussionPointer(subject.project.id, sha, discussionId);
  if (!pointer) throw new NotFoundError('Discussion');
  return pointer;
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
    const root = await getCommitNote(subject.project.id, commit.id, pointer.rootId);
    if (!root) throw new NotFoundError('Discussion');
    const id = await nextCommitNoteId();
    const now = new Date().toISOString();
    const onLine = root.noteType === 'LegacyDiffNote' ? { path: root.path, line: root.line, lineType: root.lineType, lineCode: root.lineCode } : {};
    const note: CommitNote = {
      id,
      projectId: subject.project.id,
      commitSha: commit.id,
      rootId: pointer.rootId,
      discussionId,
      noteType: root.noteType === 'LegacyDiffNote' ? 'LegacyDiffNote' : 'DiscussionNote',
      body,
      authorId: user.id,
      createdAt: now,
      updatedAt: now,
      ...onLine,
    };
    const result = await insertReply(note, pointer);
    if (result === 'created') return note;
    if (result === 'project_gone') throw new NotFoundError('Project');
  }
  throw new ConflictError('The discussion changed while replying; try again');
}
