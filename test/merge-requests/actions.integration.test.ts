/**
 * What users do to a merge request besides editing it, over HTTP: notes (list, comment, read,
 * edit, delete; `user_notes_count`), subscribe/unsubscribe (304 when nothing changes), todo (304
 * when one is pending; listed by `GET /todos` with the merge request as target), time tracking
 * (developers and above change it, reporters read it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, DEVELOPER, mrs, openMergeRequest, REPORTER } from './helpers';

describe('merge request actions', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let reporter: TestUser;
  let mr: { iid: number; id: number; title: string; web_url: string };

  beforeAll(async () => {
    project = await ownedProject('private');
    const token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
    await commit(project.id, token, 'feature', { 'f.txt': 'f\n' }, { start: 'main' });
    [developer, reporter] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER)]);
    mr = await openMergeRequest(project.id, developer.token, { source_branch: 'feature', title: 'Feature' });
  });

  it('comments, reads, edits and deletes notes; counts them', async () => {
    const created = await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: 'Looks fine' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ body: 'Looks fine', author: { id: reporter.id }, system: false, noteable_type: 'MergeRequest', noteable_id: mr.id });
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: developer.token })).body.user_notes_count).toBe(1);
    expect((await api(mrs(project.id, `/${mr.iid}/notes/${created.body.id}`), { token: developer.token })).body.body).toBe('Looks fine');
    expect((await api(mrs(project.id, `/${mr.iid}/notes/${created.body.id}`), { method: 'PUT', token: developer.token, body: { body: 'x' } })).status).toBe(403);
    expect((await api(mrs(project.id, `/${mr.iid}/notes/${created.body.id}`), { method: 'PUT', token: reporter.token, body: { body: 'Looks great' } })).body.body).toBe('Looks great');
    expect((await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: '' } })).status).toBe(400);
    expect((await api(mrs(project.id, `/${mr.iid}/notes/${created.body.id}`), { method: 'DELETE', token: reporter.token })).status).toBe(204);
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: developer.token })).body.user_notes_count).toBe(0);
    expect((await api(mrs(project.id, '/999/notes'), { token: developer.token })).status).toBe(404);
  });

  it('subscribes and unsubscribes, 304 when nothing changes', async () => {
    const subscribe = () => api(mrs(project.id, `/${mr.iid}/subscribe`), { token: reporter.token, method: 'POST' });
    const unsubscribe = () => api(mrs(project.id, `/${mr.iid}/unsubscribe`), { token: reporter.token, method: 'POST' });
    // The reporter commented: a participant, already subscribed.
    expect((await unsubscribe()).status).toBe(201);
    expect((await unsubscribe()).status).toBe(304);
    const again = await subscribe();
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ iid: mr.iid, subscribed: true });
    expect((await subscribe()).status).toBe(304);
  });

  it('marks a todo (304 the second time), listed by GET /todos with the merge request as target', async () => {
    const todo = await api(mrs(project.id, `/${mr.iid}/todo`), { token: reporter.token, method: 'POST' });
    expect(todo.status, JSON.stringify(todo.body)).toBe(201);
    expect(todo.body).toMatchObject({ action_name: 'marked', target_type: 'MergeRequest', target: { iid: mr.iid, title: 'Feature' }, target_url: mr.web_url, state: 'pending' });
    expect((await api(mrs(project.id, `/${mr.iid}/todo`), { token: reporter.token, method: 'POST' })).status).toBe(304);
    const todos = await api('/todos', { token: reporter.token });
    expect(todos.body).toEqual([expect.objectContaining({ target_type: 'MergeRequest', target: expect.objectContaining({ iid: mr.iid }) })]);
  });

  it('tracks time: developers change it, reporters read it', async () => {
    const path = (action: string) => mrs(project.id, `/${mr.iid}/${action}`);
    expect((await api(path('time_estimate'), { token: reporter.token, body: { duration: '1h' } })).status).toBe(403);
    expect((await api(path('time_estimate'), { token: developer.token, body: { duration: '3h30m' } })).body).toMatchObject({ time_estimate: 12600, human_time_estimate: '3h 30m' });
    expect((await api(path('add_spent_time'), { token: developer.token, body: { duration: '1h' } })).status).toBe(201);
    expect((await api(path('add_spent_time'), { token: developer.token, body: { duration: 'nonsense' } })).status).toBe(400);
    expect((await api(path('time_stats'), { token: reporter.token })).body).toMatchObject({ time_estimate: 12600, total_time_spent: 3600 });
    expect((await api(path('reset_spent_time'), { token: developer.token, method: 'POST' })).body.total_time_spent).toBe(0);
    expect((await api(path('reset_time_estimate'), { token: developer.token, method: 'POST' })).body.time_estimate).toBe(0);
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: reporter.token })).body.time_stats).toMatchObject({ time_estimate: 0 });
  });

  it('with issues disabled: a maintainer edits anyone’s merge request note, and reporters (not guests) see the feed events', async () => {
    // Prepare
    const owned = await ownedProject('private');
    const token = owned.owner.token;
    expect((await api(`/projects/${owned.id}`, { method: 'PUT', token, body: { issues_enabled: false } })).status).toBe(200);
    await commit(owned.id, token, 'main', { 'README.md': '# readme\n' });
    await commit(owned.id, token, 'topic', { 't.txt': 't\n' }, { start: 'main' });
    const [dev, maintainer, rep, guest] = await Promise.all([newMember(owned, DEVELOPER), newMember(owned, 40), newMember(owned, REPORTER), newMember(owned, 10)]);
    const opened = await openMergeRequest(owned.id, dev.token, { source_branch: 'topic', title: 'Topic' });
    const note = await api(mrs(owned.id, `/${opened.iid}/notes`), { token: dev.token, body: { body: 'mine' } });

    // Act
    const edited = await api(mrs(owned.id, `/${opened.iid}/notes/${note.body.id}`), { method: 'PUT', token: maintainer.token, body: { body: 'tidied' } });
    const seen = async (user: TestUser) => (await api(`/projects/${owned.id}/events`, { token: user.token })).body.map((e: { action_name: string }) => e.action_name);

    // Assess
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.body).toBe('tidied');
    expect(await seen(rep)).toEqual(expect.arrayContaining(['opened', 'commented on']));
    expect(await seen(guest)).not.toContain('opened');
    expect(await seen(guest)).not.toContain('commented on');
  });
});
