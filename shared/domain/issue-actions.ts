/**
 * What a user does to an issue besides editing it: subscribe and unsubscribe, mark a todo, and
 * track time (GitLab's `Subscribable`, `TodoService#mark_todo`, `TimeTrackable`). Every action
 * first finds the issue as the caller may see it (404 otherwise, confidential rules included).
 */
import { can, type ProjectSubject } from '../auth/policy';
import { deleteSubscription, putSubscription } from '../data/issue-subscriptions';
import { updateIssueTime, type TimeChange, type TrackedIssue } from '../data/issue-time';
import { insertPendingTodo, type Todo } from '../data/todos';
import type { User } from '../data/users';
import { ForbiddenError, NotFoundError, NotModifiedError, ValidationError } from '../http/errors';
import { findIssueOrNotFound } from './issues';
import { parseDuration } from './time-tracking';

/** Subscribes `user` to the issue; 304 when already subscribed. */
export async function subscribeToIssue(subject: ProjectSubject, user: User, iid: number): Promise<TrackedIssue> {
  const issue = await findIssueOrNotFound(subject, user, iid);
  if (!(await putSubscription(subject.project.id, issue.iid, user.id))) throw new NotModifiedError();
  return issue;
}

/** Unsubscribes `user` from the issue; 304 when not subscribed. */
export async function unsubscribeFromIssue(subject: ProjectSubject, user: User, iid: number): Promise<TrackedIssue> {
  const issue = await findIssueOrNotFound(subject, user, iid);
  if (!(await deleteSubscription(subject.project.id, issue.iid, user.id))) throw new NotModifiedError();
  return issue;
}

/** Marks a todo for `user` on the issue; 304 when they already have a pending one for it. */
export async function markIssueTodo(subject: ProjectSubject, user: User, iid: number): Promise<{ todo: Todo; issue: TrackedIssue }> {
  const issue = await findIssueOrNotFound(subject, user, iid);
  const todo = await insertPendingTodo({
    projectId: subject.project.id,
    userId: user.id,
    authorId: user.id,
    actionName: 'marked',
    targetType: 'Issue',
    targetIid: issue.iid,
    targetId: issue.id,
  });
  if (!todo) throw new NotModifiedError();
  return { todo, issue };
}

/** The issue with its time stats, for `GET .../time_stats` (read access is enough). */
export async function issueTimeStats(subject: ProjectSubject, user: User, iid: number): Promise<TrackedIssue> {
  return findIssueOrNotFound(subject, user, iid);
}

/** A time-tracking request: a duration (estimate, spend) or a reset. */
export type TimeAction =
  | { kind: 'estimate'; duration: string }
  | { kind: 'reset_estimate' }
  | { kind: 'spend'; duration: string }
  | { kind: 'reset_spent' };

/**
 * Changes an issue's time tracking (reporters and above: GitLab's `admin_issue`).
 *
 * @throws NotFoundError when the caller cannot read the issue; ForbiddenError without
 *   `admin_issue`; ValidationError (400) for a duration that is not one, a negative estimate,
 *   or time subtracted beyond the total spent.
 * @example
 * await trackIssueTime(subject, user, 3, { kind: 'spend', duration: '-30m' });
 */
export async function trackIssueTime(subject: ProjectSubject, user: User, iid: number, action: TimeAction): Promise<TrackedIssue> {
  const issue = await findIssueOrNotFound(subject, user, iid);
  if (!can(user, 'admin_issue', subject)) throw new ForbiddenError();
  const change = toChange(action);
  if (change === undefined) return issue; // adding 0 changes nothing
  const result = await updateIssueTime(subject.project.id, issue.iid, change);
  if (result === 'issue_gone') throw new NotFoundError('Issue');
  if (result === 'exceeds_spent') throw new ValidationError({ base: ['Time to subtract exceeds the total time spent'] });
  return result;
}

/** Internal: the stored change a request makes; undefined for none (spending 0). */
function toChange(action: TimeAction): TimeChange | undefined {
  switch (action.kind) {
    case 'reset_estimate':
      return { kind: 'estimate', seconds: 0 };
    case 'reset_spent':
      return { kind: 'reset_spent' };
    case 'estimate': {
      const seconds = parseDuration(action.duration);
      if (seconds === null || seconds < 0) throw new ValidationError({ time_estimate: ['has an invalid format'] });
      return { kind: 'estimate', seconds };
    }
    case 'spend': {
      const seconds = parseDuration(action.duration);
      if (seconds === null) throw new ValidationError({ time_spent: ['has an invalid format'] });
      return seconds === 0 ? undefined : { kind: 'spend', seconds };
    }
  }
}
