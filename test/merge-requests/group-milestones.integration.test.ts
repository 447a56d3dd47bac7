/**
 * A merge request's `milestone_id` may name a milestone of the project's group or of an ancestor
 * group, as an issue's may (GitLab's `milestone_id`); the merge request then shows it as the group
 * milestone (`group_id`). A milestone of an unrelated group is ignored, as an unknown one is.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { commit, mrs, openMergeRequest } from './helpers';

async function groupMilestone(groupId: number, token: string) {
  const response = await api(`/groups/${groupId}/milestones`, { token, body: { title: unique('gms') } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: number; title: string };
}

describe('merge requests with group milestones', () => {
  let owner: TestUser;
  let parent: { id: number };
  let child: { id: number };
  let project: { id: number };
  let branch = 0;
  const nextBranch = async () => {
    const name = `topic-${++branch}`;
    await commit(project.id, owner.token, name, { [`${name}.txt`]: `${name}\n` }, { start: 'main' });
    return name;
  };

  beforeAll(async () => {
    owner = await createUser();
    parent = await createGroup(owner.token, { visibility: 'private' });
    child = await createGroup(owner.token, { visibility: 'private', parent_id: parent.id });
    project = await createProject(owner.token, { namespace_id: child.id, visibility: 'private' });
    await commit(project.id, owner.token, 'main', { 'README.md': '# readme\n' });
  });

  it("opens a merge request with an ancestor group's milestone and moves it to the project's group's milestone", async () => {
    // Arrange
    const [ancestorMilestone, groupOwn] = await Promise.all([groupMilestone(parent.id, owner.token), groupMilestone(child.id, owner.token)]);
    const source = await nextBranch();

    // Act
    const opened = await openMergeRequest(project.id, owner.token, { source_branch: source, milestone_id: ancestorMilestone.id });
    const edited = await api(mrs(project.id, `/${opened.iid}`), { token: owner.token, method: 'PUT', body: { milestone_id: groupOwn.id } });

    // Assert
    expect(opened.milestone).toMatchObject({ id: ancestorMilestone.id, group_id: parent.id, title: ancestorMilestone.title });
    expect(opened.milestone).not.toHaveProperty('project_id');
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.milestone).toMatchObject({ id: groupOwn.id, group_id: child.id, title: groupOwn.title });
    const listed = await api(mrs(project.id), { token: owner.token, query: { milestone: groupOwn.title } });
    expect(listed.body.map((mr: { iid: number }) => mr.iid)).toEqual([opened.iid]);
  });

  it("ignores a milestone of a group the project is not in, keeping the merge request's milestone", async () => {
    // Arrange
    const elsewhere = await createGroup(owner.token, { visibility: 'private' });
    const [foreign, own] = await Promise.all([groupMilestone(elsewhere.id, owner.token), groupMilestone(child.id, owner.token)]);
    const opened = await openMergeRequest(project.id, owner.token, { source_branch: await nextBranch(), milestone_id: own.id });

    // Act
    const created = await openMergeRequest(project.id, owner.token, { source_branch: await nextBranch(), milestone_id: foreign.id });
    const edited = await api(mrs(project.id, `/${opened.iid}`), { token: owner.token, method: 'PUT', body: { milestone_id: foreign.id } });

    // Assert
    expect(created.milestone).toBeNull();
    expect(edited.status).toBe(200);
    expect(edited.body.milestone).toMatchObject({ id: own.id, group_id: child.id });
  });

  it('answers 404 to a stranger setting a group milestone, and the merge request keeps none', async () => {
    // Arrange
    const stranger = await createUser();
    const milestone = await groupMilestone(child.id, owner.token);
    const opened = await openMergeRequest(project.id, owner.token, { source_branch: await nextBranch() });

    // Act
    const response = await api(mrs(project.id, `/${opened.iid}`), { token: stranger.token, method: 'PUT', body: { milestone_id: milestone.id } });

    // Assert
    expect(response.status).toBe(404);
    expect((await api(mrs(project.id, `/${opened.iid}`), { token: owner.token })).body.milestone).toBeNull();
  });
});
