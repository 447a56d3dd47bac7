import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, newMember, openIssue, ownedProject, type OwnedProject } from '../support/fixtures';

const GUEST = 10;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const issueUrl = (project: OwnedProject, iid: number) => `/projects/${project.id}/issues/${iid}`;
const awardsUrl = (project: OwnedProject, iid: number) => `${issueUrl(project, iid)}/award_emoji`;
const noteAwardsUrl = (project: OwnedProject, iid: number, noteId: number) => `${issueUrl(project, iid)}/notes/${noteId}/award_emoji`;

async function award(url: string, token: string, name = 'thumbsup') {
  const response = await api(url, { token, body: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function votes(project: OwnedProject, iid: number): Promise<{ upvotes: number; downvotes: number }> {
  const { upvotes, downvotes } = (await api(issueUrl(project, iid), { token: rootToken() })).body;
  return { upvotes, downvotes };
}

describe('award emoji on an issue', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it("awards an emoji with GitLab's entity and counts thumbsup and thumbsdown as votes", async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    const response = await api(awardsUrl(project, issue.iid), { token: project.owner.token, body: { name: 'thumbsup' } });
    await award(awardsUrl(project, issue.iid), project.owner.token, 'thumbsdown');
    await award(awardsUrl(project, issue.iid), project.owner.token, 'tada');

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: expect.objectContaining({ id: project.owner.id, username: project.owner.username }),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: response.body.created_at,
      awardable_id: issue.id,
      awardable_type: 'Issue',
      url: null,
    });
    expect(await votes(project, issue.iid)).toEqual({ upvotes: 1, downvotes: 1 });
    const list = await api(`/projects/${project.id}/issues`, { token: project.owner.token, query: { 'iids[]': [issue.iid] } });
    expect(list.body[0]).toEqual(expect.objectContaining({ iid: issue.iid, upvotes: 1, downvotes: 1 }));
  });

  it('lists and reads awards, oldest first, paged', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const ids = [];
    for (const name of ['heart', 'rocket', 'eyes']) ids.push((await award(awardsUrl(project, issue.iid), project.owner.token, name)).id);

    // Act
    const all = await api(awardsUrl(project, issue.iid), { token: project.owner.token });
    const page = await api(awardsUrl(project, issue.iid), { token: project.owner.token, query: { per_page: 2, page: 2 } });
    const one = await api(`${awardsUrl(project, issue.iid)}/${ids[1]}`, { token: project.owner.token });

    // Assess
    expect(all.status).toBe(200);
    expect(all.body.map((a: { id: number; name: string }) => [a.id, a.name])).toEqual([
      [ids[0], 'heart'],
      [ids[1], 'rocket'],
      [ids[2], 'eyes'],
    ]);
    expect(page.body.map((a: { id: number }) => a.id)).toEqual([ids[2]]);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(all.body[1]);
  });

  it('refuses an unknown emoji name and a second award of the same name, writing nothing', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    await award(awardsUrl(project, issue.iid), project.owner.token, 'thumbsup');

    // Act
    const unknown = await api(awardsUrl(project, issue.iid), { token: project.owner.token, body: { name: 'not_an_emoji' } });
    const again = await api(awardsUrl(project, issue.iid), { token: project.owner.token, body: { name: 'thumbsup' } });
    const alias = await api(awardsUrl(project, issue.iid), { token: project.owner.token, body: { name: '+1' } });
    const missing = await api(awardsUrl(project, issue.iid), { token: project.owner.token, body: {} });

    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Award Emoji Name is not a valid emoji name Not Found' });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' });
    expect(alias.status).toBe(404);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    expect((await api(awardsUrl(project, issue.iid), { token: project.owner.token })).body).toHaveLength(1);
    expect(await votes(project, issue.iid)).toEqual({ upvotes: 1, downvotes: 0 });
  });

  it('counts each of parallel awards once, and one of the same user and name', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const users = await Promise.all([1, 2, 3].map(() => newMember(project, GUEST)));

    // Act
    const byMany = await Promise.all(users.map((user) => api(awardsUrl(project, issue.iid), { token: user.token, body: { name: 'thumbsup' } })));
    const byOne = await Promise.all([1, 2, 3].map(() => api(awardsUrl(project, issue.iid), { token: project.owner.token, body: { name: 'thumbsdown' } })));

    // Assess
    expect(byMany.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(byOne.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await votes(project, issue.iid)).toEqual({ upvotes: 3, downvotes: 1 });
  });

  it("lets only the award's user or an admin delete it, and takes the vote back", async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const other = await newMember(project, GUEST);
    const mine = await award(awardsUrl(project, issue.iid), project.owner.token, 'thumbsup');
    const theirs = await award(awardsUrl(project, issue.iid), other.token, 'thumbsup');

    // Act
    const denied = await api(`${awardsUrl(project, issue.iid)}/${mine.id}`, { method: 'DELETE', token: other.token });
    const own = await api(`${awardsUrl(project, issue.iid)}/${mine.id}`, { method: 'DELETE', token: project.owner.token });
    const byAdmin = await api(`${awardsUrl(project, issue.iid)}/${theirs.id}`, { method: 'DELETE', token: rootToken() });
    const gone = await api(`${awardsUrl(project, issue.iid)}/${mine.id}`, { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ message: '401 Unauthorized' });
    expect(own.status).toBe(204);
    expect(byAdmin.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Award Emoji Not Found' });
    expect(await votes(project, issue.iid)).toEqual({ upvotes: 0, downvotes: 0 });
    // The name may be awarded again once deleted.
    await award(awardsUrl(project, issue.iid), project.owner.token, 'thumbsup');
  });

  it("answers 404 for another issue's award", async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const other = await openIssue(project.id, project.owner.token);
    const elsewhere = await award(awardsUrl(project, other.iid), project.owner.token);

    // Act
    const response = await api(`${awardsUrl(project, issue.iid)}/${elsewhere.id}`, { token: project.owner.token });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Award Emoji Not Found' });
  });
});

