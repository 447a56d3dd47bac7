/**
 * GitLab's `Discussion` entity: `id` (40 hex), `individual_note` (its first note is an individual
 * note: not a `DiscussionNote`; system notes are individual) and its `notes` (the `Note` entity).
 * A page of discussions is presented together: its notes' authors are one BatchGetItem.
 */
import { discussionIdOf, type Discussion } from '../store/discussions';
import type { Note } from '../store/notes';
import { presentNotes } from './notes';

/**
 * @example
 * const body = await presentDiscussions(page.items);
 */
export async function presentDiscussions(discussions: Discussion[]) {
  const presented = await presentNotes(discussions.flatMap((discussion) => discussion.notes));
  let at = 0;
  return discussions.map((discussion) => {
    const notes = presented.slice(at, (at += discussion.notes.length));
    return { id: discussion.id, individual_note: discussion.notes[0].noteType !== 'DiscussionNote', notes };
  });
}

/** One discussion (single and create responses). */
export async function presentDiscussion(discussion: Discussion) {
  const [body] = await presentDiscussions([discussion]);
  return body;
}

/** The discussion a newly started note is the whole of. */
export const discussionOf = (note: Note): Discussion => ({ id: discussionIdOf(note), notes: [note] });
