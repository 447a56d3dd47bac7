import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, createUser, newMember, openIssue, type TestProject, type TestUser } from '../support/fixtures';

const REPORTER = 20;
const GUEST = 10;

const links = (projectId: number, iid: number, path = '') => `/projects/${projectId}/issues/${iid}/links${path}`;

describe('issue links', () => {
  let owner: TestUser;
  let project: TestProject;
  let other: TestProject;

  beforeAll(async () => {
    owner = await createUser();
    project = await createProject(owner.token, { visibility: 'private' });
    other = await createProject(owner.token, { visibility: 'private' });
  });

  it('links two issues, shows the link from both sides (the inverse type on the target) and reads it by id', async () => {
    // Arrange
    const source = await openIssue(project.id, owner.token);
    const target = await openIssue(other.id, owner.token);

    // Act
    const response = await api(links(project.id, source.iid), {
      token: owner.token,
      body: { target_project_id: other.id, target_issue_iid: target.iid, link_type: 'blocks' },
    });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ source_issue: { id: source.id, iid: source.iid }, target_issue: { id: target.id, project_id: other.id }, link_type: 'blocks' });
    const fromSource = await api(links(project.id, source.iid), { token: owner.token });
    expect(fromSource.status).toBe(200);
    expect(fromSource.body).toHaveLength(1);
    expect(fromSource.body[0]).toMatchObject({ id: target.id, iid: target.iid, link_type: 'blocks', issue_link_id: expect.any(Number) });
    expect(fromSource.body[0].link_created_at).toEqual(expect.any(String));
    const fromTarget = await api(links(other.id, target.iid), { token: owner.token });
    expect(fromTarget.body).toEqual([expect.objectContaining({ id: source.id, link_type: 'is_blocked_by', issue_link_id: fromSource.body[0].issue_link_id })]);
    const linkId = fromSource.body[0].issue_link_id;
    const single = await api(links(other.id, target.iid, `/${linkId}`), { token: owner.token });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ source_issue: { id: source.id }, target_issue: { id: target.id }, link_type: 'blocks' });
    const notes = (await api(`/projects/${project.id}/issues/${source.iid}/notes`, { token: owner.token })).body;
    expect(notes).toEqual(expect.arrayContaining([expect.objectContaining({ system: true, body: `marked this issue as blocking ${other.fullPath}#${target.iid}` })]));
  });

  it('answers 409 for a pair linked already, in either direction, and keeps one link', async () => {
    // Arrange
    const a = await openIssue(project.id, owner.token);
    const b = await openIssue(project.id, owner.token);
    const first = await api(links(project.id, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: b.iid } });
    expect(first.status).toBe(201);
    expect(first.body.link_type).toBe('relates_to');

    // Act
    const again = await api(links(project.id, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: b.iid } });
    const reverse = await api(links(project.id, b.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: a.iid } });

    // Assert
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Issue(s) already assigned' });
    expect(reverse.status).toBe(409);
    expect((await api(links(project.id, a.iid), { token: owner.token })).body).toHaveLength(1);
  });

  it('creates one link when two requests link the same pair at once', async () => {
    // Arrange
    const a = await openIssue(project.id, owner.token);
    const b = await openIssue(project.id, owner.token);

    // Act
    const responses = await Promise.all([
      api(links(project.id, a.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: b.iid } }),
      api(links(project.id, b.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: a.iid } }),
    ]);

    // Assert
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await api(links(project.id, a.iid), { token: owner.token })).body).toHaveLength(1);
    expect((await api(links(project.id, b.iid), { token: owner.token })).body).toHaveLength(1);
  });

  it('refuses bad input and writes nothing: a self link, an unknown target, a bad link type, a missing parameter', async () => {
    // Arrange
    const issue = await openIssue(project.id, owner.token);

    // Act
    const self = await api(links(project.id, issue.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: issue.iid } });
    const unknown = await api(links(project.id, issue.iid), { token: owner.token, body: { target_project_id: project.id, target_issue_iid: 999999 } });
    const badType = await api(links(project.id, issue.iid), { token: owner.token, body: { target_project_id: other.id, target_issue_iid: 1, link_type: 'duplicates' } });
    const missing = await api(links(project.id, issue.iid), { token: owner.token, body: { target_project_id: project.id } });

    // Assert
    expect(self.status).toBe(422);
    expect(self.body).toEqual({ message: `#${issue.iid} cannot be added: cannot be related to itself` });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Issue Not Found' });
    expect(badType.status).toBe(400);
    expect(badType.body).toEqual({ error: 'link_type does not have a valid value' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'target_issue_iid is missing' });
    expect((await api(links(project.id, issue.iid), { token: owner.token })).body).toEqual([]);
  });

  it('lets guests link issues they can read, and hides links to issues the caller cannot read', async () => {
    // Arrange
    const guest = await newMember(project, GUEST);
    const reporter = await newMember(project, REPORTER);
    const a = await openIssue(project.id, owner.token);
    const b = await openIssue(project.id, owner.token);
    const hidden = await openIssue(other.id, owner.token);
    expect((await api(links(project.id, a.iid), { token: owner.token, body: { target_project_id: other.id, target_issue_iid: hidden.iid } })).status).toBe(201);

    // Act
    const toUnreadable = await api(links(project.id, a.iid), { token: reporter.token, body: { target_project_id: other.id, target_issue_iid: hidden.iid } });
    const listed = await api(links(project.id, a.iid), { token: reporter.token });
    // Guests may link issues they can read (GitLab 17.0 lowered it from Reporter).
    const byGuest = await api(links(project.id, a.iid), { token: guest.token, body: { target_project_id: project.id, target_issue_iid: b.iid } });

    // Assert
    expect(toUnreadable.status).toBe(404);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    expect(byGuest.status).toBe(201);
  });

  it('answers 404 for the links of a private project to a stranger, and for an unknown link id', async () => {
    // Arrange
    const stranger = await createUser();
    const issue = await openIssue(project.id, owner.token);

    // Act
    const list = await api(links(project.id, issue.iid), { token: stranger.token });
    const unknownLink = await api(links(project.id, issue.iid, '/999999999'), { token: owner.token });

    // Assert
    expect(list.status).toBe(404);
    expect(list.body).toEqual({ message: '404 Project Not Found' });
    expect(unknownLink.status).toBe(404);
  });

  it('deletes a link from either side, answering it, and then it is gone from both', async () => {
    // Arrange
    const a = await openIssue(project.id, owner.token);
    const b = await openIssue(other.id, owner.token);
    const created = await api(links(project.id, a.iid), { token: owner.token, body: { target_project_id: other.id, target_issue_iid: b.iid, link_type: 'is_blocked_by' } });
    expect(created.status).toBe(201);
    const linkId = (await api(links(project.id, a.iid), { token: owner.token })).body[0].issue_link_id;
    const guest = await newMember(other, GUEST);

    // Act
    const refused = await api(links(other.id, b.iid, `/${linkId}`), { method: 'DELETE', token: guest.token });
    const deleted = await api(links(other.id, b.iid, `/${linkId}`), { method: 'DELETE', token: owner.token });
    const again = await api(links(other.id, b.iid, `/${linkId}`), { method: 'DELETE', token: owner.token });

    // Assert
    expect(refused.status).toBe(404);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ source_issue: { id: a.id }, target_issue: { id: b.id }, link_type: 'is_blocked_by' });
    expect(again.status).toBe(404);
    expect((await api(links(project.id, a.iid), { token: owner.token })).body).toEqual([]);
    expect((await api(links(other.id, b.iid), { token: owner.token })).body).toEqual([]);
  });
});
