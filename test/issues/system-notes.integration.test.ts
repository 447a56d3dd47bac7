import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { openIssue, createUser, newMember, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;

interface NoteBody {
  id: number;
  body: string;
  system: boolean;
  author: { id: number; username: string };
  noteable_type: string;
  noteable_iid: number;
}

const issueUrl = (project: OwnedProject, iid: number) => `/projects/${project.id}/issues/${iid}`;
const notesUrl = (project: OwnedProject, iid: number) => `${issueUrl(project, iid)}/notes`;

/** Internal: opens an issue (201 asserted). */
const addIssue = (project: OwnedProject, body: Record<string, unknown> = {}, token = project.owner.token) => openIssue(project.id, token, body);

/** Internal: edits an issue (200 asserted). */
async function edit(project: OwnedProject, iid: number, body: Record<string, unknown>, token = project.owner.token) {
  const response = await api(issueUrl(project, iid), { method: 'PUT', token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Internal: the notes of an issue, oldest first. */
async function notesOf(project: OwnedProject, iid: number): Promise<NoteBody[]> {
  const response = await api(notesUrl(project, iid), { token: rootToken(), query: { sort: 'asc', per_page: 100 } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const bodiesOf = async (project: OwnedProject, iid: number) => (await notesOf(project, iid)).map((note) => note.body);

async function addMilestone(project: OwnedProject, title: string): Promise<{ id: number; title: string }> {
  const response = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const labelNames = async (project: OwnedProject): Promise<string[]> =>
  (await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { per_page: 100 } })).body.map((l: { name: string }) => l.name);

const userNotesCount = async (project: OwnedProject, iid: number): Promise<number> =>
  (await api(issueUrl(project, iid), { token: rootToken() })).body.user_notes_count;

describe('system notes of PUT /projects/:id/issues/:issue_iid', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('writes none when an issue is created, even with labels, milestone, assignee and due date', async () => {
    // Prepare
    const milestone = await addMilestone(project, unique('m'));

    // Act
    const issue = await addIssue(project, {
      labels: 'created-a,created-b',
      milestone_id: milestone.id,
      assignee_ids: [project.owner.id],
      due_date: '2030-01-01',
      confidential: true,
    });

    // Assess
    expect(await notesOf(project, issue.iid)).toEqual([]);
    expect(issue.user_notes_count).toBe(0);
  });

  it('notes a title change with the entity of a system note authored by the editor', async () => {
    // Prepare
    const issue = await addIssue(project, { title: 'Old title' });
    const editor = await newMember(project, REPORTER);

    // Act
    await edit(project, issue.iid, { title: 'New title' }, editor.token);

    // Assess
    const notes = await notesOf(project, issue.iid);
    expect(notes).toEqual([
      expect.objectContaining({
        body: 'changed title from **Old title** to **New title**',
        system: true,
        author: expect.objectContaining({ id: editor.id, username: editor.username }),
        noteable_type: 'Issue',
        noteable_id: issue.id,
        noteable_iid: issue.iid,
      }),
    ]);
    expect(await userNotesCount(project, issue.iid)).toBe(0);
  });

  it('notes a description change, set or cleared, without quoting it', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    await edit(project, issue.iid, { description: 'Steps to reproduce' });
    await edit(project, issue.iid, { description: 'Steps to reproduce, updated' });
    await edit(project, issue.iid, { description: null });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual(['changed the description', 'changed the description', 'changed the description']);
  });

  it('notes labels added, removed and swapped, quoting names that are not plain words', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    await edit(project, issue.iid, { labels: 'bug' });
    await edit(project, issue.iid, { labels: 'bug,feature,needs review' });
    await edit(project, issue.iid, { labels: 'feature' });
    await edit(project, issue.iid, { labels: 'docs' });
    await edit(project, issue.iid, { labels: '' });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual([
      'added ~bug label',
      'added ~feature ~"needs review" labels',
      'removed ~bug ~"needs review" labels',
      'added ~docs label and removed ~feature label',
      'removed ~docs label',
    ]);
  });

  it('notes a milestone set, changed (quoted when it has spaces) and removed', async () => {
    // Prepare
    const issue = await addIssue(project);
    const first = await addMilestone(project, unique('v'));
    const spaced = await addMilestone(project, unique('Sprint '));

    // Act
    await edit(project, issue.iid, { milestone_id: first.id });
    await edit(project, issue.iid, { milestone_id: spaced.id });
    await edit(project, issue.iid, { milestone_id: 0 });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual([
      `changed milestone to %${first.title}`,
      `changed milestone to %"${spaced.title}"`,
      'removed milestone',
    ]);
  });

  it('notes an assignee assigned, replaced and unassigned', async () => {
    // Prepare
    const issue = await addIssue(project);
    const alice = await newMember(project, REPORTER);
    const bob = await newMember(project, REPORTER);

    // Act
    await edit(project, issue.iid, { assignee_ids: [alice.id] });
    await edit(project, issue.iid, { assignee_ids: [bob.id] });
    await edit(project, issue.iid, { assignee_ids: [] });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual([
      `assigned to @${alice.username}`,
      `assigned to @${bob.username} and unassigned @${alice.username}`,
      `unassigned @${bob.username}`,
    ]);
  });

  it('notes a due date set (in the long date format) and removed', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    await edit(project, issue.iid, { due_date: '2026-11-30' });
    await edit(project, issue.iid, { due_date: '2027-01-05' });
    await edit(project, issue.iid, { due_date: null });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual([
      'changed due date to November 30, 2026',
      'changed due date to January 5, 2027',
      'removed due date',
    ]);
  });

  it('notes the issue made confidential and visible again', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    await edit(project, issue.iid, { confidential: true });
    await edit(project, issue.iid, { confidential: false });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual(['made the issue confidential', 'made the issue visible to everyone']);
  });

  it('notes closing and reopening, but not closing a closed issue', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    await edit(project, issue.iid, { state_event: 'close' });
    await edit(project, issue.iid, { state_event: 'close' });
    await edit(project, issue.iid, { state_event: 'reopen' });
    await edit(project, issue.iid, { state_event: 'reopen' });

    // Assess
    expect(await bodiesOf(project, issue.iid)).toEqual(['closed', 'reopened']);
  });

  it('writes one note per change of a combined edit, in GitLab order', async () => {
    // Prepare
    const assignee = await newMember(project, REPORTER);
    const milestone = await addMilestone(project, unique('v'));
    const issue = await addIssue(project, { title: 'Before', labels: 'combo-old' });

    // Act
    await edit(project, issue.iid, {
      state_event: 'close',
      confidential: true,
      due_date: '2026-11-30',
      assignee_ids: [assignee.id],
      milestone_id: milestone.id,
      labels: 'combo-new',
      description: 'now described',
      title: 'After',
    });

    // Assess
    const notes = await notesOf(project, issue.iid);
    expect(notes.map((note) => note.body)).toEqual([
      'changed title from **Before** to **After**',
      'changed the description',
      'added ~combo-new label and removed ~combo-old label',
      `changed milestone to %${milestone.title}`,
      `assigned to @${assignee.username}`,
      'changed due date to November 30, 2026',
      'made the issue confidential',
      'closed',
    ]);
    expect(notes.every((note) => note.system && note.author.id === project.owner.id)).toBe(true);
    // The default order (newest first) is the reverse.
    const desc = await api(notesUrl(project, issue.iid), { token: rootToken() });
    expect(desc.body.map((note: NoteBody) => note.id)).toEqual(notes.map((note) => note.id).reverse());
    expect(await userNotesCount(project, issue.iid)).toBe(0);
  });

  it('writes nothing for an edit that changes nothing', async () => {
    // Prepare
    const milestone = await addMilestone(project, unique('v'));
    const issue = await addIssue(project, {
      title: 'Same',
      description: 'same',
      labels: 'same-a,same-b',
      milestone_id: milestone.id,
      assignee_ids: [project.owner.id],
      due_date: '2030-01-01',
    });

    // Act
    await edit(project, issue.iid, {
      title: 'Same',
      description: 'same',
      labels: 'same-b,SAME-A',
      milestone_id: milestone.id,
      assignee_ids: [project.owner.id],
      due_date: '2030-01-01',
      confidential: false,
      state_event: 'reopen',
    });

    // Assess
    expect(await notesOf(project, issue.iid)).toEqual([]);
  });

  it('leaves user_notes_count to user comments', async () => {
    // Prepare
    const issue = await addIssue(project);
    const comment = await api(notesUrl(project, issue.iid), { token: project.owner.token, body: { body: 'A comment' } });
    expect(comment.status).toBe(201);

    // Act
    const edited = await edit(project, issue.iid, { title: 'Renamed', state_event: 'close' });

    // Assess
    expect(edited.user_notes_count).toBe(1);
    expect(await userNotesCount(project, issue.iid)).toBe(1);
    expect((await notesOf(project, issue.iid)).map((note) => [note.body, note.system])).toEqual([
      ['A comment', false],
      [`changed title from **${issue.title}** to **Renamed**`, true],
      ['closed', true],
    ]);
  });

  it('notes a close once when the same issue is closed by parallel requests', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } })),
    );

    // Assess
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await bodiesOf(project, issue.iid)).toEqual(['closed']);
  });
});

