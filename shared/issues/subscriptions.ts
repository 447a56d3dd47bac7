/**
 * Whether a user is subscribed to an issue, as GitLab's `Subscribable#subscribed?`: their
 * explicit record decides when there is one; otherwise participants are subscribed. The author
 * and assignees are read off the issue; commenters get a record when they comment
 * (`recordParticipant`), since finding them otherwise would mean reading every note.
 */
import { subscriptionOf } from './store/issue-subscriptions';
import type { Issue } from './store/issues';

/** What deciding a subscription needs of an issue. */
export type SubscribableIssue = Pick<Issue, 'projectId' | 'iid' | 'authorId' | 'assigneeIds'>;

/** Whether the user participates in the issue by its own fields (author or assignee). */
export const isAuthorOrAssignee = (issue: SubscribableIssue, userId: number): boolean =>
  issue.authorId === userId || issue.assigneeIds.includes(userId);

/**
 * Whether `userId` is subscribed: the explicit record, else author or assignee.
 * @example
 * const subscribed = await isSubscribedTo(issue, user.id);
 */
export async function isSubscribedTo(issue: SubscribableIssue, userId: number): Promise<boolean> {
  return (await subscriptionOf(issue.projectId, issue.iid, userId)) ?? isAuthorOrAssignee(issue, userId);
}
