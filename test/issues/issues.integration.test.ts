import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { openIssue, openIssuesCount, createProject as createProjectAs, createUser, unique, type TestUser, newMember as addMember, ownedProject as createProject, type OwnedProject } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;

const ISSUE_FIELDS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'moved_to_id',
  'closed_at',
  'closed_by',
  'labels',
  'milestone',
  'assignees',
  'author',
  'assignee',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'due_date',
  'confidential',
  'discussion_locked',
  'web_url',
  'time_stats',
  'task_completion_status',
  'type',
  'issue_type',
  'severity',
  'imported',
  'imported_from',
  'references',
  '_links',
  'service_desk_reply_to',
].sort();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Internal: opens an issue (201 asserted). */
const addIssue = (project: OwnedProject, body: Record<string, unknown> = {}, token = project.owner.token) => openIssue(project.id, token, body);

const issuesUrl = (project: OwnedProject) => `/projects/${project.id}/issues`;
const issueUrl = (project: OwnedProject, iid: number) => `/projects/${project.id}/issues/${iid}`;


describe('POST /projects/:id/issues', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('opens an issue with the entity of GitLab and counts it open', async () => {
    // Prepare
    const before = await openIssuesCount(project);

    // Act
    const response = await api(issuesUrl(project), {
      token: project.owner.token,
      body: { title: 'Crash on start', description: 'It crashes:\n- [x] reproduce\n- [ ] fix', due_date: '2030-01-31', confidential: false },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...ISSUE_FIELDS, 'subscribed'].sort());
    expect(response.body).toEqual({
      id: expect.any(Number),
      iid: expect.any(Number),
      project_id: project.id,
      title: 'Crash on start',
      description: 'It crashes:\n- [x] reproduce\n- [ ] fix',
      state: 'opened',
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      closed_at: null,
      closed_by: null,
      moved_to_id: null,
      labels: [],
      milestone: null,
      assignees: [],
      author: expect.objectContaining({ id: project.owner.id, username: project.owner.username }),
      assignee: null,
      user_notes_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: '2030-01-31',
      confidential: false,
      discussion_locked: null,
      web_url: `${baseUrl()}/${project.fullPath}/issues/${response.body.iid}`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 2, completed_count: 1 },
      type: 'ISSUE',
      issue_type: 'issue',
      severity: 'UNKNOWN',
      imported: false,
      imported_from: 'none',
      references: { short: `#${response.body.iid}`, relative: `#${response.body.iid}`, full: `${project.fullPath}#${response.body.iid}` },
      _links: {
        self: `${baseUrl()}/api/v4/projects/${project.id}/issues/${response.body.iid}`,
        notes: `${baseUrl()}/api/v4/projects/${project.id}/issues/${response.body.iid}/notes`,
        award_emoji: `${baseUrl()}/api/v4/projects/${project.id}/issues/${response.body.iid}/award_emoji`,
        project: `${baseUrl()}/api/v4/projects/${project.id}`,
        closed_as_duplicate_of: null,
      },
      service_desk_reply_to: null,
      subscribed: true,
    });
    expect(await openIssuesCount(project)).toBe(before + 1);
    // Its own links lead to it.
    expect((await api(response.body._links.self.slice(`${baseUrl()}/api/v4`.length), { token: project.owner.token })).body.id).toBe(response.body.id);
  });

  it('numbers iids per project from 1, and parallel creates get distinct iids', async () => {
    // Prepare
    const other = await createProject();

    // Act
    const first = await addIssue(other);
    const parallel = await Promise.all(Array.from({ length: 6 }, () => addIssue(other)));

    // Assess
    expect(first.iid).toBe(1);
    expect(new Set(parallel.map((issue) => issue.iid)).size).toBe(6);
    expect(await openIssuesCount(other)).toBe(7);
  });

  it('sets labels (creating missing ones), a milestone of the project and an assignee who can read the project', async () => {
    // Prepare
    const developer = await addMember(project, DEVELOPER);
    const milestone = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: unique('m') } });

    // Act
    const issue = await addIssue(project, { labels: 'bug, Needs review', milestone_id: milestone.body.id, assignee_ids: [developer.id] });

    // Assess
    expect(issue.labels).toEqual(['Needs review', 'bug']);
    const asArray = await addIssue(project, { labels: ['bug', 'BUG', unique('new')] });
    expect(asArray.labels).toHaveLength(2);
    expect(issue.milestone).toMatchObject({ id: milestone.body.id, title: milestone.body.title });
    expect(issue.assignees).toEqual([expect.objectContaining({ id: developer.id })]);
    expect(issue.assignee).toMatchObject({ id: developer.id });
    const labels = await api(`/projects/${project.id}/labels`, { token: project.owner.token });
    expect(labels.body.map((label: { name: string }) => label.name)).toEqual(expect.arrayContaining(['bug', 'Needs review']));
  });

  it('ignores a milestone of another project and an assignee who cannot read the project, as GitLab does', async () => {
    // Prepare
    const other = await createProject();
    const foreign = await api(`/projects/${other.id}/milestones`, { token: other.owner.token, body: { title: unique('m') } });
    const outsider = await createUser();

    // Act
    const issue = await addIssue(project, { milestone_id: foreign.body.id, assignee_ids: [outsider.id] });

    // Assess
    expect(issue.milestone).toBeNull();
    expect(issue.assignees).toEqual([]);
  });

  it('honours created_at from the owner and ignores it from a developer', async () => {
    // Prepare
    const developer = await addMember(project, DEVELOPER);

    // Act
    const byOwner = await addIssue(project, { created_at: '2016-01-02T03:04:05Z' });
    const byDeveloper = await addIssue(project, { created_at: '2016-01-02T03:04:05Z' }, developer.token);

    // Assess
    expect(byOwner.created_at).toBe('2016-01-02T03:04:05.000Z');
    expect(byDeveloper.created_at).not.toBe('2016-01-02T03:04:05.000Z');
  });

  it('lets a guest open an issue but drops the labels, milestone and assignee they send', async () => {
    // Prepare
    const guest = await addMember(project, GUEST);

    // Act
    const issue = await addIssue(project, { labels: unique('l'), assignee_ids: [guest.id] }, guest.token);

    // Assess
    expect(issue.author.id).toBe(guest.id);
    expect(issue.labels).toEqual([]);
    expect(issue.assignees).toEqual([]);
  });

  it.each([
    [{}, 'title is missing'],
    [{ title: '  ' }, 'title is missing'],
    [{ title: 'x', due_date: '2030-13-01' }, 'due_date is invalid'],
    [{ title: 'x', confidential: 'maybe' }, 'confidential is invalid'],
    [{ title: 'x', merge_request_to_resolve_discussions_of: 'first' }, 'merge_request_to_resolve_discussions_of is invalid'],
  ])('answers 400 to %j and writes nothing', async (body, error) => {
    // Prepare
    const before = await openIssuesCount(project);

    // Act
    const response = await api(issuesUrl(project), { token: project.owner.token, body });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
    expect(await openIssuesCount(project)).toBe(before);
  });

  it('ignores merge_request_to_resolve_discussions_of naming no merge request, as GitLab does', async () => {
    const response = await api(issuesUrl(project), {
      token: project.owner.token,
      body: { title: 'Follow-up', description: 'mine', merge_request_to_resolve_discussions_of: 99, discussion_to_resolve: 'abc' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ title: 'Follow-up', description: 'mine' });
  });

  it('refuses a title longer than 255 characters', async () => {
    const response = await api(issuesUrl(project), { token: project.owner.token, body: { title: 'é'.repeat(256) } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('answers 404 to a non-member of a private project and 401 without a token', async () => {
    const outsider = await createUser();
    const hidden = await api(issuesUrl(project), { token: outsider.token, body: { title: 'x' } });
    const anonymous = await api(issuesUrl(project), { body: { title: 'x' } });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect(anonymous.status).toBe(401);
  });

  it('lets any signed-in user open an issue on a public project', async () => {
    const open = await createProject('public');
    const stranger = await createUser();
    const issue = await addIssue(open, {}, stranger.token);
    expect(issue.author.id).toBe(stranger.id);
  });

  it('records an opened event', async () => {
    const issue = await addIssue(project);
    const events = await api(`/projects/${project.id}/events`, { token: project.owner.token });
    expect(events.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ action_name: 'opened', target_type: 'Issue', target_id: issue.id })]),
    );
  });
});

