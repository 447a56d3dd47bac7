/**
 * Push webhooks end to end: `git push` → the outbox → the table's stream → the delivery function →
 * an HTTP receiver started by this test. Like the other delivery tests, local runtime only (hooks
 * may target 127.0.0.1 there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';
import { WebhookReceiver } from '../support/webhooks';

describe.skipIf(!isLocalRuntime())('push webhooks', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject();
    const hook = await api(`/projects/${project.id}/hooks`, {
      token: project.owner.token,
      body: { url: receiver.url(), push_events: true, tag_push_events: true, token: 'push-secret' },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('sends a Push Hook with the pushed commits, then a Tag Push Hook for a tag (a protected one: ref_protected)', async () => {
    // Arrange
    expect((await api(`/projects/${project.id}/protected_tags`, { token: project.owner.token, body: { name: 'v*' } })).status).toBe(201);

    // Act
    const work = await localRepository({ 'a.txt': 'a\n' }, 'first');
    const second = await commitFiles(work, { 'b.txt': 'b\n' }, 'second commit\n\nwith a body');
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main'], { cwd: work });
    await gitOk(['tag', '-a', 'v1', '-m', 'version 1'], { cwd: work });
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'v1'], { cwd: work });

    // Assert
    const push = await receiver.first((delivery) => delivery.headers['x-gitlab-event'] === 'Push Hook');
    expect(push?.headers['x-gitlab-token']).toBe('push-secret');
    expect(push?.body).toMatchObject({
      object_kind: 'push',
      before: '0'.repeat(40),
      after: second,
      ref: 'refs/heads/main',
      user_username: project.owner.username,
      project_id: project.id,
      total_commits_count: 2,
    });
    expect(push?.body.commits.map((commit: { id: string }) => commit.id).at(-1)).toBe(second);
    expect(push?.body.commits.at(-1)).toMatchObject({ message: 'second commit\n\nwith a body\n', added: ['b.txt'], modified: [], removed: [] });

    const tag = await receiver.first((delivery) => delivery.headers['x-gitlab-event'] === 'Tag Push Hook');
    expect(tag?.body).toMatchObject({ object_kind: 'tag_push', ref: 'refs/tags/v1', ref_protected: true, checkout_sha: second, project_id: project.id });
  });
});
