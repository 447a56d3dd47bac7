/**
 * Resolving the caller's todos (GitLab's `TodoService#resolve_todo(s)`).
 */
import { isId } from '../../platform/dynamo/query';
import { RecordNotFoundError } from '../../platform/http/errors';
import type { User } from '../../users';
import type { Noteable } from '../store/noteables';
import { findUserTodo, markAllTodosDone, markTodoDone, pendingTodoOf } from '../store/todos';
import { readableTargets, type TodoTarget } from '../queries/todos';

/**
 * `POST /todos/:id/mark_as_done`: marks the caller's todo done and returns it; a todo already
 * done is returned as it is (GitLab resolves only pending todos and answers with the todo
 * either way). Two concurrent calls both answer with the done todo; it is moved once.
 *
 * A todo whose target the caller can no longer read (or whose type has no registered resolver) is
 * not found and stays as it is (the list leaves it out too, and GitLab deletes such todos);
 * `POST /todos/mark_as_done` still marks it.
 *
 * @throws RecordNotFoundError for an unknown id or another user's todo.
 */
export async function markTodoDoneById(user: User, id: number): Promise<TodoTarget> {
  const todo = isId(id) ? await findUserTodo(user.id, id) : undefined;
  const target = todo && (await readableTargets(user, [todo])).get(todo.id);
  if (!todo || !target) throw new RecordNotFoundError();
  if (todo.state === 'done') return target;
  const done = await markTodoDone(todo);
  if (!done) throw new RecordNotFoundError(); // its project is being deleted
  return { ...target, todo: done };
}

/**
 * Marks the user's pending todo on a noteable done, if they have one (GitLab's
 * `resolve_todos_for_target`, which follows an approval): one GetItem, then the transaction of
 * {@link markTodoDone}.
 */
export async function resolveTodoOn(noteable: Noteable, userId: number): Promise<void> {
  const todo = await pendingTodoOf({ targetType: noteable.type, projectId: noteable.projectId, targetIid: noteable.iid }, userId);
  if (todo) await markTodoDone(todo);
}

/**
 * `POST /todos/mark_as_done`: marks every pending todo of the caller done, readable target or
 * not (GitLab's `find_todos` there takes no filters), in bounded batches ({@link markAllTodosDone}).
 */
export async function markAllDone(user: User): Promise<void> {
  await markAllTodosDone(user.id);
}
