/**
 * `PUT /projects/:id/labels/promote` with the label in `name` (GitLab 12.3's form, deprecated
 * but still served by `lib/api/labels.rb`): the same promotion as `/labels/:label_id/promote`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, ownedProject, unique, type TestUser } from '../support/fixtures';

async function addLabel(projectId: number, token: string) {
  const response = await api(`/projects/${projectId}/labels`, { token, body: { name: unique('plb'), color: '#FF0000' } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: number; name: string };
}

describe('PUT /projects/:id/labels/promote', () => {
  let owner: TestUser;
  let group: { id: number };
  let project: { id: number };
  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
    project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
  });

  it('promotes the label named in `name` (or given by id) to a group label', async () => {
    // Arrange
    const [byName, byId] = await Promise.all([addLabel(project.id, owner.token), addLabel(project.id, owner.token)]);

    // Act
    const promoted = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'PUT', body: { name: byName.name } });
    const promotedById = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'PUT', body: { name: String(byId.id) } });

    // Assert
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ name: byName.name, color: '#FF0000' });
    expect(promoted.body).not.toHaveProperty('is_project_label');
    expect(promotedById.status).toBe(200);
    const groupNames = (await api(`/groups/${group.id}/labels`, { token: owner.token, query: { per_page: 100 } })).body.map((label: { name: string }) => label.name);
    expect(groupNames).toEqual(expect.arrayContaining([byName.name, byId.name]));
    const projectLabel = (await api(`/projects/${project.id}/labels/${encodeURIComponent(byName.name)}`, { token: owner.token })).body;
    expect(projectLabel).toMatchObject({ name: byName.name, is_project_label: false });
  });

  it('refuses bad input and writes nothing: no `name`, an unknown label, a project outside any group', async () => {
    // Arrange
    const personal = await ownedProject();
    const personalLabel = await addLabel(personal.id, personal.owner.token);

    // Act
    const missing = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'PUT', body: {} });
    const unknown = await api(`/projects/${project.id}/labels/promote`, { token: owner.token, method: 'PUT', body: { name: unique('none') } });
    const outside = await api(`/projects/${personal.id}/labels/promote`, { token: personal.owner.token, method: 'PUT', body: { name: personalLabel.name } });

    // Assert
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Label Not Found' });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ message: 'Failed to promote project label to group label' });
    expect((await api(`/projects/${personal.id}/labels/${personalLabel.id}`, { token: personal.owner.token })).body).toMatchObject({ is_project_label: true });
  });

  it('answers 403 to a project maintainer without a role in the group, and 404 to a stranger; the label stays', async () => {
    // Arrange
    const [maintainer, stranger] = await Promise.all([createUser(), createUser()]);
    await addMember('projects', project.id, maintainer.id, 40);
    const label = await addLabel(project.id, owner.token);

    // Act
    const byMaintainer = await api(`/projects/${project.id}/labels/promote`, { token: maintainer.token, method: 'PUT', body: { name: label.name } });
    const byStranger = await api(`/projects/${project.id}/labels/promote`, { token: stranger.token, method: 'PUT', body: { name: label.name } });

    // Assert
    expect(byMaintainer.status).toBe(403);
    expect(byStranger.status).toBe(404);
    expect(byStranger.body).toEqual({ message: '404 Project Not Found' });
    expect((await api(`/projects/${project.id}/labels/${label.id}`, { token: owner.token })).body).toMatchObject({ is_project_label: true });
  });
});
