import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, newMember, openIssue, ownedProject, type OwnedProject } from '../support/fixtures';

const GUEST = 10;
const DEVELOPER = 30;

const DISCUSSION_ID = /^[0-9a-f]{40}$/;

const issueUrl = (project: OwnedProject, iid: number) => `/projects/${project.id}/issues/${iid}`;
const discussionsUrl = (project: OwnedProject, iid: number) => `${issueUrl(project, iid)}/discussions`;
const discussionUrl = (project: OwnedProject, iid: number, id: string) => `${discussionsUrl(project, iid)}/${id}`;
const discussionNoteUrl = (project: OwnedProject, iid: number, id: string, noteId: number) => `${discussionUrl(project, iid, id)}/notes/${noteId}`;

async function startDiscussion(project: OwnedProject, iid: number, token: string, body = 'Why does this happen?') {
  const response = await api(discussionsUrl(project, iid), { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function reply(project: OwnedProject, iid: number, discussionId: string, token: string, body = 'Because of the cache') {
  const response = await api(`${discussionUrl(project, iid, discussionId)}/notes`, { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function addNote(project: OwnedProject, iid: number, token: string, body = 'A comment') {
  const response = await api(`${issueUrl(project, iid)}/notes`, { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function userNotesCount(project: OwnedProject, iid: number): Promise<number> {
  return (await api(issueUrl(project, iid), { token: rootToken() })).body.user_notes_count;
}

describe('POST /projects/:id/issues/:issue_iid/discussions', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('starts a discussion whose first note is a DiscussionNote, counted in user_notes_count', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    const response = await api(discussionsUrl(project, issue.iid), { token: project.owner.token, body: { body: 'Why does this happen?' } });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(DISCUSSION_ID),
      individual_note: false,
      notes: [
        expect.objectContaining({
          id: expect.any(Number),
          type: 'DiscussionNote',
          body: 'Why does this happen?',
          author: expect.objectContaining({ id: project.owner.id, username: project.owner.username }),
          system: false,
          noteable_id: issue.id,
          noteable_type: 'Issue',
          noteable_iid: issue.iid,
          resolvable: false,
        }),
      ],
    });
    expect(await userNotesCount(project, issue.iid)).toBe(1);
    const read = await api(discussionUrl(project, issue.iid, response.body.id), { token: project.owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('refuses a blank body and writes nothing', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    const missing = await api(discussionsUrl(project, issue.iid), { token: project.owner.token, body: {} });
    const blank = await api(discussionsUrl(project, issue.iid), { token: project.owner.token, body: { body: '   ' } });

    // Assess
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
    expect(blank.status).toBe(400);
    expect(await userNotesCount(project, issue.iid)).toBe(0);
    expect((await api(discussionsUrl(project, issue.iid), { token: project.owner.token })).body).toEqual([]);
  });

  it("takes created_at from the project's owner, and ignores a developer's", async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const developer = await newMember(project, DEVELOPER);

    // Act
    const byOwner = await api(discussionsUrl(project, issue.iid), { token: project.owner.token, body: { body: 'old', created_at: '2020-01-02T03:04:05Z' } });
    const byDeveloper = await api(discussionsUrl(project, issue.iid), { token: developer.token, body: { body: 'new', created_at: '2020-01-02T03:04:05Z' } });

    // Assess
    expect(byOwner.status).toBe(201);
    expect(byOwner.body.notes[0].created_at).toBe('2020-01-02T03:04:05.000Z');
    expect(byDeveloper.status).toBe(201);
    expect(byDeveloper.body.notes[0].created_at).not.toMatch(/^2020-/);
  });
});

describe('GET /projects/:id/issues/:issue_iid/discussions', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('lists every note in a discussion, oldest first: comments and system notes as individual notes', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const comment = await addNote(project, issue.iid, project.owner.token, 'first');
    const thread = await startDiscussion(project, issue.iid, project.owner.token, 'second');
    const answer = await reply(project, issue.iid, thread.id, project.owner.token, 'third');
    await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });

    // Act
    const response = await api(discussionsUrl(project, issue.iid), { token: project.owner.token });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
    const [individual, threaded, system] = response.body;
    expect(individual).toEqual({ id: expect.stringMatching(DISCUSSION_ID), individual_note: true, notes: [expect.objectContaining({ id: comment.id, type: null, body: 'first' })] });
    expect(threaded).toEqual({
      id: thread.id,
      individual_note: false,
      notes: [expect.objectContaining({ body: 'second', type: 'DiscussionNote' }), expect.objectContaining({ id: answer.id, body: 'third', type: 'DiscussionNote' })],
    });
    expect(system).toEqual({ id: expect.stringMatching(DISCUSSION_ID), individual_note: true, notes: [expect.objectContaining({ system: true, type: null })] });
    expect(new Set(response.body.map((d: { id: string }) => d.id)).size).toBe(3);
  });

  it('pages discussions, not notes', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const discussion = await startDiscussion(project, issue.iid, project.owner.token, `thread ${i}`);
      await reply(project, issue.iid, discussion.id, project.owner.token, `reply ${i}`);
      ids.push(discussion.id);
    }

    // Act
    const first = await api(discussionsUrl(project, issue.iid), { token: project.owner.token, query: { per_page: 2 } });
    const second = await api(discussionsUrl(project, issue.iid), { token: project.owner.token, query: { per_page: 2, page: 2 } });

    // Assess
    expect(first.body.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.body.every((d: { notes: unknown[] }) => d.notes.length === 2)).toBe(true);
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(second.body.map((d: { id: string }) => d.id)).toEqual(ids.slice(2));
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-total')).toBe('3');
  });

  it('answers 404 Discussion for an unknown, malformed or other issue discussion id', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const other = await openIssue(project.id, project.owner.token);
    const elsewhere = await startDiscussion(project, other.iid, project.owner.token);

    // Act
    const answers = await Promise.all(
      ['0'.repeat(40), 'not-a-discussion', elsewhere.id.replace(/^./, (c: string) => (c === 'a' ? 'b' : 'a')), elsewhere.id].map((id) =>
        api(discussionUrl(project, issue.iid, id), { token: project.owner.token }),
      ),
    );

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: '404 Discussion Not Found' });
    }
  });
});