describe('GET /projects/:id/issues/:issue_iid', () => {
  let project: OwnedProject;
  let guest: TestUser;
  let reporter: TestUser;
  let assignee: TestUser;
  let secret: { iid: number; id: number };
  beforeAll(async () => {
    project = await createProject();
    [guest, reporter, assignee] = await Promise.all([addMember(project, GUEST), addMember(project, REPORTER), addMember(project, GUEST)]);
    secret = await addIssue(project, { confidential: true, assignee_ids: [assignee.id] });
  });

  it('returns the issue with subscribed: true for its author and assignee (participants), false for others', async () => {
    const response = await api(issueUrl(project, secret.iid), { token: reporter.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: secret.id, iid: secret.iid, confidential: true, subscribed: false });
    for (const token of [project.owner.token, assignee.token]) {
      expect((await api(issueUrl(project, secret.iid), { token })).body.subscribed).toBe(true);
    }
  });

  it('shows a confidential issue to its author, assignee, reporters and admins, and hides it (404) from a guest', async () => {
    const statuses = await Promise.all(
      [project.owner.token, assignee.token, reporter.token, rootToken(), guest.token].map(
        async (token) => (await api(issueUrl(project, secret.iid), { token })).status,
      ),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 404]);
  });

  it('shows a guest its own confidential issue', async () => {
    const own = await addIssue(project, { confidential: true }, guest.token);
    expect((await api(issueUrl(project, own.iid), { token: guest.token })).status).toBe(200);
  });

  it('answers 404 Issue Not Found to an unknown iid, 404 Project to a non-member, 401 anonymously even on a public project', async () => {
    const open = await createProject('public');
    const issue = await addIssue(open);
    const outsider = await createUser();
    const unknown = await api(issueUrl(project, 999999), { token: project.owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Issue Not Found' });
    expect((await api(issueUrl(project, secret.iid), { token: outsider.token })).status).toBe(404);
    expect((await api(issueUrl(open, issue.iid))).status).toBe(401);
    expect((await api(issueUrl(open, issue.iid), { token: outsider.token })).status).toBe(200);
  });

  it('answers 400 to a non-numeric iid', async () => {
    const response = await api(`/projects/${project.id}/issues/abc`, { token: project.owner.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'issue_iid is invalid' });
  });
});

describe('GET /projects/:id/issues', () => {
  let project: OwnedProject;
  let guest: TestUser;
  let milestoneTitle: string;
  let issues: Array<{ iid: number; id: number; title: string }>;
  beforeAll(async () => {
    project = await createProject();
    guest = await addMember(project, GUEST);
    milestoneTitle = unique('m');
    const milestone = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: milestoneTitle } });
    issues = [];
    issues.push(await addIssue(project, { title: 'alpha one', labels: 'bug' }));
    issues.push(await addIssue(project, { title: 'beta two', labels: 'bug,ui', milestone_id: milestone.body.id }));
    issues.push(await addIssue(project, { title: 'gamma three', description: 'Has ALPHA inside' }));
    issues.push(await addIssue(project, { title: 'delta secret', confidential: true }));
    issues.push(await addIssue(project, { title: 'epsilon closed' }));
    await api(issueUrl(project, issues[4].iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
  });

  const titles = (body: Array<{ title: string }>) => body.map((issue) => issue.title);

  it('lists every issue newest first by default', async () => {
    const response = await api(issuesUrl(project), { token: project.owner.token });
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(['epsilon closed', 'delta secret', 'gamma three', 'beta two', 'alpha one']);
    expect(response.body[0]).not.toHaveProperty('subscribed');
    expect(response.headers.get('x-total')).toBe('5');
  });

  it('counts the same by the project’s path (its counts read after the project, not with it)', async () => {
    const response = await api(`/projects/${encodeURIComponent(project.fullPath)}/issues`, { token: project.owner.token, query: { state: 'opened' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total')).toBe('4');
  });

  it.each([
    [{ state: 'opened' }, ['delta secret', 'gamma three', 'beta two', 'alpha one']],
    [{ state: 'closed' }, ['epsilon closed']],
    [{ state: 'all', sort: 'asc' }, ['alpha one', 'beta two', 'gamma three', 'delta secret', 'epsilon closed']],
    [{ labels: 'bug' }, ['beta two', 'alpha one']],
    [{ labels: 'bug,ui' }, ['beta two']],
    [{ labels: 'No Label' }, ['epsilon closed', 'delta secret', 'gamma three']],
    [{ labels: 'unknown-label' }, []],
    [{ milestone: 'No Milestone', state: 'opened' }, ['delta secret', 'gamma three', 'alpha one']],
    [{ search: 'alpha' }, ['gamma three', 'alpha one']],
  ])('filters with %j', async (query, expected) => {
    const response = await api(issuesUrl(project), { token: project.owner.token, query });
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(expected);
  });

  it('filters by milestone title and by iids[]', async () => {
    const byMilestone = await api(issuesUrl(project), { token: project.owner.token, query: { milestone: milestoneTitle } });
    const byIids = await api(issuesUrl(project), { token: project.owner.token, query: { 'iids[]': [issues[0].iid, issues[2].iid] } });
    expect(titles(byMilestone.body)).toEqual(['beta two']);
    expect(titles(byIids.body)).toEqual(['gamma three', 'alpha one']);
  });

  it('orders by updated_at', async () => {
    await api(issueUrl(project, issues[0].iid), { method: 'PUT', token: project.owner.token, body: { description: 'touched' } });
    const response = await api(issuesUrl(project), { token: project.owner.token, query: { order_by: 'updated_at' } });
    expect(titles(response.body)[0]).toBe('alpha one');
  });

  it('hides confidential issues from a guest', async () => {
    const response = await api(issuesUrl(project), { token: guest.token });
    expect(titles(response.body)).not.toContain('delta secret');
    expect(response.body).toHaveLength(4);
  });

  it('pages with offset headers and with a keyset cursor round trip', async () => {
    const first = await api(issuesUrl(project), { token: project.owner.token, query: { per_page: 2 } });
    const second = await api(issuesUrl(project), { token: project.owner.token, query: { per_page: 2, page: 2 } });
    expect(titles(first.body)).toEqual(['epsilon closed', 'delta secret']);
    expect(titles(second.body)).toEqual(['gamma three', 'beta two']);
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-total-pages')).toBe('3');

    const seen: string[] = [];
    let next: string | undefined = `${baseUrl()}/api/v4${issuesUrl(project)}?pagination=keyset&per_page=2&state=all`;
    while (next) {
      const url: URL = new URL(next);
      const page = await api(`${url.pathname.replace('/api/v4', '')}`, { token: project.owner.token, query: url.searchParams });
      seen.push(...titles(page.body));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    }
    expect(seen).toEqual(['epsilon closed', 'delta secret', 'gamma three', 'beta two', 'alpha one']);
  });

  it('answers 400 to a forged cursor and to an unknown state', async () => {
    const cursor = await api(issuesUrl(project), { token: project.owner.token, query: { pagination: 'keyset', cursor: 'abc' } });
    const state = await api(issuesUrl(project), { token: project.owner.token, query: { state: 'merged' } });
    expect(cursor.status).toBe(400);
    expect(state.status).toBe(400);
    expect(state.body).toEqual({ error: 'state does not have a valid value' });
  });

  it('answers 401 anonymously (even on a public project) and 404 to a non-member of a private project', async () => {
    const open = await createProject('public');
    const outsider = await createUser();
    expect((await api(issuesUrl(open))).status).toBe(401);
    expect((await api(issuesUrl(project), { token: outsider.token })).status).toBe(404);
  });
});

describe('PUT /projects/:id/issues/:issue_iid', () => {
  let project: OwnedProject;
  let guest: TestUser;
  let reporter: TestUser;
  beforeAll(async () => {
    project = await createProject();
    [guest, reporter] = await Promise.all([addMember(project, GUEST), addMember(project, REPORTER)]);
  });

  it('edits fields and keeps the ones not sent', async () => {
    const issue = await addIssue(project, { description: 'keep me', labels: 'a' });
    const response = await api(issueUrl(project, issue.iid), {
      method: 'PUT',
      token: reporter.token,
      body: { title: 'renamed', labels: 'b,c', due_date: '2031-01-01' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: 'renamed', description: 'keep me', labels: ['b', 'c'], due_date: '2031-01-01', subscribed: false });
    const cleared = await api(issueUrl(project, issue.iid), { method: 'PUT', token: reporter.token, body: { labels: '', due_date: null } });
    expect(cleared.body).toMatchObject({ labels: [], due_date: null });
  });

  it('closes and reopens, moving open_issues_count, closed_at, closed_by and the events', async () => {
    const issue = await addIssue(project);
    const before = await openIssuesCount(project);

    const closed = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    expect(closed.body).toMatchObject({ state: 'closed', closed_at: expect.stringMatching(TIMESTAMP), closed_by: { id: project.owner.id, username: project.owner.username } });
    expect(await openIssuesCount(project)).toBe(before - 1);
    const listed = await api(issuesUrl(project), { token: project.owner.token, query: { 'iids[]': [issue.iid] } });
    expect(listed.body[0].closed_by).toMatchObject({ id: project.owner.id });

    const reopened = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'reopen' } });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
    expect(await openIssuesCount(project)).toBe(before);

    const events = await api(`/projects/${project.id}/events`, { token: project.owner.token });
    const actions = events.body.filter((e: { target_id: number }) => e.target_id === issue.id).map((e: { action_name: string }) => e.action_name);
    expect(actions).toEqual(['reopened', 'closed', 'opened']);
  });

  it('changes open_issues_count once when the same issue is closed in parallel', async () => {
    const racing = await createProject();
    const issue = await addIssue(racing);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api(issueUrl(racing, issue.iid), { method: 'PUT', token: racing.owner.token, body: { state_event: 'close' } })),
    );
    expect(responses.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(await openIssuesCount(racing)).toBe(0);
  });

  it('lets the author (a guest) edit their issue, but not a guest who is neither author nor assignee (403)', async () => {
    const own = await addIssue(project, {}, guest.token);
    const others = await addIssue(project);
    expect((await api(issueUrl(project, own.iid), { method: 'PUT', token: guest.token, body: { title: 'mine' } })).status).toBe(200);
    const denied = await api(issueUrl(project, others.iid), { method: 'PUT', token: guest.token, body: { title: 'theirs' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden' });
  });

  it('honours updated_at from the owner only', async () => {
    const issue = await addIssue(project);
    const byOwner = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { updated_at: '2017-05-06T07:08:09Z' } });
    const byReporter = await api(issueUrl(project, issue.iid), { method: 'PUT', token: reporter.token, body: { updated_at: '2017-05-06T07:08:09Z' } });
    expect(byOwner.body.updated_at).toBe('2017-05-06T07:08:09.000Z');
    expect(byReporter.body.updated_at).not.toBe('2017-05-06T07:08:09.000Z');
  });

  it('answers 400 without a change or with an unknown state_event, 404 to an unknown iid, 401 anonymously', async () => {
    const issue = await addIssue(project);
    const none = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: {} });
    const bad = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'merge' } });
    const missing = await api(issueUrl(project, 999999), { method: 'PUT', token: project.owner.token, body: { title: 'x' } });
    const anonymous = await api(issueUrl(project, issue.iid), { method: 'PUT', body: { title: 'x' } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/at least one parameter must be provided/);
    expect(bad.status).toBe(400);
    expect(missing.status).toBe(404);
    expect(anonymous.status).toBe(401);
  });
});

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  let project: OwnedProject;
  let developer: TestUser;
  beforeAll(async () => {
    project = await createProject();
    developer = await addMember(project, DEVELOPER);
  });

  it('soft-deletes for the owner: 204, gone from reads and lists, open count down', async () => {
    const issue = await addIssue(project);
    const before = await openIssuesCount(project);
    const response = await api(issueUrl(project, issue.iid), { method: 'DELETE', token: project.owner.token });
    expect(response.status).toBe(204);
    expect((await api(issueUrl(project, issue.iid), { token: project.owner.token })).status).toBe(404);
    const listed = await api(issuesUrl(project), { token: project.owner.token });
    expect(listed.body.map((i: { id: number }) => i.id)).not.toContain(issue.id);
    expect(await openIssuesCount(project)).toBe(before - 1);
    expect((await api(issueUrl(project, issue.iid), { method: 'DELETE', token: project.owner.token })).status).toBe(404);
    // Its iid is not reused.
    expect((await addIssue(project)).iid).toBeGreaterThan(issue.iid);
  });

  it('keeps the open count when a closed issue is deleted, and lets an admin delete', async () => {
    const issue = await addIssue(project);
    await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    const before = await openIssuesCount(project);
    expect((await api(issueUrl(project, issue.iid), { method: 'DELETE', token: rootToken() })).status).toBe(204);
    expect(await openIssuesCount(project)).toBe(before);
  });

  it('refuses a developer (403) and an anonymous caller (401)', async () => {
    const issue = await addIssue(project);
    expect((await api(issueUrl(project, issue.iid), { method: 'DELETE', token: developer.token })).status).toBe(403);
    expect((await api(issueUrl(project, issue.iid), { method: 'DELETE' })).status).toBe(401);
    expect((await api(issueUrl(project, issue.iid), { token: project.owner.token })).status).toBe(200);
  });
});

