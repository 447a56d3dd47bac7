/**
 * Note reads: the notes of a noteable (an issue, a merge request) the caller can read (GitLab's
 * `NotePolicy#read_note` follows the noteable), one at a time or as a list the route pages.
 */
import { NotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { noteableKeys, type NoteableKeyed } from '../store/keys';
import { getNote, listNotes, noteFromItem, type Note } from '../store/notes';

/** A note of a readable noteable; 404 `Note Not Found` when absent (or another noteable's). */
export async function findNoteOrNotFound(noteable: NoteableKeyed, noteId: number): Promise<Note> {
  const note = await getNote(noteable, noteId);
  if (!note) throw new NotFoundError('Note');
  return note;
}

export type NoteOrder = { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };

/**
 * The notes of a noteable the caller can read. By `created_at`: one Query of the noteable's range
 * in id order (ids are taken just before the creation time is stamped), paged by the key
 * position. By `updated_at`: the noteable's notes are read whole and sorted in memory (bounded by
 * the noteable).
 *
 * @example
 * const notes = await noteableNotes(issueNoteable(issue), { orderBy: 'created_at', sort: 'desc' });
 * const page = await paginate(params, link, notes);
 */
export async function noteableNotes(noteable: NoteableKeyed, order: NoteOrder): Promise<CollectionSource<Note> | Note[]> {
  const collection = noteableKeys.notes(noteable);
  const ascending = order.sort === 'asc';
  if (order.orderBy === 'created_at') return { collection, ascending, select: noteFromItem };
  return (await listNotes(noteable)).sort((a, b) => (ascending ? 1 : -1) * (a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id));
}
