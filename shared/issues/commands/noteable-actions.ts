/**
 * What a user does to a noteable (an issue, a merge request) besides editing it: subscribe and
 * unsubscribe, mark a todo, and track time (GitLab's `Subscribable`, `TodoService#mark_todo`,
 * `TimeTrackable`). The route has found the noteable as the caller may see it (404 otherwise) and
 * authorized what needs more than reading it (`admin_issue` / `admin_merge_request` for time
 * tracking). The noteable's own item is the owner's: it is described by a {@link Noteable}.
 */
import { ConflictError, ValidationError } from '../../platform/http/errors';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { User } from '../../users';
import { setSubscription, subscriptionOf } from '../store/issue-subscriptions';
import { updateTimeTracking, type TimeTrackedRecord } from '../store/issue-time';
import type { Noteable, NoteableType } from '../store/noteables';
import { insertPendingTodo, type Todo } from '../store/todos';
import { isAuthorOrAssignee, type Subscribable } from '../subscriptions';
import { formatEstimate, parseDuration } from '../time-tracking';
import { systemNotePuts } from './note-effects';
import { AGAIN, retried } from './retry';

/** GitLab's name of a noteable in messages. */
const NAME: Record<NoteableType, string> = { Issue: 'issue', MergeRequest: 'merge request' };

/**
 * Subscribes `user` to the noteable.
 * @returns false when they already were (explicitly, or as author or assignee): GitLab answers 304.
 * @throws ConflictError when the record kept changing under concurrent requests (or the project is going).
 */
export async function subscribe(noteable: Subscribable, user: Pick<User, 'id'>): Promise<boolean> {
  return changeSubscription(noteable, user.id, true);
}

/**
 * Unsubscribes `user` from the noteable (an author or assignee too).
 * @returns false when they were not subscribed: GitLab answers 304.
 */
export async function unsubscribe(noteable: Subscribable, user: Pick<User, 'id'>): Promise<boolean> {
  return changeSubscription(noteable, user.id, false);
}

/** Lost races re-read the state, which usually settles it (304); this many give up (409). */
const SUBSCRIPTION_ATTEMPTS = 5;

/**
 * Internal: records `wanted` as the user's explicit choice, written only if the record is still
 * as read, so concurrent requests cannot both change it.
 * @returns false when the user's state already is `wanted`.
 * @throws ConflictError when the record kept changing (or the project is being deleted).
 */
async function changeSubscription(noteable: Subscribable, userId: number, wanted: boolean): Promise<boolean> {
  for (let attempt = 1; attempt <= SUBSCRIPTION_ATTEMPTS; attempt++) {
    const explicit = await subscriptionOf(noteable, userId);
    if ((explicit ?? isAuthorOrAssignee(noteable, userId)) === wanted) return false;
    if (await setSubscription(noteable, userId, wanted, explicit)) return true;
  }
  throw new ConflictError('The subscription was changed by another request; try again');
}

/**
 * Marks a todo for `user` on the noteable (`target_type` its type).
 * @returns the todo, or undefined when they already have a pending one for it (GitLab answers 304).
 */
export async function markTodo(noteable: Pick<Noteable, 'type' | 'projectId' | 'iid' | 'id'>, user: Pick<User, 'id'>): Promise<Todo | undefined> {
  return insertPendingTodo({
    projectId: noteable.projectId,
    userId: user.id,
    authorId: user.id,
    actionName: 'marked',
    targetType: noteable.type,
    targetIid: noteable.iid,
    targetId: noteable.id,
  });
}

/** A time-tracking request: a duration (estimate, spend) or a reset. */
export type TimeAction =
  | { kind: 'estimate'; duration: string }
  | { kind: 'reset_estimate' }
  | { kind: 'spend'; duration: string }
  | { kind: 'reset_spent' };

/** Internal: the change a request makes, in seconds. */
type TimeChange = { kind: 'estimate'; seconds: number } | { kind: 'spend'; seconds: number } | { kind: 'reset_spent' };

/** Racing time changes re-read the record and apply again; past this many, 409. */
const TIME_ATTEMPTS = 8;

/** How {@link trackTime} reaches the noteable and its owner's side of the write. */
export interface TimeTrackingOptions<T extends TimeTrackedRecord> {
  /** The record as a noteable (its item's key, for the write and the system note). */
  noteable: (record: T) => Noteable;
  /** A fresh read of the record after a lost race (throwing its 404 when it went). */
  reread: () => Promise<T>;
  /**
   * The owner's webhook event of the change (GitLab's time tracking is an update: Issue Hook or
   * Merge Request Hook `update`), from the record as read and as it will be written.
   */
  hook?: (previous: T, next: T) => Promise<TransactItem | undefined>;
}

/**
 * Changes a noteable's time tracking on its item (the route authorized it): the totals, `version`
 * + 1 and `updated_at`, with GitLab's time tracking system note (`SystemNotes::TimeTrackingService`)
 * and the owner's webhook event in the same transaction, re-reading and applying again when
 * another write won the race.
 *
 * @returns the record as written (as read when nothing changes: adding 0, resetting what is 0).
 * @throws ValidationError (400) for a duration that is not one, a negative estimate, or time
 *   subtracted beyond the total spent; ConflictError (409) after {@link TIME_ATTEMPTS} lost races.
 * @example
 * const written = await trackTime(mr, user, { kind: 'spend', duration: '-30m' }, { noteable: mergeRequestNoteable, reread, hook });
 */
export async function trackTime<T extends TimeTrackedRecord>(record: T, user: User, action: TimeAction, options: TimeTrackingOptions<T>): Promise<T> {
  const conflict = `The ${NAME[options.noteable(record).type]} was modified by another request; try again`;
  return retried(record, options.reread, async (current: T) => {
    const change = toChange(action);
    if (change === undefined) return current; // adding 0 changes nothing
    if (change.kind === 'spend' && (current.totalTimeSpent ?? 0) + change.seconds < 0) {
      throw new ValidationError({ base: ['Time to subtract exceeds the total time spent'] });
    }
    const next = withTimeChange(current, change, new Date().toISOString());
    const note = timeNote(current, next);
    if (note === undefined) return current; // resetting what is already 0
    const noteable = options.noteable(current);
    const hook = await options.hook?.(current, next);
    const notes = await systemNotePuts(noteable, user, [note]);
    const result = await updateTimeTracking(noteable.item, current, next, { hook, notes });
    return result === 'changed' ? AGAIN : result;
  }, { attempts: TIME_ATTEMPTS, conflict });
}

/** Internal: the record as `change` leaves it (not yet written). */
function withTimeChange<T extends TimeTrackedRecord>(record: T, change: TimeChange, at: string): T {
  const spent = record.totalTimeSpent ?? 0;
  const times =
    change.kind === 'estimate'
      ? { timeEstimate: change.seconds }
      : { totalTimeSpent: change.kind === 'reset_spent' ? 0 : spent + change.seconds };
  return { ...record, ...times, updatedAt: at, version: record.version + 1 };
}

/**
 * Internal: GitLab's time tracking system note (`SystemNotes::TimeTrackingService`), `undefined`
 * when nothing changes.
 */
function timeNote(before: TimeTrackedRecord, after: TimeTrackedRecord): string | undefined {
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
