/**
 * What a user does to an issue besides editing it: subscribe and unsubscribe, mark a todo, and
 * track time, as for any noteable (`noteable-actions.ts`), with the issue's answers (304 when
 * nothing changes) and its side of the write (the Issue Hook `update` of a time change). The route
 * has found the issue as the caller may see it (404 otherwise, confidential rules included) and
 * authorized what needs more than reading it (`admin_issue` for time tracking).
 */
import type { ProjectSubject } from '../../auth';
import { NotModifiedError } from '../../platform/http/errors';
import type { User } from '../../users';
import { findIssueOrNotFound } from '../queries/issues';
import type { TrackedIssue } from '../store/issue-time';
import { issueNoteable } from '../store/issues';
import type { Todo } from '../store/todos';
import { issueSideEffects } from './issue-effects';
import { markTodo, subscribe, trackTime, unsubscribe, type TimeAction } from './noteable-actions';

export type { TimeAction } from './noteable-actions';

/** Subscribes `user` to the issue; 304 when already subscribed (explicitly, or as author or assignee). */
export async function subscribeToIssue(issue: TrackedIssue, user: User): Promise<TrackedIssue> {
  if (!(await subscribe(issueNoteable(issue), user))) throw new NotModifiedError();
  return issue;
}

/** Unsubscribes `user` from the issue (an author or assignee too); 304 when not subscribed. */
export async function unsubscribeFromIssue(issue: TrackedIssue, user: User): Promise<TrackedIssue> {
  if (!(await unsubscribe(issueNoteable(issue), user))) throw new NotModifiedError();
  return issue;
}

/** Marks a todo for `user` on the issue; 304 when they already have a pending one for it. */
export async function markIssueTodo(issue: TrackedIssue, user: User): Promise<Todo> {
  const todo = await markTodo(issueNoteable(issue), user);
  if (!todo) throw new NotModifiedError();
  return todo;
}

/**
 * Changes an issue's time tracking (the route authorized `admin_issue`: reporters and above).
 * GitLab's time tracking is an issue update: a system note and an `update` hook event.
 *
 * @throws ValidationError (400) for a duration that is not one, a negative estimate, or time
 *   subtracted beyond the total spent; NotFoundError when the issue went meanwhile.
 * @example
 * await trackIssueTime(subject, user, issue, { kind: 'spend', duration: '-30m' });
 */
export async function trackIssueTime(subject: ProjectSubject, user: User, issue: TrackedIssue, action: TimeAction): Promise<TrackedIssue> {
  return trackTime(issue, user, action, {
    noteable: issueNoteable,
    reread: () => findIssueOrNotFound(subject, user, issue.iid),
    hook: async (previous, next) => (await issueSideEffects(next, user, { hook: { action: 'update', previous } })).hook,
  });
}
