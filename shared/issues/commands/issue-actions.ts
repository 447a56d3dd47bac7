/**
 * What a user does to an issue besides editing it: subscribe and unsubscribe, mark a todo, and
 * track time (GitLab's `Subscribable`, `TodoService#mark_todo`, `TimeTrackable`). The route has
 * found the issue as the caller may see it (404 otherwise, confidential rules included) and
 * authorized what needs more than reading it (`admin_issue` for time tracking).
 */
import type { ProjectSubject } from '../../auth';
import { ConflictError, NotModifiedError, ValidationError } from '../../platform/http/errors';
import type { User } from '../../users';
import { findIssueOrNotFound } from '../queries/issues';
import { setSubscription, subscriptionOf } from '../store/issue-subscriptions';
import { updateIssueTime, type TrackedIssue } from '../store/issue-time';
import { insertPendingTodo, type Todo } from '../store/todos';
import { isAuthorOrAssignee } from '../subscriptions';
import { formatEstimate, parseDuration } from '../time-tracking';
import { issueSideEffects } from './issue-effects';
import { AGAIN, retried } from './retry';

/** Subscribes `user` to the issue; 304 when already subscribed (explicitly, or as author or assignee). */
export async function subscribeToIssue(issue: TrackedIssue, user: User): Promise<TrackedIssue> {
  await changeSubscription(issue, user.id, true);
  return issue;
}

/** Unsubscribes `user` from the issue (an author or assignee too); 304 when not subscribed. */
export async function unsubscribeFromIssue(issue: TrackedIssue, user: User): Promise<TrackedIssue> {
  await changeSubscription(issue, user.id, false);
  return issue;
}

/** Lost races re-read the state, which usually settles it (304); this many give up (409). */
const SUBSCRIPTION_ATTEMPTS = 5;

/**
 * Internal: records `wanted` as the user's explicit choice, written only if the record is still
 * as read, so concurrent requests cannot both change it.
 * @throws NotModifiedError when the user's state already is `wanted`; ConflictError when the
 *   record kept changing (or the project is being deleted).
 */
async function changeSubscription(issue: TrackedIssue, userId: number, wanted: boolean): Promise<void> {
  for (let attempt = 1; attempt <= SUBSCRIPTION_ATTEMPTS; attempt++) {
    const explicit = await subscriptionOf(issue.projectId, issue.iid, userId);
    if ((explicit ?? isAuthorOrAssignee(issue, userId)) === wanted) throw new NotModifiedError();
    if (await setSubscription(issue.projectId, issue.iid, userId, wanted, explicit)) return;
  }
  throw new ConflictError('The subscription was changed by another request; try again');
}

/** Marks a todo for `user` on the issue; 304 when they already have a pending one for it. */
export async function markIssueTodo(issue: TrackedIssue, user: User): Promise<Todo> {
  const todo = await insertPendingTodo({
    projectId: issue.projectId,
    userId: user.id,
    authorId: user.id,
    actionName: 'marked',
    targetType: 'Issue',
    targetIid: issue.iid,
    targetId: issue.id,
  });
  if (!todo) throw new NotModifiedError();
  return todo;
}

/** A time-tracking request: a duration (estimate, spend) or a reset. */
export type TimeAction =
  | { kind: 'estimate'; duration: string }
  | { kind: 'reset_estimate' }
  | { kind: 'spend'; duration: string }
  | { kind: 'reset_spent' };

/** Internal: the change a request makes, in seconds. */
type TimeChange = { kind: 'estimate'; seconds: number } | { kind: 'spend'; seconds: number } | { kind: 'reset_spent' };

/** Racing time changes re-read the issue and apply again; past this many, 409. */
const TIME_RETRIES = { attempts: 8, conflict: 'The issue was modified by another request; try again' };

/**
 * Changes an issue's time tracking (the route authorized `admin_issue`: reporters and above).
 *
 * @throws ValidationError (400) for a duration that is not one, a negative estimate, or time
 *   subtracted beyond the total spent; NotFoundError when the issue went meanwhile.
 * @example
 * await trackIssueTime(subject, user, issue, { kind: 'spend', duration: '-30m' });
 */
export async function trackIssueTime(subject: ProjectSubject, user: User, issue: TrackedIssue, action: TimeAction): Promise<TrackedIssue> {
  const reread = () => findIssueOrNotFound(subject, user, issue.iid);
  return retried(issue, reread, async (current: TrackedIssue) => {
    const change = toChange(action);
    if (change === undefined) return current; // adding 0 changes nothing
    if (change.kind === 'spend' && (current.totalTimeSpent ?? 0) + change.seconds < 0) {
      throw new ValidationError({ base: ['Time to subtract exceeds the total time spent'] });
    }
    const next = withTimeChange(current, change, new Date().toISOString());
    const note = timeNote(current, next);
    if (note === undefined) return current; // resetting what is already 0
    // GitLab's time tracking is an issue update: a system note and an `update` hook event.
    const effects = await issueSideEffects(next, user, { notes: [note], hook: { action: 'update', previous: current } });
    const result = await updateIssueTime(current, next, effects);
    return result === 'issue_changed' ? AGAIN : result;
  }, TIME_RETRIES);
}

/** Internal: the issue as `change` leaves it (not yet written). */
function withTimeChange(issue: TrackedIssue, change: TimeChange, at: string): TrackedIssue {
  const spent = issue.totalTimeSpent ?? 0;
  const times =
    change.kind === 'estimate'
      ? { timeEstimate: change.seconds }
      : { totalTimeSpent: change.kind === 'reset_spent' ? 0 : spent + change.seconds };
  return { ...issue, ...times, updatedAt: at, version: issue.version + 1 };
}

/**
 * Internal: GitLab's time tracking system note (`SystemNotes::TimeTrackingService`), `undefined`
 * when nothing changes.
 */
function timeNote(before: TrackedIssue, after: TrackedIssue): string | undefined {
  const [estimate, newEstimate] = [before.timeEstimate ?? 0, after.timeEstimate ?? 0];
  if (newEstimate !== estimate) return newEstimate === 0 ? 'removed time estimate' : `changed time estimate to ${formatEstimate(newEstimate)}`;
  const [spent, newSpent] = [before.totalTimeSpent ?? 0, after.totalTimeSpent ?? 0];
  if (newSpent === spent) return undefined;
  if (newSpent === 0) return 'removed time spent';
  const delta = newSpent - spent;
  return `${delta > 0 ? 'added' : 'subtracted'} ${formatEstimate(Math.abs(delta))} of time spent`;
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
