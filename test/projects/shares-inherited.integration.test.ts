/**
 * A project shared with a group is reached by that group's members *including inherited ones*:
 * the members of the invited group's ancestors (GitLab's `ProjectGroupLink` authorizations).
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser } from '../support/fixtures';

const REPORTER = 20;
const OWNER = 50;

describe('POST /projects/:id/share with a subgroup', () => {
  it("gives the members of the invited subgroup's ancestors access, capped at the share's level", async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const parent = await createGroup(owner.token);
    const invited = await createGroup(owner.token, { parent_id: parent.id });
    const inherited = await createUser();
    await addMember('groups', parent.id, inherited.id, OWNER);
    expect((await api(`/projects/${project.id}`, { token: inherited.token })).status).toBe(404);
    // Act
    const share = await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: REPORTER } });
    // Assert
    expect(share.status).toBe(201);
    const seen = await api(`/projects/${project.id}`, { token: inherited.token });
    expect(seen.status).toBe(200);
    // Reporter at most: no edit.
    expect((await api(`/projects/${project.id}`, { token: inherited.token, method: 'PUT', body: { description: 'x' } })).status).toBe(403);
    const listed = await api('/projects', { token: inherited.token, query: { membership: true } });
    expect(listed.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
  });
});
