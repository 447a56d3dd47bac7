/**
 * The todos an assignment gives (GitLab's `TodoService#reassigned_assignable` and
 * `#reassigned_reviewable`): `assigned` for a new assignee of an issue or a merge request,
 * `review_requested` for a merge request's new reviewer, one pending todo per user and target
 * (a user both assigned and mentioned, or assigned and asked to review, gets the assignment's),
 * and none for those who stay assigned.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { newMember, openIssue, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, DEVELOPER, openMergeRequest } from '../merge-requests/helpers';

type Todo = { action_name: string; target_type: string; target: { iid: number }; author: { id: number } };

/** `GET /todos` of a user on one project: `action target_type iid author` of each, oldest first. */
async function todosOf(user: TestUser, projectId: number): Promise<string[]> {
  const response = await api<Todo[]>('/todos', { token: user.token, query: { project_id: projectId, per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body.map((todo) => `${todo.action_name} ${todo.target_type} ${todo.target.iid} ${todo.author.id}`).reverse();
}

describe('todos of assignments', () => {
  let project: OwnedProject;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    project = await ownedProject('private');
    [alice, bob] = await Promise.all([newMember(project, DEVELOPER), newMember(project, DEVELOPER)]);
    await commit(project.id, project.owner.token, 'main', { 'README.md': '# readme\n' });
  });

  it('gives a new issue assignee an `assigned` todo, not a second one for a mention, and none to those who stay assigned', async () => {
    // Arrange
    const owner = project.owner;
    const issue = await openIssue(project.id, owner.token, { title: 'Assigned', assignee_ids: [alice.id], description: `@${alice.username} please look` });

    // Act
    const edit = (body: Record<string, unknown>) => api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: owner.token, body });
    expect((await edit({ assignee_ids: [alice.id, bob.id] })).status).toBe(200);
    expect((await edit({ assignee_ids: [bob.id], title: 'Still assigned' })).status).toBe(200);

    // Assert
    expect(await todosOf(alice, project.id)).toEqual([`assigned Issue ${issue.iid} ${owner.id}`]);
    expect(await todosOf(bob, project.id)).toEqual([`assigned Issue ${issue.iid} ${owner.id}`]);
    const filtered = await api<Todo[]>('/todos', { token: bob.token, query: { action: 'assigned', project_id: project.id } });
    expect(filtered.body).toHaveLength(1);
  });

  it('gives one to a user who assigns themself (GitLab’s "assigned to yourself"), and a new one after the first is done', async () => {
    // Arrange
    const issue = await openIssue(project.id, bob.token, { title: 'Mine', assignee_ids: [bob.id] });
    const [todo] = (await api<Array<{ id: number; target: { iid: number } }>>('/todos', { token: bob.token, query: { project_id: project.id } })).body.filter((t) => t.target.iid === issue.iid);

    // Act
    expect((await api(`/todos/${todo.id}/mark_as_done`, { method: 'POST', token: bob.token })).status).toBe(201);
    await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: bob.token, body: { assignee_ids: [] } });
    await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: bob.token, body: { assignee_ids: [bob.id] } });

    // Assert
    const pending = (await todosOf(bob, project.id)).filter((line) => line.includes(` Issue ${issue.iid} `));
    expect(pending).toEqual([`assigned Issue ${issue.iid} ${bob.id}`]);
  });

  it('gives a merge request’s new assignee `assigned` and its new reviewer `review_requested`; one todo for a user who is both', async () => {
    // Arrange
    const owner = project.owner;
    await commit(project.id, owner.token, 'both', { 'both.txt': 'b\n' }, { start: 'main' });
    await commit(project.id, owner.token, 'split', { 'split.txt': 's\n' }, { start: 'main' });

    // Act
    const both = await openMergeRequest(project.id, owner.token, { source_branch: 'both', assignee_id: alice.id, reviewer_ids: [alice.id] });
    const split = await openMergeRequest(project.id, owner.token, { source_branch: 'split', assignee_id: alice.id });
    const review = await api(`/projects/${project.id}/merge_requests/${split.iid}`, { method: 'PUT', token: owner.token, body: { reviewer_ids: [bob.id] } });

    // Assert
    expect(both.reviewers.map((user: { id: number }) => user.id)).toEqual([alice.id]);
    expect(review.status).toBe(200);
    const mergeRequestTodos = async (user: TestUser) => (await todosOf(user, project.id)).filter((line) => line.includes('MergeRequest'));
    expect(await mergeRequestTodos(alice)).toEqual([`assigned MergeRequest ${both.iid} ${owner.id}`, `assigned MergeRequest ${split.iid} ${owner.id}`]);
    expect(await mergeRequestTodos(bob)).toEqual([`review_requested MergeRequest ${split.iid} ${owner.id}`]);
  });
});
