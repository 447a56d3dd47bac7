import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { openIssue, createUser, type TestUser, newMember as addMember, ownedProject as createProject, type OwnedProject } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;

const NOTE_FIELDS = [
  'id',
  'type',
  'body',
  'attachment',
  'author',
  'created_at',
  'updated_at',
  'system',
  'noteable_id',
  'noteable_type',
  'noteable_iid',
  'project_id',
  'resolvable',
  'confidential',
  'internal',
  'imported',
  'imported_from',
  'commands_changes',
].sort();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const addIssue = (project: OwnedProject, body: Record<string, unknown> = {}): Promise<{ id: number; iid: number; title: string }> =>
  openIssue(project.id, project.owner.token, body);

const notesUrl = (project: OwnedProject, iid: number) => `/projects/${project.id}/issues/${iid}/notes`;
const noteUrl = (project: OwnedProject, iid: number, noteId: number) => `${notesUrl(project, iid)}/${noteId}`;

async function addNote(project: OwnedProject, iid: number, token: string, body = 'A comment') {
  const response = await api(notesUrl(project, iid), { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function userNotesCount(project: OwnedProject, iid: number): Promise<number> {
  const response = await api(`/projects/${project.id}/issues/${iid}`, { token: rootToken() });
  return response.body.user_notes_count;
}

describe('POST /projects/:id/issues/:issue_iid/notes', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('adds a note with the entity of GitLab and counts it in user_notes_count', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    const response = await api(notesUrl(project, issue.iid), { token: project.owner.token, body: { body: 'Reproduced on main' } });

    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(NOTE_FIELDS);
    expect(response.body).toEqual({
      id: expect.any(Number),
      type: null,
      body: 'Reproduced on main',
      attachment: null,
      author: expect.objectContaining({ id: project.owner.id, username: project.owner.username }),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: response.body.created_at,
      system: false,
      noteable_id: issue.id,
      noteable_type: 'Issue',
      noteable_iid: issue.iid,
      project_id: project.id,
      resolvable: false,
      confidential: false,
      internal: false,
      imported: false,
      imported_from: 'none',
      commands_changes: {},
    });
    expect(await userNotesCount(project, issue.iid)).toBe(1);
  });

  it('keeps user_notes_count exact under parallel creates', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    const notes = await Promise.all(Array.from({ length: 8 }, (_, i) => addNote(project, issue.iid, project.owner.token, `n${i}`)));

    // Assess
    expect(new Set(notes.map((note) => note.id)).size).toBe(8);
    expect(await userNotesCount(project, issue.iid)).toBe(8);
  });

  it('keeps the count when an issue edit races note creation', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    await Promise.all([
      ...Array.from({ length: 4 }, () => addNote(project, issue.iid, project.owner.token)),
      api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: project.owner.token, body: { title: 'Renamed' } }),
    ]);

    // Assess
    expect(await userNotesCount(project, issue.iid)).toBe(4);
  });

  it('records a "commented on" event', async () => {
    // Prepare
    const issue = await addIssue(project);

    // Act
    const note = await addNote(project, issue.iid, project.owner.token, 'for the feed');

    // Assess
    const events = await api(`/projects/${project.id}/events`, { token: project.owner.token });
    const event = events.body.find((e: { target_id: number; target_type: string }) => e.target_type === 'Note' && e.target_id === note.id);
    expect(event).toMatchObject({ action_name: 'commented on', target_title: issue.title });
    expect(event.note).toEqual({
      id: note.id,
      body: 'for the feed',
      attachment: null,
      author: note.author,
      created_at: note.created_at,
      system: false,
      noteable_id: issue.id,
      noteable_type: 'Issue',
    });
  });

  it.each([
    [{}, 'body is missing'],
    [{ body: '   ' }, 'body is missing'],
  ])('answers 400 for %j', async (body, error) => {
    const issue = await addIssue(project);
    const response = await api(notesUrl(project, issue.iid), { token: project.owner.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('stores a long comment and refuses one too large to store, writing nothing', async () => {
    const issue = await addIssue(project);
    const long = await api(notesUrl(project, issue.iid), { token: project.owner.token, body: { body: 'a'.repeat(200_000) } });
    expect(long.status).toBe(201);
    expect(long.body.body).toHaveLength(200_000);
    const huge = await api(notesUrl(project, issue.iid), { token: project.owner.token, body: { body: 'é'.repeat(200_000) } });
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual({ message: { note: ['is too long (maximum is 300000 bytes)'] } });
    const read = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: project.owner.token });
    expect(read.body.user_notes_count).toBe(1);
  });

  it('answers 404 for an unknown or deleted issue', async () => {
    const issue = await addIssue(project);
    await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'DELETE', token: project.owner.token });
    for (const iid of [issue.iid, 999999]) {
      const response = await api(notesUrl(project, iid), { token: project.owner.token, body: { body: 'x' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Issue Not Found' });
    }
  });
});

describe('access', () => {
  let project: OwnedProject;
  let issueIid: number;
  let secretIid: number;
  beforeAll(async () => {
    project = await createProject('public');
    issueIid = (await addIssue(project)).iid;
    secretIid = (await addIssue(project, { confidential: true })).iid;
  });

  it('answers 401 to anonymous callers, even on a public project', async () => {
    expect((await api(notesUrl(project, issueIid))).status).toBe(401);
    expect((await api(notesUrl(project, issueIid), { body: { body: 'x' } })).status).toBe(401);
  });

  it('lets any signed-in user who can read the issue comment on it', async () => {
    const stranger = await createUser();
    await addNote(project, issueIid, stranger.token);
  });

  it('hides confidential issues (and their notes) from non-members and guests', async () => {
    const stranger = await createUser();
    const guest = await addMember(project, GUEST);
    for (const user of [stranger, guest]) {
      const list = await api(notesUrl(project, secretIid), { token: user.token });
      expect(list.status).toBe(404);
      expect((await api(notesUrl(project, secretIid), { token: user.token, body: { body: 'x' } })).status).toBe(404);
    }
  });

  it('answers 404 on a private project to non-members', async () => {
    const privateProject = await createProject('private');
    const issue = await addIssue(privateProject);
    const stranger = await createUser();
    const response = await api(notesUrl(privateProject, issue.iid), { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /projects/:id/issues/:issue_iid/notes', () => {
  let project: OwnedProject;
  let iid: number;
  let ids: number[];
  beforeAll(async () => {
    project = await createProject();
    iid = (await addIssue(project)).iid;
    ids = [];
    for (let i = 0; i < 5; i++) ids.push((await addNote(project, iid, project.owner.token, `note ${i}`)).id);
  });

  it('lists newest first by default', async () => {
    const response = await api(notesUrl(project, iid), { token: project.owner.token });
    expect(response.status).toBe(200);
    expect(response.body.map((note: { id: number }) => note.id)).toEqual([...ids].reverse());
    expect(response.headers.get('x-total')).toBe('5');
  });

  it('lists oldest first with sort=asc, paginated with offset and keyset', async () => {
    const first = await api(notesUrl(project, iid), { token: project.owner.token, query: { sort: 'asc', per_page: 2, page: 2 } });
    expect(first.body.map((note: { id: number }) => note.id)).toEqual(ids.slice(2, 4));
    expect(first.headers.get('x-next-page')).toBe('3');

    const seen: number[] = [];
    let query: Record<string, string | number> = { sort: 'asc', per_page: 2, pagination: 'keyset' };
    for (let i = 0; i < 5; i++) {
      const page = await api(notesUrl(project, iid), { token: project.owner.token, query });
      seen.push(...page.body.map((note: { id: number }) => note.id));
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '');
      if (!next) break;
      query = Object.fromEntries(new URL(next[1]).searchParams);
    }
    expect(seen).toEqual(ids);
  });

  it('orders by updated_at', async () => {
    await api(noteUrl(project, iid, ids[1]), { method: 'PUT', token: project.owner.token, body: { body: 'edited' } });
    const response = await api(notesUrl(project, iid), { token: project.owner.token, query: { order_by: 'updated_at', sort: 'desc' } });
    expect(response.body[0]).toMatchObject({ id: ids[1], body: 'edited' });
  });

  it('shows system notes for close and reopen, not counted in user_notes_count', async () => {
    // Prepare
    const issue = await addIssue(project);
    await addNote(project, issue.iid, project.owner.token);

    // Act
    const issueUrl = `/projects/${project.id}/issues/${issue.iid}`;
    await api(issueUrl, { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    await api(issueUrl, { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    await api(issueUrl, { method: 'PUT', token: project.owner.token, body: { state_event: 'reopen' } });

    // Assess
    const response = await api(notesUrl(project, issue.iid), { token: project.owner.token, query: { sort: 'asc' } });
    expect(response.body.map((note: { body: string; system: boolean }) => [note.body, note.system])).toEqual([
      ['A comment', false],
      ['closed', true],
      ['reopened', true],
    ]);
    expect(await userNotesCount(project, issue.iid)).toBe(1);
  });
});

describe('single note: GET, PUT, DELETE', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let maintainer: TestUser;
  let iid: number;
  beforeAll(async () => {
    project = await createProject();
    developer = await addMember(project, DEVELOPER);
    maintainer = await addMember(project, MAINTAINER);
    iid = (await addIssue(project)).iid;
  });

  it('reads one note, 404 for an unknown id or a note of another issue', async () => {
    const note = await addNote(project, iid, developer.token);
    expect((await api(noteUrl(project, iid, note.id), { token: developer.token })).body).toMatchObject({ id: note.id });
    const otherIid = (await addIssue(project)).iid;
    for (const [i, id] of [[iid, 999999999], [otherIid, note.id]]) {
      const response = await api(noteUrl(project, i, id), { token: developer.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Note Not Found' });
    }
  });

  // GitLab: `PUT …/notes/:note_id` needs `admin_note` on the note: its author, or `admin_note` on
  // the project (maintainer and above, admins); `NotePolicy` delegates to `ProjectPolicy`.
  it('lets the author, maintainers, owners and admins edit, and answers 403 to others (developers, reporters)', async () => {
    const [otherDeveloper, reporter] = await Promise.all([addMember(project, DEVELOPER), addMember(project, REPORTER)]);
    const note = await addNote(project, iid, developer.token);
    for (const other of [otherDeveloper, reporter]) {
      const refused = await api(noteUrl(project, iid, note.id), { method: 'PUT', token: other.token, body: { body: 'x' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: '403 Forbidden' });
    }
    expect((await api(noteUrl(project, iid, note.id), { token: developer.token })).body.body).toBe(note.body);

    const byMaintainer = await api(noteUrl(project, iid, note.id), { method: 'PUT', token: maintainer.token, body: { body: 'by maintainer' } });
    expect(byMaintainer.status).toBe(200);
    expect(byMaintainer.body).toMatchObject({ id: note.id, body: 'by maintainer', author: { id: developer.id } });

    const byOwner = await api(noteUrl(project, iid, note.id), { method: 'PUT', token: project.owner.token, body: { body: 'by owner' } });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toMatchObject({ id: note.id, body: 'by owner', author: { id: developer.id } });

    const byAuthor = await api(noteUrl(project, iid, note.id), { method: 'PUT', token: developer.token, body: { body: 'fixed typo' } });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body).toMatchObject({ id: note.id, body: 'fixed typo', created_at: note.created_at });

    const byAdmin = await api(noteUrl(project, iid, note.id), { method: 'PUT', token: rootToken(), body: { body: 'by admin' } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.body).toBe('by admin');

    const missing = await api(noteUrl(project, iid, note.id), { method: 'PUT', token: developer.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
  });

  it('lets the author, maintainers and admins delete (204) and counts it out; 403 to others', async () => {
    const other = await addMember(project, DEVELOPER);
    const notes = await Promise.all([1, 2, 3].map(() => addNote(project, iid, developer.token)));
    const before = await userNotesCount(project, iid);

    expect((await api(noteUrl(project, iid, notes[0].id), { method: 'DELETE', token: other.token })).status).toBe(403);
    expect((await api(noteUrl(project, iid, notes[0].id), { method: 'DELETE', token: developer.token })).status).toBe(204);
    expect((await api(noteUrl(project, iid, notes[1].id), { method: 'DELETE', token: maintainer.token })).status).toBe(204);
    expect((await api(noteUrl(project, iid, notes[2].id), { method: 'DELETE', token: rootToken() })).status).toBe(204);

    expect((await api(noteUrl(project, iid, notes[0].id), { token: developer.token })).status).toBe(404);
    expect(await userNotesCount(project, iid)).toBe(before - 3);
  });

  it('counts a note out once when two deletes race', async () => {
    const note = await addNote(project, iid, developer.token);
    const before = await userNotesCount(project, iid);
    const statuses = await Promise.all([1, 2, 3].map(async () => (await api(noteUrl(project, iid, note.id), { method: 'DELETE', token: developer.token })).status));
    expect(statuses).toContain(204);
    expect(await userNotesCount(project, iid)).toBe(before - 1);
  });

  it('refuses to edit or delete a system note (403)', async () => {
    const issue = await addIssue(project);
    await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    const [system] = (await api(notesUrl(project, issue.iid), { token: project.owner.token })).body;
    expect(system).toMatchObject({ body: 'closed', system: true });
    expect((await api(noteUrl(project, issue.iid, system.id), { method: 'PUT', token: rootToken(), body: { body: 'x' } })).status).toBe(403);
    expect((await api(noteUrl(project, issue.iid, system.id), { method: 'DELETE', token: rootToken() })).status).toBe(403);
  });
});

describe('GET /projects/:id/issues/:issue_iid/participants', () => {
  it('lists the author, the assignees and the commenters once each, in that order; not system notes', async () => {
    // Prepare
    const project = await createProject('private');
    const [assignee, commenter] = await Promise.all([addMember(project, 30), addMember(project, 20)]);
    const issue = await openIssue(project.id, project.owner.token, { assignee_ids: [assignee.id] });
    for (const [user, body] of [[commenter, 'one'], [project.owner, 'two'], [commenter, 'three']] as const) {
      expect((await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: user.token, body: { body } })).status).toBe(201);
    }
    // A label change writes a system note by the owner: it adds nobody.
    await api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: assignee.token, body: { labels: 'x' } });

    // Act
    const response = await api(`/projects/${project.id}/issues/${issue.iid}/participants`, { token: commenter.token });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.map((u: { id: number }) => u.id)).toEqual([project.owner.id, assignee.id, commenter.id]);
    expect(response.body[0]).toMatchObject({ id: project.owner.id, username: project.owner.username, state: 'active' });
    expect(response.body[0]).not.toHaveProperty('email');
  });

  it('answers 404 for an issue the caller may not read', async () => {
    const project = await createProject('private');
    const issue = await openIssue(project.id, project.owner.token);
    const response = await api(`/projects/${project.id}/issues/${issue.iid}/participants`, { token: (await createUser()).token });
    expect(response.status).toBe(404);
  });
  it('subscribes a commenter, but a commenter who unsubscribed stays unsubscribed when commenting again', async () => {
    // Prepare
    const project = await createProject('private');
    const commenter = await addMember(project, REPORTER);
    const issue = await openIssue(project.id, project.owner.token);
    const comment = (body: string) => api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: commenter.token, body: { body } });
    const subscribed = async () => (await api(`/projects/${project.id}/issues/${issue.iid}`, { token: commenter.token })).body.subscribed;

    // Act
    const before = await subscribed();
    expect((await comment('first')).status).toBe(201);
    const afterComment = await subscribed();
    expect((await api(`/projects/${project.id}/issues/${issue.iid}/unsubscribe`, { method: 'POST', token: commenter.token })).status).toBe(201);
    expect((await comment('again')).status).toBe(201);
    const afterUnsubscribeAndComment = await subscribed();

    // Assess
    expect([before, afterComment, afterUnsubscribeAndComment]).toEqual([false, true, false]);
  });
});
