/**
 * The caller's todo list (GitLab's `API::Todos` under `/todos`). Every call must be authenticated
 * and acts on the caller's own todos only: another user's todo id is not found (404).
 */
import * as z from 'zod';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { noParams, route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { markAllDone, markTodoDoneById } from '../commands/todos';
import { presentTodos } from '../presenters/todos';
import { todoStream, TODO_ACTIONS, TODO_STATES, TODO_TYPES } from '../queries/todos';

/** GitLab's `:todo_filters`, with `use :pagination`; `state` defaults to `pending`. */
const listParams = z.object({
  ...paginationParams,
  action: p.oneOf(TODO_ACTIONS),
  author_id: p.int(),
  project_id: p.int(),
  group_id: p.int(),
  state: p.oneOf(TODO_STATES).transform((state) => state ?? 'pending'),
  type: p.oneOf(TODO_TYPES),
});

export const todoRoutes = {
  'GET /todos': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const filters = {
        state: params.state,
        action: params.action,
        authorId: params.author_id,
        projectId: params.project_id,
        groupId: params.group_id,
        type: params.type,
      };
      const page = await paginate(params, link, await todoStream(user, filters));
      return ok(await presentTodos(page.items, user), page.headers);
    },
  }),

  'POST /todos/:id/mark_as_done': route({
    params: z.object({ id: required(p.int()) }),
    handler: async ({ params, user }) => {
      const todo = await markTodoDoneById(user, params.id);
      const [body] = await presentTodos([todo], user, { single: true });
      return created(body);
    },
  }),

  /** GitLab answers 204 without a body. */
  'POST /todos/mark_as_done': route({
    params: noParams,
    handler: async ({ user }) => {
      await markAllDone(user);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.todos>;
