/**
 * Whether a user is subscribed to a noteable (an issue, a merge request), as GitLab's
 * `Subscribable#subscribed?`: their explicit record decides when there is one; otherwise
 * participants are subscribed. The author, assignees and reviewers are read off the noteable; commenters get
 * a record when they comment (`participantUpsert`, in the note's transaction), since finding them otherwise would mean
 * reading every note.
 */
import { subscriptionOf } from './store/issue-subscriptions';
import type { Noteable } from './store/noteables';

/** What deciding a subscription needs of a noteable. */
export type Subscribable = Pick<Noteable, 'type' | 'projectId' | 'iid' | 'authorId' | 'assigneeIds' | 'reviewerIds'>;

/** Whether the user participates in the noteable by its own fields (author, assignee or reviewer). */
export const isAuthorOrAssignee = (noteable: Pick<Subscribable, 'authorId' | 'assigneeIds' | 'reviewerIds'>, userId: number): boolean =>
  noteable.authorId === userId || noteable.assigneeIds.includes(userId) || (noteable.reviewerIds ?? []).includes(userId);

/**
 * Whether `userId` is subscribed: the explicit record, else author or assignee.
 * @example
 * const subscribed = await isSubscribedTo(issueNoteable(issue), user.id);
 */
export async function isSubscribedTo(noteable: Subscribable, userId: number): Promise<boolean> {
  return (await subscriptionOf(noteable, userId)) ?? isAuthorOrAssignee(noteable, userId);
}