describe('a project with issues disabled', () => {
  it('lists no issues, reads none (404) and refuses to open one (403) for a member', async () => {
    // Prepare
    const owner = await createUser();
    const { id, fullPath } = await createProjectAs(owner.token, { visibility: 'private', issues_enabled: false });
    const project = { id, fullPath, owner };
    const issue = await addIssue(project, {}, rootToken());
    const developer = await addMember(project, DEVELOPER);

    // Act
    const list = await api(issuesUrl(project), { token: developer.token });
    const single = await api(issueUrl(project, issue.iid), { token: developer.token });
    const create = await api(issuesUrl(project), { token: developer.token, body: { title: 'x' } });

    // Assess
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect(single.status).toBe(404);
    expect(create.status).toBe(403);
  });
});

describe('GET /issues', () => {
  it('lists the issues the caller opened by default, and those assigned to them with scope=assigned_to_me', async () => {
    const project = await createProject();
    const developer = await addMember(project, DEVELOPER);
    const mine = await addIssue(project, {}, developer.token);
    const assigned = await addIssue(project, { assignee_ids: [developer.id] });
    await addIssue(project);

    const created = await api('/issues', { token: developer.token });
    const toMe = await api('/issues', { token: developer.token, query: { scope: 'assigned_to_me' } });

    expect(created.status).toBe(200);
    expect(created.body.map((i: { id: number }) => i.id)).toEqual([mine.id]);
    expect(toMe.body.map((i: { id: number }) => i.id)).toEqual([assigned.id]);
    expect(created.body[0].web_url).toBe(`${baseUrl()}/${project.fullPath}/issues/${mine.iid}`);
  });

  it('filters by state and leaves out issues of projects the caller can no longer read', async () => {
    const project = await createProject();
    const developer = await addMember(project, DEVELOPER);
    const first = await addIssue(project, {}, developer.token);
    const second = await addIssue(project, {}, developer.token);
    await api(issueUrl(project, first.iid), { method: 'PUT', token: developer.token, body: { state_event: 'close' } });

    const opened = await api('/issues', { token: developer.token, query: { state: 'opened' } });
    expect(opened.body.map((i: { id: number }) => i.id)).toEqual([second.id]);

    await api(`/projects/${project.id}/members/${developer.id}`, { method: 'DELETE', token: project.owner.token });
    const afterRemoval = await api('/issues', { token: developer.token });
    expect(afterRemoval.body).toEqual([]);
  });

  it('answers 401 anonymously and 400 to an unknown scope', async () => {
    const user = await createUser();
    expect((await api('/issues')).status).toBe(401);
    expect((await api('/issues', { token: user.token, query: { scope: 'everything' } })).status).toBe(400);
  });
});

describe('GET /projects/:id/issues/:issue_iid/closed_by', () => {
  it('lists no merge requests (none exist yet) and hides issues the caller may not read', async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const project = await createProjectAs(owner.token);
    const issue = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Closable' } });
    expect(issue.status).toBe(201);
    const closedBy = await api(`/projects/${project.id}/issues/${issue.body.iid}/closed_by`, { token: owner.token });
    expect(closedBy.status).toBe(200);
    expect(closedBy.body).toEqual([]);
    expect(closedBy.headers.get('x-total')).toBe('0');
    expect((await api(`/projects/${project.id}/issues/999999/closed_by`, { token: owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/issues/${issue.body.iid}/closed_by`, { token: outsider.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/issues/${issue.body.iid}/closed_by`)).status).toBe(401);
  });
});
