/**
 * GitLab's entities for commit notes: `CommitNote` (the comments API: `note`, `path`, `line`,
 * `line_type` of a comment on a diff line, else `null`, the author, `created_at`), `Note` with
 * `noteable_type: "Commit"` and the commit's sha in `commit_id` (`noteable_id` and
 * `noteable_iid` are `null`: a commit has neither), and `Discussion`. A page is presented
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

/** `CommitNote` entities. */
export async function presentCommitComments(notes: CommitNote[]) {
  const author = await authorsOf(notes);
  return notes.map((note) => {
    const user = author(note.authorId);
    const onLine = note.noteType === 'LegacyDiffNote';
    return {
      note: note.body,
      path: onLine ? (note.path ?? null) : null,
      line: onLine ? (note.line ?? null) : null,
      line_type: onLine ? (note.lineType ?? null) : null,
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
