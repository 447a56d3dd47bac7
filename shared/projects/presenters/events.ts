import { type User, presentUserPublic } from '../../users';
import type { ContributionEvent, EventNote } from '../store/events';
import { getUsersById } from '../store/lookups';

/** The Event entity of the project and user feeds. */
export function presentEvent(event: ContributionEvent, author: User) {
  return {
    id: event.id,
    title: event.title,
    project_id: event.projectId,
    action_name: event.actionName,
    target_id: event.targetId,
    target_type: event.targetType,
    author_id: event.authorId,
    target_title: event.targetTitle,
    data: event.data,
    created_at: event.createdAt,
    ...(event.note ? { note: presentEventNote(event.note, author) } : {}),
    author: presentUserPublic(author),
    author_username: author.username,
  };
}

/**
 * The Note entity inside a `commented on` event. Events written before notes were stored as data
 * hold the presented form already (with `noteable_id`), and are returned as they are.
 */
function presentEventNote(note: EventNote | Record<string, unknown>, author: User) {
  if ('noteable_id' in note) return note;
  const { id, body, createdAt, system, noteableId, noteableType } = note as EventNote;
  return {
    id,
    body,
    attachment: null,
    author: presentUserPublic(author),
    created_at: createdAt,
    system,
    noteable_id: noteableId,
    noteable_type: noteableType,
  };
}

/** Events of any authors: loads the authors in one batch read; an event whose author is gone is left out. */
export async function presentEvents(events: ContributionEvent[]) {
  const authors = new Map((await getUsersById([...new Set(events.map((e) => e.authorId))])).map((author) => [author.id, author] as const));
  return events.flatMap((event) => {
    const author = authors.get(event.authorId);
    return author ? [presentEvent(event, author)] : [];
  });
}