describe('POST /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('turns an individual note into a discussion when replied to', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const comment = await addNote(project, issue.iid, project.owner.token, 'Is this still a problem?');
    const [individual] = (await api(discussionsUrl(project, issue.iid), { token: project.owner.token })).body;

    // Act
    const response = await api(`${discussionUrl(project, issue.iid, individual.id)}/notes`, { token: project.owner.token, body: { body: 'Yes' } });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ type: 'DiscussionNote', body: 'Yes', noteable_iid: issue.iid }));
    const discussion = await api(discussionUrl(project, issue.iid, individual.id), { token: project.owner.token });
    expect(discussion.body).toEqual({
      id: individual.id,
      individual_note: false,
      notes: [expect.objectContaining({ id: comment.id, type: 'DiscussionNote' }), expect.objectContaining({ id: response.body.id })],
    });
    const note = await api(`${issueUrl(project, issue.iid)}/notes/${comment.id}`, { token: project.owner.token });
    expect(note.body.type).toBe('DiscussionNote');
    expect(await userNotesCount(project, issue.iid)).toBe(2);
  });

  it('refuses to reply to a system note, and to an unknown discussion', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    const [system] = (await api(discussionsUrl(project, issue.iid), { token: project.owner.token })).body;

    // Act
    const toSystem = await api(`${discussionUrl(project, issue.iid, system.id)}/notes`, { token: project.owner.token, body: { body: 'x' } });
    const toNothing = await api(`${discussionUrl(project, issue.iid, 'f'.repeat(40))}/notes`, { token: project.owner.token, body: { body: 'x' } });

    // Assess
    expect(toSystem.status).toBe(400);
    expect(toSystem.body).toEqual({ message: '400 Bad request - Discussion can not be replied to.' });
    expect(toNothing.status).toBe(404);
    expect(toNothing.body).toEqual({ message: '404 Discussion Not Found' });
    expect(await userNotesCount(project, issue.iid)).toBe(0);
  });

  it('keeps a discussion going when its first note is deleted', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const discussion = await startDiscussion(project, issue.iid, project.owner.token, 'first');
    await reply(project, issue.iid, discussion.id, project.owner.token, 'second');
    await api(discussionNoteUrl(project, issue.iid, discussion.id, discussion.notes[0].id), { method: 'DELETE', token: project.owner.token });

    // Act
    const response = await api(`${discussionUrl(project, issue.iid, discussion.id)}/notes`, { token: project.owner.token, body: { body: 'third' } });

    // Assess
    expect(response.status).toBe(201);
    const read = await api(discussionUrl(project, issue.iid, discussion.id), { token: project.owner.token });
    expect(read.body.notes.map((n: { body: string }) => n.body)).toEqual(['second', 'third']);
  });
});

