import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { openIssue as openIssueIn, openIssuesCount, addMember, createProject, createUser, unique, type TestProject, type TestUser } from '../support/fixtures';

const REPORTER = 20;


async function notesOf(project: TestProject, iid: number): Promise<Array<{ body: string; system: boolean }>> {
  const response = await api(`/projects/${project.id}/issues/${iid}/notes`, { token: rootToken() });
  expect(response.status).toBe(200);
  return response.body;
}

describe('POST /projects/:id/issues/:issue_iid/move', () => {
  let owner: TestUser;
  let source: TestProject;
  let target: TestProject;

  beforeAll(async () => {
    owner = await createUser();
    source = await createProject(owner.token, { visibility: 'private' });
    target = await createProject(owner.token, { visibility: 'private' });
  });

  const openIssue = (body: Record<string, unknown> = {}) => openIssueIn(source.id, owner.token, body);

  it('opens a copy in the target with mapped labels and milestone, and closes the original', async () => {
    // Prepare
    const milestoneTitle = unique('v');
    for (const project of [source, target]) {
      const created = await api(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: milestoneTitle } });
      expect(created.status).toBe(201);
    }
    const targetMilestone = (await api(`/projects/${target.id}/milestones`, { token: owner.token, query: { title: milestoneTitle } })).body[0];
    expect((await api(`/projects/${target.id}/labels`, { token: owner.token, body: { name: 'Bug', color: 'red' } })).status).toBe(201);
    const sourceMilestone = (await api(`/projects/${source.id}/milestones`, { token: owner.token, query: { title: milestoneTitle } })).body[0];
    const issue = await openIssue({
      description: 'details',
      confidential: true,
      due_date: '2030-01-31',
      labels: 'bug,only-here',
      milestone_id: sourceMilestone.id,
      assignee_ids: [owner.id],
    });
    const [sourceOpen, targetOpen] = [await openIssuesCount(source), await openIssuesCount(target)];

    // Act
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const moved = response.body;
    expect(moved).toMatchObject({
      project_id: target.id,
      title: issue.title,
      description: 'details',
      confidential: true,
      due_date: '2030-01-31',
      state: 'opened',
      labels: ['Bug'],
      milestone: { id: targetMilestone.id, title: milestoneTitle },
      author: { id: owner.id },
      assignees: [{ id: owner.id }],
    });
    expect(moved.id).not.toBe(issue.id);
    expect(moved.web_url).toContain(`${target.fullPath}/issues/${moved.iid}`);
    // The label missing in the target was not created there.
    const targetLabels = (await api(`/projects/${target.id}/labels`, { token: owner.token })).body.map((l: { name: string }) => l.name);
    expect(targetLabels).toEqual(['Bug']);

    const original = (await api(`/projects/${source.id}/issues/${issue.iid}`, { token: owner.token })).body;
    expect(original.state).toBe('closed');
    expect(await openIssuesCount(source)).toBe(sourceOpen - 1);
    expect(await openIssuesCount(target)).toBe(targetOpen + 1);
    expect(await notesOf(source, issue.iid)).toEqual(
      expect.arrayContaining([expect.objectContaining({ body: `moved to ${target.fullPath}#${moved.iid}`, system: true })]),
    );
    expect(await notesOf(target, moved.iid)).toEqual(
      expect.arrayContaining([expect.objectContaining({ body: `moved from ${source.fullPath}#${issue.iid}`, system: true })]),
    );
  });

  it('answers 400 when the target is the source', async () => {
    const issue = await openIssue();
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: source.id } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Cannot move issue to project it originates from!' });
  });

  it('answers 400 when the caller cannot administer the issue in the source', async () => {
    // Prepare: a guest of the source who is owner of a target, and the author of the issue.
    const other = await createUser();
    await addMember('projects', source.id, other.id, 10);
    const ownTarget = await createProject(other.token);
    const issue = (await api(`/projects/${source.id}/issues`, { token: other.token, body: { title: unique('issue ') } })).body;
    const before = await openIssuesCount(source);

    // Act
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: other.token, body: { to_project_id: ownTarget.id } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Cannot move issue due to insufficient permissions!' });
    expect(await openIssuesCount(source)).toBe(before);
    expect(await openIssuesCount(ownTarget)).toBe(0);
  });

  it('answers 400 when the caller cannot open issues in the target', async () => {
    const reporter = await createUser();
    await addMember('projects', source.id, reporter.id, REPORTER);
    const publicTarget = await createProject((await createUser()).token, { visibility: 'public', issues_enabled: false });
    const issue = await openIssue();
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, {
      token: reporter.token,
      body: { to_project_id: publicTarget.id },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Cannot move issue due to insufficient permissions!' });
  });

  it('answers 404 Project Not Found when the caller cannot see the target', async () => {
    const hidden = await createProject((await createUser()).token, { visibility: 'private' });
    const issue = await openIssue();
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: hidden.id } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
    expect((await api(`/projects/${source.id}/issues/${issue.iid}`, { token: owner.token })).body.state).toBe('opened');
  });

  it('answers 400 when to_project_id is missing', async () => {
    const issue = await openIssue();
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: {} });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'to_project_id is missing' });
  });

  it('carries the notes (authors, bodies, times), creation time and time tracking to the new issue', async () => {
    // Prepare: an issue created in the past, two comments by different people, time tracked
    const commenter = await createUser();
    await addMember('projects', source.id, commenter.id, REPORTER);
    const issue = await openIssue({ created_at: '2025-03-04T05:06:07Z' });
    const url = `/projects/${source.id}/issues/${issue.iid}`;
    const first = await api(`${url}/notes`, { token: owner.token, body: { body: 'first comment' } });
    const second = await api(`${url}/notes`, { token: commenter.token, body: { body: 'second comment' } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await api(`${url}/time_estimate`, { token: owner.token, body: { duration: '2h' } })).status).toBe(200);
    expect((await api(`${url}/add_spent_time`, { token: owner.token, body: { duration: '45m' } })).status).toBe(201);

    // Act
    const response = await api(`${url}/move`, { token: owner.token, body: { to_project_id: target.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const moved = response.body;
    expect(moved).toMatchObject({
      created_at: '2025-03-04T05:06:07.000Z',
      user_notes_count: 2,
      time_stats: { time_estimate: 7200, total_time_spent: 2700 },
    });
    const copied = (await api(`/projects/${target.id}/issues/${moved.iid}/notes`, { token: owner.token, query: { sort: 'asc' } })).body;
    const tracked = ['changed time estimate to 2h', 'added 45m of time spent'];
    expect(copied.map((note: { body: string }) => note.body)).toEqual(['first comment', 'second comment', ...tracked, `moved from ${source.fullPath}#${issue.iid}`]);
    expect(copied[0]).toMatchObject({ author: { id: owner.id }, created_at: first.body.created_at, noteable_id: moved.id, noteable_iid: moved.iid, system: false });
    expect(copied[1]).toMatchObject({ author: { id: commenter.id }, created_at: second.body.created_at });
    expect(copied[4]).toMatchObject({ system: true, author: { id: owner.id } });
    // The originals stay on the closed issue.
    const originals = (await api(`${url}/notes`, { token: owner.token, query: { sort: 'asc' } })).body;
    expect(originals.map((note: { body: string }) => note.body)).toEqual(['first comment', 'second comment', ...tracked, `moved to ${target.fullPath}#${moved.iid}`]);
    expect(originals[0].id).not.toBe(copied[0].id);
  });

  it('carries discussions: a reply stays in the thread of its first note, under the copies\' discussion id', async () => {
    // Prepare: a thread of two notes and an individual note
    const issue = await openIssue();
    const url = `/projects/${source.id}/issues/${issue.iid}`;
    const thread = await api(`${url}/discussions`, { token: owner.token, body: { body: 'question' } });
    expect(thread.status).toBe(201);
    expect((await api(`${url}/discussions/${thread.body.id}/notes`, { token: owner.token, body: { body: 'answer' } })).status).toBe(201);
    expect((await api(`${url}/notes`, { token: owner.token, body: { body: 'aside' } })).status).toBe(201);

    // Act
    const response = await api(`${url}/move`, { token: owner.token, body: { to_project_id: target.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const discussions = (await api(`/projects/${target.id}/issues/${response.body.iid}/discussions`, { token: owner.token })).body;
    const threads = discussions.filter((d: { notes: Array<{ system: boolean }> }) => !d.notes[0].system);
    expect(threads.map((d: { notes: Array<{ body: string }> }) => d.notes.map((note) => note.body))).toEqual([['question', 'answer'], ['aside']]);
    expect(threads[0].id).not.toBe(thread.body.id);
    expect(threads[0].individual_note).toBe(false);
  });

  it('sets moved_to_id on the original and refuses to move it again (GitLab: a moved issue cannot move)', async () => {
    const issue = await openIssue();
    const moved = (await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } })).body;
    const original = (await api(`/projects/${source.id}/issues/${issue.iid}`, { token: owner.token })).body;
    expect(original).toMatchObject({ state: 'closed', moved_to_id: moved.id, closed_by: { id: owner.id } });
    expect(moved).toMatchObject({ moved_to_id: null, state: 'opened', closed_by: null });
    const again = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Cannot move issue due to insufficient permissions!' });
  });

  it('moves once when moves race: one new issue, one moved-to note, the others answered 400', async () => {
    // Prepare
    const issue = await openIssue();
    const before = await openIssuesCount(target);

    // Act
    const responses = await Promise.all(
      [0, 1, 2].map(() => api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } })),
    );

    // Assess
    expect(responses.map((response) => response.status).sort()).toEqual([201, 400, 400]);
    expect(await openIssuesCount(target)).toBe(before + 1);
    const movedTo = (await notesOf(source, issue.iid)).filter((note) => note.body.startsWith('moved to'));
    expect(movedTo).toHaveLength(1);
    const moved = responses.find((response) => response.status === 201)!.body;
    const copies = await api(`/projects/${target.id}/issues`, { token: owner.token, query: { search: issue.title } });
    expect(copies.body.map((copy: { id: number }) => copy.id)).toEqual([moved.id]);
  });
});
