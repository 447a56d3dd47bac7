/**
 * The todos a request gives users on a noteable (GitLab's `TodoService#reassigned_assignable` and
 * `#reassigned_reviewable`): `assigned` for a new assignee of an issue or a merge request,
 * `review_requested` for a merge request's new reviewer, as items of the write that makes the
 * request, so they exist exactly when it does. As in GitLab, requesting it of oneself counts too
 * (GitLab's "assigned to yourself"); a user who has a pending todo on the noteable gets none (one
 * pending todo per user and target, as for mentions), and a user asked twice in one write gets the
 * first request's (GitLab creates the assignment's todo before the review's).
 */
import { nextIds } from '../../platform/dynamo/counters';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { Noteable } from '../store/noteables';
import { mentionTodoPuts, usersWithPendingTodo, type Todo } from '../store/todos';

/** What a write asks of a user. */
export interface TodoRequest {
  userId: number;
  action: Extract<Todo['actionName'], 'assigned' | 'review_requested'>;
}

/**
 * The Puts of the todos of `requests` on `noteable`, asked by `authorId`. Reads, only when there
 * are requests: the pending keys (one BatchGetItem; none for a noteable the write creates, which
 * no todo can be pending on yet), then the ids from the sequence `todos`.
 * @example
 * const todos = await requestTodoItems(mergeRequestNoteable(mr), [{ userId: reviewerId, action: 'review_requested' }], user.id);
 */
export async function requestTodoItems(noteable: Noteable, requests: TodoRequest[], authorId: number, options: { created?: boolean } = {}): Promise<TransactItem[]> {
  const byUser = new Map<number, TodoRequest>();
  for (const request of requests) if (!byUser.has(request.userId)) byUser.set(request.userId, request);
  if (byUser.size === 0) return [];
  const target = { targetType: noteable.type, projectId: noteable.projectId, targetIid: noteable.iid };
  const pending = options.created ? new Set<number>() : await usersWithPendingTodo(target, [...byUser.keys()]);
  const fresh = [...byUser.values()].filter((request) => !pending.has(request.userId));
  if (fresh.length === 0) return [];
  const ids = await nextIds('todos', fresh.length);
  const createdAt = new Date().toISOString();
  return mentionTodoPuts(
    fresh.map((request, i): Todo => ({ id: ids[i], ...target, targetId: noteable.id, userId: request.userId, authorId, actionName: request.action, state: 'pending', createdAt })),
  );
}
