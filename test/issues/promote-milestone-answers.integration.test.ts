/**
 * What `POST /projects/:id/milestones/:milestone_id/promote` answers, as GitLab's
 * `API::ProjectMilestones`: 200 with the bare JSON body `200` (`status(200)`), and 403 when the
 * caller cannot manage the project's group's milestones, including a project outside any group
 * (authorized on `user_project.group`, which is nil there).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, ownedProject, unique, type TestUser } from '../support/fixtures';

async function addMilestone(projectId: number, token: string) {
  const response = await api(`/projects/${projectId}/milestones`, { token, body: { title: unique('pma') } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('promote milestone answers', () => {
  let owner: TestUser;
  let group: { id: number };
  let project: { id: number };
  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
    project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
  });

  it('answers 200 with the body 200, and the group has the milestone', async () => {
    // Arrange
    const developer = await createUser();
    await addMember('groups', group.id, developer.id, 30);
    const milestone = await addMilestone(project.id, owner.token);

    // Act
    const response = await api(`/projects/${project.id}/milestones/${milestone.id}/promote`, { token: developer.token, method: 'POST' });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toBe(200);
    const listed = (await api(`/groups/${group.id}/milestones`, { token: owner.token, query: { title: milestone.title } })).body;
    expect(listed).toEqual([expect.objectContaining({ group_id: group.id, title: milestone.title })]);
  });

  it('answers 403 for a project outside any group, to its owner and to an admin, and keeps the milestone', async () => {
    // Arrange
    const personal = await ownedProject();
    const milestone = await addMilestone(personal.id, personal.owner.token);
    const path = `/projects/${personal.id}/milestones/${milestone.id}/promote`;

    // Act
    const byOwner = await api(path, { token: personal.owner.token, method: 'POST' });
    const byAdmin = await api(path, { token: rootToken(), method: 'POST' });

    // Assert
    expect(byOwner.status).toBe(403);
    expect(byOwner.body).toEqual({ message: '403 Forbidden' });
    expect(byAdmin.status).toBe(403);
    expect((await api(`/projects/${personal.id}/milestones/${milestone.id}`, { token: personal.owner.token })).body).toMatchObject({ id: milestone.id, project_id: personal.id });
  });

  it('answers 403 to a project maintainer who has no role in the group, writing nothing', async () => {
    // Arrange
    const maintainer = await createUser();
    await addMember('projects', project.id, maintainer.id, 40);
    const milestone = await addMilestone(project.id, owner.token);

    // Act
    const response = await api(`/projects/${project.id}/milestones/${milestone.id}/promote`, { token: maintainer.token, method: 'POST' });

    // Assert
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
    expect((await api(`/groups/${group.id}/milestones`, { token: owner.token, query: { title: milestone.title } })).body).toEqual([]);
    expect((await api(`/projects/${project.id}/milestones/${milestone.id}`, { token: owner.token })).status).toBe(200);
  });
});
