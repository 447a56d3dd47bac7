/**
 * `PUT /projects/:id/transfer` (GitLab's `Projects::TransferService`): a project moves to another
 * namespace with its path; the old path redirects to it, the new namespace's members reach it.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique } from '../support/fixtures';

const DEVELOPER = 30;
const MAINTAINER = 40;

describe('PUT /projects/:id/transfer', () => {
  it('moves a project to a group by path: its path, web_url and access follow, the old path redirects', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const group = await createGroup(owner.token);
    const member = await createUser();
    await addMember('groups', group.id, member.id, DEVELOPER);
    // Act
    const response = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: group.fullPath } });
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const fullPath = `${group.fullPath}/${project.path}`;
    expect(response.body).toMatchObject({
      id: project.id,
      path_with_namespace: fullPath,
      namespace: expect.objectContaining({ id: group.id, kind: 'group' }),
      web_url: expect.stringMatching(new RegExp(`/${fullPath}$`)),
    });
    expect((await api(`/projects/${encodeURIComponent(fullPath)}`, { token: owner.token })).body.id).toBe(project.id);
    // The old path redirects (GitLab's redirect route), until a project takes it.
    expect((await api(`/projects/${encodeURIComponent(project.fullPath)}`, { token: owner.token })).body).toMatchObject({ id: project.id, path_with_namespace: fullPath });
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(200);
    const listed = await api(`/groups/${group.id}/projects`, { token: owner.token });
    expect(listed.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    // The old namespace's path is free again: a new project may take it.
    await createProject(owner.token, { path: project.path, name: unique('again ') });
  });

  it('takes the visibility of a less visible namespace', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const group = await createGroup(owner.token, { visibility: 'private' });
    // Act
    const response = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: group.id } });
    // Assert
    expect(response.status).toBe(200);
    expect(response.body.visibility).toBe('private');
  });

  it("answers GitLab's 400 when the target has a project with the same path, and changes nothing", async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const group = await createGroup(owner.token);
    await createProject(owner.token, { namespace_id: group.id, path: project.path, name: unique('other ') });
    // Act
    const response = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: group.id } });
    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Failed to transfer project {:new_namespace=>["Project with same path in target namespace already exists"]}' });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body.path_with_namespace).toBe(project.fullPath);
  });

  it('refuses the same namespace, a namespace the caller may not create projects in, unknown namespaces and missing input', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const ownNamespace = project.fullPath.split('/')[0];
    const developerGroup = await createGroup((await createUser()).token);
    await addMember('groups', developerGroup.id, owner.id, DEVELOPER);
    const stranger = await createUser();
    // Act / Assert
    const same = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: ownNamespace } });
    expect([same.status, same.body]).toEqual([400, { message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' }]);
    const noRights = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: developerGroup.id } });
    expect(noRights.status).toBe(400);
    expect(noRights.body.message).toContain("You don't have permission to transfer projects into that namespace.");
    const otherUser = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: stranger.username } });
    expect([otherUser.status, otherUser.body]).toEqual([404, { message: '404 Namespace Not Found' }]);
    const missing = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'namespace is missing' }]);
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body.path_with_namespace).toBe(project.fullPath);
  });

  it('needs the owner: a maintainer gets 403, a stranger 404', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const group = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember('projects', project.id, maintainer.id, MAINTAINER);
    await addMember('groups', group.id, maintainer.id, MAINTAINER);
    const stranger = await createUser();
    // Act / Assert
    expect((await api(`/projects/${project.id}/transfer`, { token: maintainer.token, method: 'PUT', body: { namespace: group.id } })).status).toBe(403);
    expect((await api(`/projects/${project.id}/transfer`, { token: stranger.token, method: 'PUT', body: { namespace: group.id } })).status).toBe(404);
  });
});
