import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { openIssue, addMember, createProject, createUser, unique, type TestProject, type TestUser } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let owner: TestUser;
let project: TestProject;

/** Internal: opens an issue as the owner (201 asserted). */
const addIssue = (body: Record<string, unknown> = {}, token = owner.token): Promise<{ id: number; iid: number; title: string }> =>
  openIssue(project.id, token, body);

const url = (iid: number, action: string) => `/projects/${project.id}/issues/${iid}/${action}`;

beforeAll(async () => {
  owner = await createUser();
  project = await createProject(owner.token, { visibility: 'public' });
});

describe('POST /projects/:id/issues/:issue_iid/subscribe and unsubscribe', () => {
  /** Internal: a new reporter of the project, neither author nor assignee of the issues here. */
  async function newReporter() {
    const reporter = await createUser();
    await addMember('projects', project.id, reporter.id, REPORTER);
    return reporter;
  }

  const single = (iid: number, token: string) => api(`/projects/${project.id}/issues/${iid}`, { token });

  it('subscribes a user who does not participate, answers 304 the second time, and shows it on the single issue', async () => {
    // Prepare
    const issue = await addIssue();
    const reporter = await newReporter();
    const before = await single(issue.iid, reporter.token);

    // Act
    const first = await api(url(issue.iid, 'subscribe'), { method: 'POST', token: reporter.token });
    const again = await api(url(issue.iid, 'subscribe'), { method: 'POST', token: reporter.token });
    const after = await single(issue.iid, reporter.token);

    // Assess
    expect(before.body.subscribed).toBe(false);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: issue.id, iid: issue.iid, subscribed: true, upvotes: 0, downvotes: 0 });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(after.body.subscribed).toBe(true);
  });

  it('unsubscribes, and answers 304 when not subscribed', async () => {
    // Prepare
    const issue = await addIssue();
    const reporter = await newReporter();
    const notYet = await api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: reporter.token });
    await api(url(issue.iid, 'subscribe'), { method: 'POST', token: reporter.token });

    // Act
    const response = await api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: reporter.token });
    const again = await api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: reporter.token });

    // Assess
    expect(notYet.status).toBe(304);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ iid: issue.iid, subscribed: false });
    expect(again.status).toBe(304);
  });

  it('keeps subscriptions per user', async () => {
    // Prepare
    const issue = await addIssue();
    const [subscriber, bystander] = await Promise.all([createUser(), createUser()]);
    await api(url(issue.iid, 'subscribe'), { method: 'POST', token: subscriber.token });

    // Act
    const theirs = await single(issue.iid, subscriber.token);
    const others = await single(issue.iid, bystander.token);

    // Assess
    expect(theirs.body.subscribed).toBe(true);
    expect(others.body.subscribed).toBe(false);
  });

  it('subscribes the author implicitly, so subscribing again is 304', async () => {
    // Prepare
    const created = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: unique('issue ') } });

    // Act
    const read = await single(created.body.iid, owner.token);
    const subscribe = await api(url(created.body.iid, 'subscribe'), { method: 'POST', token: owner.token });

    // Assess
    expect(created.status).toBe(201);
    expect(created.body.subscribed).toBe(true);
    expect(read.body.subscribed).toBe(true);
    expect(subscribe.status).toBe(304);
  });

  it('lets the author unsubscribe, keeps that choice, and subscribe again', async () => {
    // Prepare
    const issue = await addIssue();

    // Act
    const unsubscribed = await api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: owner.token });
    const read = await single(issue.iid, owner.token);
    const unsubscribedAgain = await api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: owner.token });
    const resubscribed = await api(url(issue.iid, 'subscribe'), { method: 'POST', token: owner.token });
    const readAgain = await single(issue.iid, owner.token);

    // Assess
    expect(unsubscribed.status).toBe(201);
    expect(unsubscribed.body).toMatchObject({ iid: issue.iid, subscribed: false });
    expect(read.body.subscribed).toBe(false);
    expect(unsubscribedAgain.status).toBe(304);
    expect(resubscribed.status).toBe(201);
    expect(resubscribed.body.subscribed).toBe(true);
    expect(readAgain.body.subscribed).toBe(true);
  });

  it('subscribes an assignee implicitly, who can unsubscribe', async () => {
    // Prepare
    const assignee = await newReporter();
    const issue = await addIssue({ assignee_ids: [assignee.id] });

    // Act
    const read = await single(issue.iid, assignee.token);
    const subscribe = await api(url(issue.iid, 'subscribe'), { method: 'POST', token: assignee.token });
    const unsubscribe = await api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: assignee.token });

    // Assess
    expect(read.body.subscribed).toBe(true);
    expect(subscribe.status).toBe(304);
    expect(unsubscribe.status).toBe(201);
    expect(unsubscribe.body.subscribed).toBe(false);
  });

  it('lets exactly one of parallel subscribes succeed, and one of parallel unsubscribes', async () => {
    // Prepare
    const issue = await addIssue();
    const reporter = await newReporter();
    const times = <T>(n: number, run: () => Promise<T>) => Promise.all(Array.from({ length: n }, run));

    // Act
    const subscribes = await times(5, () => api(url(issue.iid, 'subscribe'), { method: 'POST', token: reporter.token }));
    const unsubscribes = await times(5, () => api(url(issue.iid, 'unsubscribe'), { method: 'POST', token: owner.token }));
    const reporterView = await single(issue.iid, reporter.token);
    const authorView = await single(issue.iid, owner.token);

    // Assess
    expect(subscribes.map((r) => r.status).sort()).toEqual([201, 304, 304, 304, 304]);
    expect(unsubscribes.map((r) => r.status).sort()).toEqual([201, 304, 304, 304, 304]);
    expect(reporterView.body.subscribed).toBe(true);
    expect(authorView.body.subscribed).toBe(false);
  });

  it('answers 404 for a confidential issue the caller cannot read, and 401 without a token', async () => {
    // Prepare
    const issue = await addIssue({ confidential: true });
    const stranger = await createUser();

    // Act
    const hidden = await api(url(issue.iid, 'subscribe'), { method: 'POST', token: stranger.token });
    const anonymous = await api(url(issue.iid, 'subscribe'), { method: 'POST' });
    const missing = await api(url(999999, 'subscribe'), { method: 'POST', token: owner.token });

    // Assess
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Issue Not Found' });
    expect(anonymous.status).toBe(401);
    expect(missing.status).toBe(404);
  });
});

