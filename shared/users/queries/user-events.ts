/**
 * A user's contribution events (`GET /users/:id/events`), limited to the projects the caller may
 * read. It reaches "up" into projects, so it is imported only by the users routes, never exported
 * by the feature's index.ts.
 */
import { filteredCollection, type StreamSource } from '../../platform/http/pagination';
import { canReadEvent, eventFromItem, projectCollections, readableProjects } from '../../projects';
import type { User } from '../store/users';

/** The author's events, newest first, that `viewer` (null: anonymous) may read. */
export function userEvents(author: User, viewer: User | null): StreamSource<ReturnType<typeof eventFromItem>> {
  // Only events of projects the caller may read (a private project's activity stays private).
  return filteredCollection({
    collection: projectCollections.userEvents(author.id),
    ascending: false,
    select: eventFromItem,
    keep: async (events) => {
      const readable = await readableProjects(viewer, events.map((event) => event.projectId));
      return events.map((event) => {
        const subject = readable.get(event.projectId);
        return subject !== undefined && canReadEvent(viewer, subject, event);
      });
    },
  });
}
