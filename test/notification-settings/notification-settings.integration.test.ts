/**
 * Notification settings as python-gitlab calls them (`gl.notificationsettings`,
 * `group.notificationsettings`, `project.notificationsettings`: get, then save): the global level
 * and notification email, a group's and a project's level with custom events, and GitLab's
 * answers to bad input and to sources the caller cannot read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';

describe('notification settings', () => {
  let owner: TestUser;
  let outsider: TestUser;
  let group: { id: number; fullPath: string };
  let project: { id: number; fullPath: string };

  beforeAll(async () => {
    [owner, outsider] = await Promise.all([createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'private' });
    project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
  });

  it('reads and writes the global level and notification email, which must be one of the caller\'s emails', async () => {
    // Prepare
    const secondary = `${unique('alt')}@example.com`;
    expect((await api('/user/emails', { token: owner.token, body: { email: secondary } })).status).toBe(201);
    const initial = await api('/notification_settings', { token: owner.token });

    // Act
    const watch = await api('/notification_settings', { method: 'PUT', token: owner.token, body: { level: 'watch' } });
    const unverified = await api('/notification_settings', { method: 'PUT', token: owner.token, body: { level: 'disabled', notification_email: 'nobody@example.com' } });
    const badLevel = await api('/notification_settings', { method: 'PUT', token: owner.token, query: { level: 'loud' } });
    const email = await api('/notification_settings', { method: 'PUT', token: owner.token, query: { notification_email: secondary.toUpperCase() } });
    const custom = await api('/notification_settings', { method: 'PUT', token: owner.token, body: { level: 'custom', new_note: true, failed_pipeline: false } });
    const reset = await api('/notification_settings', { method: 'PUT', token: owner.token, body: { notification_email: '' } });
    const anonymous = await api('/notification_settings');

    // Assess
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ level: 'participating', notification_email: owner.email });
    expect(watch.body).toEqual({ level: 'watch', notification_email: owner.email });
    // Bad input changes nothing: the level stays `watch`.
    expect(unverified.status).toBe(400);
    expect(unverified.body).toEqual({ message: { notification_email: ['must be an email you have verified'] } });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ message: "'loud' is not a valid level" });
    expect(email.status).toBe(200);
    expect(email.body).toEqual({ level: 'watch', notification_email: secondary });
    expect(custom.body).toMatchObject({ level: 'custom', notification_email: secondary });
    expect(custom.body.events).toMatchObject({ new_note: true, failed_pipeline: false, new_issue: null, moved_project: true, merge_when_pipeline_succeeds: false, new_release: null });
    expect(Object.keys(custom.body.events)).toHaveLength(19);
    expect(reset.body).toMatchObject({ level: 'custom', notification_email: owner.email });
    expect(anonymous.status).toBe(401);
  });

  it('reads and writes a group\'s and a project\'s level and events, for sources the caller may read only', async () => {
    // Prepare
    const groupPath = `/groups/${group.id}/notification_settings`;
    const projectPath = `/projects/${encodeURIComponent(project.fullPath)}/notification_settings`;
    const [groupInitial, projectInitial] = await Promise.all([api(groupPath, { token: owner.token }), api(projectPath, { token: owner.token })]);

    // Act
    const groupWatch = await api(groupPath, { method: 'PUT', token: owner.token, body: { level: 'watch' } });
    const projectCustom = await api(projectPath, { method: 'PUT', token: owner.token, query: { level: 'custom', new_note: 'true' } });
    // Two events set at once by two requests: both hold.
    await Promise.all([
      api(projectPath, { method: 'PUT', token: owner.token, body: { new_issue: true } }),
      api(projectPath, { method: 'PUT', token: owner.token, body: { close_issue: true } }),
    ]);
    const projectRead = await api(`/projects/${project.id}/notification_settings`, { token: owner.token });
    const badLevel = await api(groupPath, { method: 'PUT', token: owner.token, body: { level: 'everything' } });
    const badFlag = await api(projectPath, { method: 'PUT', token: owner.token, body: { level: 'watch', new_note: 'maybe' } });
    const afterBad = await api(projectPath, { token: owner.token });
    const hidden = await Promise.all([
      api(groupPath, { token: outsider.token }),
      api(groupPath, { method: 'PUT', token: outsider.token, body: { level: 'watch' } }),
      api(projectPath, { token: outsider.token }),
      api(`/projects/${project.id}/notification_settings`, { method: 'PUT', token: outsider.token, body: { level: 'watch' } }),
      api('/projects/999999999/notification_settings', { token: owner.token }),
    ]);
    const groupRead = await api(`/groups/${encodeURIComponent(group.fullPath)}/notification_settings`, { token: owner.token });

    // Assess
    expect(groupInitial.status).toBe(200);
    expect(groupInitial.body).toEqual({ level: 'global' });
    expect(projectInitial.body).toEqual({ level: 'global' });
    expect(groupWatch.body).toEqual({ level: 'watch' });
    expect(projectCustom.status).toBe(200);
    expect(projectCustom.body.level).toBe('custom');
    expect(projectCustom.body.events).toMatchObject({ new_note: true, new_issue: null });
    expect(projectRead.body.events).toMatchObject({ new_note: true, new_issue: true, close_issue: true, reopen_issue: null });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ message: "'everything' is not a valid level" });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body).toEqual({ error: 'new_note is invalid' });
    expect(afterBad.body.level).toBe('custom');
    expect(hidden.map((response) => response.status)).toEqual([404, 404, 404, 404, 404]);
    expect(hidden[2].body).toEqual({ message: '404 Project Not Found' });
    expect(groupRead.body).toEqual({ level: 'watch' });
    // The caller's settings are its own: the outsider's global setting is untouched.
    expect((await api('/notification_settings', { token: outsider.token })).body).toEqual({ level: 'participating', notification_email: outsider.email });
  });
});
