/**
 * System hooks (`/hooks`, admins) and the system events delivered to them end to end: a change →
 * the outbox item its listener puts → the table's stream → the delivery function → an HTTP
 * receiver started by this test. Local runtime only (hooks may target 127.0.0.1 there).
 *
 * The hook registered here gets every system event of the instance while it exists (other files'
 * too): deliveries are matched by this file's ids, and the hooks are removed at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { createGroup, createProject, createUser, type TestUser } from '../support/fixtures';
import { WebhookReceiver, type Delivery } from '../support/webhooks';

describe.skipIf(!isLocalRuntime())('system hooks', () => {
  let receiver: WebhookReceiver;
  let hookId: number;
  let user: TestUser;

  const system = (match: (body: Delivery['body']) => boolean) => receiver.first((d) => d.path === '/system' && d.event === 'System Hook' && match(d.body));

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const created = await api('/hooks', { token: rootToken(), body: { url: receiver.url('/system'), token: 'sys-secret', push_events: true, tag_push_events: true } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    hookId = created.body.id;
    user = await createUser();
  });

  afterAll(async () => {
    await api(`/hooks/${hookId}`, { method: 'DELETE', token: rootToken() });
    await receiver.close();
  });

  it('lets admins add, list, read, edit, test and remove system hooks; others get 403, anonymous callers 401', async () => {
    // Act
    const [missing, invalid, listed, read, forbidden, anonymous] = await Promise.all([
      api('/hooks', { token: rootToken(), body: { push_events: true } }),
      api('/hooks', { token: rootToken(), body: { url: 'ftp://example.com/hook' } }),
      api('/hooks', { token: rootToken(), query: { per_page: 100 } }),
      api(`/hooks/${hookId}`, { token: rootToken() }),
      api('/hooks', { token: user.token }),
      api('/hooks'),
    ]);
    const other = await api('/hooks', { token: rootToken(), body: { url: 'https://example.com/other' } });
    const edited = await api(`/hooks/${other.body.id}`, { method: 'PUT', token: rootToken(), body: { merge_requests_events: true, name: 'Audit' } });
    const test = await api(`/hooks/${hookId}`, { method: 'POST', token: rootToken() });
    const removed = await api(`/hooks/${other.body.id}`, { method: 'DELETE', token: rootToken() });
    const [gone, removedAgain] = await Promise.all([api(`/hooks/${other.body.id}`, { token: rootToken() }), api(`/hooks/${other.body.id}`, { method: 'DELETE', token: rootToken() })]);

    // Assert
    expect(missing).toMatchObject({ status: 400, body: { error: 'url is missing' } });
    expect(invalid).toMatchObject({ status: 422, body: { message: 'Invalid url given' } });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: hookId, url: receiver.url('/system'), push_events: true, tag_push_events: true, merge_requests_events: false, repository_update_events: true, enable_ssl_verification: true });
    expect(read.body).not.toHaveProperty('token');
    expect(listed.body).toContainEqual(read.body);
    expect(forbidden.status).toBe(403);
    expect(anonymous.status).toBe(401);
    expect(other.body).toMatchObject({ push_events: false, repository_update_events: true });
    expect(edited).toMatchObject({ status: 200, body: { id: other.body.id, merge_requests_events: true, name: 'Audit', url: 'https://example.com/other' } });
    expect(test).toMatchObject({ status: 201, body: { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1 } });
    expect(removed.status).toBe(204);
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(removedAgain.status).toBe(404);
    const sample = await system((body) => body.event_name === 'project_create' && body.name === 'Ruby');
    expect(sample?.headers['x-gitlab-token']).toBe('sys-secret');
  });

  it('sends user, project, member and group events, and pushes and tags as the flags say', async () => {
    // Act
    const [member, project, group] = await Promise.all([createUser(), createProject(user.token), createGroup(user.token)]);
    const [groupDeleted, added, commit] = await Promise.all([
      api(`/groups/${group.id}`, { method: 'DELETE', token: user.token }),
      api(`/projects/${project.id}/members`, { token: rootToken(), body: { user_id: member.id, access_level: 30 } }),
      api(`/projects/${project.id}/repository/commits`, {
        token: user.token,
        body: { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] },
      }),
    ]);
    expect([groupDeleted.status, added.status, commit.status]).toEqual([202, 201, 201]);
    const [removed, tagged] = await Promise.all([
      api(`/projects/${project.id}/members/${member.id}`, { method: 'DELETE', token: rootToken() }),
      api(`/projects/${project.id}/repository/tags`, { token: user.token, body: { tag_name: 'v1', ref: 'main' } }),
    ]);
    expect([removed.status, tagged.status]).toEqual([204, 201]);
    // Assert
    const created = await system((body) => body.event_name === 'user_create' && body.user_id === member.id);
    expect(created?.body).toMatchObject({ username: member.username, email: member.email, name: `Test ${member.username}` });
    expect(created?.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await system((body) => body.event_name === 'project_create' && body.path === project.path))?.body).toMatchObject({
      project_id: project.id,
      path: project.path,
      path_with_namespace: project.fullPath,
      project_visibility: 'private',
      owner_name: `Test ${user.username}`,
      owners: [{ name: `Test ${user.username}`, email: '[REDACTED]' }],
    });
    const teamChange = { project_id: project.id, project_path_with_namespace: project.fullPath, user_id: member.id, user_username: member.username, access_level: 'Developer' };
    expect((await system((body) => body.event_name === 'user_add_to_team' && body.user_id === member.id))?.body).toMatchObject(teamChange);
    expect((await system((body) => body.event_name === 'user_remove_from_team' && body.user_id === member.id))?.body).toMatchObject(teamChange);
    expect((await system((body) => body.event_name === 'group_create' && body.group_id === group.id))?.body).toMatchObject({ full_path: group.fullPath, path: group.fullPath });
    const push = await system((body) => body.object_kind === 'push' && body.project_id === project.id);
    expect(push?.body).toMatchObject({ event_name: 'push', ref: 'refs/heads/main', after: commit.body.id, commits: [], total_commits_count: 1, user_username: user.username });
    expect((await system((body) => body.object_kind === 'tag_push' && body.project_id === project.id))?.body).toMatchObject({ ref: 'refs/tags/v1', checkout_sha: commit.body.id });
    expect((await system((body) => body.event_name === 'repository_update' && body.project_id === project.id))?.body).toMatchObject({
      user_id: user.id,
      changes: [{ after: commit.body.id, ref: 'refs/heads/main' }],
      project: { path_with_namespace: project.fullPath },
    });
    expect((await system((body) => body.event_name === 'group_destroy' && body.group_id === group.id))?.body).toMatchObject({ full_path: group.fullPath });

    // Act: deletions, once the project's events are delivered (delivery drops a deleted project's).
    const [projectDeleted, userDeleted] = await Promise.all([
      api(`/projects/${project.id}`, { method: 'DELETE', token: user.token }),
      api(`/users/${member.id}`, { method: 'DELETE', token: rootToken() }),
    ]);
    expect(projectDeleted.status).toBe(202);
    expect(userDeleted.status).toBeLessThan(300);
    expect((await system((body) => body.event_name === 'project_destroy' && body.project_id === project.id))?.body).toMatchObject({ path_with_namespace: project.fullPath });
    expect((await system((body) => body.event_name === 'user_destroy' && body.user_id === member.id))?.body).toMatchObject({ username: member.username });
  });
});
