/**
 * Todos: a user's reminder about an issue. A pending todo lives in the issue's project partition
 * (`PROJECT#<pid>` / `TODO#<iid>#<userId>`, so a user has at most one pending todo per issue and
 * deleting the project deletes it), and in the user's list on GSI1 (`USER_TODOS#<userId>` /
 * `<todo id>`). Ids come from the sequence `todos`.
 */
import { config } from '../config';
import { nextId } from './counters';
import { indexKeys, keys } from './keys';
import { projectIsLive } from './projects';
import { TransactionConditionFailed, transactWrite } from './transactions';

export interface Todo {
  id: number;
  projectId: number;
  /** The user the todo is for. */
  userId: number;
  /** Who caused it (the user themself for `marked`). */
  authorId: number;
  actionName: 'marked';
  targetType: 'Issue';
  targetIid: number;
  targetId: number;
  state: 'pending' | 'done';
  createdAt: string;
}

const table = () => config().tableName;

/**
 * Adds a pending todo unless the user already has one for the issue, while the project is live.
 * @returns the todo, or undefined when one exists (or the project is being deleted).
 */
export async function insertPendingTodo(todo: Omit<Todo, 'id' | 'state' | 'createdAt'>): Promise<Todo | undefined> {
  const record: Todo = { ...todo, id: await nextId('todos'), state: 'pending', createdAt: new Date().toISOString() };
  try {
    await transactWrite([
      projectIsLive(todo.projectId),
      {
        Put: {
          TableName: table(),
          Item: {
            ...keys.issueTodo(todo.projectId, todo.targetIid, todo.userId),
            ...indexKeys.userTodos(todo.userId, record.id),
            type: 'Todo',
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    return record;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return undefined;
    throw error;
  }
}
