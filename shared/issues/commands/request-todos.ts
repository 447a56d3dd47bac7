/**
 * The todos a request gives users on a noteable (GitLab's `TodoService#reassigned_assignable` and
 * `#reassigned_reviewable`): `assigned` for a new assignee of an issue or a merge request,
 * `review_requested` for a merge request's new reviewer, as items of the write that makes the
 * request, so they exist exactly when it does. As in GitLab, requesting it of oneself counts too
 * (GitLab's "assigned to yourself"); a user who has a pending todo on the noteable gets none (one
 * pending todo per user and target, as for mentions), and a user asked twice in one write gets the
 * first request's (GitLab creates the assignment's todo before the review's).
 */
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { Noteable } from '../store/noteables';
import { newTodoPuts, type Todo } from '../store/todos';

/** What a write asks of a user. */
export interface TodoRequest {
  userId: number;
  action: Extract<Todo['actionName'], 'assigned' | 'review_requested'>;
}

/**
 * The Puts of the todos of `requests` on `noteable`, asked by `authorId` ({@link newTodoPuts}:
 * reads only when there are requests, and no pending keys for a noteable the write creates).
 * @example
 * const todos = await requestTodoItems(mergeRequestNoteable(mr), [{ userId: reviewerId, action: 'review_requested' }], user.id);
 */
export function requestTodoItems(noteable: Noteable, requests: TodoRequest[], authorId: number, options: { created?: boolean } = {}): Promise<TransactItem[]> {
  const target = { targetType: noteable.type, projectId: noteable.projectId, targetIid: noteable.iid, targetId: noteable.id };
  const todos = requests.map((request) => ({ userId: request.userId, actionName: request.action }));
  return newTodoPuts(target, todos, { authorId, createdAt: new Date().toISOString() }, options);
}
