/**
 * `POST /projects/:id/milestones/:milestone_id/promote` (GitLab's `Milestones::PromoteService`):
 * the milestone becomes a group milestone, the same-titled milestones of the group's projects are
 * merged into it (their issues keep it, now shown as the group milestone), and they leave the
 * projects' lists.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, openIssue, ownedProject, unique, type TestUser } from '../support/fixtures';

const ids = (body: Array<{ id: number }>) => body.map((entry) => entry.id);

async function addMilestone(projectId: number, token: string, body: Record<string, unknown> = {}) {
  const response = await api(`/projects/${projectId}/milestones`, { token, body: { title: unique('pms'), ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('promoting a project milestone', () => {
  let owner: TestUser;
  let group: { id: number; fullPath: string };
  let first: { id: number };
  let second: { id: number };
  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
    [first, second] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
    ]);
  });

  it("creates the group milestone and merges the group's same-titled milestones, keeping their issues", async () => {
    // Arrange
    const title = unique('release');
    const milestone = await addMilestone(first.id, owner.token, { title, description: 'Ship it', due_date: '2030-03-01' });
    const twin = await addMilestone(second.id, owner.token, { title });
    const other = await addMilestone(second.id, owner.token);
    const issue = await openIssue(first.id, owner.token, { milestone_id: milestone.id });
    const twinIssue = await openIssue(second.id, owner.token, { milestone_id: twin.id });

    // Act
    const promoted = await api(`/projects/${first.id}/milestones/${milestone.id}/promote`, { token: owner.token, method: 'POST' });

    // Assess
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toBe(200);
    const inGroup = (await api(`/groups/${group.id}/milestones`, { token: owner.token, query: { title } })).body;
    expect(inGroup).toHaveLength(1);
    const groupMilestone = inGroup[0];
    expect(groupMilestone).toMatchObject({ group_id: group.id, title, description: 'Ship it', due_date: '2030-03-01', state: 'active' });
    // The project milestones are gone from the projects (the unrelated one stays).
    expect((await api(`/projects/${first.id}/milestones`, { token: owner.token })).body).toEqual([]);
    expect(ids((await api(`/projects/${second.id}/milestones`, { token: owner.token })).body)).toEqual([other.id]);
    expect((await api(`/projects/${first.id}/milestones/${milestone.id}`, { token: owner.token })).status).toBe(404);
    // Their issues now show the group milestone and are listed under it.
    expect((await api(`/projects/${first.id}/issues/${issue.iid}`, { token: owner.token })).body.milestone).toMatchObject({ id: groupMilestone.id, group_id: group.id, title });
    expect((await api(`/projects/${second.id}/issues/${twinIssue.iid}`, { token: owner.token })).body.milestone).toMatchObject({ id: groupMilestone.id, group_id: group.id });
    const listed = await api(`/groups/${group.id}/milestones/${groupMilestone.id}/issues`, { token: owner.token });
    expect(ids(listed.body)).toEqual([twinIssue.id, issue.id]);
    const filtered = await api(`/projects/${second.id}/issues`, { token: owner.token, query: { milestone: title } });
    expect(ids(filtered.body)).toEqual([twinIssue.id]);
    // New issues take the group milestone by its id; the project may reuse the title for a milestone of its own.
    const later = await openIssue(first.id, owner.token, { milestone_id: groupMilestone.id });
    expect(later.milestone).toMatchObject({ id: groupMilestone.id });
    expect(ids((await api(`/groups/${group.id}/milestones/${groupMilestone.id}/issues`, { token: owner.token })).body)).toEqual([later.id, twinIssue.id, issue.id]);
    await addMilestone(first.id, owner.token, { title });
  });

  it('answers 400 when the group already has a milestone of the title, changing nothing', async () => {
    // Arrange
    const title = unique('dup');
    await api(`/groups/${group.id}/milestones`, { token: owner.token, body: { title } });
    const milestone = await addMilestone(first.id, owner.token, { title });

    // Act
    const response = await api(`/projects/${first.id}/milestones/${milestone.id}/promote`, { token: owner.token, method: 'POST' });

    // Assess
    expect(response).toMatchObject({ status: 400, body: { message: 'Promotion failed - Title already being used for another group or project milestone.' } });
    expect((await api(`/projects/${first.id}/milestones/${milestone.id}`, { token: owner.token })).body).toMatchObject({ project_id: first.id, title });
  });

  it('answers 403 for a project outside any group (GitLab authorizes on the project\'s group, which is none)', async () => {
    const project = await ownedProject();
    const milestone = await addMilestone(project.id, project.owner.token);
    const response = await api(`/projects/${project.id}/milestones/${milestone.id}/promote`, { token: project.owner.token, method: 'POST' });
    expect(response).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api(`/projects/${project.id}/milestones/${milestone.id}`, { token: project.owner.token })).status).toBe(200);
  });

  it('answers 403 to a project reporter who is not a group reporter, and to a guest; 404 to a stranger or an unknown milestone', async () => {
    // Arrange
    const [projectReporter, guest, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    await Promise.all([addMember('projects', first.id, projectReporter.id, 20), addMember('groups', group.id, guest.id, 10)]);
    const milestone = await addMilestone(first.id, owner.token);
    const path = `/projects/${first.id}/milestones/${milestone.id}/promote`;

    // Act
    const byProjectReporter = await api(path, { token: projectReporter.token, method: 'POST' });
    const byGuest = await api(path, { token: guest.token, method: 'POST' });
    const byStranger = await api(path, { token: stranger.token, method: 'POST' });
    const unknown = await api(`/projects/${first.id}/milestones/999999999/promote`, { token: owner.token, method: 'POST' });

    // Assess
    expect(byProjectReporter.status).toBe(403);
    expect(byGuest.status).toBe(403);
    expect(byStranger.status).toBe(404);
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Milestone Not Found' } });
    expect(ids((await api(`/groups/${group.id}/milestones`, { token: owner.token, query: { title: milestone.title } })).body)).toEqual([]);
  });
});