describe('notes of a discussion', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('reads, edits and deletes a note of a discussion', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const discussion = await startDiscussion(project, issue.iid, project.owner.token, 'draft');
    const noteId = discussion.notes[0].id;

    // Act
    const read = await api(discussionNoteUrl(project, issue.iid, discussion.id, noteId), { token: project.owner.token });
    const list = await api(`${discussionUrl(project, issue.iid, discussion.id)}/notes`, { token: project.owner.token });
    const edited = await api(discussionNoteUrl(project, issue.iid, discussion.id, noteId), { method: 'PUT', token: project.owner.token, body: { body: 'final' } });
    const deleted = await api(discussionNoteUrl(project, issue.iid, discussion.id, noteId), { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expect.objectContaining({ id: noteId, body: 'draft', type: 'DiscussionNote' }));
    expect(list.body).toEqual([read.body]);
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual(expect.objectContaining({ id: noteId, body: 'final' }));
    expect(deleted.status).toBe(204);
    expect((await api(discussionUrl(project, issue.iid, discussion.id), { token: project.owner.token })).status).toBe(404);
    expect(await userNotesCount(project, issue.iid)).toBe(0);
  });

  it('answers 400 to resolving an issue note, and to a PUT with neither or both of body and resolved', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const discussion = await startDiscussion(project, issue.iid, project.owner.token, 'keep');
    const url = discussionNoteUrl(project, issue.iid, discussion.id, discussion.notes[0].id);

    // Act
    const resolve = await api(url, { method: 'PUT', token: project.owner.token, body: { resolved: true } });
    const neither = await api(url, { method: 'PUT', token: project.owner.token, body: {} });
    const both = await api(url, { method: 'PUT', token: project.owner.token, body: { body: 'x', resolved: true } });
    const resolveDiscussion = await api(discussionUrl(project, issue.iid, discussion.id), { method: 'PUT', token: project.owner.token, body: { resolved: true } });

    // Assess
    expect(resolve.status).toBe(400);
    expect(resolve.body).toEqual({ message: '400 Bad request - Note is not resolvable' });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: 'body, resolved are missing, exactly one parameter must be provided' });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'body, resolved are mutually exclusive' });
    expect(resolveDiscussion.status).toBe(404);
    const read = await api(url, { token: project.owner.token });
    expect(read.body.body).toBe('keep');
  });

  it("lets only the note's author, a maintainer or an admin edit or delete it", async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const developer = await newMember(project, DEVELOPER);
    const discussion = await startDiscussion(project, issue.iid, project.owner.token, 'mine');
    const url = discussionNoteUrl(project, issue.iid, discussion.id, discussion.notes[0].id);

    // Act
    const edit = await api(url, { method: 'PUT', token: developer.token, body: { body: 'theirs' } });
    const remove = await api(url, { method: 'DELETE', token: developer.token });
    const byAdmin = await api(url, { method: 'PUT', token: rootToken(), body: { body: 'by admin' } });

    // Assess
    expect(edit.status).toBe(403);
    expect(remove.status).toBe(403);
    expect(byAdmin.status).toBe(200);
    expect((await api(url, { token: project.owner.token })).body.body).toBe('by admin');
  });

  it('answers 404 Note for a note of another discussion', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const one = await startDiscussion(project, issue.iid, project.owner.token);
    const two = await startDiscussion(project, issue.iid, project.owner.token);

    // Act
    const response = await api(discussionNoteUrl(project, issue.iid, one.id, two.notes[0].id), { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Note Not Found' });
    expect(await userNotesCount(project, issue.iid)).toBe(2);
  });
});

describe('access', () => {
  let project: OwnedProject;
  let issueIid: number;
  let secretIid: number;
  beforeAll(async () => {
    project = await ownedProject('public');
    issueIid = (await openIssue(project.id, project.owner.token)).iid;
    secretIid = (await openIssue(project.id, project.owner.token, { confidential: true })).iid;
  });

  it('answers 401 to anonymous callers, even on a public project', async () => {
    expect((await api(discussionsUrl(project, issueIid))).status).toBe(401);
    expect((await api(discussionsUrl(project, issueIid), { body: { body: 'x' } })).status).toBe(401);
  });

  it('lets any signed-in user who can read the issue start and join discussions', async () => {
    const stranger = await createUser();
    const discussion = await startDiscussion(project, issueIid, stranger.token);
    await reply(project, issueIid, discussion.id, (await createUser()).token);
  });

  it('hides confidential issues and their discussions from non-members and guests', async () => {
    const discussion = await startDiscussion(project, secretIid, project.owner.token);
    const stranger = await createUser();
    const guest = await newMember(project, GUEST);
    for (const user of [stranger, guest]) {
      expect((await api(discussionsUrl(project, secretIid), { token: user.token })).status).toBe(404);
      expect((await api(discussionUrl(project, secretIid, discussion.id), { token: user.token })).status).toBe(404);
      const replied = await api(`${discussionUrl(project, secretIid, discussion.id)}/notes`, { token: user.token, body: { body: 'x' } });
      expect(replied.status).toBe(404);
      expect(replied.body).toEqual({ message: '404 Issue Not Found' });
    }
    expect(await userNotesCount(project, secretIid)).toBe(1);
  });

  it('answers 404 on a private project to non-members', async () => {
    const privateProject = await ownedProject('private');
    const issue = await openIssue(privateProject.id, privateProject.owner.token);
    const stranger = await createUser();
    const response = await api(discussionsUrl(privateProject, issue.iid), { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});
