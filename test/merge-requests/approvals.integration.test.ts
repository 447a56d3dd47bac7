/**
 * Merge request approvals over HTTP, as a GitLab Free instance has them (`API::MergeRequestApprovals`):
 * the entity, approve and unapprove with GitLab's refusals (401 approved already or merged, 404 not
 * approved or merged, 403 without `approve_merge_request`, 409 `sha`), the system notes, the
 * `approved` feed event, the Merge Request Hook, the reviewer's state, and one approval per user
 * however many requests race, edits racing approvals never lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { WebhookReceiver } from '../support/webhooks';
import { commit, DEVELOPER, MAINTAINER, mrs, openMergeRequest, REPORTER } from './helpers';

/** `POST …/approve` or `…/unapprove` of merge request `iid`. */
const approval = (projectId: number, iid: number, action: 'approve' | 'unapprove', token?: string, body: Record<string, unknown> = {}) =>
  api(mrs(projectId, `/${iid}/${action}`), { method: 'POST', token, body });

const approvalsOf = (projectId: number, iid: number, token: string) => api(mrs(projectId, `/${iid}/approvals`), { token });

describe('merge request approvals', () => {
  let project: OwnedProject;
  let token: string;
  let developer: TestUser;
  let maintainer: TestUser;
  let reporter: TestUser;
  let branch = 0;
  /** A new merge request of a branch of its own, by the owner. */
  const newMergeRequest = async () => {
    const name = `topic-${++branch}`;
    await commit(project.id, token, name, { [`${name}.txt`]: 'x\n' }, { start: 'main' });
    return openMergeRequest(project.id, token, { source_branch: name, title: `Change ${branch}` });
  };

  beforeAll(async () => {
    project = await ownedProject('private');
    token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
    [developer, maintainer, reporter] = await Promise.all([newMember(project, DEVELOPER), newMember(project, MAINTAINER), newMember(project, REPORTER)]);
  });

  it("approves with GitLab Free's entity, seen by another member, and leaves updated_at and the resource events alone", async () => {
    // Arrange
    const mr = await newMergeRequest();

    // Act
    const approved = await approval(project.id, mr.iid, 'approve', developer.token);

    // Assert
    expect(approved.status, JSON.stringify(approved.body)).toBe(201);
    expect(approved.body).toEqual({
      id: mr.id,
      iid: mr.iid,
      project_id: project.id,
      title: mr.title,
      description: mr.description,
      state: 'opened',
      created_at: mr.created_at,
      updated_at: mr.updated_at,
      merge_status: expect.any(String),
      approved: true,
      approvals_required: 0,
      approvals_left: 0,
      approved_by: [{ user: expect.objectContaining({ id: developer.id, username: developer.username }) }],
      user_has_approved: true,
      user_can_approve: false,
    });
    const seen = await approvalsOf(project.id, mr.iid, reporter.token);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ approved: true, approved_by: [{ user: { id: developer.id } }], user_has_approved: false, user_can_approve: false });
    expect((await approvalsOf(project.id, mr.iid, token)).body).toMatchObject({ user_has_approved: false, user_can_approve: true });
    expect((await api(mrs(project.id, `/${mr.iid}`), { token })).body.updated_at).toBe(mr.updated_at);
    expect((await api(mrs(project.id, `/${mr.iid}/resource_state_events`), { token })).body).toEqual([]);
  });

  it('answers 401 to a second approval, 201 to unapprove, then 404 to unapprove again; approvers are listed oldest first', async () => {
    // Arrange
    const mr = await newMergeRequest();
    expect((await approval(project.id, mr.iid, 'approve', maintainer.token)).status).toBe(201);
    expect((await approval(project.id, mr.iid, 'approve', developer.token)).status).toBe(201);

    // Act
    const again = await approval(project.id, mr.iid, 'approve', developer.token);
    const both = await approvalsOf(project.id, mr.iid, token);
    const unapproved = await approval(project.id, mr.iid, 'unapprove', maintainer.token);
    const alone = await approval(project.id, mr.iid, 'unapprove', developer.token);
    const unapprovedAgain = await approval(project.id, mr.iid, 'unapprove', developer.token);

    // Assert
    expect(again).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(both.body.approved_by.map((entry: { user: { id: number } }) => entry.user.id)).toEqual([maintainer.id, developer.id]);
    expect(unapproved.status).toBe(201);
    expect(unapproved.body).toMatchObject({ approved: true, approved_by: [{ user: { id: developer.id } }], user_has_approved: false, user_can_approve: true });
    expect(alone.status).toBe(201);
    expect(alone.body).toMatchObject({ approved: false, approved_by: [], user_has_approved: false, user_can_approve: true });
    expect(unapprovedAgain).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('answers 403 to a reporter, 404 to a non-member, 401 without a token', async () => {
    // Arrange
    const mr = await newMergeRequest();
    const stranger = await createUser();

    // Act
    const byReporter = await approval(project.id, mr.iid, 'approve', reporter.token);
    const unapproveByReporter = await approval(project.id, mr.iid, 'unapprove', reporter.token);
    const byStranger = await approval(project.id, mr.iid, 'approve', stranger.token);
    const readByStranger = await approvalsOf(project.id, mr.iid, stranger.token);
    const anonymous = await approval(project.id, mr.iid, 'approve');
    const anonymousUnapprove = await approval(project.id, mr.iid, 'unapprove');

    // Assert
    expect(byReporter).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(unapproveByReporter).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(byStranger.status).toBe(404);
    expect(readByStranger.status).toBe(404);
    expect(anonymous.status).toBe(401);
    expect(anonymousUnapprove.status).toBe(401);
    expect((await approvalsOf(project.id, mr.iid, token)).body).toMatchObject({ approved: false, approved_by: [] });
  });

  it('answers 409 to a sha that is not the source head, approving nothing; approves with the head', async () => {
    // Arrange
    const mr = await newMergeRequest();

    // Act
    const stale = await approval(project.id, mr.iid, 'approve', developer.token, { sha: '0'.repeat(40) });
    const unapproved = await approvalsOf(project.id, mr.iid, token);
    const current = await approval(project.id, mr.iid, 'approve', developer.token, { sha: mr.sha, approval_password: 'ignored' });

    // Assert
    expect(stale).toMatchObject({ status: 409, body: { message: 'SHA does not match HEAD of source branch' } });
    expect(unapproved.body.approved).toBe(false);
    expect(current.status).toBe(201);
    expect(current.body.approved).toBe(true);
  });

  it('refuses to approve (401) or unapprove (404) a merged merge request', async () => {
    // Arrange
    const mr = await newMergeRequest();
    expect((await approval(project.id, mr.iid, 'approve', developer.token)).status).toBe(201);
    expect((await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token })).status).toBe(200);

    // Act
    const approve = await approval(project.id, mr.iid, 'approve', maintainer.token);
    const unapprove = await approval(project.id, mr.iid, 'unapprove', developer.token);

    // Assert
    expect(approve).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(unapprove).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await approvalsOf(project.id, mr.iid, token)).body).toMatchObject({ state: 'merged', approved_by: [{ user: { id: developer.id } }], user_can_approve: false });
  });

  it('records the system notes and the approved event', async () => {
    // Arrange
    const mr = await newMergeRequest();

    // Act
    expect((await approval(project.id, mr.iid, 'approve', developer.token)).status).toBe(201);
    expect((await approval(project.id, mr.iid, 'unapprove', developer.token)).status).toBe(201);

    // Assert
    const notes = (await api(mrs(project.id, `/${mr.iid}/notes`), { token, query: { sort: 'asc' } })).body as Array<{ body: string; system: boolean; author: { id: number } }>;
    expect(notes.filter((note) => note.system).map((note) => [note.body, note.author.id])).toEqual([
      ['approved this merge request', developer.id],
      ['unapproved this merge request', developer.id],
    ]);
    const events = await api(`/projects/${project.id}/events`, { token, query: { action: 'approved' } });
    expect(events.body.filter((event: { target_id: number }) => event.target_id === mr.id)).toEqual([
      expect.objectContaining({ action_name: 'approved', target_type: 'MergeRequest', target_id: mr.id, author_id: developer.id }),
    ]);
  });

  it('makes one approval of ten parallel approves by one user', async () => {
    // Arrange
    const mr = await newMergeRequest();

    // Act
    const answers = await Promise.all(Array.from({ length: 10 }, () => approval(project.id, mr.iid, 'approve', developer.token)));

    // Assert
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(9).fill(401)]);
    expect((await approvalsOf(project.id, mr.iid, token)).body.approved_by).toHaveLength(1);
    const notes = (await api(mrs(project.id, `/${mr.iid}/notes`), { token })).body as Array<{ body: string }>;
    expect(notes.filter((note) => note.body === 'approved this merge request')).toHaveLength(1);
  });

  it('keeps every edit and every approval when they race', async () => {
    // Arrange
    const mr = await newMergeRequest();
    const edit = (body: Record<string, unknown>) => api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token, body });

    // Act
    const answers = await Promise.all([
      approval(project.id, mr.iid, 'approve', developer.token),
      edit({ title: 'Raced title' }),
      approval(project.id, mr.iid, 'approve', maintainer.token),
      edit({ description: 'Raced description' }),
      edit({ labels: 'raced' }),
    ]);

    // Assert
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 201, 200, 200]);
    const read = (await api(mrs(project.id, `/${mr.iid}`), { token })).body;
    expect(read).toMatchObject({ title: 'Raced title', description: 'Raced description', labels: ['raced'] });
    const approvals = (await approvalsOf(project.id, mr.iid, token)).body;
    expect(approvals.approved_by.map((entry: { user: { id: number } }) => entry.user.id).sort()).toEqual([developer.id, maintainer.id].sort());
  });

  it("sets the reviewer's state to approved, then unapproved, and marks the reviewer's todo done when they approve", async () => {
    // Arrange
    const mr = await newMergeRequest();
    const review = await api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token, body: { reviewer_ids: [developer.id] } });
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    const reviewState = async () => (await api(mrs(project.id, `/${mr.iid}/reviewers`), { token })).body.map((entry: { user: { id: number }; state: string }) => [entry.user.id, entry.state]);
    const reviewTodos = async (state: string) =>
      (await api('/todos', { token: developer.token, query: { state, action: 'review_requested', project_id: project.id } })).body.filter((todo: { target: { iid: number } }) => todo.target.iid === mr.iid).length;

    // Act
    expect((await approval(project.id, mr.iid, 'approve', maintainer.token)).status).toBe(201);
    const afterOther = await reviewState();
    const pendingBefore = await reviewTodos('pending');
    expect((await approval(project.id, mr.iid, 'approve', developer.token)).status).toBe(201);
    const afterApproval = await reviewState();
    expect([pendingBefore, await reviewTodos('pending'), await reviewTodos('done')]).toEqual([1, 0, 1]);
    expect((await approval(project.id, mr.iid, 'unapprove', developer.token)).status).toBe(201);
    const afterUnapproval = await reviewState();

    // Assert
    expect(afterOther).toEqual([[developer.id, 'unreviewed']]);
    expect(afterApproval).toEqual([[developer.id, 'approved']]);
    expect(afterUnapproval).toEqual([[developer.id, 'unapproved']]);
  });

  it("drops a deleted user's approval from approved_by (no ghost, no error), as GitLab's approvals go with their user", async () => {
    // Prepare: two approvals of one merge request, one by a user deleted since; another approved only by them.
    const [both, alone] = [await newMergeRequest(), await newMergeRequest()];
    const leaving = await newMember(project, DEVELOPER);
    for (const user of [leaving, maintainer]) expect((await approval(project.id, both.iid, 'approve', user.token)).status).toBe(201);
    expect((await approval(project.id, alone.iid, 'approve', leaving.token)).status).toBe(201);
    expect((await api(`/users/${leaving.id}`, { method: 'DELETE', token: rootToken() })).status).toBe(200);

    // Act / Assess: once the deletion ran, only the remaining approval is shown.
    await eventually(async () => expect((await api(`/users/${leaving.id}`, { token: rootToken() })).status).toBe(404));
    const [withOther, withNone] = [await approvalsOf(project.id, both.iid, token), await approvalsOf(project.id, alone.iid, token)];
    expect([withOther.status, withOther.body.approved, withOther.body.approved_by.map((entry: { user: { id: number } }) => entry.user.id)]).toEqual([200, true, [maintainer.id]]);
    expect([withNone.status, withNone.body.approved, withNone.body.approved_by]).toEqual([200, false, []]);
  });

  it('resets every approval for a project access token\'s bot only (202), 401 for anyone else', async () => {
    // Prepare
    const mr = await newMergeRequest();
    for (const user of [developer, maintainer]) expect((await approval(project.id, mr.iid, 'approve', user.token)).status).toBe(201);
    const bot = await api(`/projects/${project.id}/access_tokens`, { token, body: { name: 'reset bot', scopes: ['api'], access_level: DEVELOPER } });
    expect(bot.status, JSON.stringify(bot.body)).toBe(201);
    const reset = (who: string) => api(mrs(project.id, `/${mr.iid}/reset_approvals`), { method: 'PUT', token: who });

    // Act
    const refused = await Promise.all([token, maintainer.token].map(reset));
    const accepted = await reset(bot.body.token);

    // Assert
    expect(refused.map((r) => [r.status, r.body])).toEqual([
      [401, { message: '401 Unauthorized' }],
      [401, { message: '401 Unauthorized' }],
    ]);
    expect([accepted.status, accepted.body]).toEqual([202, 202]);
    expect((await approvalsOf(project.id, mr.iid, token)).body).toMatchObject({ approved: false, approved_by: [] });
  });
});

