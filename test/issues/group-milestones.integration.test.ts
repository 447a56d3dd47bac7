import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createUser, unique, type TestUser } from '../support/fixtures';

const FIELDS = ['id', 'iid', 'group_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'due_date', 'start_date', 'expired', 'web_url'].sort();

async function addMilestone(groupId: number, token: string, body: Record<string, unknown> = {}) {
  const response = await api(`/groups/${groupId}/milestones`, { token, body: { title: unique('ms'), ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('group milestones', () => {
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let group: { id: number; fullPath: string };
  let subgroup: { id: number; fullPath: string };
  beforeAll(async () => {
    owner = await createUser();
    [reporter, guest] = await Promise.all([createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'private' });
    subgroup = await createGroup(owner.token, { visibility: 'private', parent_id: group.id });
    await Promise.all([addMember('groups', group.id, reporter.id, 20), addMember('groups', group.id, guest.id, 10)]);
  });

  it("creates a milestone (201) with GitLab's Milestone entity and iids counted per group", async () => {
    // Act
    const first = await api(`/groups/${group.id}/milestones`, { token: owner.token, body: { title: ' v1.0 ', description: 'First', due_date: '2030-01-31', start_date: '2030-01-01' } });
    const second = await api(`/groups/${group.id}/milestones`, { token: reporter.token, body: { title: 'v2.0' } });

    // Assess
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(FIELDS);
    expect(first.body).toMatchObject({ iid: 1, group_id: group.id, title: 'v1.0', description: 'First', state: 'active', due_date: '2030-01-31', start_date: '2030-01-01', expired: false });
    expect(first.body.web_url).toMatch(new RegExp(`/groups/${group.fullPath}/-/milestones/1$`));
    expect(second).toMatchObject({ status: 201, body: { iid: 2, title: 'v2.0', description: null } });
  });

  it('answers 400 for a missing or taken title and bad dates, writing nothing', async () => {
    // Arrange
    const taken = await addMilestone(group.id, owner.token);
    const before = (await api(`/groups/${group.id}/milestones`, { token: owner.token, query: { per_page: 100 } })).body.length;

    // Act
    const missing = await api(`/groups/${group.id}/milestones`, { token: owner.token, body: {} });
    const duplicate = await api(`/groups/${group.id}/milestones`, { token: owner.token, body: { title: taken.title } });
    const dates = await api(`/groups/${group.id}/milestones`, { token: owner.token, body: { title: unique('d'), start_date: '2030-02-01', due_date: '2030-01-01' } });

    // Assess
    expect(missing).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    expect(duplicate).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    expect(dates).toMatchObject({ status: 400, body: { message: { due_date: ['must be greater than start date'] } } });
    expect((await api(`/groups/${group.id}/milestones`, { token: owner.token, query: { per_page: 100 } })).body).toHaveLength(before);
  });

  it('answers 403 to a guest and 404 to a non-member', async () => {
    const outsider = await createUser();
    expect((await api(`/groups/${group.id}/milestones`, { token: guest.token, body: { title: unique('g') } })).status).toBe(403);
    expect((await api(`/groups/${group.id}/milestones`, { token: outsider.token, body: { title: unique('o') } })).status).toBe(404);
    expect((await api(`/groups/${group.id}/milestones`, { token: outsider.token })).status).toBe(404);
    expect((await api(`/groups/${group.id}/milestones`)).status).toBe(401);
  });

  it('lists with state, title, search and iids filters; a guest may read', async () => {
    // Arrange
    const word = unique('find');
    const open = await addMilestone(group.id, owner.token, { description: `has ${word}` });
    const closed = await addMilestone(group.id, owner.token);
    await api(`/groups/${group.id}/milestones/${closed.id}`, { token: owner.token, method: 'PUT', body: { state_event: 'close' } });

    // Act
    const closedOnes = await api(`/groups/${group.id}/milestones`, { token: guest.token, query: { state: 'closed' } });
    const byTitle = await api(`/groups/${group.id}/milestones`, { token: guest.token, query: { title: open.title } });
    const bySearch = await api(`/groups/${group.id}/milestones`, { token: guest.token, query: { search: word } });
    const byIid = await api(`/groups/${group.id}/milestones`, { token: guest.token, query: { 'iids[]': closed.iid } });

    // Assess
    expect(closedOnes.body.map((m: { id: number }) => m.id)).toEqual([closed.id]);
    expect(byTitle.body.map((m: { id: number }) => m.id)).toEqual([open.id]);
    expect(bySearch.body.map((m: { id: number }) => m.id)).toEqual([open.id]);
    expect(byIid.body.map((m: { id: number }) => m.id)).toEqual([closed.id]);
  });

  it("lists a subgroup's milestones, and its ancestors' with include_ancestors=true", async () => {
    // Arrange
    const own = await addMilestone(subgroup.id, owner.token);

    // Act
    const onlyOwn = await api(`/groups/${subgroup.id}/milestones`, { token: owner.token });
    const withAncestors = await api(`/groups/${subgroup.id}/milestones`, { token: owner.token, query: { include_ancestors: true, per_page: 100 } });

    // Assess
    expect(onlyOwn.body.map((m: { id: number }) => m.id)).toEqual([own.id]);
    expect(withAncestors.body.length).toBeGreaterThan(1);
    expect(withAncestors.body.map((m: { group_id: number }) => m.group_id)).toContain(group.id);
  });

  it('reads one milestone; 404 for an unknown id or another group', async () => {
    const milestone = await addMilestone(group.id, owner.token);
    expect((await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: guest.token })).body).toMatchObject({ id: milestone.id, title: milestone.title });
    expect((await api(`/groups/${group.id}/milestones/999999999`, { token: owner.token })).body).toEqual({ message: '404 Milestone Not Found' });
    expect((await api(`/groups/${subgroup.id}/milestones/${milestone.id}`, { token: owner.token })).status).toBe(404);
  });

  it('edits (rename, close, activate); 400 without a change or onto a taken title; 403 to a guest', async () => {
    // Arrange
    const [milestone, other] = [await addMilestone(group.id, owner.token), await addMilestone(group.id, owner.token)];
    const title = unique('renamed');

    // Act
    const renamed = await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: reporter.token, method: 'PUT', body: { title, state_event: 'close' } });
    const reopened = await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token, method: 'PUT', body: { state_event: 'activate' } });
    const empty = await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token, method: 'PUT', body: {} });
    const taken = await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token, method: 'PUT', body: { title: other.title } });
    const denied = await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: guest.token, method: 'PUT', body: { title: unique('x') } });

    // Assess
    expect(renamed).toMatchObject({ status: 200, body: { title, state: 'closed' } });
    expect(reopened.body.state).toBe('active');
    expect(empty.status).toBe(400);
    expect(taken).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    expect(denied.status).toBe(403);
    expect((await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token })).body.title).toBe(title);
  });

  it('deletes (204), then 404; the title is free again; 403 to a guest', async () => {
    const milestone = await addMilestone(group.id, owner.token);
    expect((await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: guest.token, method: 'DELETE' })).status).toBe(403);
    expect((await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(204);
    expect((await api(`/groups/${group.id}/milestones/${milestone.id}`, { token: owner.token })).status).toBe(404);
    await addMilestone(group.id, owner.token, { title: milestone.title });
  });

  it("answers 404 for the issues of an unknown milestone or another group's", async () => {
    const milestone = await addMilestone(subgroup.id, owner.token);
    expect((await api(`/groups/${group.id}/milestones/999999999/issues`, { token: owner.token })).body).toEqual({ message: '404 Milestone Not Found' });
    expect((await api(`/groups/${group.id}/milestones/${milestone.id}/issues`, { token: owner.token })).status).toBe(404);
  });
});
