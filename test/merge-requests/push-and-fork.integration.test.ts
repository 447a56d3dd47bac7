/**
 * Merge requests and git pushes (the real `git` CLI): a push to the source branch records a new
 * version with the system note "added N commits" and marks the merge status unchecked, a push to
 * the target marks it unchecked too, deleting the source branch keeps the merge request readable;
 * a merge request from a fork into its upstream, diffed and merged. Webhooks: the Merge Request
 * Hook and the Note Hook reach a receiver (local runtime only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository, pushNewRepository } from '../support/git';
import { WebhookReceiver } from '../support/webhooks';
import { DEVELOPER, head, mrs, openMergeRequest } from './helpers';


describe('merge requests and pushes', () => {
  let project: OwnedProject;
  let work: string;
  let remote: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    remote = cloneUrl(project.fullPath, project.owner.token);
    work = await localRepository({ 'README.md': '# readme\n' }, 'initial');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await commitFiles(work, { 'topic.txt': 'one\n' }, 'Topic one');
    await gitOk(['push', '-q', remote, 'topic'], { cwd: work });
  });

  it('records a version per push to the source branch, with "added N commits"; a target push unchecks', async () => {
    const token = project.owner.token;
    const mr = await openMergeRequest(project.id, token, { source_branch: 'topic', title: 'Topic' });
    expect((await api(mrs(project.id, `/${mr.iid}`), { token })).body.merge_status).toBe('can_be_merged');

    const second = await commitFiles(work, { 'topic2.txt': 'two\n' }, 'Topic two');
    const third = await commitFiles(work, { 'topic3.txt': 'three\n' }, 'Topic three');
    await gitOk(['push', '-q', remote, 'topic'], { cwd: work });

    const versions = (await api(mrs(project.id, `/${mr.iid}/versions`), { token })).body;
    expect(versions).toHaveLength(2);
    expect(versions[0].head_commit_sha).toBe(third);
    const listed = (await api(mrs(project.id), { token })).body.find((m: { iid: number }) => m.iid === mr.iid);
    expect(listed).toMatchObject({ sha: third, merge_status: 'unchecked' });
    const notes = (await api(mrs(project.id, `/${mr.iid}/notes`), { token })).body;
    const added = notes.find((n: { body: string; system: boolean }) => n.system && n.body.startsWith('added 2 commits'));
    expect(added?.body).toContain(second.slice(0, 8));
    expect((await api(mrs(project.id, `/${mr.iid}/commits`), { token })).body.map((c: { id: string }) => c.id)).toEqual([third, second, mr.sha]);
    expect((await api(mrs(project.id, `/${mr.iid}`), { token })).body.merge_status).toBe('can_be_merged');

    // A push to the target: unchecked in lists until read.
    await gitOk(['checkout', '-q', 'main'], { cwd: work });
    await commitFiles(work, { 'main.txt': 'main\n' }, 'On main');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    expect((await api(mrs(project.id), { token })).body.find((m: { iid: number }) => m.iid === mr.iid).merge_status).toBe('unchecked');

    // Deleting the source branch keeps the merge request readable.
    await gitOk(['push', '-q', remote, ':topic'], { cwd: work });
    const after = await api(mrs(project.id, `/${mr.iid}`), { token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ state: 'opened', sha: third, merge_status: 'cannot_be_merged' });
    expect((await api(mrs(project.id, `/${mr.iid}/changes`), { token })).body.changes).toHaveLength(3);
    expect(await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token })).toMatchObject({ status: 406 });
    // Its head ref keeps the commits (and lets clients fetch them) after the branch is gone.
    expect(await gitOk(['ls-remote', remote, `refs/merge-requests/${mr.iid}/head`], { cwd: work })).toContain(third);
  });

  it('opens a merge request from a fork into its upstream, and merges it', async () => {
    const upstream = await ownedProject('public');
    const contributor: TestUser = await newMember(upstream, DEVELOPER);
    await pushNewRepository(upstream.fullPath, upstream.owner.token, { 'README.md': '# upstream\n' }, 'initial');
    const fork = await api(`/projects/${upstream.id}/fork`, { token: contributor.token, body: { namespace: contributor.username } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const forkWork = await localRepository({ 'README.md': '# upstream\n' }, 'unused');
    await gitOk(['fetch', '-q', cloneUrl(upstream.fullPath, upstream.owner.token), 'main'], { cwd: forkWork });
    await gitOk(['checkout', '-q', '-B', 'feature', 'FETCH_HEAD'], { cwd: forkWork });
    await commitFiles(forkWork, { 'contrib.txt': 'from the fork\n' }, 'Contribute');
    await gitOk(['push', '-q', cloneUrl(fork.body.path_with_namespace, contributor.token), 'feature'], { cwd: forkWork });

    // Only the fork's upstream may be targeted.
    const elsewhere = await ownedProject('public');
    expect(
      await api(mrs(fork.body.id), { token: contributor.token, body: { source_branch: 'feature', target_branch: 'main', title: 'x', target_project_id: elsewhere.id } }),
    ).toMatchObject({ status: 422, body: { message: ['Source project is not a fork of the target project'] } });

    const mr = await openMergeRequest(fork.body.id, contributor.token, { source_branch: 'feature', title: 'Contribution', target_project_id: upstream.id });
    expect(mr).toMatchObject({ project_id: upstream.id, source_project_id: fork.body.id, target_project_id: upstream.id, iid: 1 });
    const changes = await api(mrs(upstream.id, `/${mr.iid}/changes`), { token: upstream.owner.token });
    expect(changes.body.changes.map((c: { new_path: string }) => c.new_path)).toEqual(['contrib.txt']);
    const merged = await api(mrs(upstream.id, `/${mr.iid}/merge`), { method: 'PUT', token: upstream.owner.token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await head(upstream.id, upstream.owner.token, 'main')).toBe(merged.body.merge_commit_sha);
    const file = await api(`/projects/${upstream.id}/repository/files/contrib.txt/raw`, { token: upstream.owner.token, query: { ref: 'main' } });
    expect(file.body).toBe('from the fork\n');
  });
});

describe.skipIf(!isLocalRuntime())('merge request webhooks', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject();
    const url = receiver.url();
    expect((await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url, merge_requests_events: true, note_events: true, push_events: false } })).status).toBe(201);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('sends Merge Request Hooks (open, merge) and a Note Hook for a comment', async () => {
    const token = project.owner.token;
    const work = await localRepository({ 'README.md': '# hooks\n' }, 'initial');
    const remote = cloneUrl(project.fullPath, token);
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['checkout', '-q', '-b', 'hooked'], { cwd: work });
    const tip = await commitFiles(work, { 'h.txt': 'h\n' }, 'Hooked change');
    await gitOk(['push', '-q', remote, 'hooked'], { cwd: work });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'hooked', title: 'Hooked' });
    const opened = await receiver.first((d) => d.event === 'Merge Request Hook' && d.body.object_attributes?.action === 'open');
    expect(opened?.body).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      project: { id: project.id },
      object_attributes: { iid: mr.iid, source_branch: 'hooked', target_branch: 'main', state: 'opened', last_commit: { id: tip }, url: mr.web_url },
    });
    const comment = await api(mrs(project.id, `/${mr.iid}/notes`), { token, body: { body: 'Looks good' } });
    expect(comment.status).toBe(201);
    const note = await receiver.first((d) => d.event === 'Note Hook');
    expect(note?.body).toMatchObject({ object_kind: 'note', object_attributes: { note: 'Looks good', noteable_type: 'MergeRequest' }, merge_request: { iid: mr.iid } });
    expect((await api(mrs(project.id, `/${mr.iid}`), { token })).body.user_notes_count).toBe(1);
    await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token });
    const merged = await receiver.first((d) => d.event === 'Merge Request Hook' && d.body.object_attributes?.action === 'merge');
    expect(merged?.body.object_attributes).toMatchObject({ state: 'merged', merge_commit_sha: expect.any(String) });
    const events = await api(`/projects/${project.id}/events`, { token });
    expect(events.body.map((e: { action_name: string; target_type: string }) => `${e.action_name} ${e.target_type}`)).toEqual(
      expect.arrayContaining(['opened MergeRequest', 'accepted MergeRequest', 'commented on Note']),
    );
  });
});
