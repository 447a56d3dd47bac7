/**
 * Webhook delivery end to end: API writes → the outbox item in the write's transaction → the
 * table's stream → the delivery function → an HTTP receiver started by this test.
 *
 * The receiver listens on 127.0.0.1, which only the local runtime may reach (it runs with
 * `HOOKS_ALLOW_LOCAL_NETWORK=true`; deployed, hooks to private addresses are refused), so this
 * file runs against the local runtime only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { addMember, createProject, createUser, unique, type TestProject, type TestUser } from '../support/fixtures';
import { WebhookReceiver, type Delivery } from '../support/webhooks';

describe.skipIf(!isLocalRuntime())('webhook delivery', () => {
  let receiver: WebhookReceiver;
  let owner: TestUser;
  let reporter: TestUser;
  let project: TestProject;

  /** Deliveries about the issue (or note, with `kind`) of this id: ids of issues and notes overlap. */
  const about =
    (id: number, kind = 'issue') =>
    (delivery: Delivery) =>
      delivery.body.object_kind === kind && delivery.body.object_attributes?.id === id;

  async function addHook(path: string, body: Record<string, unknown>) {
    const response = await api(`/projects/${project.id}/hooks`, { token: owner.token, body: { url: receiver.url(path), ...body } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    owner = await createUser();
    reporter = await createUser();
    project = await createProject(owner.token, { visibility: 'private' });
    await addMember('projects', project.id, reporter.id, 20);
    await addHook('/issues-and-notes', { issues_events: true, note_events: true, push_events: false, token: 'hook-secret' });
    await addHook('/pushes-only', { push_events: true });
    await addHook('/confidential', { issues_events: false, confidential_issues_events: true, confidential_note_events: true, push_events: false });
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('sends an Issue Hook with the secret token when an issue is opened, and nothing to a hook without issues_events', async () => {
    // Act
    const created = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: unique('Hooked '), labels: 'bug' } });
    expect(created.status).toBe(201);

    // Assess
    const [delivery] = await receiver.received('/issues-and-notes', about(created.body.id));
    expect(delivery, 'no delivery arrived').toBeDefined();
    expect(delivery.headers).toMatchObject({ 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': 'hook-secret', 'content-type': 'application/json' });
    expect(delivery.headers['x-gitlab-event-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { id: owner.id, username: owner.username },
      project: { id: project.id, path_with_namespace: project.fullPath },
      object_attributes: { id: created.body.id, iid: created.body.iid, title: created.body.title, action: 'open', state: 'opened' },
      labels: [expect.objectContaining({ title: 'bug' })],
    });
    expect(receiver.deliveries.filter((d) => d.path === '/pushes-only')).toEqual([]);
  });

  it('sends update with its changes, then close, in the order of the writes', async () => {
    // Prepare
    const created = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Before' } });
    const url = `/projects/${project.id}/issues/${created.body.iid}`;

    // Act
    expect((await api(url, { method: 'PUT', token: reporter.token, body: { title: 'After', labels: 'ui' } })).status).toBe(200);
    expect((await api(url, { method: 'PUT', token: owner.token, body: { state_event: 'close' } })).status).toBe(200);

    // Assess
    const mine = await receiver.received('/issues-and-notes', about(created.body.id), 3);
    expect(mine.map((d) => d.body.object_attributes.action)).toEqual(['open', 'update', 'close']);
    expect(mine[1].body).toMatchObject({
      user: { id: reporter.id },
      changes: { title: { previous: 'Before', current: 'After' }, labels: { previous: [], current: [expect.objectContaining({ title: 'ui' })] } },
    });
    expect(mine[2].body.object_attributes).toMatchObject({ state: 'closed', action: 'close' });
  });

  it('sends a Note Hook when someone comments on an issue', async () => {
    const created = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: unique('Discussed ') } });
    const note = await api(`/projects/${project.id}/issues/${created.body.iid}/notes`, { token: reporter.token, body: { body: 'Looks good' } });
    expect(note.status).toBe(201);

    const [delivery] = await receiver.received('/issues-and-notes', about(note.body.id, 'note'));
    expect(delivery, 'no note delivery arrived').toBeDefined();
    expect(delivery.headers['x-gitlab-event']).toBe('Note Hook');
    expect(delivery.body).toMatchObject({
      user: { id: reporter.id },
      object_attributes: { note: 'Looks good', noteable_type: 'Issue', noteable_id: created.body.id, system: false },
      issue: { id: created.body.id, iid: created.body.iid },
    });
  });

  it('sends events of confidential issues only to hooks that opted in, as Confidential Issue/Note Hook', async () => {
    // Act
    const secret = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: unique('Secret '), confidential: true } });
    const note = await api(`/projects/${project.id}/issues/${secret.body.iid}/notes`, { token: owner.token, body: { body: 'hush' } });
    const marker = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: unique('Marker ') } });

    // Assess
    const [issueHook] = await receiver.received('/confidential', about(secret.body.id));
    const [noteHook] = await receiver.received('/confidential', about(note.body.id, 'note'));
    expect(issueHook?.headers['x-gitlab-event']).toBe('Confidential Issue Hook');
    expect(issueHook?.body).toMatchObject({ event_type: 'confidential_issue', object_attributes: { confidential: true, action: 'open' } });
    expect(noteHook?.headers['x-gitlab-event']).toBe('Confidential Note Hook');
    expect(noteHook?.body).toMatchObject({ event_type: 'confidential_note', object_attributes: { note: 'hush' } });
    // The marker was written after the secret issue: once it arrived, the secret one would have too.
    expect(await receiver.received('/issues-and-notes', about(marker.body.id))).toHaveLength(1);
    expect(receiver.deliveries.filter((d) => d.path === '/issues-and-notes' && (about(secret.body.id)(d) || about(note.body.id, 'note')(d)))).toEqual([]);
    // Nor do ordinary events reach the hook that wants only confidential ones.
    expect(receiver.deliveries.filter((d) => d.path === '/confidential' && about(marker.body.id)(d))).toEqual([]);
  });
});
