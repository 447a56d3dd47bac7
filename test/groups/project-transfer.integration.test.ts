/**
 * `POST /groups/:id/projects/:project_id` (GitLab's `lib/api/groups.rb`): an admin moves a project
 * into a group with `PUT /projects/:id/transfer`'s command; 201 with the group (`GroupDetail`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createProject, createUser, type TestUser } from '../support/fixtures';

const root = () => ({ token: rootToken(), method: 'POST' as const });

describe('POST /groups/:id/projects/:project_id', () => {
  let owner: TestUser;
  let group: { id: number; fullPath: string };
  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
  });

  it("moves a user's project (given by id or path) into the group as an admin, capping its visibility", async () => {
    // Arrange
    const [byId, byPath] = await Promise.all([createProject(owner.token, { visibility: 'public' }), createProject(owner.token, { visibility: 'private' })]);

    // Act
    const response = await api(`/groups/${group.id}/projects/${byId.id}`, root());
    const second = await api(`/groups/${encodeURIComponent(group.fullPath)}/projects/${encodeURIComponent(byPath.fullPath)}`, root());

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ id: group.id, full_path: group.fullPath });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const moved = (await api(`/projects/${byId.id}`, { token: owner.token })).body;
    expect(moved).toMatchObject({ path_with_namespace: `${group.fullPath}/${byId.path}`, visibility: 'private', namespace: { id: group.id, kind: 'group' } });
    expect((await api(`/projects/${byPath.id}`, { token: owner.token })).body.namespace.id).toBe(group.id);
  });

  it('answers 403 to a non-admin, even one who owns the group and the project, and moves nothing', async () => {
    // Arrange
    const project = await createProject(owner.token);

    // Act
    const response = await api(`/groups/${group.id}/projects/${project.id}`, { token: owner.token, method: 'POST' });

    // Assert
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body.path_with_namespace).toBe(project.fullPath);
  });

  it('answers 404 for an unknown group or project, and 400 for a project already in the group', async () => {
    // Arrange
    const project = await createProject(owner.token, { namespace_id: group.id });

    // Act
    const noGroup = await api(`/groups/999999999/projects/${project.id}`, root());
    const noProject = await api(`/groups/${group.id}/projects/999999999`, root());
    const already = await api(`/groups/${group.id}/projects/${project.id}`, root());

    // Assert
    expect(noGroup.status).toBe(404);
    expect(noGroup.body).toEqual({ message: '404 Group Not Found' });
    expect(noProject.status).toBe(404);
    expect(noProject.body).toEqual({ message: '404 Project Not Found' });
    expect(already.status).toBe(400);
    expect(already.body).toEqual({ message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' });
  });

  it('answers 400 when the group has a project of the same path, leaving the project where it was', async () => {
    // Arrange
    const other = await createUser();
    const mine = await createProject(owner.token, { namespace_id: group.id });
    const theirs = await createProject(other.token, { path: mine.path, name: `${mine.path} other` });

    // Act
    const response = await api(`/groups/${group.id}/projects/${theirs.id}`, root());

    // Assert
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^Failed to transfer project \{:new_namespace=>\["Project with same (path|name) in target namespace already exists"\]\}$/);
    expect((await api(`/projects/${theirs.id}`, { token: other.token })).body.path_with_namespace).toBe(theirs.fullPath);
  });
});
