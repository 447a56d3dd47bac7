/** The to-do list as clients read it: `GET /todos` (the caller's pending to-dos, or filtered). */
import { expect } from 'vitest';
import { api } from './api';

/** A to-do as `GET /todos` presents it (the fields the tests read); `T` its target's entity. */
export type Todo<T = { id: number; iid: number; title: string }> = {
  id: number;
  project: { id: number };
  author: { id: number } | null;
  action_name: string;
  target_type: string;
  target: T;
  target_url: string;
  body: string;
  state: string;
};

/** `GET /todos` as `token` (200 asserted), up to 100, with `query`'s filters. */
export async function listTodos<T = Todo['target']>(token: string, query: Record<string, string> = {}): Promise<Array<Todo<T>>> {
  const response = await api<Array<Todo<T>>>('/todos', { token, query: { per_page: '100', ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}