describe.skipIf(!isLocalRuntime())('merge request approval webhooks', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject();
    await commit(project.id, project.owner.token, 'main', { 'README.md': '# readme\n' });
    const hook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url(), merge_requests_events: true, push_events: false } });
    expect(hook.status).toBe(201);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('sends a Merge Request Hook with action approved, then unapproved', async () => {
    // Arrange
    const token = project.owner.token;
    await commit(project.id, token, 'hooked', { 'h.txt': 'h\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'hooked' });

    // Act
    expect((await approval(project.id, mr.iid, 'approve', token)).status).toBe(201);
    expect((await approval(project.id, mr.iid, 'unapprove', token)).status).toBe(201);

    // Assert
    const hookOf = (action: string) => receiver.first((d) => d.event === 'Merge Request Hook' && d.body.object_attributes?.action === action);
    const [approved, unapproved] = await Promise.all([hookOf('approved'), hookOf('unapproved')]);
    expect(approved?.body).toMatchObject({ object_kind: 'merge_request', user: { id: project.owner.id }, object_attributes: { iid: mr.iid, action: 'approved', state: 'opened' } });
    expect(approved?.body.changes).toEqual({});
    expect(unapproved?.body).toMatchObject({ object_attributes: { iid: mr.iid, action: 'unapproved' } });
  });
});
