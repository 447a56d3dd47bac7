/**
 * A label literally named `promote`, as GitLab routes it (`lib/api/labels.rb`): `GET` and
 * `DELETE /projects/:id/labels/promote` reach that label by name; `PUT /projects/:id/labels/promote`
 * is the deprecated promotion (the label in `name`), declared before `PUT /labels/:name`;
 * `PUT /projects/:id/labels/promote/promote` promotes it. Groups have no promotion: every method
 * on `/groups/:id/labels/promote` reaches the group label named `promote`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser, type TestUser } from '../support/fixtures';

async function addProjectLabel(projectId: number, token: string, name: string) {
  const response = await api(`/projects/${projectId}/labels`, { token, body: { name, color: '#00FF00' } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: number; name: string };
}

describe('a project label named promote', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let group: { id: number };
  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'private' });
  });

  it('is read, subscribed to and deleted by name', async () => {
    // Arrange
    const project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const label = await addProjectLabel(project.id, owner.token, 'promote');

    // Act
    const read = await api(`/projects/${project.id}/labels/promote`, { token: owner.token });
    const head = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'HEAD' });
    const subscribed = await api(`/projects/${project.id}/labels/promote/subscribe`, { token: owner.token, method: 'POST' });
    const hidden = await api(`/projects/${project.id}/labels/promote`, { token: stranger.token });
    const deletedByStranger = await api(`/projects/${project.id}/labels/promote`, { token: stranger.token, method: 'DELETE' });
    const deleted = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'DELETE' });

    // Assert
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ id: label.id, name: 'promote', is_project_label: true });
    expect(head.status).toBe(200);
    expect(subscribed.status).toBe(201);
    expect(subscribed.body).toMatchObject({ id: label.id, subscribed: true });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect(deletedByStranger.status).toBe(404);
    expect(deleted.status).toBe(204);
    expect((await api(`/projects/${project.id}/labels/${label.id}`, { token: owner.token })).status).toBe(404);
  });

  it('PUT /labels/promote is the deprecated promotion: `name` is required, and an edit of the label goes by id', async () => {
    // Arrange
    const project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const label = await addProjectLabel(project.id, owner.token, 'promote');

    // Act
    const editByName = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'PUT', body: { color: '#0000FF' } });
    const editById = await api(`/projects/${project.id}/labels/${label.id}`, { token: owner.token, method: 'PUT', body: { description: 'kept' } });

    // Assert
    expect(editByName.status).toBe(400);
    expect(editByName.body).toEqual({ error: 'name is missing' });
    expect(editById.status, JSON.stringify(editById.body)).toBe(200);
    expect(editById.body).toMatchObject({ id: label.id, name: 'promote', color: '#00FF00', description: 'kept' });
  });

  it('PUT /labels/promote/promote promotes the label named promote to the group; PUT /labels/promote with name=promote too', async () => {
    // Arrange
    const [first, second] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
      createGroup(owner.token, { visibility: 'private' }).then((other) => createProject(owner.token, { namespace_id: other.id, visibility: 'private' }).then((project) => ({ project, group: other }))),
    ]);
    await addProjectLabel(first.id, owner.token, 'promote');
    await addProjectLabel(second.project.id, owner.token, 'promote');

    // Act
    const byPath = await api(`/projects/${first.id}/labels/promote/promote`, { token: owner.token, method: 'PUT' });
    const byBody = await api(`/projects/${second.project.id}/labels/promote`, { token: owner.token, method: 'PUT', body: { name: 'promote' } });

    // Assert
    expect(byPath.status, JSON.stringify(byPath.body)).toBe(200);
    expect(byPath.body).toMatchObject({ name: 'promote' });
    expect(byPath.body).not.toHaveProperty('is_project_label');
    expect(byBody.status, JSON.stringify(byBody.body)).toBe(200);
    expect((await api(`/groups/${group.id}/labels/promote`, { token: owner.token })).status).toBe(200);
    expect((await api(`/groups/${second.group.id}/labels/promote`, { token: owner.token })).status).toBe(200);
    expect((await api(`/projects/${first.id}/labels/promote`, { token: owner.token })).body).toMatchObject({ name: 'promote', is_project_label: false });
  });
});

describe('a group label named promote', () => {
  it('is read, edited and deleted by name', async () => {
    // Arrange
    const [owner, stranger] = await Promise.all([createUser(), createUser()]);
    const group = await createGroup(owner.token, { visibility: 'private' });
    const created = await api(`/groups/${group.id}/labels`, { token: owner.token, body: { name: 'promote', color: '#FF0000' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    // Act
    const read = await api(`/groups/${group.id}/labels/promote`, { token: owner.token });
    const hidden = await api(`/groups/${group.id}/labels/promote`, { token: stranger.token });
    const edited = await api(`/groups/${group.id}/labels/promote`, { token: owner.token, method: 'PUT', body: { color: '#0000FF' } });
    const deleted = await api(`/groups/${group.id}/labels/promote`, { token: owner.token, method: 'DELETE' });

    // Assert
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.body.id, name: 'promote' });
    expect(hidden.status).toBe(404);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ id: created.body.id, color: '#0000FF' });
    expect(deleted.status).toBe(204);
    expect((await api(`/groups/${group.id}/labels/${created.body.id}`, { token: owner.token })).status).toBe(404);
  });
});
