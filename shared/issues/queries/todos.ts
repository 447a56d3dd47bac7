/**
 * The caller's todo list (GitLab's `TodosFinder` and `Todos::AllowedTargetFilterService`). The
 * todos here are `marked` (issues and merge requests) and `mentioned` / `directly_addressed`
 * (notes on issues, merge requests and commits; issues' titles and descriptions), on issues and
 * on the target types registered by other features (merge requests, commits: `todo-targets.ts`);
 * GitLab's other actions and target types are accepted as filters and match nothing.
 *
 * A todo is shown only while its user can read its target: the project must still exist and be
 * readable, an issue not deleted, and a confidential issue readable to them (a registered target:
 * its resolver's rules). GitLab eventually deletes such todos (`Todos::Destroy::*`); here they are
 * left out when read, as are todos of a type no resolver is registered for.
 */
import type { ProjectSubject } from '../../auth';
import { getNamespace } from '../../namespaces';
import { RecordNotFoundError } from '../../platform/http/errors';
import { filteredCollection, type StreamSource } from '../../platform/http/pagination';
import { getUser, type User } from '../../users';
import { canReadIssue } from '../policy';
import type { TrackedIssue } from '../store/issue-time';
import { getIssues } from '../store/issues';
import { issueCollections } from '../store/keys';
import { todoFromItem, type Todo, type TodoAction, type TodoState } from '../store/todos';
import { listableTodoTypes, todoTargetResolver, type TodoTarget } from '../todo-targets';
import { projectSubjects } from './issues';

export type { TodoTarget } from '../todo-targets';

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

/** Internal: the actions of the todos created here (any other `action` filter matches nothing). */
const HELD_ACTIONS: readonly string[] = ['marked', 'mentioned', 'directly_addressed', 'assigned', 'review_requested'] satisfies readonly TodoAction[];

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

/**
 * The targets of the todos the caller may still read, by todo id: one batch read of the
 * projects (with their namespaces and the caller's memberships, {@link projectSubjects}), one of
 * the issues, and one load per other target type by its registered resolver, whatever the number
 * of todos. Todos of a type without a resolver are left out.
 */
export async function readableTargets(user: User, todos: Todo[]): Promise<Map<number, TodoTarget>> {
  const issueTodos = todos.filter((todo) => todo.targetType === 'Issue');
  const [subjects, issueOf] = await Promise.all([
    projectSubjects(user, [...new Set(todos.map((todo) => todo.projectId))]),
    getIssues(issueTodos.map((todo) => ({ projectId: todo.projectId, iid: todo.targetIid }))),
  ]);
  const targets = new Map<number, TodoTarget>();
  for (const todo of issueTodos) {
    const subject = subjects.get(todo.projectId);
    const issue: TrackedIssue | undefined = issueOf(todo.projectId, todo.targetIid);
    if (subject && issue && !issue.deletedAt && canReadIssue(user, subject, issue)) targets.set(todo.id, { todo, subject, target: issue });
  }
  const others = new Map<string, Todo[]>();
  for (const todo of todos) {
    if (todo.targetType !== 'Issue' && subjects.has(todo.projectId)) others.set(todo.targetType, [...(others.get(todo.targetType) ?? []), todo]);
  }
  await Promise.all(
    [...others].map(async ([type, list]) => {
      const resolver = todoTargetResolver(type);
      if (!resolver) return;
      const found = await resolver.load(user, list, subjects);
      for (const todo of list) {
        if (found.has(todo.id)) targets.set(todo.id, { todo, subject: subjects.get(todo.projectId)!, target: found.get(todo.id) });
      }
    }),
  );
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
 * read of the chunk's projects and targets ({@link readableTargets}). `group_id` compares the project's namespace ancestry
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
  if ((filters.action && !HELD_ACTIONS.includes(filters.action)) || (filters.type && !listableTodoTypes().includes(filters.type))) return nothing;

  const matches = (todo: Todo) =>
    (filters.action === undefined || todo.actionName === filters.action) &&
    (authorId === undefined || todo.authorId === authorId) &&
    (filters.projectId === undefined || todo.projectId === filters.projectId) &&
    (filters.type === undefined || todo.targetType === filters.type);
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
