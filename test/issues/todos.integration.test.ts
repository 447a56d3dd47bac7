import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { openIssue, createGroup, createProject, createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';

const GUEST = 10;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const NOT_FOUND = { message: '404 Not found' };

type Todo = { id: number; state: string; project: { id: number }; target: { iid: number; title: string } };

/** Internal: opens an issue (201 asserted). */
const addIssue = (projectId: number, token: string, body: Record<string, unknown> = {}): Promise<{ id: number; iid: number; title: string }> =>
  openIssue(projectId, token, body);

/** Internal: marks a todo on the issue (201 asserted) and returns the Todo entity. */
async function markTodo(projectId: number, iid: number, token: string): Promise<Todo> {
  const response = await api(`/projects/${projectId}/issues/${iid}/todo`, { method: 'POST', token });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Internal: `GET /todos` as `token` (200 asserted). */
async function listTodos(token: string, query: Record<string, string | number> = {}) {
  const response = await api<Todo[]>('/todos', { token, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response;
}

const ids = (todos: Todo[]) => todos.map((todo) => todo.id);
const markDone = (id: number | string, token: string) => api(`/todos/${id}/mark_as_done`, { method: 'POST', token });

/** Internal: a new project owner with `count` issues in their project, a todo marked on each (oldest first). */
async function ownerWithTodos(count: number): Promise<{ project: OwnedProject; todos: Todo[] }> {
  const project = await ownedProject();
  const todos: Todo[] = [];
  for (let i = 0; i < count; i++) {
    const issue = await addIssue(project.id, project.owner.token);
    todos.push(await markTodo(project.id, issue.iid, project.owner.token));
  }
  return { project, todos };
}

describe('GET /todos', () => {
  it('lists the pending todos newest first, each as the Todo entity', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(3);
    const issue = await api(`/projects/${project.id}/issues/${todos[0].target.iid}`, { token: project.owner.token });

    // Act
    const response = await listTodos(project.owner.token);

    // Assess
    expect(ids(response.body)).toEqual(ids(todos).reverse());
    expect(response.headers.get('x-total')).toBe('3');
    const { subscribed, ...target } = issue.body;
    expect(subscribed).toBe(true);
    // Exactly the entity `POST .../todo` answers, but the target without `subscribed`, as GitLab's list.
    const { target: _created, ...created } = todos[0] as Todo & Record<string, unknown>;
    expect(response.body[2]).toEqual({ ...created, target });
    expect(response.body[2]).toMatchObject({
      project: { id: project.id, path_with_namespace: project.fullPath },
      author: expect.objectContaining({ id: project.owner.id, username: project.owner.username }),
      action_name: 'marked',
      target_type: 'Issue',
      target_url: `${baseUrl()}/${project.fullPath}/issues/${todos[0].target.iid}`,
      body: todos[0].target.title,
      state: 'pending',
      created_at: expect.stringMatching(TIMESTAMP),
    });
  });

  it('lists only the caller\'s todos', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(1);
    const member = await newMember(project, GUEST);
    const theirs = await markTodo(project.id, todos[0].target.iid, member.token);

    // Act
    const mine = await listTodos(project.owner.token);
    const other = await listTodos(member.token);

    // Assess
    expect(ids(mine.body)).toEqual([todos[0].id]);
    expect(ids(other.body)).toEqual([theirs.id]);
  });

  it('pages with offset headers and with a keyset cursor round trip', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(3);
    const newestFirst = ids(todos).reverse();

    // Act
    const first = await listTodos(project.owner.token, { per_page: 1 });
    const second = await listTodos(project.owner.token, { per_page: 1, page: 2 });
    const seen: number[] = [];
    let next: string | undefined = `${baseUrl()}/api/v4/todos?pagination=keyset&per_page=1`;
    while (next) {
      const url: URL = new URL(next);
      const page = await api('/todos', { token: project.owner.token, query: url.searchParams });
      seen.push(...ids(page.body));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    }

    // Assess
    expect(ids(first.body)).toEqual([newestFirst[0]]);
    expect(ids(second.body)).toEqual([newestFirst[1]]);
    expect(first.headers.get('x-per-page')).toBe('1');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-total-pages')).toBe('3');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(second.headers.get('x-prev-page')).toBe('1');
    expect(seen).toEqual(newestFirst);
  });

  it.each([
    [{ state: 'closed' }, 'state does not have a valid value'],
    [{ action: 'liked' }, 'action does not have a valid value'],
    [{ type: 'Snippet' }, 'type does not have a valid value'],
    [{ project_id: 'abc' }, 'project_id is invalid'],
  ])('answers 400 to %o', async (query, error) => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api('/todos', { token: user.token, query });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });
});

