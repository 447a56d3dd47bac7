/** Which feed events a caller may see, built from the project abilities. */
import { can, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';
import { PUSH_ACTION_NAMES } from './store/events';

/**
 * Whether a feed event may be shown: its project is readable, a push only to those who may read
 * the code (GitLab's `download_code`), a merge request's only to those who may read merge
 * requests, a wiki page's only to those who may read the wiki (GitLab's `Event#visible_to_user?`:
 * `read_wiki`), and a confidential issue's event only to those who may read the issue.
 */
export function canReadEvent(
  user: Caller | null,
  subject: ProjectSubject,
  event: { restrictedTo?: number[] | null; actionName?: string; targetType?: string | null; note?: { noteableType: string } | null },
): boolean {
  if (!can(user, 'read_project', subject)) return false;
  if (PUSH_ACTION_NAMES.has(event.actionName ?? '') && !can(user, 'download_code', subject)) return false;
  // A merge request's events (and comments on it) follow who may read merge requests.
  if (event.targetType === 'MergeRequest' || event.note?.noteableType === 'MergeRequest') return can(user, 'read_merge_request', subject);
  if (event.targetType === 'WikiPage::Meta') return can(user, 'read_wiki', subject);
  if (!event.restrictedTo) return true;
  return (user !== null && event.restrictedTo.includes(user.id)) || can(user, 'read_confidential_issues', subject);
}
