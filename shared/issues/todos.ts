/**
 * The caller's todo list (GitLab's `TodosFinder`, `Todos::AllowedTargetFilterService` and
 * `TodoService#resolve_todo(s)`). Only `marked` todos on issues exist here; GitLab's other
 * actions and target types are accepted as filters and match nothing.
 *
 * A todo is shown only while its user can read its issue: the project must still exist and be
 * readable, the issue not deleted, and a confidential issue readable to them. GitLab eventually
 * deletes such todos (`Todos::Destroy::*`); here they are left out when read.
 */
import type { ProjectSubject } from '../auth';
import { canReadIssue } from './policy';
import { byKey, getMany } from '../platform/dynamo/batch';
import type { TrackedIssue } from './store/issue-time';
import { issueFromItem } from './store/issues';
import { issueCollections, issueKeys } from './store/keys';
import { getNamespace } from '../groups';
import { isId } from '../platform/dynamo/query';
import { findUserTodo, markAllTodosDone, markTodoDone, todoFromItem, type Todo, type TodoState } from './store/todos';
import { getUser, type User } from '../users';
import { RecordNotFoundError } from '../platform/http/errors';
import { filteredCollection, type StreamSource } from '../platform/http/pagination';
import { projectSubjects } from './issues';

/** GitLab's `Todo::ACTION_NAMES` (the `action` filter's allowed values). */
export const TODO_ACTIONS = [
  'assigned',
  'review_requested',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
  'merge_train_removed',
  'member_access_requested',
  'review_submitted',
  'okr_checkin_requested',
  'added_approver',
  'ssh_key_expired',
  'ssh_key_expiring_soon',
] as const;

/** The target types GitLab's API documents for the `type` filter. */
export const TODO_TYPES = ['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert'] as const;

export const TODO_STATES = ['pending', 'done'] as const satisfies readonly TodoState[];

export interface TodoFilters {
  state: TodoState;
  action?: (typeof TODO_ACTIONS)[number];
  /** `0` is GitLab's "no author", which no todo here has. */
  authorId?: number;
  projectId?: number;
  /** Todos of the projects of this group and of its subgroups. */
  groupId?: number;
  type?: (typeof TODO_TYPES)[number];
}

/** A todo with its issue and project as the caller sees them (what the presenter needs). */
export interface TodoTarget {
  todo: Todo;
  issue: TrackedIssue;
  subject: ProjectSubject;
}

/**
 * Internal: the targets of the todos the caller may still read, by todo id: one batch read of the
 * projects (with their namespaces and the caller's memberships, {@link projectSubjects}) and one
 * of the issues, whatever the number of todos.
 */
async function readableTargets(user: User, todos: Todo[]): Promise<Map<number, TodoTarget>> {
  const [subjects, issueItems] = await Promise.all([
    projectSubjects(user, [...new Set(todos.map((todo) => todo.projectId))]),
    getMany(todos.map((todo) => issueKeys.issue(todo.projectId, todo.targetIid))),
  ]);
  const issueItem = byKey(issueItems);
  const targets = new Map<number, TodoTarget>();
  for (const todo of todos) {
    const subject = subjects.get(todo.projectId);
    const item = issueItem(issueKeys.issue(todo.projectId, todo.targetIid));
    const issue = item && (issueFromItem(item) as TrackedIssue);
    if (subject && issue && !issue.deletedAt && canReadIssue(user, subject, issue)) targets.set(todo.id, { todo, issue, subject });
  }
  return targets;
}

/** Internal: a project is in the group when its namespace is the group or one of its descendants. */
const inGroup = (subject: ProjectSubject, groupId: number) =>
  subject.namespace.id === groupId || subject.namespace.ancestorIds.includes(groupId);

const nothing: StreamSource<TodoTarget> = { async *read() {} };

/**
 * `GET /todos`: the caller's todos of `filters.state`, newest first (GitLab orders by id desc),
 * from one GSI1 Query on that state's partition. `action`, `type`, `author_id` and `project_id`
 * are checked on each item as read; `group_id` and readability a chunk at a time, with one batch
 * read of the chunk's projects and issues. `group_id` compares the project's namespace ancestry
 * (stored on the namespace), so no group tree is walked and no group is too big.
 *
 * @throws RecordNotFoundError for an unknown `group_id` or `author_id` (GitLab's `find`).
 * @example
 * const page = await paginate(params, link, await todoStream(user, { state: 'pending' }));
 */
export async function todoStream(user: User, filters: TodoFilters): Promise<StreamSource<TodoTarget>> {
  const { groupId, authorId } = filters;
  const [group, author] = await Promise.all([
    groupId === undefined ? undefined : getNamespace(groupId),
    authorId === undefined || authorId === 0 ? undefined : getUser(authorId),
  ]);
  if (groupId !== undefined && group?.kind !== 'group') throw new RecordNotFoundError();
  if (authorId !== undefined && authorId !== 0 && !author) throw new RecordNotFoundError();
  if ((filters.action && filters.action !== 'marked') || (filters.type && filters.type !== 'Issue')) return nothing;

  const matches = (todo: Todo) =>
    (authorId === undefined || todo.authorId === authorId) &&
    (filters.projectId === undefined || todo.projectId === filters.projectId);
  // The targets `keep` found, handed to the entries it kept (and dropped once yielded).
  const targets = new Map<number, TodoTarget>();
  const todos = filteredCollection<Todo>({
    collection: issueCollections.userTodos(user.id, filters.state),
    ascending: false,
    select: (item) => {
      const todo = todoFromItem(item);
      return matches(todo) ? todo : undefined;
    },
    keep: async (chunk) => {
      const found = await readableTargets(user, chunk);
      return chunk.map((todo) => {
        const target = found.get(todo.id);
        if (!target || (groupId !== undefined && !inGroup(target.subject, groupId))) return false;
        targets.set(todo.id, target);
        return true;
      });
    },
  });
  return {
    async *read(after, hint) {
      for await (const entry of todos.read(after, hint)) {
        const target = entry.value && targets.get(entry.value.id);
        if (entry.value) targets.delete(entry.value.id);
        yield { value: target, cursor: entry.cursor };
      }
    },
  };
}

/**
 * `POST /todos/:id/mark_as_done`: marks the caller's todo done and returns it; a todo already
 * done is returned as it is (GitLab resolves only pending todos and answers with the todo
 * either way). Two concurrent calls both answer with the done todo; it is moved once.
 *
 * A todo whose issue the caller can no longer read is not found and stays as it is (the list
 * leaves it out too, and GitLab deletes such todos); `POST /todos/mark_as_done` still marks it.
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
 * `POST /todos/mark_as_done`: marks every pending todo of the caller done, readable target or
 * not (GitLab's `find_todos` there takes no filters), in bounded batches ({@link markAllTodosDone}).
 */
export async function markAllDone(user: User): Promise<void> {
  await markAllTodosDone(user.id);
}
