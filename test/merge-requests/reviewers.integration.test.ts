/**
 * A merge request's reviewer over HTTP (GitLab Free: one reviewer): `reviewer_ids` on open and edit
 * by those who may set metadata, `reviewers` and `GET …/reviewers`, the system notes of a change,
 * the `review_requested` todo, participants and subscription, the `reviewer_id` and
 * `reviewer_username` filters (a reviewer's own index for `GET /merge_requests?scope=all`), the
 * Merge Request Hook's reviewers, and parallel edits that leave one reviewer in every index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { WebhookReceiver } from '../support/webhooks';
import { commit, DEVELOPER, mrs, openMergeRequest, REPORTER } from './helpers';

type Named = { id: number; username: string };
const ids = (users: Named[]) => users.map((user) => user.id);

describe('merge request reviewers', () => {
  let project: OwnedProject;
  let token: string;
  let developer: TestUser;
  let reporter: TestUser;
  let branch = 0;

  /** A merge request of a new branch, opened by the owner with `body`. */
  async function open(body: Record<string, unknown> = {}) {
    const source = `topic-${++branch}`;
    await commit(project.id, token, source, { [`${source}.txt`]: 't\n' }, { start: 'main' });
    return openMergeRequest(project.id, token, { source_branch: source, ...body });
  }
  const edit = (iid: number, body: Record<string, unknown>, as = token) => api(mrs(project.id, `/${iid}`), { method: 'PUT', token: as, body });
  const systemNotes = async (iid: number) =>
    ((await api(mrs(project.id, `/${iid}/notes`), { token, query: { sort: 'asc' } })).body as Array<{ body: string; system: boolean }>).filter((n) => n.system).map((n) => n.body);

  beforeAll(async () => {
    project = await ownedProject('private');
    token = project.owner.token;
    [developer, reporter] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER)]);
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
  });

  it('requests a review on open: the reviewer is shown, listed with its state, gets a todo, participates and is subscribed', async () => {
    // Act
    const mr = await open({ reviewer_ids: [developer.id] });

    // Assert
    expect(ids(mr.reviewers)).toEqual([developer.id]);
    const reviewers = await api(mrs(project.id, `/${mr.iid}/reviewers`), { token: reporter.token });
    expect(reviewers.status).toBe(200);
    expect(reviewers.body).toEqual([{ user: expect.objectContaining({ id: developer.id, username: developer.username }), state: 'unreviewed', created_at: mr.created_at }]);
    const todos = await api('/todos', { token: developer.token, query: { action: 'review_requested' } });
    expect(todos.body.map((todo: { target: { iid: number }; author: { id: number } }) => [todo.target.iid, todo.author.id])).toEqual([[mr.iid, project.owner.id]]);
    const participants = await api(mrs(project.id, `/${mr.iid}/participants`), { token });
    expect(ids(participants.body)).toEqual([project.owner.id, developer.id]);
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: developer.token })).body.subscribed).toBe(true);
    expect(await systemNotes(mr.iid)).toEqual([]);
  });

  it('changes and removes the reviewer on edit with the system notes GitLab writes; one reviewer, the first of several', async () => {
    // Arrange
    const mr = await open({ reviewer_ids: `${developer.id},${reporter.id}` });
    expect(ids(mr.reviewers)).toEqual([developer.id]);

    // Act
    const changed = await edit(mr.iid, { reviewer_ids: [reporter.id] });
    const same = await edit(mr.iid, { reviewer_ids: [reporter.id], title: 'Same reviewer' });
    const removed = await edit(mr.iid, { reviewer_ids: '' });
    const again = await edit(mr.iid, { reviewer_ids: [developer.id] });
    const zero = await edit(mr.iid, { reviewer_ids: [0] });

    // Assert
    expect(ids(changed.body.reviewers)).toEqual([reporter.id]);
    expect(ids(same.body.reviewers)).toEqual([reporter.id]);
    expect(removed.body.reviewers).toEqual([]);
    expect(ids(again.body.reviewers)).toEqual([developer.id]);
    expect(zero.body.reviewers).toEqual([]);
    expect(await systemNotes(mr.iid)).toEqual([
      `requested review from @${reporter.username} and removed review request for @${developer.username}`,
      'changed title from **A change** to **Same reviewer**',
      `removed review request for @${reporter.username}`,
      `requested review from @${developer.username}`,
      `removed review request for @${developer.username}`,
    ]);
  });

  it('ignores a reviewer who cannot read the merge requests, and reviewer_ids from a caller who may not set metadata', async () => {
    // Arrange: the reporter may edit as the assignee, not set metadata.
    const stranger = await createUser();
    const mr = await open({ reviewer_ids: [developer.id], assignee_id: reporter.id });

    // Act
    const byStranger = await edit(mr.iid, { reviewer_ids: [stranger.id] });
    const byAssignee = await edit(mr.iid, { reviewer_ids: [reporter.id], title: 'Edited by the assignee' }, reporter.token);

    // Assert
    expect(ids(byStranger.body.reviewers)).toEqual([developer.id]);
    expect(byAssignee.status).toBe(200);
    expect(byAssignee.body.title).toBe('Edited by the assignee');
    expect(ids(byAssignee.body.reviewers)).toEqual([developer.id]);
    expect((await api(mrs(project.id, `/${mr.iid}/reviewers`), { token })).body.map((r: { user: Named }) => r.user.id)).toEqual([developer.id]);
  });

  it('filters lists by reviewer_id (an id, None, Any) and reviewer_username, and lists a reviewer’s merge requests across projects', async () => {
    // Arrange
    const other = await createUser();
    const reviewed = await open({ reviewer_ids: [reporter.id], title: 'Reviewed by the reporter' });
    const unreviewed = await open({ title: 'Nobody reviews' });
    const list = async (query: Record<string, unknown>, as = token, path = mrs(project.id)) => ((await api(path, { token: as, query: { per_page: 100, ...query } })).body as Array<{ iid: number }>).map((mr) => mr.iid);

    // Act + Assert
    expect(await list({ reviewer_id: reporter.id })).toEqual([reviewed.iid]);
    expect(await list({ reviewer_username: reporter.username })).toEqual([reviewed.iid]);
    expect(await list({ reviewer_username: 'nobody-has-this-name' })).toEqual([]);
    expect(await list({ reviewer_id: 'None' })).toContain(unreviewed.iid);
    expect(await list({ reviewer_id: 'None' })).not.toContain(reviewed.iid);
    expect(await list({ reviewer_id: 'any' })).toContain(reviewed.iid);
    expect(await list({ reviewer_id: 'any' })).not.toContain(unreviewed.iid);
    const both = await api(mrs(project.id), { token, query: { reviewer_id: reporter.id, reviewer_username: reporter.username } });
    expect(both).toMatchObject({ status: 400, body: { error: 'reviewer_id, reviewer_username are mutually exclusive' } });
    // The reviewer's own index: what the reviewer and the owner may read, nothing for a stranger.
    expect(await list({ scope: 'all', reviewer_id: reporter.id }, reporter.token, '/merge_requests')).toEqual([reviewed.iid]);
    expect(await list({ scope: 'all', reviewer_id: reporter.id, state: 'closed' }, reporter.token, '/merge_requests')).toEqual([]);
    expect(await list({ scope: 'all', reviewer_username: reporter.username }, token, '/merge_requests')).toEqual([reviewed.iid]);
    expect(await list({ scope: 'all', reviewer_id: reporter.id }, other.token, '/merge_requests')).toEqual([]);
    await edit(reviewed.iid, { reviewer_ids: [] });
    expect(await list({ scope: 'all', reviewer_id: reporter.id }, reporter.token, '/merge_requests')).toEqual([]);
  });

  it('leaves one reviewer in every index after parallel edits naming different reviewers', async () => {
    // Arrange
    const candidates = [developer, reporter, await newMember(project, DEVELOPER), await newMember(project, DEVELOPER)];
    const mr = await open();

    // Act
    const results = await Promise.all(candidates.map((user) => edit(mr.iid, { reviewer_ids: [user.id] })));

    // Assert
    for (const result of results) expect([200, 409]).toContain(result.status);
    const final = (await api(mrs(project.id, `/${mr.iid}`), { token })).body;
    expect(final.reviewers).toHaveLength(1);
    const listed = await Promise.all(
      candidates.map(async (user) => (await api('/merge_requests', { token: user.token, query: { scope: 'all', reviewer_id: user.id, per_page: 100 } })).body.some((m: { id: number }) => m.id === mr.id)),
    );
    expect(candidates.filter((_user, i) => listed[i]).map((user) => user.id)).toEqual([final.reviewers[0].id]);
  });
});

describe.skipIf(!isLocalRuntime())('merge request reviewers in webhooks', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject();
    expect((await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url(), merge_requests_events: true, push_events: false } })).status).toBe(201);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('shows the reviewers, their ids and their change in the Merge Request Hook', async () => {
    // Arrange
    const token = project.owner.token;
    const reviewer = await newMember(project, DEVELOPER);
    await commit(project.id, token, 'main', { 'README.md': '# hooks\n' });
    await commit(project.id, token, 'reviewed', { 'r.txt': 'r\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'reviewed' });

    // Act
    expect((await api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token, body: { reviewer_ids: [reviewer.id] } })).status).toBe(200);

    // Assert
    const updated = await receiver.first((d) => d.event === 'Merge Request Hook' && d.body.object_attributes?.action === 'update');
    expect(updated?.body).toMatchObject({
      object_attributes: { iid: mr.iid, reviewer_ids: [reviewer.id] },
      reviewers: [{ id: reviewer.id, username: reviewer.username }],
      changes: { reviewers: { previous: [], current: [{ id: reviewer.id, username: reviewer.username }] } },
    });
  });
});
