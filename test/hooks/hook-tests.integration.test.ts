/**
 * Testing a project hook (`POST /projects/:id/hooks/:hook_id/test/:trigger`): the trigger's sample
 * of the project (its newest commits, first issue, first comment, first merge request) is sent to
 * the hook at once, whatever its flags, and the answer says whether the receiver took it. Local
 * runtime only (hooks may target 127.0.0.1 there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { WebhookReceiver } from '../support/webhooks';

describe.skipIf(!isLocalRuntime())('project hook tests', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;
  let hookId: number;

  const test = (trigger: string, hook = hookId) => api(`/projects/${project.id}/hooks/${hook}/test/${trigger}`, { method: 'POST', token: project.owner.token });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject();
    // Every flag off: a test is sent whatever the hook subscribes to.
    const hook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url('/test'), push_events: false, token: 'test-secret' } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    hookId = hook.body.id;
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('answers 422 when the project has nothing to test with, 400 for an unknown trigger, 422 when the receiver fails', async () => {
    // Prepare
    const refused = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: 'http://127.0.0.1:1/refused' } });

    // Act
    const [push, issues, note, mergeRequest, job, unknown, failing, missingHook] = await Promise.all([
      test('push_events'),
      test('issues_events'),
      test('note_events'),
      test('merge_requests_events'),
      test('job_events'),
      test('nothing_events'),
      test('push_events', refused.body.id),
      test('push_events', 999_999_999),
    ]);

    // Assert
    expect(push).toMatchObject({ status: 422, body: { message: 'Ensure the project has at least one commit.' } });
    expect(issues).toMatchObject({ status: 422, body: { message: 'Ensure the project has issues.' } });
    expect(note).toMatchObject({ status: 422, body: { message: 'Ensure the project has notes.' } });
    expect(mergeRequest).toMatchObject({ status: 422, body: { message: 'Ensure the project has merge requests.' } });
    expect(job).toMatchObject({ status: 422, body: { message: 'Testing not available for this hook' } });
    expect(unknown).toMatchObject({ status: 400, body: { error: 'trigger does not have a valid value' } });
    expect(failing.status).toBe(422);
    expect(missingHook).toMatchObject({ status: 404, body: { message: '404 Project Hook Not Found' } });
    expect(receiver.deliveries).toEqual([]);
  });

  it('sends the push, tag push, issue, note and merge request samples, each with its hook name, and answers 201', async () => {
    // Prepare
    const token = project.owner.token;
    const commit = await api(`/projects/${project.id}/repository/commits`, {
      token,
      body: { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] },
    });
    expect(commit.status, JSON.stringify(commit.body)).toBe(201);
    const [branch, issue] = await Promise.all([
      api(`/projects/${project.id}/repository/commits`, {
        token,
        body: { branch: 'feature', start_branch: 'main', commit_message: 'second', actions: [{ action: 'create', file_path: 'b.txt', content: 'b' }] },
      }),
      api(`/projects/${project.id}/issues`, { token, body: { title: 'Sample issue' } }),
    ]);
    expect(branch.status).toBe(201);
    const [note, mergeRequest] = await Promise.all([
      api(`/projects/${project.id}/issues/${issue.body.iid}/notes`, { token, body: { body: 'Sample comment' } }),
      api(`/projects/${project.id}/merge_requests`, { token, body: { source_branch: 'feature', target_branch: 'main', title: 'Sample MR' } }),
    ]);
    expect([note.status, mergeRequest.status]).toEqual([201, 201]);

    // Act
    const answers = [];
    for (const trigger of ['push_events', 'tag_push_events', 'issues_events', 'note_events', 'merge_requests_events']) answers.push(await test(trigger));

    // Assert
    expect(answers.map((answer) => answer.body)).toEqual(Array(5).fill({ message: '201 Created' }));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    expect(receiver.deliveries.map((delivery) => delivery.event)).toEqual(['Push Hook', 'Tag Push Hook', 'Issue Hook', 'Note Hook', 'Merge Request Hook']);
    const [push, tagPush, issueHook, noteHook, mergeRequestHook] = receiver.deliveries.map((delivery) => delivery.body);
    expect(receiver.deliveries[0].headers['x-gitlab-token']).toBe('test-secret');
    expect(push).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', after: commit.body.id, checkout_sha: commit.body.id, total_commits_count: 1, user_username: project.owner.username });
    expect(push.commits).toEqual([expect.objectContaining({ id: commit.body.id, message: 'first', added: ['a.txt'] })]);
    expect(tagPush).toMatchObject({ object_kind: 'push', after: commit.body.id });
    expect(issueHook).toMatchObject({ object_kind: 'issue', object_attributes: { iid: issue.body.iid, title: 'Sample issue', action: 'open' }, project: { id: project.id } });
    expect(noteHook).toMatchObject({ object_kind: 'note', object_attributes: { id: note.body.id, note: 'Sample comment', noteable_type: 'Issue' }, issue: { iid: issue.body.iid } });
    expect(mergeRequestHook).toMatchObject({ object_kind: 'merge_request', object_attributes: { iid: mergeRequest.body.iid, title: 'Sample MR', source_branch: 'feature', action: 'open' } });
  });
});
