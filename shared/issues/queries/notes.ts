/**
 * Note reads: the notes of an issue the caller can read (GitLab's `NotePolicy#read_note` follows
 * the issue), one at a time or as a list the route pages.
 */
import { NotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import type { Issue } from '../store/issues';
import { issueCollections } from '../store/keys';
import { getNote, listIssueNotes, noteFromItem, type Note } from '../store/notes';

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
 * const notes = await issueNotes(issue, { orderBy: 'created_at', sort: 'desc' });
 * const page = await paginate(params, link, notes);
 */
export async function issueNotes(issue: Issue, order: NoteOrder): Promise<CollectionSource<Note> | Note[]> {
  const collection = issueCollections.issueNotes(issue.projectId, issue.iid);
  const ascending = order.sort === 'asc';
  if (order.orderBy === 'created_at') return { collection, ascending, select: noteFromItem };
  return (await listIssueNotes(issue.projectId, issue.iid))
    .sort((a, b) => (ascending ? 1 : -1) * (a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id));
}
