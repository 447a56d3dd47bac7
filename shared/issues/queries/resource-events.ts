/**
 * Reads of an issue's resource events (GitLab's `ResourceLabelEventFinder`, `ResourceStateEventFinder`,
 * `ResourceMilestoneEventFinder`): the issue was found as the caller may read it; its events of one
 * kind, oldest first, or one by id.
 */
import { RecordNotFoundError } from '../../platform/http/errors';
import type { Issue } from '../store/issues';
import { getResourceEvent, listResourceEvents, type ResourceEvent, type ResourceEventKind } from '../store/resource-events';

/** The issue's events of `kind`, oldest first. */
export function issueResourceEvents(issue: Issue, kind: ResourceEventKind): Promise<ResourceEvent[]> {
  return listResourceEvents(issue.projectId, issue.iid, kind);
}

/** One event of the issue; `404 Not found` (GitLab's `find`) when the issue has no such event of that kind. */
export async function findResourceEventOrNotFound(issue: Issue, kind: ResourceEventKind, id: number): Promise<ResourceEvent> {
  const event = await getResourceEvent(issue.projectId, issue.iid, kind, id);
  if (!event) throw new RecordNotFoundError();
  return event;
}