describe('GET /todos filters', () => {
  let user: TestUser;
  let other: TestUser;
  let group: { id: number };
  let subgroup: { id: number };
  /** Todos of the user in a project of the group, of its subgroup, and of the user's namespace. */
  let inGroup: Todo;
  let inSubgroup: Todo;
  let personal: Todo;

  beforeAll(async () => {
    [user, other] = await Promise.all([createUser(), createUser()]);
    group = await createGroup(user.token);
    subgroup = await createGroup(user.token, { parent_id: group.id });
    const projects = await Promise.all([
      createProject(user.token, { namespace_id: group.id }),
      createProject(user.token, { namespace_id: subgroup.id }),
      createProject(user.token),
    ]);
    const todos: Todo[] = [];
    for (const project of projects) todos.push(await markTodo(project.id, (await addIssue(project.id, user.token)).iid, user.token));
    [inGroup, inSubgroup, personal] = todos;
  });

  it.each([
    ['project_id', () => ({ project_id: inSubgroup.project.id }), () => [inSubgroup]],
    ['group_id (its projects and its subgroups\')', () => ({ group_id: group.id }), () => [inSubgroup, inGroup]],
    ['group_id of a subgroup', () => ({ group_id: subgroup.id }), () => [inSubgroup]],
    ['type=Issue', () => ({ type: 'Issue' }), () => [personal, inSubgroup, inGroup]],
    ['type=MergeRequest', () => ({ type: 'MergeRequest' }), () => []],
    ['action=marked', () => ({ action: 'marked' }), () => [personal, inSubgroup, inGroup]],
    ['action=assigned', () => ({ action: 'assigned' }), () => []],
    ['author_id of the caller', () => ({ author_id: user.id }), () => [personal, inSubgroup, inGroup]],
    ['author_id of someone else', () => ({ author_id: other.id }), () => []],
    ['state=done', () => ({ state: 'done' }), () => []],
  ])('filters by %s', async (_name, query, expected) => {
    // Act
    const response = await listTodos(user.token, query());

    // Assess
    expect(ids(response.body)).toEqual(ids(expected()));
  });

  it('answers 404 to an unknown group_id or author_id, and to a group_id that is a user namespace', async () => {
    // Prepare
    const namespaces = await api('/namespaces', { token: user.token, query: { search: user.username } });
    const personalNamespace = namespaces.body.find((namespace: { kind: string }) => namespace.kind === 'user');

    // Act
    const group404 = await api('/todos', { token: user.token, query: { group_id: 987654321 } });
    const author404 = await api('/todos', { token: user.token, query: { author_id: 987654321 } });
    const userNamespace = await api('/todos', { token: user.token, query: { group_id: personalNamespace.id } });

    // Assess
    expect([group404.status, author404.status, userNamespace.status]).toEqual([404, 404, 404]);
    expect(group404.body).toEqual(NOT_FOUND);
  });
});

describe('GET /todos readable targets', () => {
  /** Internal: a guest of a private project with a todo on an issue the owner opened. */
  async function guestWithTodo() {
    const project = await ownedProject('private');
    const guest = await newMember(project, GUEST);
    const issue = await addIssue(project.id, project.owner.token);
    const todo = await markTodo(project.id, issue.iid, guest.token);
    const kept = await markTodo(project.id, (await addIssue(project.id, project.owner.token)).iid, guest.token);
    return { project, guest, issue, todo, kept };
  }

  it.each([
    [
      'the issue became confidential (a guest, neither author nor assignee)',
      (project: OwnedProject, iid: number) => api(`/projects/${project.id}/issues/${iid}`, { method: 'PUT', token: project.owner.token, body: { confidential: true } }),
    ],
    ['the issue was deleted', (project: OwnedProject, iid: number) => api(`/projects/${project.id}/issues/${iid}`, { method: 'DELETE', token: project.owner.token })],
  ])('leaves out a todo when %s, and answers 404 to marking it', async (_name, change) => {
    // Prepare
    const { project, guest, issue, todo, kept } = await guestWithTodo();
    const before = await listTodos(guest.token);
    const changed = await change(project, issue.iid);
    expect(changed.status, JSON.stringify(changed.body)).toBeLessThan(300);

    // Act
    const after = await listTodos(guest.token);
    const mark = await markDone(todo.id, guest.token);

    // Assess
    expect(ids(before.body)).toEqual([kept.id, todo.id]);
    expect(ids(after.body)).toEqual([kept.id]);
    expect(after.headers.get('x-total')).toBe('1');
    expect(mark.status).toBe(404);
  });

  it('leaves out the todos of a private project the user left', async () => {
    // Prepare
    const { project, guest } = await guestWithTodo();

    // Act
    const removed = await api(`/projects/${project.id}/members/${guest.id}`, { method: 'DELETE', token: rootToken() });
    const after = await listTodos(guest.token);

    // Assess
    expect(removed.status).toBe(204);
    expect(after.body).toEqual([]);
  });
});

