import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, createUser, openIssue, unique, type TestProject, type TestUser } from '../support/fixtures';

const events = (projectId: number, iid: number, kind: 'label' | 'state' | 'milestone', path = '') =>
  `/projects/${projectId}/issues/${iid}/resource_${kind}_events${path}`;

describe('issue resource events', () => {
  let owner: TestUser;
  let project: TestProject;

  beforeAll(async () => {
    owner = await createUser();
    project = await createProject(owner.token, { visibility: 'private' });
  });

  const milestone = async () => {
    const response = await api(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: unique('v') } });
    expect(response.status).toBe(201);
    return response.body;
  };

  it('records a label event per label added and removed, on create and edit, oldest first, and serves one by id', async () => {
    // Arrange
    const issue = await openIssue(project.id, owner.token, { labels: 'bug,ui' });

    // Act
    const edited = await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: owner.token, body: { labels: 'ui,backend' } });
    const list = await api(events(project.id, issue.iid, 'label'), { token: owner.token });

    // Assert
    expect(edited.status).toBe(200);
    expect(list.status).toBe(200);
    const seen = list.body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`);
    expect(seen).toEqual(['add bug', 'add ui', 'add backend', 'remove bug']);
    expect(list.body[0]).toMatchObject({ resource_type: 'Issue', resource_id: issue.id, user: { id: owner.id, username: owner.username }, label: { name: 'bug', color: expect.any(String) } });
    const ids = list.body.map((e: { id: number }) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const single = await api(events(project.id, issue.iid, 'label', `/${ids[3]}`), { token: owner.token });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ id: ids[3], action: 'remove', label: { name: 'bug' } });
  });

  it('pages the events', async () => {
    // Arrange
    const issue = await openIssue(project.id, owner.token, { labels: 'p1,p2,p3' });

    // Act
    const page = await api(events(project.id, issue.iid, 'label'), { token: owner.token, query: { per_page: 2, page: 2 } });

    // Assert
    expect(page.status).toBe(200);
    expect(page.body.map((e: { label: { name: string } }) => e.label.name)).toEqual(['p3']);
    expect(page.headers.get('x-total')).toBe('3');
  });

  it('records state events for close and reopen (none on create), and milestone events', async () => {
    // Arrange
    const [first, second] = [await milestone(), await milestone()];
    const issue = await openIssue(project.id, owner.token, { milestone_id: first.id });
    const put = (body: Record<string, unknown>) => api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: owner.token, body });

    // Act
    expect((await put({ state_event: 'close' })).status).toBe(200);
    expect((await put({ state_event: 'close' })).status).toBe(200);
    expect((await put({ state_event: 'reopen' })).status).toBe(200);
    expect((await put({ milestone_id: second.id })).status).toBe(200);
    expect((await put({ milestone_id: 0 })).status).toBe(200);

    // Assert
    const states = await api(events(project.id, issue.iid, 'state'), { token: owner.token });
    expect(states.status).toBe(200);
    expect(states.body.map((e: { state: string }) => e.state)).toEqual(['closed', 'reopened']);
    expect(states.body[0]).toMatchObject({ resource_type: 'Issue', resource_id: issue.id, source_commit: null, source_merge_request_id: null, user: { id: owner.id } });
    const milestones = await api(events(project.id, issue.iid, 'milestone'), { token: owner.token });
    expect(milestones.body.map((e: { action: string; milestone: { id: number } }) => [e.action, e.milestone.id])).toEqual([
      ['add', first.id],
      ['add', second.id],
      ['remove', second.id],
    ]);
    expect(milestones.body[0]).toMatchObject({ state: 'opened', milestone: { title: first.title } });
  });

  it('records the close of a moved issue on the original', async () => {
    // Arrange
    const target = await createProject(owner.token, { visibility: 'private' });
    const issue = await openIssue(project.id, owner.token);

    // Act
    const moved = await api(`/projects/${project.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } });

    // Assert
    expect(moved.status).toBe(201);
    const states = await api(events(project.id, issue.iid, 'state'), { token: owner.token });
    expect(states.body).toEqual([expect.objectContaining({ state: 'closed', resource_id: issue.id, user: expect.objectContaining({ id: owner.id }) })]);
  });

  it('shows a deleted label as null', async () => {
    // Arrange
    const name = unique('gone');
    const issue = await openIssue(project.id, owner.token, { labels: name });
    const label = (await api(`/projects/${project.id}/labels/${encodeURIComponent(name)}`, { token: owner.token })).body;
    expect((await api(`/projects/${project.id}/labels/${label.id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);

    // Act
    const list = await api(events(project.id, issue.iid, 'label'), { token: owner.token });

    // Assert
    expect(list.body).toEqual([expect.objectContaining({ action: 'add', label: null })]);
  });

  it('writes no event for a change refused as bad input', async () => {
    // Arrange
    const issue = await openIssue(project.id, owner.token);

    // Act
    const refused = await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: owner.token, body: { labels: 'x', title: '' } });

    // Assert
    expect(refused.status).toBe(400);
    expect((await api(events(project.id, issue.iid, 'label'), { token: owner.token })).body).toEqual([]);
  });

  it('answers 404 to a stranger on a private project, for another issue\'s event id, and for an unknown id', async () => {
    // Arrange
    const stranger = await createUser();
    const issue = await openIssue(project.id, owner.token, { labels: 'bug' });
    const otherIssue = await openIssue(project.id, owner.token);
    const [event] = (await api(events(project.id, issue.iid, 'label'), { token: owner.token })).body;

    // Act
    const hidden = await api(events(project.id, issue.iid, 'label'), { token: stranger.token });
    const elsewhere = await api(events(project.id, otherIssue.iid, 'label', `/${event.id}`), { token: owner.token });
    const unknown = await api(events(project.id, issue.iid, 'state', '/999999999'), { token: owner.token });

    // Assert
    expect(hidden.status).toBe(404);
    expect(elsewhere.status).toBe(404);
    expect(unknown.status).toBe(404);
  });
});
