/**
 * Discussion reads: the discussions of a noteable the caller can read (the route found it), one
 * at a time or as a stream the route pages, oldest first.
 */
import { NotFoundError } from '../../platform/http/errors';
import type { StreamSource } from '../../platform/http/pagination';
import { discussionRootFromId, discussionStream, listDiscussionNotes, type Discussion } from '../store/discussions';
import type { NoteableKeyed } from '../store/keys';
import { discussionRootOf, getNote, type Note } from '../store/notes';

/** One discussion of a readable noteable; 404 `Discussion Not Found` when its id names none of its notes. */
export async function findDiscussionOrNotFound(noteable: NoteableKeyed, discussionId: string): Promise<Discussion> {
  const rootId = discussionRootFromId(discussionId);
  const notes = rootId === undefined ? [] : await listDiscussionNotes(noteable, rootId);
  if (notes.length === 0) throw new NotFoundError('Discussion');
  return { id: discussionId, notes };
}

/**
 * A note of a discussion of a readable noteable (consistent read of the note); 404 `Discussion
 * Not Found` for an id that names no discussion, `Note Not Found` when the note is not in it.
 */
export async function findDiscussionNoteOrNotFound(noteable: NoteableKeyed, discussionId: string, noteId: number): Promise<Note> {
  const rootId = discussionRootFromId(discussionId);
  if (rootId === undefined) throw new NotFoundError('Discussion');
  const note = await getNote(noteable, noteId);
  if (!note || discussionRootOf(note) !== rootId) throw new NotFoundError('Note');
  return note;
}

/**
 * The discussions of a noteable, oldest first, for `paginate`: a page reads the notes of its
 * discussions and one more (GSI1, `issueIndexKeys.noteThread`).
 */
export const noteableDiscussions = (noteable: NoteableKeyed): StreamSource<Discussion> => discussionStream(noteable);