describe('award emoji on a note', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it("awards, lists, reads and deletes a note's awards without voting on the issue", async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const note = (await api(`${issueUrl(project, issue.iid)}/notes`, { token: project.owner.token, body: { body: 'Nice' } })).body;

    // Act
    const created = await api(noteAwardsUrl(project, issue.iid, note.id), { token: project.owner.token, body: { name: 'thumbsup' } });
    const list = await api(noteAwardsUrl(project, issue.iid, note.id), { token: project.owner.token });
    const one = await api(`${noteAwardsUrl(project, issue.iid, note.id)}/${created.body.id}`, { token: project.owner.token });
    const issueAwards = await api(awardsUrl(project, issue.iid), { token: project.owner.token });

    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toEqual(expect.objectContaining({ name: 'thumbsup', awardable_id: note.id, awardable_type: 'Note' }));
    expect(list.body).toEqual([created.body]);
    expect(one.body).toEqual(created.body);
    expect(issueAwards.body).toEqual([]);
    expect(await votes(project, issue.iid)).toEqual({ upvotes: 0, downvotes: 0 });
    const deleted = await api(`${noteAwardsUrl(project, issue.iid, note.id)}/${created.body.id}`, { method: 'DELETE', token: project.owner.token });
    expect(deleted.status).toBe(204);
    expect((await api(noteAwardsUrl(project, issue.iid, note.id), { token: project.owner.token })).body).toEqual([]);
  });

  it('refuses awards on system notes and on notes of another issue', async () => {
    // Prepare
    const issue = await openIssue(project.id, project.owner.token);
    const other = await openIssue(project.id, project.owner.token);
    const note = (await api(`${issueUrl(project, other.iid)}/notes`, { token: project.owner.token, body: { body: 'Elsewhere' } })).body;
    await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    const [system] = (await api(`${issueUrl(project, issue.iid)}/notes`, { token: project.owner.token })).body;

    // Act
    const onSystem = await api(noteAwardsUrl(project, issue.iid, system.id), { token: project.owner.token, body: { name: 'tada' } });
    const onOther = await api(noteAwardsUrl(project, issue.iid, note.id), { token: project.owner.token, body: { name: 'tada' } });

    // Assess
    expect(system.system).toBe(true);
    expect(onSystem.status).toBe(404);
    expect(onSystem.body).toEqual({ message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' });
    expect(onOther.status).toBe(404);
    expect(onOther.body).toEqual({ message: '404 Note Not Found' });
    expect((await api(noteAwardsUrl(project, issue.iid, system.id), { token: project.owner.token })).body).toEqual([]);
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
    expect((await api(awardsUrl(project, issueIid))).status).toBe(401);
    expect((await api(awardsUrl(project, issueIid), { body: { name: 'tada' } })).status).toBe(401);
  });

  it('lets any signed-in user who can read the issue award an emoji', async () => {
    const stranger = await createUser();
    await award(awardsUrl(project, issueIid), stranger.token, 'rocket');
  });

  it('hides confidential issues and their awards from non-members and guests', async () => {
    const stranger = await createUser();
    const guest = await newMember(project, GUEST);
    for (const user of [stranger, guest]) {
      expect((await api(awardsUrl(project, secretIid), { token: user.token })).status).toBe(404);
      const response = await api(awardsUrl(project, secretIid), { token: user.token, body: { name: 'thumbsup' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Issue Not Found' });
    }
    expect(await votes(project, secretIid)).toEqual({ upvotes: 0, downvotes: 0 });
  });

  it('answers 404 on a private project to non-members', async () => {
    const privateProject = await ownedProject('private');
    const issue = await openIssue(privateProject.id, privateProject.owner.token);
    const stranger = await createUser();
    const response = await api(awardsUrl(privateProject, issue.iid), { token: stranger.token, body: { name: 'tada' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});
