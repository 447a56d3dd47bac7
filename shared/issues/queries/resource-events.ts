/**
 * Reads of an issue's or merge request's resource events (GitLab's `ResourceLabelEventFinder`,
 * `ResourceStateEventFinder`, `ResourceMilestoneEventFinder`): it was found as the caller may read
 * it; its events of one kind, oldest first, or one by id.
 */
import { RecordNotFoundError } from '../../platform/http/errors';
import type { NoteableKeyed } from '../store/keys';
import { getResourceEvent, listResourceEvents, type ResourceEvent, type ResourceEventKind } from '../store/resource-events';

/** Its events of `kind`, oldest first. */
export function noteableResourceEvents(resource: NoteableKeyed, kind: ResourceEventKind): Promise<ResourceEvent[]> {
  return listResourceEvents(resource, kind);
}

/** One of its events; `404 Not found` (GitLab's `find`) when it has no such event of that kind. */
export async function findResourceEventOrNotFound(resource: NoteableKeyed, kind: ResourceEventKind, id: number): Promise<ResourceEvent> {
  const event = await getResourceEvent(resource, kind, id);
  if (!event) throw new RecordNotFoundError();
  return event;
}
