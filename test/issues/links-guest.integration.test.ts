/**
 * Issue links need only the Guest role in both projects since GitLab 17.0 (`IssuePolicy` enables
 * `admin_issue_link` for project members who can read the issue): a guest links and unlinks, a
 * stranger to a public project is refused with GitLab's message and nothing is written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createProject, createUser, openIssue, type TestProject, type TestUser } from '../support/fixtures';

const GUEST = 10;
const NO_PERMISSION = { message: "Couldn't link issues. You must have at least the Guest role in both projects." };

const links = (projectId: number, iid: number, path = '') => `/projects/${projectId}/issues/${iid}/links${path}`;

describe('issue links by guests', () => {
  let owner: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let other: TestProject;
  let outside: TestProject;

  beforeAll(async () => {
    [owner, guest, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    [project, other, outside] = await Promise.all([
      createProject(owner.token, { visibility: 'private' }),
      createProject(owner.token, { visibility: 'private' }),
      createProject(owner.token, { visibility: 'public' }),
    ]);
    await Promise.all([addMember('projects', project.id, guest.id, GUEST), addMember('projects', other.id, guest.id, GUEST)]);
  });

  it('lets a guest of both projects link two issues across them and remove the link', async () => {
    // Arrange
    const source = await openIssue(project.id, owner.token);
    const target = await openIssue(other.id, owner.token);

    // Act
    const created = await api(links(project.id, source.iid), { token: guest.token, body: { target_project_id: other.fullPath, target_issue_iid: target.iid } });
    const linkId = (await api(links(project.id, source.iid), { token: guest.token })).body[0]?.issue_link_id;
    const deleted = await api(links(other.id, target.iid, `/${linkId}`), { method: 'DELETE', token: guest.token });

    // Assert
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ source_issue: { id: source.id }, target_issue: { id: target.id }, link_type: 'relates_to' });
    expect(deleted.status).toBe(200);
    expect((await api(links(project.id, source.iid), { token: owner.token })).body).toEqual([]);
  });

  it('refuses a user who is not a member of a public project with 403, writing nothing', async () => {
    // Arrange
    const a = await openIssue(outside.id, owner.token);
    const b = await openIssue(outside.id, owner.token);

    // Act
    const response = await api(links(outside.id, a.iid), { token: stranger.token, body: { target_project_id: outside.id, target_issue_iid: b.iid } });

    // Assert
    expect(response.status).toBe(403);
    expect(response.body).toEqual(NO_PERMISSION);
    expect((await api(links(outside.id, a.iid), { token: owner.token })).body).toEqual([]);
    const notes = (await api(`/projects/${outside.id}/issues/${a.iid}/notes`, { token: owner.token })).body;
    expect(notes).toEqual([]);
  });

  it('refuses a guest of the source project when the target is a public project they are not a member of', async () => {
    // Arrange
    const source = await openIssue(project.id, owner.token);
    const target = await openIssue(outside.id, owner.token);

    // Act
    const response = await api(links(project.id, source.iid), { token: guest.token, body: { target_project_id: outside.id, target_issue_iid: target.iid } });

    // Assert
    expect(response.status).toBe(403);
    expect(response.body).toEqual(NO_PERMISSION);
    expect((await api(links(project.id, source.iid), { token: owner.token })).body).toEqual([]);
  });

  it('answers 404 to a guest linking to a confidential issue they cannot read', async () => {
    // Arrange
    const source = await openIssue(project.id, owner.token);
    const secret = await openIssue(other.id, owner.token, { confidential: true });

    // Act
    const response = await api(links(project.id, source.iid), { token: guest.token, body: { target_project_id: other.id, target_issue_iid: secret.iid } });

    // Assert
    expect(response.status).toBe(404);
    expect((await api(links(project.id, source.iid), { token: owner.token })).body).toEqual([]);
  });
});
