/**
 * Group transfer (`POST /groups/:id/transfer`) and group sharing (`POST /groups/:id/share`,
 * `DELETE /groups/:id/share/:group_id`), as current GitLab: a transfer moves every descendant's
 * full path (old paths stop resolving), and the members of a group a group is shared with (with
 * those inherited from its ancestors) get access to it, its subgroups and projects, capped at the
 * link's level. Every test builds its own users and groups.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique } from '../support/fixtures';

const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

const at = (fullPath: string) => `/groups/${encodeURIComponent(fullPath)}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('POST /groups/:id/transfer', () => {
  it('moves a group with its subgroups and projects under a new parent; old paths stop resolving', async () => {
    // Arrange: owner of both trees
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const child = await createGroup(owner.token, { parent_id: group.id });
    const project = await createProject(owner.token, { namespace_id: child.id });
    const target = await createGroup(owner.token);
    // Act
    const response = await api(`/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: target.id } });
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const moved = `${target.fullPath}/${group.fullPath}`;
    expect(response.body).toMatchObject({ id: group.id, parent_id: target.id, full_path: moved, web_url: expect.stringMatching(new RegExp(`/groups/${moved}$`)) });
    const childNow = await api(at(`${moved}/${child.fullPath.split('/').pop()}`), { token: owner.token });
    expect(childNow.status).toBe(200);
    expect(childNow.body.id).toBe(child.id);
    const projectNow = await api(`/projects/${project.id}`, { token: owner.token });
    expect(projectNow.body.path_with_namespace).toBe(`${moved}/${child.fullPath.split('/').pop()}/${project.path}`);
    expect((await api(`/projects/${encodeURIComponent(projectNow.body.path_with_namespace)}`, { token: owner.token })).status).toBe(200);
    expect((await api(at(group.fullPath), { token: owner.token })).status).toBe(404);
    expect((await api(at(child.fullPath), { token: owner.token })).status).toBe(404);
    const subgroups = await api(`/groups/${target.id}/subgroups`, { token: owner.token });
    expect(subgroups.body.map((g: { id: number }) => g.id)).toEqual([group.id]);
    // Members of the new parent now inherit access to the project.
    const parentMember = await createUser();
    await addMember('groups', target.id, parentMember.id, DEVELOPER);
    expect((await api(`/projects/${project.id}`, { token: parentMember.token })).status).toBe(200);
  });

  it('moves a subgroup to the top level when group_id is omitted, and finds it in search by its new path', async () => {
    // Arrange
    const owner = await createUser();
    const parent = await createGroup(owner.token);
    const child = await createGroup(owner.token, { parent_id: parent.id, path: unique('mv') });
    const path = child.fullPath.split('/').pop()!;
    // Act
    const response = await api(`/groups/${child.id}/transfer`, { token: owner.token, body: {} });
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ parent_id: null, full_path: path });
    expect((await api(at(path), { token: owner.token })).body.id).toBe(child.id);
    expect((await api(`/groups/${parent.id}/subgroups`, { token: owner.token })).body).toEqual([]);
    const found = await api('/groups', { token: rootToken(), query: { search: path, all_available: true } });
    expect(found.body.map((g: { full_path: string }) => g.full_path)).toEqual([path]);
  });

  it("answers GitLab's 400s and changes nothing: already root, same parent, into its own subgroup, path taken, no rights on the target", async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const child = await createGroup(owner.token, { parent_id: group.id });
    const target = await createGroup(owner.token);
    const childPath = child.fullPath.split('/').pop()!;
    await createGroup(owner.token, { parent_id: target.id, path: childPath, name: childPath });
    const foreign = await createGroup((await createUser()).token, { visibility: 'public' });
    const cases: Array<[number, Record<string, unknown>, string]> = [
      [group.id, {}, 'Transfer failed: Group is already a root group.'],
      [child.id, { group_id: group.id }, 'Transfer failed: Group is already associated to the parent group.'],
      [group.id, { group_id: child.id }, 'Transfer failed: Cannot transfer group to one of its subgroup.'],
      [child.id, { group_id: target.id }, 'Transfer failed: The parent group already has a subgroup or a project with the same path.'],
      [group.id, { group_id: foreign.id }, "Transfer failed: You don't have enough permissions."],
    ];
    for (const [id, body, message] of cases) {
      // Act
      const response = await api(`/groups/${id}/transfer`, { token: owner.token, body });
      // Assert
      expect([response.status, response.body], JSON.stringify(body)).toEqual([400, { message }]);
    }
    expect((await api(at(child.fullPath), { token: owner.token })).body.parent_id).toBe(group.id);
    expect((await api(at(group.fullPath), { token: owner.token })).body.parent_id).toBe(null);
  });

  it('needs owner rights on the group (403) and hides a private group from strangers (404)', async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember('groups', group.id, maintainer.id, MAINTAINER);
    const stranger = await createUser();
    // Act / Assert
    expect((await api(`/groups/${group.id}/transfer`, { token: maintainer.token, body: {} })).status).toBe(403);
    expect((await api(`/groups/${group.id}/transfer`, { token: stranger.token, body: {} })).status).toBe(404);
  });

  it('lets only one of two concurrent transfers to the same path win', async () => {
    // Arrange: two groups with the same path under different parents, moved to one target
    const owner = await createUser();
    const path = unique('race');
    const [a, b] = [await createGroup(owner.token), await createGroup(owner.token)];
    const first = await createGroup(owner.token, { parent_id: a.id, path, name: path });
    const second = await createGroup(owner.token, { parent_id: b.id, path, name: path });
    const target = await createGroup(owner.token);
    // Act
    const responses = await Promise.all([first, second].map((g) => api(`/groups/${g.id}/transfer`, { token: owner.token, body: { group_id: target.id } })));
    // Assert
    expect(responses.map((r) => r.status).sort()).toEqual([201, expect.any(Number)]);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect((await api(`/groups/${target.id}/subgroups`, { token: owner.token })).body).toHaveLength(1);
  });
});

describe('POST /groups/:id/share', () => {
  it("shares a group: the invited group's members (and its ancestors') reach its subgroups and projects at the link's level", async () => {
    // Arrange
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parent_id: shared.id });
    const project = await createProject(owner.token, { namespace_id: sub.id });
    const invitedParent = await createGroup(owner.token, { name: 'Invited parent' });
    const invited = await createGroup(owner.token, { parent_id: invitedParent.id });
    const direct = await createUser();
    await addMember('groups', invited.id, direct.id, MAINTAINER);
    const inherited = await createUser();
    await addMember('groups', invitedParent.id, inherited.id, OWNER);
    expect((await api(`/projects/${project.id}`, { token: direct.token })).status).toBe(404);
    // Act
    const response = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: DEVELOPER } });
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.shared_with_groups).toEqual([
      { group_id: invited.id, group_name: expect.any(String), group_full_path: invited.fullPath, group_access_level: DEVELOPER, expires_at: null },
    ]);
    for (const user of [direct, inherited]) {
      const seen = await api(`/projects/${project.id}`, { token: user.token });
      expect(seen.status).toBe(200);
      expect(seen.body.permissions.project_access).toBe(null);
      expect((await api(`/groups/${sub.id}`, { token: user.token })).status).toBe(200);
      // Developer (capped), not maintainer or owner: no settings.
      expect((await api(`/projects/${project.id}`, { token: user.token, method: 'PUT', body: { description: 'x' } })).status).toBe(403);
    }
    const listed = await api('/projects', { token: inherited.token, query: { membership: true } });
    expect(listed.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect((await api(`/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toHaveLength(1);
  });

  it('gives nothing from the expiry day on', async () => {
    // Arrange
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespace_id: shared.id });
    const invited = await createGroup(owner.token);
    const member = await createUser();
    await addMember('groups', invited.id, member.id, REPORTER);
    // Act
    const response = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: DEVELOPER, expires_at: day(0) } });
    // Assert
    expect(response.status).toBe(201);
    expect(response.body.shared_with_groups[0].expires_at).toBe(day(0));
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
  });

  it('refuses bad input, a second share (409), non-owners (404) and unknown groups, writing nothing', async () => {
    // Arrange
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const invited = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember('groups', shared.id, maintainer.id, MAINTAINER);
    // Act / Assert
    const missing = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id } });
    expect([missing.status, missing.body]).toEqual([400, { error: 'group_access is missing' }]);
    const badLevel = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: 35 } });
    expect(badLevel.status).toBe(400);
    const badDate = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: 30, expires_at: 'soon' } });
    expect(badDate.status).toBe(400);
    expect((await api(`/groups/${shared.id}/share`, { token: maintainer.token, body: { group_id: invited.id, group_access: 30 } })).status).toBe(404);
    expect((await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: 999999999, group_access: 30 } })).status).toBe(404);
    expect((await api(`/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
    expect((await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: 30 } })).status).toBe(201);
    const again = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: 40 } });
    expect(again.status).toBe(409);
    expect((await api(`/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toHaveLength(1);
  });
});

describe('DELETE /groups/:id/share/:group_id', () => {
  it('removes the share and the access it gave; 404 for a share that does not exist; owners only', async () => {
    // Arrange
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespace_id: shared.id });
    const invited = await createGroup(owner.token);
    const member = await createUser();
    await addMember('groups', invited.id, member.id, DEVELOPER);
    await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: DEVELOPER } });
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(200);
    const maintainer = await createUser();
    await addMember('groups', shared.id, maintainer.id, MAINTAINER);
    // Act / Assert
    expect((await api(`/groups/${shared.id}/share/${invited.id}`, { token: maintainer.token, method: 'DELETE' })).status).toBe(403);
    const removed = await api(`/groups/${shared.id}/share/${invited.id}`, { token: owner.token, method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
    expect((await api(`/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
    const again = await api(`/groups/${shared.id}/share/${invited.id}`, { token: owner.token, method: 'DELETE' });
    expect([again.status, again.body]).toEqual([404, { message: '404 Group Link Not Found' }]);
  });

  it('removes the shares with a group when that group is deleted', async () => {
    // Arrange
    const owner = await createUser();
    const shared = await createGroup(owner.token);
    const invited = await createGroup(owner.token);
    await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: DEVELOPER } });
    // Act
    expect((await api(`/groups/${invited.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(202);
    // Assert
    expect((await api(`/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
  });
});

describe('GET /projects?membership=true (inherited membership)', () => {
  it('lists the projects of subgroups of the groups the user is a member of', async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parent_id: group.id });
    const deep = await createGroup(owner.token, { parent_id: sub.id });
    const inSub = await createProject(owner.token, { namespace_id: sub.id });
    const inDeep = await createProject(owner.token, { namespace_id: deep.id });
    const member = await createUser();
    await addMember('groups', group.id, member.id, REPORTER);
    // Act
    const membership = await api('/projects', { token: member.token, query: { membership: true } });
    const visible = await api('/projects', { token: member.token, query: { visibility: 'private' } });
    // Assert
    expect(membership.body.map((p: { id: number }) => p.id)).toEqual([inDeep.id, inSub.id]);
    expect(visible.body.map((p: { id: number }) => p.id)).toEqual([inDeep.id, inSub.id]);
  });
});