describe('POST /projects/:id/issues/:issue_iid/todo', () => {
  it('marks a pending todo with the Todo entity, then answers 304', async () => {
    // Prepare
    const issue = await addIssue();

    // Act
    const response = await api(url(issue.iid, 'todo'), { method: 'POST', token: owner.token });
    const again = await api(url(issue.iid, 'todo'), { method: 'POST', token: owner.token });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      project: {
        id: project.id,
        name: expect.any(String),
        name_with_namespace: expect.stringMatching(/ \/ /),
        path: project.path,
        path_with_namespace: project.fullPath,
      },
      author: expect.objectContaining({ id: owner.id, username: owner.username }),
      action_name: 'marked',
      target_type: 'Issue',
      // the owner wrote the issue, so GitLab counts them subscribed
      target: expect.objectContaining({ id: issue.id, iid: issue.iid, title: issue.title, upvotes: 0, downvotes: 0, subscribed: true }),
      target_url: `${baseUrl()}/${project.fullPath}/issues/${issue.iid}`,
      body: issue.title,
      state: 'pending',
      created_at: expect.stringMatching(TIMESTAMP),
    });
    expect(again.status).toBe(304);
  });

  it('gives each user their own todo', async () => {
    // Prepare
    const issue = await addIssue();
    const other = await createUser();
    const mine = await api(url(issue.iid, 'todo'), { method: 'POST', token: owner.token });

    // Act
    const theirs = await api(url(issue.iid, 'todo'), { method: 'POST', token: other.token });

    // Assess
    expect(theirs.status).toBe(201);
    expect(theirs.body.author.id).toBe(other.id);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});

