/**
 * Reads of a commit's notes: the comments API's list (by id, one Query page per page), the
 * discussions (a commit's notes grouped by discussion, in order of their first notes: GitLab's
 * discussions API reads the noteable's notes and pages the discussions in memory, as this does for
 * one commit, so its cost grows with the commit's notes, never with the project), and one discussion.
 */
import type { CollectionSource } from '../../platform/http/pagination';
import { commitNoteCollections } from '../store/keys';
import { commitNoteFromItem, commitNotes, type CommitDiscussionPointer, type CommitNote } from '../store/commit-notes';

/** A commit's discussion: its id, whether it is an individual note, its notes by id. */
export interface CommitDiscussion {
  id: string;
  individualNote: boolean;
  notes: CommitNote[];
}

/** The comments API's list: a commit's notes by id, as a collection the route pages. */
export function commitComments(projectId: number, sha: string): CollectionSource<CommitNote> {
  return { collection: commitNoteCollections.notes(projectId, sha), ascending: true, select: commitNoteFromItem };
}

/** Internal: a discussion of its notes (the first note's type says whether it is an individual note). */
const discussionOf = (notes: CommitNote[]): CommitDiscussion => ({ id: notes[0].discussionId, individualNote: notes[0].noteType === null, notes });

/** Every discussion of a commit, in order of their first notes (`only`: just that discussion's). */
export async function commitDiscussions(projectId: number, sha: string, only?: CommitDiscussionPointer): Promise<CommitDiscussion[]> {
  const byRoot = new Map<number, CommitNote[]>();
  for await (const note of commitNotes(projectId, sha)) {
    if (only && note.rootId !== only.rootId) continue;
    const notes = byRoot.get(note.rootId);
    if (notes) notes.push(note);
    else byRoot.set(note.rootId, [note]);
  }
  // Notes come by id, so discussions come in order of their first notes.
  return [...byRoot.values()].map(discussionOf);
}

/** One discussion, found by its pointer. */
export async function commitDiscussion(projectId: number, pointer: CommitDiscussionPointer): Promise<CommitDiscussion | undefined> {
  const [discussion] = await commitDiscussions(projectId, pointer.commitSha, pointer);
  return discussion;
}
