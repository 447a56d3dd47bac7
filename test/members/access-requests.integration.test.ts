/**
 * Access requests (GitLab's `lib/api/access_requests.rb`), as python-gitlab (`project.accessrequests`,
 * `group.accessrequests`) and gitbeaker call them: a user who sees a project or group without
 * access to it asks (when `request_access_enabled`); those who manage its members list, approve
 * (the user becomes a member, with the events of any new member) or deny; the requester may
 * withdraw. Refusals are GitLab's 403s, unknown requests its `404 Not found`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, type TestUser } from '../support/fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read field by field */
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;

describe('access requests', () => {
  let owner: TestUser;
  let maintainer: TestUser;
  let developer: TestUser;
  let requester: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    [owner, maintainer, developer, requester, other] = await Promise.all([createUser(), createUser(), createUser(), createUser(), createUser()]);
  });

  it('a project: a visitor asks once, a maintainer lists and approves at a level, and the user is a member who joined', async () => {
    // Prepare
    const project = await createProject(owner.token, { visibility: 'public', request_access_enabled: true });
    const [closed, hidden] = await Promise.all([createProject(owner.token, { visibility: 'public' }), createProject(owner.token, { visibility: 'private', request_access_enabled: true })]);
    await Promise.all([addMember('projects', project.id, maintainer.id, MAINTAINER), addMember('projects', project.id, developer.id, DEVELOPER)]);
    const path = `/projects/${project.id}/access_requests`;

    // Act
    // Two requests of one user at once: one is stored, the other refused.
    const [first, second] = await Promise.all([api(path, { method: 'POST', token: requester.token }), api(path, { method: 'POST', token: requester.token })]);
    const [asked, twice] = first.status === 201 ? [first, second] : [second, first];
    const byMember = await api(path, { method: 'POST', token: developer.token });
    const notEnabled = await api(`/projects/${closed.id}/access_requests`, { method: 'POST', token: requester.token });
    const privateOne = await api(`/projects/${hidden.id}/access_requests`, { method: 'POST', token: requester.token });
    const listed = await api(path, { token: maintainer.token });
    const listByDeveloper = await api(path, { token: developer.token });
    const approveByDeveloper = await api(`${path}/${requester.id}/approve`, { method: 'PUT', token: developer.token });
    const badLevel = await api(`${path}/${requester.id}/approve`, { method: 'PUT', token: maintainer.token, body: { access_level: 50 } });
    const unknown = await api(`${path}/${other.id}/approve`, { method: 'PUT', token: maintainer.token });
    const approved = await api(`${path}/${requester.id}/approve`, { method: 'PUT', token: maintainer.token, body: { access_level: REPORTER } });

    // Assess
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body).toEqual({
      id: requester.id,
      username: requester.username,
      name: `Test ${requester.username}`,
      state: 'active',
      avatar_url: null,
      web_url: expect.stringContaining(`/${requester.username}`),
      requested_at: expect.any(String),
    });
    expect([twice.status, byMember.status, notEnabled.status]).toEqual([403, 403, 403]);
    expect(byMember.body).toEqual({ message: '403 Forbidden' });
    expect(privateOne.status).toBe(404);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([asked.body]);
    expect([listByDeveloper.status, approveByDeveloper.status]).toEqual([403, 403]);
    expect(badLevel.status).toBe(400);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Not found' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(201);
    expect(approved.body).toMatchObject({ id: requester.id, username: requester.username, access_level: REPORTER, expires_at: null });
    expect((await api(`/projects/${project.id}/members/${requester.id}`, { token: owner.token })).body).toMatchObject({ access_level: REPORTER });
    expect((await api(path, { token: maintainer.token })).body).toEqual([]);
    const feed = await api(`/projects/${project.id}/events`, { token: owner.token });
    expect(feed.body.some((event: any) => event.action_name === 'joined' && event.author_id === requester.id)).toBe(true);
    // A member now: no new request; the old one is gone.
    expect((await api(path, { method: 'POST', token: requester.token })).status).toBe(403);
    expect((await api(`${path}/${requester.id}`, { method: 'DELETE', token: maintainer.token })).status).toBe(404);
  });

  it('a group: owners list, approve (developer by default, reaching its projects) and deny; the requester withdraws; maintainers and others are refused', async () => {
    // Prepare
    const group = await createGroup(owner.token, { visibility: 'public', request_access_enabled: true });
    const [subgroup, closed] = await Promise.all([
      createGroup(owner.token, { visibility: 'public', request_access_enabled: true, parent_id: group.id }),
      createGroup(owner.token, { visibility: 'public' }),
    ]);
    const inside = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const [third, fourth] = await Promise.all([createUser(), createUser()]);
    await addMember('groups', group.id, maintainer.id, MAINTAINER);
    const path = `/groups/${group.id}/access_requests`;
    const ask = (user: TestUser, at = path) => api(at, { method: 'POST', token: user.token });

    // Act
    const asked = await Promise.all([ask(requester), ask(other), ask(third)]);
    const byInherited = await ask(maintainer, `/groups/${subgroup.id}/access_requests`);
    const notEnabled = await ask(fourth, `/groups/${closed.id}/access_requests`);
    const listByMaintainer = await api(path, { token: maintainer.token });
    const listed = await api(path, { token: owner.token, query: { per_page: 2 } });
    const denyByOther = await api(`${path}/${other.id}`, { method: 'DELETE', token: third.token });
    const approveByMaintainer = await api(`${path}/${requester.id}/approve`, { method: 'PUT', token: maintainer.token });
    const withdrawn = await api(`${path}/${third.id}`, { method: 'DELETE', token: third.token });
    const denied = await api(`${path}/${other.id}`, { method: 'DELETE', token: owner.token });
    const approved = await api(`${path}/${requester.id}/approve`, { method: 'PUT', token: owner.token });

    // Assess
    expect(asked.map((response) => response.status)).toEqual([201, 201, 201]);
    expect([byInherited.status, notEnabled.status, listByMaintainer.status, denyByOther.status, approveByMaintainer.status]).toEqual([403, 403, 403, 403, 403]);
    expect(listed.body.map((entry: any) => entry.id)).toEqual([requester.id, other.id].sort((a, b) => a - b));
    expect(listed.headers.get('x-next-page')).toBe('2');
    expect([withdrawn.status, denied.status]).toEqual([204, 204]);
    expect(approved.status, JSON.stringify(approved.body)).toBe(201);
    expect(approved.body).toMatchObject({ id: requester.id, access_level: DEVELOPER });
    expect((await api(path, { token: owner.token })).body).toEqual([]);
    expect((await api(`/projects/${inside.id}`, { token: requester.token })).status).toBe(200);
    expect((await api(`/projects/${inside.id}`, { token: other.token })).status).toBe(404);
  });

  it('adding the requester as a member directly ends their request', async () => {
    const project = await createProject(owner.token, { visibility: 'public', request_access_enabled: true });
    const path = `/projects/${project.id}/access_requests`;
    expect((await api(path, { method: 'POST', token: other.token })).status).toBe(201);
    const added = await api(`/projects/${project.id}/members`, { method: 'POST', token: owner.token, body: { user_id: other.id, access_level: MAINTAINER } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await api(path, { token: owner.token })).body).toEqual([]);
    expect((await api(`${path}/${other.id}/approve`, { method: 'PUT', token: owner.token })).body).toEqual({ message: '404 Not found' });
    expect((await api(`/projects/${project.id}/members/${other.id}`, { token: owner.token })).body).toMatchObject({ access_level: MAINTAINER });
  });
});