describe('system notes of racing edits', () => {
  it('tells each of two parallel title changes from the title it actually replaced', async () => {
    // Prepare
    const project = await ownedProject();
    const issue = await addIssue(project, { title: 'Start' });

    // Act
    const responses = await Promise.all(
      ['First', 'Second'].map((title) => api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { title } })),
    );

    // Assess
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    const final = (await api(issueUrl(project, issue.iid), { token: project.owner.token })).body.title as string;
    const other = final === 'First' ? 'Second' : 'First';
    expect(await bodiesOf(project, issue.iid)).toEqual([
      `changed title from **Start** to **${other}**`,
      `changed title from **${other}** to **${final}**`,
    ]);
  });

  it('tells a relabel racing a close as the two changes that happened', async () => {
    // Prepare
    const project = await ownedProject();
    const issue = await addIssue(project, { labels: 'x' });

    // Act
    const responses = await Promise.all([
      api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { labels: 'x,y' } }),
      api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } }),
    ]);

    // Assess
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect((await bodiesOf(project, issue.iid)).sort()).toEqual(['added ~y label', 'closed']);
    const final = (await api(issueUrl(project, issue.iid), { token: project.owner.token })).body;
    expect(final).toMatchObject({ state: 'closed', labels: ['x', 'y'] });
  });
});