describe('time tracking', () => {
  it('sets and resets the estimate', async () => {
    // Prepare
    const issue = await addIssue();

    // Act
    const set = await api(url(issue.iid, 'time_estimate'), { token: owner.token, body: { duration: '3h30m' } });
    const read = await api(url(issue.iid, 'time_stats'), { token: owner.token });
    const single = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token });
    const reset = await api(url(issue.iid, 'reset_time_estimate'), { method: 'POST', token: owner.token });

    // Assess
    const stats = { time_estimate: 12600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null };
    expect(set.status).toBe(200);
    expect(set.body).toEqual(stats);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(stats);
    expect(single.body.time_stats).toEqual(stats);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ...stats, time_estimate: 0, human_time_estimate: null });
  });

  it('adds and subtracts spent time, refuses going below zero, and resets it', async () => {
    // Prepare
    const issue = await addIssue();

    // Act
    const added = await api(url(issue.iid, 'add_spent_time'), { token: owner.token, body: { duration: '1w 2d' } });
    const subtracted = await api(url(issue.iid, 'add_spent_time'), { method: 'POST', token: owner.token, query: { duration: '-30m' } });
    const tooMuch = await api(url(issue.iid, 'add_spent_time'), { token: owner.token, body: { duration: '-2w' } });
    const afterRefusal = await api(url(issue.iid, 'time_stats'), { token: owner.token });
    const reset = await api(url(issue.iid, 'reset_spent_time'), { method: 'POST', token: owner.token });

    // Assess
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ total_time_spent: 201600, human_total_time_spent: '1w2d' });
    expect(subtracted.status).toBe(201);
    expect(subtracted.body).toMatchObject({ total_time_spent: 199800, human_total_time_spent: '1w1d7h30m' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toEqual({ message: { base: ['Time to subtract exceeds the total time spent'] } });
    expect(afterRefusal.body.total_time_spent).toBe(199800);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ total_time_spent: 0, human_total_time_spent: null });
  });

  it('counts time spent in parallel requests', async () => {
    // Prepare
    const issue = await addIssue();

    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api(url(issue.iid, 'add_spent_time'), { token: owner.token, body: { duration: '10m' } })),
    );
    const read = await api(url(issue.iid, 'time_stats'), { token: owner.token });

    // Assess
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(read.body.total_time_spent).toBe(3000);
    // Each change wrote its system note with the totals it wrote: one per request.
    const notes = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token });
    expect(notes.body.map((note: { body: string }) => note.body)).toEqual(Array(5).fill('added 10m of time spent'));
  });

  it("tells each time change in a system note, in GitLab's words", async () => {
    // Prepare
    const issue = await addIssue();

    // Act
    for (const [action, body] of [
      ['time_estimate', { duration: '1d 2h' }],
      ['add_spent_time', { duration: '1h30m' }],
      ['add_spent_time', { duration: '-30m' }],
      ['reset_spent_time', undefined],
      ['reset_time_estimate', undefined],
      ['reset_time_estimate', undefined],
    ] as const) {
      const response = await api(url(issue.iid, action), { method: 'POST', token: owner.token, body });
      expect(response.status, action).toBeLessThan(300);
    }

    // Assess: the second estimate reset changed nothing, so it noted nothing
    const notes = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token, query: { sort: 'asc' } });
    expect(notes.body.map((note: { body: string; system: boolean }) => [note.body, note.system])).toEqual([
      ['changed time estimate to 1d 2h', true],
      ['added 1h 30m of time spent', true],
      ['subtracted 30m of time spent', true],
      ['removed time spent', true],
      ['removed time estimate', true],
    ]);
    const read = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token });
    expect(read.body.user_notes_count).toBe(0);
  });

  it('keeps logged time through a concurrent edit of the issue', async () => {
    // Prepare
    const issue = await addIssue();
    await api(url(issue.iid, 'add_spent_time'), { token: owner.token, body: { duration: '1h' } });

    // Act
    await Promise.all([
      api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: owner.token, body: { title: 'renamed' } }),
      api(url(issue.iid, 'add_spent_time'), { token: owner.token, body: { duration: '1h' } }),
    ]);
    const read = await api(url(issue.iid, 'time_stats'), { token: owner.token });

    // Assess
    expect(read.body.total_time_spent).toBe(7200);
  });

  it.each([
    ['time_estimate', { duration: 'soon' }, { message: { time_estimate: ['has an invalid format'] } }],
    ['time_estimate', { duration: '-1h' }, { message: { time_estimate: ['has an invalid format'] } }],
    ['add_spent_time', { duration: 'a while' }, { message: { time_spent: ['has an invalid format'] } }],
    ['time_estimate', {}, { error: 'duration is missing' }],
    ['add_spent_time', {}, { error: 'duration is missing' }],
  ])('answers 400 to %s with %j', async (action, body, error) => {
    // Prepare
    const issue = await addIssue();

    // Act
    const response = await api(url(issue.iid, action), { token: owner.token, body });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error);
  });

  it('lets reporters track time, shows guests the stats, and forbids guests to change them', async () => {
    // Prepare
    const issue = await addIssue();
    const guest = await createUser();
    const reporter = await createUser();
    await addMember('projects', project.id, guest.id, GUEST);
    await addMember('projects', project.id, reporter.id, REPORTER);

    // Act
    const byReporter = await api(url(issue.iid, 'time_estimate'), { token: reporter.token, body: { duration: '2h' } });
    const byGuest = await api(url(issue.iid, 'add_spent_time'), { token: guest.token, body: { duration: '1h' } });
    const guestResets = await api(url(issue.iid, 'reset_time_estimate'), { method: 'POST', token: guest.token });
    const guestReads = await api(url(issue.iid, 'time_stats'), { token: guest.token });
    const anonymous = await api(url(issue.iid, 'time_stats'));

    // Assess
    expect(byReporter.status).toBe(200);
    expect(byGuest.status).toBe(403);
    expect(guestResets.status).toBe(403);
    expect(guestReads.status).toBe(200);
    expect(guestReads.body).toMatchObject({ time_estimate: 7200, total_time_spent: 0, human_time_estimate: '2h' });
    expect(anonymous.status).toBe(401);
  });
});
