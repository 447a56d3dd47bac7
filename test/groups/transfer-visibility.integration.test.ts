/**
 * `POST /groups/:id/transfer` under a less visible parent lowers the group, its subgroups and the
 * projects of them all to the parent's visibility (GitLab's `Groups::TransferService`
 * `update_children_and_projects_visibility`); a refused transfer changes none of them.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser } from '../support/fixtures';

const visibilityOf = async (kind: 'groups' | 'projects', id: number, token: string) => (await api(`/${kind}/${id}`, { token })).body.visibility;

describe('group transfer and visibility', () => {
  it("lowers the group's subgroups and projects to a private parent's visibility", async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const sub = await createGroup(owner.token, { visibility: 'internal', parent_id: group.id });
    const [top, nested, closed] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'public' }),
      createProject(owner.token, { namespace_id: sub.id, visibility: 'internal' }),
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
    ]);
    const parent = await createGroup(owner.token, { visibility: 'private' });

    // Act
    const response = await api(`/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: parent.id } });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.visibility).toBe('private');
    expect(await visibilityOf('groups', sub.id, owner.token)).toBe('private');
    expect(await visibilityOf('projects', top.id, owner.token)).toBe('private');
    expect(await visibilityOf('projects', nested.id, owner.token)).toBe('private');
    expect(await visibilityOf('projects', closed.id, owner.token)).toBe('private');
  });

  it('keeps projects no more visible than an internal parent as they are, lowering the public ones only', async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const [open, inner] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'public' }),
      createProject(owner.token, { namespace_id: group.id, visibility: 'internal' }),
    ]);
    const parent = await createGroup(owner.token, { visibility: 'internal' });

    // Act
    const response = await api(`/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: parent.id } });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(await visibilityOf('projects', open.id, owner.token)).toBe('internal');
    expect(await visibilityOf('projects', inner.id, owner.token)).toBe('internal');
  });

  it('changes no visibility when the transfer is refused', async () => {
    // Arrange: the caller owns the group but is only a developer of the private parent
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const project = await createProject(owner.token, { namespace_id: group.id, visibility: 'public' });
    const stranger = await createUser();
    const parent = await createGroup(stranger.token, { visibility: 'private' });
    expect((await api(`/groups/${parent.id}/members`, { token: stranger.token, body: { user_id: owner.id, access_level: 30 } })).status).toBe(201);

    // Act
    const response = await api(`/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: parent.id } });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "Transfer failed: You don't have enough permissions." });
    expect(await visibilityOf('groups', group.id, owner.token)).toBe('public');
    expect(await visibilityOf('projects', project.id, owner.token)).toBe('public');
  });
});
