/**
 * GitLab's entities for commit notes: `CommitNote` (the comments API: `note`, `path`, `line`,
 * `line_type` of a comment on a diff line, else `null`, the author, `created_at`), `Note` with
 * `noteable_type: "Commit"` and the commit's sha in `commit_id` (`noteable_id` and
 * `noteable_iid` are `null`: a commit has neither; a `DiffNote` with its `position`), and `Discussion`. A page is presented
 * together: its authors are one BatchGetItem.
 */
import { getMany } from '../../platform/dynamo/batch';
import { presentUserPublic, userFromItem, userKeys, withGhost, type User } from '../../users';
import type { CommitDiscussion } from '../queries/commit-notes';
import type { CommitNote } from '../store/commit-notes';

/** Internal: the authors of some notes (a deleted one shows as the ghost user). */
async function authorsOf(notes: CommitNote[]): Promise<(id: number) => User | undefined> {
  const ids = [...new Set(notes.map((note) => note.authorId))];
  const items = await getMany(ids.map((id) => userKeys.user(id)), { consistent: false });
  const users = new Map<number, User>(items.map((item) => [Number(item.id), userFromItem(item)]));
  return withGhost((id) => users.get(id), ids);
}

/**
 * Internal: the line a diff note is on, as the comments API shows it (`diff_file.file_path`,
 * `diff_line.line` and `.type`): a `LegacyDiffNote`'s own, a text `DiffNote`'s from its position
 * (an added line `new`, a removed one `old`, an unchanged one no type).
 */
function lineOf(note: CommitNote): { path: string | null; line: number | null; line_type: string | null } {
  if (note.noteType === 'LegacyDiffNote') return { path: note.path ?? null, line: note.line ?? null, line_type: note.lineType ?? null };
  if (note.noteType !== 'DiffNote' || !note.position) return { path: null, line: null, line_type: null };
  const { new_path: newPath, old_path: oldPath, new_line: newLine, old_line: oldLine } = note.position as Record<string, string | number | null>;
  const type = newLine !== null && oldLine === null ? 'new' : oldLine !== null && newLine === null ? 'old' : null;
  return { path: String(newPath ?? oldPath ?? '') || null, line: (type === 'old' ? oldLine : newLine) as number | null, line_type: type };
}

/** `CommitNote` entities. */
export async function presentCommitComments(notes: CommitNote[]) {
  const author = await authorsOf(notes);
  return notes.map((note) => {
    const user = author(note.authorId);
    return {
      note: note.body,
      ...lineOf(note),
      author: user ? presentUserPublic(user) : null,
      created_at: note.createdAt,
    };
  });
}

/** Internal: `Note` entities, with the authors found. */
function presentNotesWith(notes: CommitNote[], author: (id: number) => User | undefined) {
  return notes.map((note) => {
    const user = author(note.authorId);
    return {
      id: note.id,
      type: note.noteType,
      body: note.body,
      attachment: null,
      author: user ? presentUserPublic(user) : null,
      created_at: note.createdAt,
      updated_at: note.updatedAt,
      system: false,
      noteable_id: null,
      noteable_type: 'Commit',
      commit_id: note.commitSha,
      ...(note.noteType === 'DiffNote' ? { position: note.position ?? null } : {}),
      project_id: note.projectId,
      noteable_iid: null,
      resolvable: false,
      confidential: false,
      internal: false,
      imported: false,
      imported_from: 'none',
      commands_changes: {},
    };
  });
}

/** `Note` entities. */
export async function presentCommitNotes(notes: CommitNote[]) {
  return presentNotesWith(notes, await authorsOf(notes));
}

/** One `Note` entity. */
export async function presentCommitNote(note: CommitNote) {
  return presentNotesWith([note], await authorsOf([note]))[0];
}

/** `Discussion` entities (`id`, `individual_note`, `notes`). */
export async function presentCommitDiscussions(discussions: CommitDiscussion[]) {
  const author = await authorsOf(discussions.flatMap((discussion) => discussion.notes));
  return discussions.map((discussion) => ({
    id: discussion.id,
    individual_note: discussion.individualNote,
    notes: presentNotesWith(discussion.notes, author),
  }));
}