describe('system notes: who may change what', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('notes a relabelling by a reporter, authored by the reporter', async () => {
    // Prepare
    const reporter = await newMember(project, REPORTER);
    const issue = await addIssue(project, { labels: 'triage' });

    // Act
    const edited = await edit(project, issue.iid, { labels: 'triage,confirmed' }, reporter.token);

    // Assess
    expect(edited.labels).toEqual(['confirmed', 'triage']);
    expect(await notesOf(project, issue.iid)).toEqual([
      expect.objectContaining({ body: 'added ~confirmed label', system: true, author: expect.objectContaining({ id: reporter.id }) }),
    ]);
  });

  it("notes only the title when a guest edits their own issue (their labels and milestone are ignored)", async () => {
    // Prepare
    const guest = await newMember(project, GUEST);
    const milestone = await addMilestone(project, unique('v'));
    const issue = await addIssue(project, { title: 'Guest title' }, guest.token);
    const ignoredLabel = unique('guestlabel');

    // Act
    const edited = await edit(project, issue.iid, { title: 'Guest renamed', labels: ignoredLabel, milestone_id: milestone.id }, guest.token);

    // Assess
    expect(edited).toMatchObject({ title: 'Guest renamed', labels: [], milestone: null });
    expect(await notesOf(project, issue.iid)).toEqual([
      expect.objectContaining({
        body: 'changed title from **Guest title** to **Guest renamed**',
        system: true,
        author: expect.objectContaining({ id: guest.id }),
      }),
    ]);
    expect(await labelNames(project)).not.toContain(ignoredLabel);
  });

  it('writes nothing when the edit is rejected with 400 for too many labels', async () => {
    // Prepare
    const issue = await addIssue(project, { labels: 'kept' });
    const before = await labelNames(project);
    const tooMany = Array.from({ length: 41 }, (_, i) => `many-${i}`);

    // Act
    const response = await api(issueUrl(project, issue.iid), {
      method: 'PUT',
      token: project.owner.token,
      body: { title: 'Not applied', labels: tooMany.join(',') },
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { labels: ['are too many (maximum is 40)'] } });
    expect(await labelNames(project)).toEqual(before);
    expect(await notesOf(project, issue.iid)).toEqual([]);
    const after = (await api(issueUrl(project, issue.iid), { token: project.owner.token })).body;
    expect(after).toMatchObject({ title: issue.title, labels: ['kept'] });
  });

  it('creates nothing when an issue is opened with too many labels', async () => {
    // Prepare
    const before = await labelNames(project);
    const listed = await api(`/projects/${project.id}/issues`, { token: project.owner.token, query: { state: 'all', per_page: 100 } });

    // Act
    const response = await api(`/projects/${project.id}/issues`, {
      token: project.owner.token,
      body: { title: 'Too many', labels: Array.from({ length: 41 }, (_, i) => `create-many-${i}`) },
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { labels: ['are too many (maximum is 40)'] } });
    expect(await labelNames(project)).toEqual(before);
    const after = await api(`/projects/${project.id}/issues`, { token: project.owner.token, query: { state: 'all', per_page: 100 } });
    expect(after.headers.get('x-total')).toBe(listed.headers.get('x-total'));
  });

  it('accepts 40 distinct labels (duplicates in another case count once) and notes them in one note', async () => {
    // Prepare
    const issue = await addIssue(project);
    const names = Array.from({ length: 40 }, (_, i) => `forty-${i}`);

    // Act
    const edited = await edit(project, issue.iid, { labels: [...names, 'FORTY-0'] });

    // Assess
    expect(edited.labels).toHaveLength(40);
    expect(await bodiesOf(project, issue.iid)).toEqual([`added ${names.map((name) => `~${name}`).join(' ')} labels`]);
  });

  it('writes nothing when the edit is rejected with 400 for a blank title', async () => {
    // Prepare
    const issue = await addIssue(project);
    const label = unique('never');

    // Act
    const response = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { title: '  ', labels: label } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { title: ["can't be blank"] } });
    expect(await labelNames(project)).not.toContain(label);
    expect(await notesOf(project, issue.iid)).toEqual([]);
  });

  it('answers 403 to editing or deleting a system note, even for the project owner and an admin', async () => {
    // Prepare
    const issue = await addIssue(project);
    await edit(project, issue.iid, { state_event: 'close' });
    const [note] = await notesOf(project, issue.iid);
    const noteUrl = `${notesUrl(project, issue.iid)}/${note.id}`;

    // Act
    const responses = [
      await api(noteUrl, { method: 'PUT', token: project.owner.token, body: { body: 'rewritten' } }),
      await api(noteUrl, { method: 'PUT', token: rootToken(), body: { body: 'rewritten' } }),
      await api(noteUrl, { method: 'DELETE', token: project.owner.token }),
      await api(noteUrl, { method: 'DELETE', token: rootToken() }),
    ];

    // Assess
    expect(responses.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect(responses[0].body).toEqual({ message: '403 Forbidden' });
    expect(await notesOf(project, issue.iid)).toEqual([expect.objectContaining({ id: note.id, body: 'closed', system: true })]);
  });

  it('hides the system notes of a confidential issue from those who cannot read it', async () => {
    // Prepare
    const publicProject = await ownedProject('public');
    const issue = await addIssue(publicProject);
    await edit(publicProject, issue.iid, { confidential: true });
    const stranger: TestUser = await createUser();

    // Act
    const response = await api(notesUrl(publicProject, issue.iid), { token: stranger.token });

    // Assess
    expect(response.status).toBe(404);
    expect(await bodiesOf(publicProject, issue.iid)).toEqual(['made the issue confidential']);
  });
});

