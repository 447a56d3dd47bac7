/**
 * Background jobs (deletions) against the running service: the request answers at once, the
 * resource is gone from reads at once, and the worker (the table's stream, and the sweep that
 * queues again what outlived its lease) finishes the work — also after a failure or an
 * interrupted run. The store steps called in the test process reach the same table (local
 * runtime only).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { deleteProjectChildren } from '../../shared/projects/store/deletion';
import { markProjectDeleting } from '../../shared/projects/store/projects';
import { PROJECT_DELETION } from '../../shared/projects';
import { enqueueJob, expiredJobs, finishJob, jobFromImage, jobKeys, requeueJob, type Job } from '../../shared/platform/jobs';
import { getItem } from '../../shared/platform/dynamo/query';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { createGroup, createProject, createUser, openIssue, unique, type TestUser } from '../support/fixtures';

const WAIT = { timeout: 20_000, interval: 100 };

describe('deleting in the background', () => {
  let owner: TestUser;

  beforeAll(async () => {
    owner = await createUser();
  });

  it('DELETE /projects/:id answers 202 at once, hides the project at once, and frees its path once the job has run', async () => {
    // Arrange
    const path = unique('gone');
    const project = await createProject(owner.token, { path, name: path });
    await openIssue(project.id, owner.token);

    // Act
    const deleted = await api(`/projects/${project.id}`, { method: 'DELETE', token: owner.token });

    // Assert
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ message: '202 Accepted' });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/issues`, { token: owner.token })).status).toBe(404);
    // The path is taken until the deletion is done, then free (GitLab's pending delete).
    const again = await vi.waitFor(async () => {
      const created = await api('/projects', { method: 'POST', token: owner.token, body: { path, name: path } });
      expect(created.status).toBe(201);
      return created.body;
    }, WAIT);
    expect(again.id).not.toBe(project.id);
    if (isLocalRuntime()) expect(await getItem(jobKeys.job(PROJECT_DELETION, project.id))).toBeUndefined();
  });

  it('DELETE /groups/:id answers 202 and the tree with its projects goes in the background', async () => {
    // Arrange
    const path = unique('gone-group');
    const group = await createGroup(owner.token, { path, name: path });
    const sub = await createGroup(owner.token, { path: 'sub', name: 'sub', parent_id: group.id });
    const project = await createProject(owner.token, { path: 'inner', namespace_id: sub.id });

    // Act
    const deleted = await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token });

    // Assert
    expect(deleted.status).toBe(202);
    expect((await api(`/groups/${group.id}`, { token: owner.token })).status).toBe(404);
    // What is beneath goes as the job reaches it (GitLab keeps the whole tree until its worker runs).
    await vi.waitFor(async () => {
      expect((await api(`/groups/${sub.id}`, { token: owner.token })).status).toBe(404);
      expect((await api(`/projects/${project.id}`, { token: rootToken() })).status).toBe(404);
      expect((await api('/groups', { method: 'POST', token: owner.token, body: { path, name: path } })).status).toBe(201);
    }, WAIT);
  });

  it('DELETE /users/:id answers the user at once, refuses its token at once, and frees its username once the job has run', async () => {
    // Arrange
    const user = await createUser();

    // Act
    const deleted = await api(`/users/${user.id}`, { method: 'DELETE', token: rootToken() });

    // Assert
    expect(deleted.status).toBe(200);
    expect(deleted.body.username).toBe(user.username);
    expect((await api('/user', { token: user.token })).status).toBe(401);
    expect((await api(`/users/${user.id}`, { method: 'DELETE', token: rootToken() })).body).toBeFalsy();
    await vi.waitFor(async () => {
      const reused = await api('/users', {
        method: 'POST',
        token: rootToken(),
        body: { username: user.username, name: 'Again', email: `${unique('again')}@example.com`, password: 'secret-password' },
      });
      expect(reused.status).toBe(201);
    }, WAIT);
  });

  describe.runIf(isLocalRuntime())('the worker always finishes', () => {
    it('a deletion interrupted midway (marked, half removed, no worker left) is finished by the next run of its job', async () => {
      // Arrange: what a worker that died midway leaves behind
      const path = unique('half');
      const project = await createProject(owner.token, { path, name: path });
      await openIssue(project.id, owner.token);
      await markProjectDeleting(project.id);
      await deleteProjectChildren(project.id);

      // Act: the job queued again (here: queued anew) runs
      await enqueueJob(PROJECT_DELETION, project.id);

      // Assert
      await vi.waitFor(async () => {
        expect(await getItem({ PK: `PROJECT#${project.id}`, SK: 'PROJECT' })).toBeUndefined();
        expect(await getItem(jobKeys.job(PROJECT_DELETION, project.id))).toBeUndefined();
      }, WAIT);
      expect((await api('/projects', { method: 'POST', token: owner.token, body: { path, name: path } })).status).toBe(201);
    });

    it('a failing job is deferred, and the sweep queues it again once its pause is over, in a new round', async () => {
      // Arrange: a kind no worker knows fails every run
      const kind = unique('failing');
      await enqueueJob(kind, 1);
      const job = async () => (await getItem(jobKeys.job(kind, 1)))!;
      // Deferred: claimed (attempts 1, a running lease of minutes), then failed (the lease cut to
      // the first pause, a minute): wait for the second write, not only the first.
      await vi.waitFor(async () => {
        const current = await job();
        expect(current.attempts).toBe(1);
        expect(Date.parse(String(current.leaseUntil))).toBeLessThanOrEqual(Date.now() + 60_000);
      }, WAIT);
      const deferred = await job();
      expect(deferred.phase).toBe('running');
      expect(Date.parse(String(deferred.leaseUntil))).toBeGreaterThan(Date.now());

      // Act: the sweep, a little over the first pause (a minute) later
      const later = Date.now() + 61_000;
      const due: Job[] = [];
      for await (const expired of expiredJobs(later)) if (expired.kind === kind) due.push(expired);
      expect(due).toHaveLength(1);
      expect(await requeueJob(due[0], later)).toBe(true);

      // Assert: a new round, run again (and failing again: the pause doubles)
      await vi.waitFor(async () => expect((await job()).attempts).toBe(2), WAIT);
      const again = await job();
      expect(again.round).toBe(1);
      expect(Date.parse(String(again.leaseUntil)) - Date.now()).toBeGreaterThan(100_000);
      // A second sweep of what it read before changes nothing.
      expect(await requeueJob(due[0], later)).toBe(false);
      await finishJob(jobFromImage(again));
      expect(await getItem(jobKeys.job(kind, 1))).toBeUndefined();
    });
  });
});
