/**
 * Issues with group milestones: `milestone_id` on issue create and update takes a milestone of the
 * project's group or an ancestor group, the issue shows it as a group milestone, the project's
 * `milestone=` filter and list count find it, `GET /groups/:id/milestones/:milestone_id/issues`
 * lists the issues of the group's projects the caller may read, and
 * `GET /projects/:id/milestones?include_ancestors=true` lists the groups' milestones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, openIssue, ownedProject, unique, type TestUser } from '../support/fixtures';

const ISSUE_MILESTONE_FIELDS = ['id', 'iid', 'group_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'due_date', 'start_date', 'expired', 'web_url'].sort();

async function addGroupMilestone(groupId: number, token: string, body: Record<string, unknown> = {}) {
  const response = await api(`/groups/${groupId}/milestones`, { token, body: { title: unique('gms'), ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const ids = (body: Array<{ id: number }>) => body.map((entry) => entry.id);

describe('issues with group milestones', () => {
  let owner: TestUser;
  let projectReader: TestUser;
  let group: { id: number; fullPath: string };
  let subgroup: { id: number; fullPath: string };
  let first: { id: number };
  let second: { id: number };
  let nested: { id: number };
  beforeAll(async () => {
    owner = await createUser();
    projectReader = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
    subgroup = await createGroup(owner.token, { visibility: 'private', parent_id: group.id });
    [first, second, nested] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
      createProject(owner.token, { namespace_id: subgroup.id, visibility: 'private' }),
    ]);
    // A member of the first project only: reads its issues, not the second's.
    await addMember('projects', first.id, projectReader.id, 20);
  });

  it("sets a group milestone on an issue (create and update) and shows it with group_id and the group's web_url", async () => {
    // Arrange
    const milestone = await addGroupMilestone(group.id, owner.token, { due_date: '2030-01-31' });
    const later = await openIssue(first.id, owner.token);

    // Act
    const created = await openIssue(first.id, owner.token, { milestone_id: milestone.id });
    const updated = await api(`/projects/${first.id}/issues/${later.iid}`, { token: owner.token, method: 'PUT', body: { milestone_id: milestone.id } });
    const inSubgroup = await openIssue(nested.id, owner.token, { milestone_id: milestone.id });

    // Assess
    expect(Object.keys(created.milestone).sort()).toEqual(ISSUE_MILESTONE_FIELDS);
    expect(created.milestone).toMatchObject({ id: milestone.id, iid: milestone.iid, group_id: group.id, title: milestone.title, due_date: '2030-01-31', web_url: milestone.web_url });
    expect(updated).toMatchObject({ status: 200, body: { milestone: { id: milestone.id, group_id: group.id } } });
    expect(inSubgroup.milestone).toMatchObject({ id: milestone.id, group_id: group.id });
  });

  it("ignores a milestone of a group the project is not in, and another project's milestone", async () => {
    // Arrange
    const elsewhere = await createGroup(owner.token, { visibility: 'private' });
    const foreign = await addGroupMilestone(elsewhere.id, owner.token);
    const subgroupOnly = await addGroupMilestone(subgroup.id, owner.token);

    // Act
    const foreignIssue = await openIssue(first.id, owner.token, { milestone_id: foreign.id });
    const siblingIssue = await openIssue(first.id, owner.token, { milestone_id: subgroupOnly.id });

    // Assess
    expect(foreignIssue.milestone).toBeNull();
    expect(siblingIssue.milestone).toBeNull();
    // Nothing was added to the project's own milestones.
    expect((await api(`/projects/${first.id}/milestones`, { token: owner.token })).body).toEqual([]);
  });

  it('filters project issues by the group milestone title, with an exact total', async () => {
    // Arrange
    const milestone = await addGroupMilestone(group.id, owner.token);
    const [a, b] = [await openIssue(second.id, owner.token, { milestone_id: milestone.id }), await openIssue(second.id, owner.token, { milestone_id: milestone.id })];
    await openIssue(second.id, owner.token);

    // Act
    const filtered = await api(`/projects/${second.id}/issues`, { token: owner.token, query: { milestone: milestone.title, per_page: 1 } });
    const any = await api(`/projects/${second.id}/issues`, { token: owner.token, query: { milestone: 'Any', per_page: 100 } });

    // Assess
    expect(filtered.status).toBe(200);
    expect(ids(filtered.body)).toEqual([b.id]);
    expect(filtered.headers.get('x-total')).toBe('2');
    expect(ids(any.body)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it("follows the group milestone's edits and shows none once it is deleted", async () => {
    // Arrange
    const milestone = await addGroupMilestone(group.id, owner.token);
    const issue = await openIssue(first.id, owner.token, { milestone_id: milestone.id });
    const title = unique('renamed');

    // Act
    await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token, method: 'PUT', body: { title, state_event: 'close' } });
    const renamed = await api(`/projects/${first.id}/issues/${issue.iid}`, { token: owner.token });
    const byNewTitle = await api(`/projects/${first.id}/issues`, { token: owner.token, query: { milestone: title } });
    await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token, method: 'DELETE' });
    const afterDelete = await api(`/projects/${first.id}/issues/${issue.iid}`, { token: owner.token });

    // Assess
    expect(renamed.body.milestone).toMatchObject({ id: milestone.id, title, state: 'closed' });
    expect(ids(byNewTitle.body)).toEqual([issue.id]);
    expect(afterDelete.body.milestone).toBeNull();
  });

  it("lists the milestone's issues across the group's projects and subgroups, newest first, paged, as the caller may read them", async () => {
    // Arrange
    const milestone = await addGroupMilestone(group.id, owner.token);
    const one = await openIssue(first.id, owner.token, { milestone_id: milestone.id });
    const two = await openIssue(second.id, owner.token, { milestone_id: milestone.id });
    const three = await openIssue(nested.id, owner.token, { milestone_id: milestone.id });
    const closed = await openIssue(first.id, owner.token, { milestone_id: milestone.id });
    await api(`/projects/${first.id}/issues/${closed.iid}`, { token: owner.token, method: 'PUT', body: { state_event: 'close' } });
    await openIssue(first.id, owner.token);

    // Act
    const all = await api(`/groups/${group.id}/milestones/${milestone.id}/issues`, { token: owner.token, query: { per_page: 100 } });
    const page = await api(`/groups/${group.id}/milestones/${milestone.id}/issues`, { token: owner.token, query: { per_page: 2, page: 2 } });
    const partial = await api(`/groups/${group.id}/milestones/${milestone.id}/issues`, { token: projectReader.token });

    // Assess
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual([closed.id, three.id, two.id, one.id]);
    expect(all.body[0].milestone).toMatchObject({ id: milestone.id, group_id: group.id });
    expect(ids(page.body)).toEqual([two.id, one.id]);
    // Not a member of the group: it cannot see the group at all.
    expect(partial.status).toBe(404);
  });

  it("lists only the issues of projects a group guest may read, leaving out confidential ones", async () => {
    // Arrange
    const guest = await createUser();
    await addMember('groups', group.id, guest.id, 10);
    const milestone = await addGroupMilestone(group.id, owner.token);
    const visible = await openIssue(first.id, owner.token, { milestone_id: milestone.id });
    await openIssue(first.id, owner.token, { milestone_id: milestone.id, confidential: true });

    // Act
    const listed = await api(`/groups/${group.id}/milestones/${milestone.id}/issues`, { token: guest.token });

    // Assess
    expect(ids(listed.body)).toEqual([visible.id]);
  });

  it('keeps the group milestone when an issue moves to another project of the group', async () => {
    // Arrange
    const milestone = await addGroupMilestone(group.id, owner.token);
    const issue = await openIssue(first.id, owner.token, { milestone_id: milestone.id });

    // Act
    const moved = await api(`/projects/${first.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: nested.id } });

    // Assess
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    expect(moved.body.milestone).toMatchObject({ id: milestone.id, group_id: group.id });
    expect(ids((await api(`/groups/${group.id}/milestones/${milestone.id}/issues`, { token: owner.token })).body)).toEqual([moved.body.id, issue.id]);
  });

  it("lists the ancestors' milestones with the project's own with include_ancestors=true", async () => {
    // Arrange
    const own = (await api(`/projects/${nested.id}/milestones`, { token: owner.token, body: { title: unique('own') } })).body;
    const ofGroup = await addGroupMilestone(group.id, owner.token);
    const ofSubgroup = await addGroupMilestone(subgroup.id, owner.token);

    // Act
    const onlyOwn = await api(`/projects/${nested.id}/milestones`, { token: owner.token });
    const withAncestors = await api(`/projects/${nested.id}/milestones`, { token: owner.token, query: { include_ancestors: true, per_page: 100 } });
    const filtered = await api(`/projects/${nested.id}/milestones`, { token: owner.token, query: { include_ancestors: true, title: ofSubgroup.title } });

    // Assess
    expect(ids(onlyOwn.body)).toEqual([own.id]);
    expect(ids(withAncestors.body)).toEqual(expect.arrayContaining([own.id, ofGroup.id, ofSubgroup.id]));
    expect(withAncestors.body.find((m: { id: number }) => m.id === ofGroup.id)).toMatchObject({ group_id: group.id, web_url: ofGroup.web_url });
    expect(withAncestors.body.find((m: { id: number }) => m.id === own.id)).toMatchObject({ project_id: nested.id });
    expect(ids(filtered.body)).toEqual([ofSubgroup.id]);
  });

  it('a project outside any group lists only its own milestones with include_ancestors=true', async () => {
    const project = await ownedProject();
    const own = (await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: unique('own') } })).body;
    const listed = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { include_ancestors: true } });
    expect(ids(listed.body)).toEqual([own.id]);
  });
});
