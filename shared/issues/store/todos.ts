/**
 * Todos: a user's reminder about a noteable (an issue or a merge request) or a commit
 * (`targetType`). Ids come from the sequence `todos`. A todo is `marked` by its user on an issue or
 * merge request, or created for the users a text mentions (`mentioned`, `directly_addressed`:
 * {@link newTodoPuts}): a note on an issue, a merge request or a commit, an issue's title and
 * description.
 *
 * A pending todo lives in its target's project partition (`PROJECT#<pid>` / `TODO#<iid>#<userId>`
 * for an issue, `MR_TODO#<iid>#<userId>` for a merge request, `COMMIT_TODO#<sha>#<userId>` for a
 * commit): that key doubles as the guard "at most one pending todo per user and target". Marking
 * it done moves it, in one transaction, to `DONE_TODO#<id>` in the same partition (whatever its
 * target: the id is global), which frees the pending key (GitLab lets a user mark the target
 * again) and keeps the todo going with the project when it is deleted. Each item is also in its user's list of its state on GSI1
 * (`USER_TODOS#<userId>#<state>` / `<todo id>`), so `state=pending` and `state=done` are each one
 * Query, newest first.
 */
import { tableName } from '../../platform/dynamo/client';
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getMany } from '../../platform/dynamo/batch';
import { getItem, queryCollection, type Item } from '../../platform/dynamo/query';
import { type TransactItem, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { issueCollections, issueIndexKeys, issueKeys, todoKeys, type NoteableKeyed, type TodoState, type TodoTargetKeyed, type TodoTargetType } from './keys';
import { pendingTodosCountUpdate } from './user-counts';

export type { TodoState } from './keys';

export interface Todo {
  id: number;
  projectId: number;
  /** The user the todo is for. */
  userId: number;
  /** Who caused it (the user themself for `marked`). */
  authorId: number;
  /** GitLab's `action_name`s that are created here. */
  actionName: TodoAction;
  targetType: TodoTargetType;
  /** The noteable's iid; 0 for a commit (GitLab's `target_id` is null). */
  targetIid: number;
  /** The noteable's id; 0 for a commit. */
  targetId: number;
  /** A commit todo's commit sha (GitLab's `commit_id`). */
  commitId?: string;
  /** The note that caused a mention todo (GitLab's `note_id`: `body` and the `target_url` anchor). */
  noteId?: number;
  state: TodoState;
  createdAt: string;
}

/** The actions of the todos created here. */
export type TodoAction = 'marked' | 'mentioned' | 'directly_addressed' | 'assigned' | 'review_requested';

export const todoFromItem = (item: Item): Todo => entityFields(item) as Todo;

/** Internal: the pending guard key of a todo (one per user and target). */
const pendingKey = (todo: Pick<Todo, 'targetType' | 'projectId' | 'targetIid' | 'commitId' | 'userId'>) => todoKeys.pending(todo, todo.userId);

/** Internal: the stored item of a todo in its state (the pending guard key, or the done key). */
function todoItem(todo: Todo): Item {
  const key = todo.state === 'pending' ? pendingKey(todo) : issueKeys.doneTodo(todo.projectId, todo.id);
  return { ...key, ...issueIndexKeys.userTodos(todo.userId, todo.state, todo.id), type: 'Todo', ...todo };
}

/**
 * Adds a pending todo unless the user already has one for the target, while the project is live.
 * @returns the todo, or undefined when one exists (or the project is being deleted).
 */
export async function insertPendingTodo(todo: Omit<Todo, 'id' | 'state' | 'createdAt'>): Promise<Todo | undefined> {
  const record: Todo = { ...todo, id: await nextId('todos'), state: 'pending', createdAt: new Date().toISOString() };
  const failure = await transactOr(
    {
      project: projectIsLive(todo.projectId),
      todo: { Put: { TableName: tableName(), Item: todoItem(record), ConditionExpression: 'attribute_not_exists(PK)' } },
      count: pendingTodosCountUpdate(todo.userId, 1),
    },
    [],
    'not_written',
  );
  return failure ? undefined : record;
}

/**
 * The transaction items that add pending todos on `target`, one per user of `todos` (the first
 * asked of each), for the users without one pending there: one consistent BatchGetItem of their
 * pending keys (none with `created`: no todo can be pending on a target the write creates), then
 * their ids from the sequence `todos`. The caller's transaction checks the project is live. Each
 * todo is two operations: its Put, conditioned on the pending key being free, and the `ADD` of its
 * user's pending count (#254), so the count moves exactly when a todo appears. A racing writer that
 * put the same user's pending todo a moment after the read fails the condition: the caller writes
 * again from a fresh read (its retry of a stale write), which leaves that user out.
 * @example
 * const items = await newTodoPuts({ ...target, targetId: issue.id }, [{ userId, actionName: 'assigned' }], { authorId: user.id, createdAt });
 */
export async function newTodoPuts(
  target: TodoTargetKeyed & { targetId: number },
  todos: ReadonlyArray<{ userId: number; actionName: TodoAction }>,
  source: { authorId: number; createdAt: string; noteId?: number },
  options: { created?: boolean } = {},
): Promise<TransactItem[]> {
  const byUser = new Map<number, TodoAction>();
  for (const { userId, actionName } of todos) if (!byUser.has(userId)) byUser.set(userId, actionName);
  if (byUser.size === 0) return [];
  const pending = options.created ? [] : await getMany([...byUser.keys()].map((userId) => todoKeys.pending(target, userId)));
  for (const item of pending) byUser.delete(Number(item.userId));
  if (byUser.size === 0) return [];
  const ids = await nextIds('todos', byUser.size);
  return [...byUser].flatMap(([userId, actionName], i): TransactItem[] => {
    const todo: Todo = {
      id: ids[i],
      projectId: target.projectId,
      userId,
      authorId: source.authorId,
      actionName,
      targetType: target.targetType,
      targetIid: target.targetIid,
      targetId: target.targetId,
      ...(target.commitId === undefined ? {} : { commitId: target.commitId }),
      ...(source.noteId === undefined ? {} : { noteId: source.noteId }),
      state: 'pending',
      createdAt: source.createdAt,
    };
    return [
      { Put: { TableName: tableName(), Item: todoItem(todo), ConditionExpression: 'attribute_not_exists(PK)' } },
      pendingTodosCountUpdate(userId, 1),
    ];
  });
}

/**
 * One todo of a user by id: a Query for its padded id as the sort-key prefix (an exact match, at
 * most one item) on the pending list, then on the done list. Nothing maps a
 * bare todo id to its key with a GetItem, and the id alone is what clients send; the user's two
 * partitions make the lookup also the ownership check (another user's todo is not found).
 *
 * GSI1 is eventually consistent: a todo created or marked done a moment ago may briefly be found
 * in its former state, or not at all. Writes never trust it: {@link markTodoDone} is conditioned
 * on the table item.
 */
export async function findUserTodo(userId: number, todoId: number): Promise<Todo | undefined> {
  for (const state of ['pending', 'done'] as const) {
    // The sort key is the padded id: the prefix match is an exact match.
    const collection = { ...issueCollections.userTodos(userId, state), prefix: issueIndexKeys.userTodos(userId, state, todoId).GSI1SK };
    for await (const item of queryCollection(collection, { pageSize: 1 })) return todoFromItem(item);
  }
  return undefined;
}

/** A user's pending todo on a target, if any (consistent GetItem of its pending key). */
export async function pendingTodoOf(target: Pick<Todo, 'targetType' | 'projectId' | 'targetIid' | 'commitId'>, userId: number): Promise<Todo | undefined> {
  const item = await getItem(todoKeys.pending(target, userId));
  return item && todoFromItem(item);
}

/**
 * Marks a pending todo done in ONE transaction: the pending item is deleted (only if it still
 * exists with this todo's id: the user may since have marked the target again, which reuses the
 * key) and the done item put, while the project is live.
 *
 * @returns the done todo, also when a concurrent request marked it first (read back from its done
 *   key, consistently); undefined when it is gone (its project is being deleted).
 */
export async function markTodoDone(todo: Todo): Promise<Todo | undefined> {
  const done: Todo = { ...todo, state: 'done' };
  const failure = await transactOr(
    {
      project: projectIsLive(todo.projectId),
      pending: {
        Delete: {
          TableName: tableName(),
          Key: pendingKey(todo),
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': todo.id },
        },
      },
      done: { Put: { TableName: tableName(), Item: todoItem(done), ConditionExpression: 'attribute_not_exists(PK)' } },
      count: pendingTodosCountUpdate(todo.userId, -1),
    },
    [],
    'not_written',
  );
  if (!failure) return done;
  const item = await getItem(issueKeys.doneTodo(todo.projectId, todo.id));
  return item && todoFromItem(item);
}

/** How many todos are marked done at once (one transaction) by {@link markAllTodosDone}. */
const MARK_ALL_BATCH = 25;

/**
 * Internal: marks a page of one user's pending todos done in ONE transaction (each todo's pending
 * Delete and done Put as {@link markTodoDone}'s, each project's liveness once, and the user's
 * pending count moved once by the page's size: concurrent transactions on that one count item
 * would conflict). `false` when a condition failed (a todo marked meanwhile, a project going):
 * nothing was written, and the page is marked one todo at a time instead.
 */
async function markPageDone(userId: number, todos: Todo[]): Promise<boolean> {
  if (todos.length === 0) return true;
  const projects = [...new Set(todos.map((todo) => todo.projectId))];
  const failure = await transactOr(
    {
      projects: projects.map((projectId) => projectIsLive(projectId)),
      pending: todos.map((todo) => ({
        Delete: { TableName: tableName(), Key: pendingKey(todo), ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': todo.id } },
      })),
      done: todos.map((todo) => ({ Put: { TableName: tableName(), Item: todoItem({ ...todo, state: 'done' }), ConditionExpression: 'attribute_not_exists(PK)' } })),
      count: pendingTodosCountUpdate(userId, -todos.length),
    },
    [],
    'not_written',
  );
  return failure === undefined;
}

/**
 * Marks every pending todo of the user done: the pending list is read a Query page of
 * {@link MARK_ALL_BATCH} at a time and each page's todos are marked in one transaction
 * ({@link markPageDone}; one at a time when it is refused), so memory stays bounded. The number of
 * pages is not: a user's pending todos are few (one per target they marked themselves or
 * were mentioned on, at most one per user and target), so this is not capped.
 *
 * @returns how many todos this call marked (those a concurrent request marked count too).
 */
export async function markAllTodosDone(userId: number): Promise<number> {
  let marked = 0;
  let batch: Todo[] = [];
  const flush = async () => {
    if (await markPageDone(userId, batch)) marked += batch.length;
    else for (const todo of batch) if (await markTodoDone(todo)) marked++;
    batch = [];
  };
  for await (const item of queryCollection(issueCollections.userTodos(userId, 'pending'), { pageSize: MARK_ALL_BATCH })) {
    batch.push(todoFromItem(item));
    if (batch.length >= MARK_ALL_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return marked;
}

/** Most pending todos a deleted noteable takes out in its own transaction (one per user; DynamoDB caps a transaction at 100 operations). */
export const MAX_DELETED_TODOS = 30;

/**
 * The transaction items that take a deleted noteable's pending todos away (GitLab destroys an
 * issuable's todos with it), for the deletion's own transaction: per todo, its Delete conditioned
 * on its id (a todo marked done or replaced meanwhile fails the write, which is made again from a
 * fresh read) and its user's pending count moved by -1 (#259). One Query of the noteable's pending
 * range (one item per user who has one); beyond {@link MAX_DELETED_TODOS} the rest stay (hidden
 * from `GET /todos` with their target, still counted).
 */
export async function pendingTodoRemovals(noteable: NoteableKeyed): Promise<TransactItem[]> {
  const items: TransactItem[] = [];
  for await (const item of queryCollection(issueCollections.noteablePendingTodos(noteable), { pageSize: MAX_DELETED_TODOS })) {
    items.push(
      { Delete: { TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': item.id } } },
      pendingTodosCountUpdate(Number(item.userId), -1),
    );
    if (items.length >= 2 * MAX_DELETED_TODOS) break;
  }
  return items;
}