describe('POST /todos/:id/mark_as_done', () => {
  it('marks the todo done: 201 with the todo, listed as done only, and the issue can be marked again', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(2);
    const [todo, other] = todos;

    // Act
    const response = await markDone(todo.id, project.owner.token);
    const pending = await listTodos(project.owner.token);
    const done = await listTodos(project.owner.token, { state: 'done' });
    const again = await api(`/projects/${project.id}/issues/${todo.target.iid}/todo`, { method: 'POST', token: project.owner.token });
    const pendingAfter = await listTodos(project.owner.token);

    // Assess
    expect(response.status).toBe(201);
    const { state: _pending, target: _target, ...unchanged } = todo as Todo & Record<string, unknown>;
    expect(response.body).toMatchObject({ ...unchanged, state: 'done', target: expect.objectContaining({ iid: todo.target.iid, subscribed: true }) });
    expect(ids(pending.body)).toEqual([other.id]);
    expect(ids(done.body)).toEqual([todo.id]);
    expect(done.body[0].state).toBe('done');
    expect(again.status).toBe(201);
    expect(again.body.id).toBeGreaterThan(other.id);
    expect(ids(pendingAfter.body)).toEqual([again.body.id, other.id]);
  });

  it('answers a todo already done with the todo (201), changing nothing', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(1);
    await markDone(todos[0].id, project.owner.token);

    // Act
    const response = await markDone(todos[0].id, project.owner.token);
    const done = await listTodos(project.owner.token, { state: 'done' });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: todos[0].id, state: 'done' });
    expect(ids(done.body)).toEqual([todos[0].id]);
  });

  it('answers 404 to an unknown id and to another user\'s todo, changing nothing', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(1);
    const stranger = await createUser();

    // Act
    const unknown = await markDone(987654321, stranger.token);
    const theirs = await markDone(todos[0].id, stranger.token);
    const ownerList = await listTodos(project.owner.token);
    const strangerDone = await listTodos(stranger.token, { state: 'done' });

    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(NOT_FOUND);
    expect(ownerList.body.map((todo) => [todo.id, todo.state])).toEqual([[todos[0].id, 'pending']]);
    expect(strangerDone.body).toEqual([]);
  });

  it('answers 400 to an id that is not an integer', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await markDone('abc', user.token);

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'id is invalid' });
  });

  it('marks a todo done once when asked concurrently, answering every request with it', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(1);

    // Act
    const responses = await Promise.all(Array.from({ length: 6 }, () => markDone(todos[0].id, project.owner.token)));
    const pending = await listTodos(project.owner.token);
    const done = await listTodos(project.owner.token, { state: 'done' });

    // Assess
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(201));
    for (const response of responses) expect(response.body).toMatchObject({ id: todos[0].id, state: 'done' });
    expect(pending.body).toEqual([]);
    expect(ids(done.body)).toEqual([todos[0].id]);
  });
});

describe('POST /todos/mark_as_done', () => {
  it('marks every pending todo of the caller done with 204, and only the caller\'s', async () => {
    // Prepare
    const { project, todos } = await ownerWithTodos(3);
    const member = await newMember(project, GUEST);
    const theirs = await markTodo(project.id, todos[0].target.iid, member.token);

    // Act
    const response = await api('/todos/mark_as_done', { method: 'POST', token: project.owner.token });
    const pending = await listTodos(project.owner.token);
    const done = await listTodos(project.owner.token, { state: 'done' });
    const memberPending = await listTodos(member.token);
    const again = await api('/todos/mark_as_done', { method: 'POST', token: project.owner.token });

    // Assess
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(pending.body).toEqual([]);
    expect(ids(done.body)).toEqual(ids(todos).reverse());
    expect(done.body.every((todo) => todo.state === 'done')).toBe(true);
    expect(ids(memberPending.body)).toEqual([theirs.id]);
    expect(again.status).toBe(204);
  });
});

describe('authentication', () => {
  it.each([
    ['GET', '/todos'],
    ['POST', '/todos/1/mark_as_done'],
    ['POST', '/todos/mark_as_done'],
  ] as const)('answers 401 to %s %s without a token', async (method, path) => {
    // Act
    const response = await api(path, { method });

    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });
});
