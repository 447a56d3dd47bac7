/** A user's contribution events (`GET /users/:id/events`), limited to the projects the caller may read. */
import { filteredCollection, type StreamSource } from '../../platform/http/pagination';
import type { User } from '../../users';
import { canReadEvent } from '../policy';
import { eventFromItem } from '../store/events';
import { projectCollections } from '../store/keys';
import { readableProjects } from './project-lists';

/** The author's events, newest first (or oldest first), that `viewer` (null: anonymous) may read. */
export function userEvents(author: User, viewer: User | null, ascending = false): StreamSource<ReturnType<typeof eventFromItem>> {
  // Only events of projects the caller may read (a private project's activity stays private).
  return filteredCollection({
    collection: projectCollections.userEvents(author.id),
    ascending,
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
