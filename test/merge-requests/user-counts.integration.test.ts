/**
 * `GET /user_counts` (GitLab's `API::UserCounts`): the caller's open issues assigned to them, open
 * merge requests assigned to them or awaiting their review, and pending todos, as kept by the
 * writes that change them (issue and merge request writes, todo writes), exact under parallel
 * writes, and only ever the caller's own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { eventually } from '../support/eventually';
import { newMember, openIssue, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, DEVELOPER, mrs, openMergeRequest } from './helpers';

type Counts = { merge_requests: number; assigned_issues: number; assigned_merge_requests: number; review_requested_merge_requests: number; todos: number };

const ZERO: Counts = { merge_requests: 0, assigned_issues: 0, assigned_merge_requests: 0, review_requested_merge_requests: 0, todos: 0 };

/** `GET /user_counts` as `token` (200 asserted). */
async function countsOf(token: string): Promise<Counts> {
  const response = await api<Counts>('/user_counts', { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('GET /user_counts', () => {
  let project: OwnedProject;
  let other: OwnedProject;
  let token: string;
  let dev: TestUser;
  let reviewer: TestUser;
  let branch = 0;

  const issues = (path = '') => `/projects/${project.id}/issues${path}`;
  const editIssue = (iid: number, body: Record<string, unknown>) => api(issues(`/${iid}`), { method: 'PUT', token, body });
  const editMr = (iid: number, body: Record<string, unknown>) => api(mrs(project.id, `/${iid}`), { method: 'PUT', token, body });
  async function openMr(body: Record<string, unknown>) {
    const source = `counts-${++branch}`;
    await commit(project.id, token, source, { [`${source}.txt`]: 'x\n' }, { start: 'main' });
    return openMergeRequest(project.id, token, { source_branch: source, ...body });
  }
  const pendingTodos = async (as: TestUser) => (await api<Array<{ id: number }>>('/todos', { token: as.token, query: { per_page: 100 } })).body;

  beforeAll(async () => {
    [project, other] = await Promise.all([ownedProject('private'), ownedProject('private')]);
    token = project.owner.token;
    [dev, reviewer] = await Promise.all([newMember(project, DEVELOPER), newMember(project, DEVELOPER)]);
    // The owner moves issues into the other project, where the developer is a member too.
    await Promise.all([dev.id, project.owner.id].map((user_id) => api(`/projects/${other.id}/members`, { token: other.owner.token, body: { user_id, access_level: DEVELOPER } })));
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
  });

  it('answers 401 without a token, and zeros for a user with nothing', async () => {
    expect((await api('/user_counts')).status).toBe(401);
    expect((await api('/user_counts')).body).toEqual({ message: '401 Unauthorized' });
    expect(await countsOf(reviewer.token)).toEqual(ZERO);
  });

  it('moves with each issue change: assign, close, reopen, unassign, move, delete, and the todos they make', async () => {
    // Each new assignment brings an `assigned` todo.
    const first = await openIssue(project.id, token, { assignee_ids: [dev.id] });
    const second = await openIssue(project.id, token, { assignee_ids: [dev.id] });
    const third = await openIssue(project.id, token, {});
    expect(await countsOf(dev.token)).toEqual({ ...ZERO, assigned_issues: 2, todos: 2 });

    expect((await editIssue(first.iid, { state_event: 'close' })).status).toBe(200);
    expect((await countsOf(dev.token)).assigned_issues).toBe(1);
    expect((await editIssue(first.iid, { state_event: 'reopen' })).status).toBe(200);
    expect((await editIssue(third.iid, { assignee_ids: [dev.id] })).status).toBe(200);
    expect(await countsOf(dev.token)).toEqual({ ...ZERO, assigned_issues: 3, todos: 3 });
    expect((await editIssue(third.iid, { assignee_ids: [] })).status).toBe(200);
    expect((await countsOf(dev.token)).assigned_issues).toBe(2);

    // A move closes the original and opens the copy (still assigned: the count stays); deleting the copy drops it.
    const moved = await api(issues(`/${second.iid}/move`), { token, body: { to_project_id: other.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    expect((await countsOf(dev.token)).assigned_issues).toBe(2);
    expect((await api(`/projects/${other.id}/issues/${moved.body.iid}`, { method: 'DELETE', token: other.owner.token })).status).toBe(204);
    expect((await countsOf(dev.token)).assigned_issues).toBe(1);

    // Todos: marked by hand, marked done one by one and all at once.
    expect((await api(issues(`/${third.iid}/todo`), { method: 'POST', token: dev.token })).status).toBe(304);
    expect((await api(issues(`/${first.iid}/todo`), { method: 'POST', token: reviewer.token })).status).toBe(201);
    const todos = await pendingTodos(dev);
    expect((await countsOf(dev.token)).todos).toBe(todos.length);
    expect((await api(`/todos/${todos[0].id}/mark_as_done`, { method: 'POST', token: dev.token })).status).toBe(201);
    expect((await countsOf(dev.token)).todos).toBe(todos.length - 1);
    expect((await api('/todos/mark_as_done', { method: 'POST', token: dev.token })).status).toBe(204);
    expect(await countsOf(dev.token)).toEqual({ ...ZERO, assigned_issues: 1 });
    // Another user's counts are their own: the reviewer's one todo, none of the developer's.
    expect(await countsOf(reviewer.token)).toEqual({ ...ZERO, todos: 1 });
    expect(await countsOf(token)).toEqual(ZERO);
  });

  it('moves with each merge request change: assignee, reviewer, close, reopen, merge, delete', async () => {
    // Prepare: the developer and reviewer start from no todos.
    await Promise.all([dev, reviewer].map((user) => api('/todos/mark_as_done', { method: 'POST', token: user.token })));
    const base = await countsOf(dev.token);

    const mr = await openMr({ assignee_id: dev.id, reviewer_ids: [dev.id] });
    expect(await countsOf(dev.token)).toEqual({ ...base, merge_requests: 1, assigned_merge_requests: 1, review_requested_merge_requests: 1, todos: 1 });

    expect((await editMr(mr.iid, { reviewer_ids: [reviewer.id] })).status).toBe(200);
    expect(await countsOf(dev.token)).toMatchObject({ assigned_merge_requests: 1, review_requested_merge_requests: 0 });
    expect(await countsOf(reviewer.token)).toEqual({ ...ZERO, review_requested_merge_requests: 1, todos: 1 });

    expect((await editMr(mr.iid, { state_event: 'close' })).status).toBe(200);
    expect(await countsOf(dev.token)).toMatchObject({ merge_requests: 0, assigned_merge_requests: 0 });
    expect((await countsOf(reviewer.token)).review_requested_merge_requests).toBe(0);
    expect((await editMr(mr.iid, { state_event: 'reopen' })).status).toBe(200);
    expect((await countsOf(reviewer.token)).review_requested_merge_requests).toBe(1);

    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await countsOf(dev.token)).toMatchObject({ merge_requests: 0, assigned_merge_requests: 0 });
    expect((await countsOf(reviewer.token)).review_requested_merge_requests).toBe(0);

    // Deleted, an issue and a merge request take their assignment and their pending todos with them.
    const before = await countsOf(dev.token);
    const [deleted, deletedIssue] = await Promise.all([openMr({ assignee_id: dev.id }), openIssue(project.id, token, { assignee_ids: [dev.id] })]);
    expect(await countsOf(dev.token)).toMatchObject({ assigned_merge_requests: 1, assigned_issues: before.assigned_issues + 1, todos: before.todos + 2 });
    expect((await api(mrs(project.id, `/${deleted.iid}`), { method: 'DELETE', token })).status).toBe(204);
    expect((await api(issues(`/${deletedIssue.iid}`), { method: 'DELETE', token })).status).toBe(204);
    expect(await countsOf(dev.token)).toEqual(before);
  });

  it('takes a deleted project\'s open issues, merge requests and pending todos out of its users\' counts', async () => {
    // Prepare: in the other project, an issue and a merge request for the developer.
    const before = await countsOf(dev.token);
    const ownerToken = other.owner.token;
    await openIssue(other.id, ownerToken, { assignee_ids: [dev.id] });
    await commit(other.id, ownerToken, 'main', { 'README.md': '# other\n' });
    await commit(other.id, ownerToken, 'doomed', { 'doomed.txt': 'd\n' }, { start: 'main' });
    await openMergeRequest(other.id, ownerToken, { source_branch: 'doomed', assignee_id: dev.id, reviewer_ids: [dev.id] });
    expect(await countsOf(dev.token)).toEqual({
      merge_requests: before.merge_requests + 1,
      assigned_issues: before.assigned_issues + 1,
      assigned_merge_requests: before.assigned_merge_requests + 1,
      review_requested_merge_requests: before.review_requested_merge_requests + 1,
      todos: before.todos + 2,
    });

    // Act
    expect((await api(`/projects/${other.id}`, { method: 'DELETE', token: ownerToken })).status).toBe(202);

    // Assess: once the deletion job ran, the counts are as before.
    await eventually(async () => expect(await countsOf(dev.token)).toEqual(before));
  });

  it('stays exact under parallel writes: assignments, closes and todos marked done twice at once', async () => {
    // Prepare
    await api('/todos/mark_as_done', { method: 'POST', token: reviewer.token });
    const before = await countsOf(reviewer.token);

    // Act: four issues assigned at once, two of them closed twice at once.
    const opened = await Promise.all(Array.from({ length: 4 }, () => openIssue(project.id, token, { assignee_ids: [reviewer.id] })));
    const closes = await Promise.all(opened.slice(0, 2).flatMap(({ iid }) => [editIssue(iid, { state_event: 'close' }), editIssue(iid, { state_event: 'close' })]));
    expect(closes.every((response) => response.status === 200)).toBe(true);
    const todos = await pendingTodos(reviewer);
    expect(todos).toHaveLength(4);
    // Each todo marked done twice at once, beside a mark-all of the rest.
    await Promise.all([
      ...todos.slice(0, 2).flatMap(({ id }) => [1, 2].map(() => api(`/todos/${id}/mark_as_done`, { method: 'POST', token: reviewer.token }))),
      api('/todos/mark_as_done', { method: 'POST', token: reviewer.token }),
    ]);

    // Assess
    expect(await countsOf(reviewer.token)).toEqual({ ...before, assigned_issues: before.assigned_issues + 2, todos: 0 });
    expect(await pendingTodos(reviewer)).toEqual([]);
  });
});
