/** Which feed events a caller may see, built from the project abilities. */
import { can, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';

/** Whether a feed event may be shown: its project is readable, and a confidential issue's event only to those who may read the issue. */
export function canReadEvent(user: Caller | null, subject: ProjectSubject, event: { restrictedTo?: number[] | null }): boolean {
  if (!can(user, 'read_project', subject)) return false;
  if (!event.restrictedTo) return true;
  return (user !== null && event.restrictedTo.includes(user.id)) || can(user, 'read_confidential_issues', subject);
}
