import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, openIssue, ownedProject, unique, type TestUser } from '../support/fixtures';

/** A group owned by a new user with two projects in it. */
async function groupWithProjects() {
  const owner = await createUser();
  const group = await createGroup(owner.token, { visibility: 'private' });
  const [first, second] = await Promise.all([
    createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
    createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
  ]);
  return { owner, group, first, second };
}

const labelsOf = async (projectId: number, token: string) =>
  (await api(`/projects/${projectId}/labels`, { token, query: { with_counts: true, per_page: 100 } })).body as Array<Record<string, unknown>>;

describe('issues with group labels', () => {
  let tree: Awaited<ReturnType<typeof groupWithProjects>>;
  beforeAll(async () => {
    tree = await groupWithProjects();
  });

  it("gives an issue its group's label by name, counted on the group label across projects", async () => {
    // Arrange
    const name = unique('grouplabel');
    const label = (await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, body: { name, color: '#00FF00' } })).body;

    // Act
    const issue = await openIssue(tree.first.id, tree.owner.token, { labels: name });
    await openIssue(tree.second.id, tree.owner.token, { labels: name.toUpperCase() });
    const closed = await openIssue(tree.second.id, tree.owner.token, { labels: name });
    await api(`/projects/${tree.second.id}/issues/${closed.iid}`, { token: tree.owner.token, method: 'PUT', body: { state_event: 'close' } });

    // Assess
    expect(issue.labels).toEqual([name]);
    const groupList = (await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, query: { with_counts: true } })).body;
    expect(groupList.find((entry: { id: number }) => entry.id === label.id)).toMatchObject({ open_issues_count: 2, closed_issues_count: 1 });
    const projectLabels = await labelsOf(tree.first.id, tree.owner.token);
    expect(projectLabels.filter((entry) => entry.name === name)).toEqual([expect.objectContaining({ id: label.id, is_project_label: false, open_issues_count: 2 })]);
    const filtered = await api(`/projects/${tree.second.id}/issues`, { token: tree.owner.token, query: { labels: name, state: 'all' } });
    expect(filtered.body).toHaveLength(2);
  });

  it("shows a group label's new name on its issues after a rename", async () => {
    // Arrange
    const label = (await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, body: { name: unique('old'), color: '#123' } })).body;
    const issue = await openIssue(tree.first.id, tree.owner.token, { labels: label.name });
    const renamed = unique('new');

    // Act
    await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: tree.owner.token, method: 'PUT', body: { new_name: renamed } });

    // Assess
    expect((await api(`/projects/${tree.first.id}/issues/${issue.iid}`, { token: tree.owner.token })).body.labels).toEqual([renamed]);
  });

  it('answers 409 for a project label named as a group label', async () => {
    const label = (await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, body: { name: unique('taken'), color: '#123' } })).body;
    const response = await api(`/projects/${tree.first.id}/labels`, { token: tree.owner.token, body: { name: label.name, color: '#123' } });
    expect(response).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
  });
});

describe('PUT /projects/:id/labels/:label_id/promote', () => {
  let tree: Awaited<ReturnType<typeof groupWithProjects>>;
  let reporter: TestUser;
  beforeAll(async () => {
    tree = await groupWithProjects();
    reporter = await createUser();
    await addMember('projects', tree.first.id, reporter.id, 20);
  });

  it("moves the label to the group, merging the sibling project's label of that name; issues keep it", async () => {
    // Arrange
    const name = unique('promo');
    const own = (await api(`/projects/${tree.first.id}/labels`, { token: tree.owner.token, body: { name, color: '#FF0000', description: 'd' } })).body;
    await api(`/projects/${tree.second.id}/labels`, { token: tree.owner.token, body: { name, color: '#0000FF' } });
    const issue = await openIssue(tree.first.id, tree.owner.token, { labels: name });
    await openIssue(tree.second.id, tree.owner.token, { labels: name });

    // Act
    const response = await api(`/projects/${tree.first.id}/labels/${own.id}/promote`, { token: tree.owner.token, method: 'PUT' });

    // Assess
    expect(response).toMatchObject({ status: 200, body: { name, color: '#FF0000', description: 'd', subscribed: false } });
    expect(response.body).not.toHaveProperty('is_project_label');
    const groupLabels = (await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, query: { with_counts: true, search: name } })).body;
    expect(groupLabels).toEqual([expect.objectContaining({ id: response.body.id, open_issues_count: 2 })]);
    for (const project of [tree.first, tree.second]) {
      const listed = (await labelsOf(project.id, tree.owner.token)).filter((entry) => entry.name === name);
      expect(listed).toEqual([expect.objectContaining({ id: response.body.id, is_project_label: false, color: '#FF0000' })]);
    }
    expect((await api(`/projects/${tree.first.id}/issues/${issue.iid}`, { token: tree.owner.token })).body.labels).toEqual([name]);
    expect((await api(`/projects/${tree.first.id}/labels/${own.id}`, { token: tree.owner.token, method: 'DELETE' })).status).toBe(404);
  });

  it('answers 403 to a reporter of the project who is not a member of the group, promoting nothing', async () => {
    // Arrange
    const own = (await api(`/projects/${tree.first.id}/labels`, { token: tree.owner.token, body: { name: unique('nope'), color: '#123' } })).body;

    // Act
    const response = await api(`/projects/${tree.first.id}/labels/${own.id}/promote`, { token: reporter.token, method: 'PUT' });

    // Assess
    expect(response.status).toBe(403);
    expect((await api(`/projects/${tree.first.id}/labels/${own.id}`, { token: tree.owner.token })).body.is_project_label).toBe(true);
  });

  it('answers 400 in a personal namespace and 404 for an unknown label or a private project', async () => {
    const personal = await ownedProject();
    const own = (await api(`/projects/${personal.id}/labels`, { token: personal.owner.token, body: { name: unique('p'), color: '#123' } })).body;
    const outsider = await createUser();
    expect(await api(`/projects/${personal.id}/labels/${own.id}/promote`, { token: personal.owner.token, method: 'PUT' })).toMatchObject({
      status: 400,
      body: { message: 'Failed to promote project label to group label' },
    });
    expect((await api(`/projects/${tree.first.id}/labels/nope/promote`, { token: tree.owner.token, method: 'PUT' })).status).toBe(404);
    expect((await api(`/projects/${tree.first.id}/labels/${own.id}/promote`, { token: outsider.token, method: 'PUT' })).status).toBe(404);
  });
});