describe('system notes of POST /projects/:id/issues/:issue_iid/move', () => {
  it('are written on both issues and not counted as user notes', async () => {
    // Prepare
    const source = await ownedProject();
    const target = await api('/projects', { token: source.owner.token, body: { name: unique('Target ') } });
    expect(target.status).toBe(201);
    const issue = await addIssue(source);
    await api(notesUrl(source, issue.iid), { token: source.owner.token, body: { body: 'before the move' } });

    // Act
    const response = await api(`${issueUrl(source, issue.iid)}/move`, { token: source.owner.token, body: { to_project_id: target.body.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.user_notes_count).toBe(1);
    expect((await notesOf(source, issue.iid)).map((note) => [note.body, note.system])).toEqual(
      expect.arrayContaining([
        ['before the move', false],
        [`moved to ${target.body.path_with_namespace}#${response.body.iid}`, true],
      ]),
    );
    expect(await userNotesCount(source, issue.iid)).toBe(1);
    const targetProject = { id: target.body.id, fullPath: target.body.path_with_namespace, owner: source.owner };
    expect((await notesOf(targetProject, response.body.iid)).map((note) => [note.body, note.system])).toEqual(
      expect.arrayContaining([
        ['before the move', false],
        [`moved from ${source.fullPath}#${issue.iid}`, true],
      ]),
    );
    expect(await userNotesCount(targetProject, response.body.iid)).toBe(1);
  });
});
