import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';

const GROUP_LABEL_FIELDS = ['id', 'name', 'color', 'description', 'text_color', 'subscribed'].sort();

/** A private group owned by a new user, a subgroup of it, and a project in the subgroup. */
async function groupTree() {
  const owner = await createUser();
  const group = await createGroup(owner.token, { visibility: 'private' });
  const subgroup = await createGroup(owner.token, { visibility: 'private', parent_id: group.id });
  const project = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'private' });
  return { owner, group, subgroup, project };
}

async function addGroupLabel(groupId: number, token: string, body: Record<string, unknown> = {}) {
  const response = await api(`/groups/${groupId}/labels`, { token, body: { name: unique('label'), color: '#428BCA', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const names = (body: Array<{ name: string }>) => body.map((label) => label.name);

describe('POST /groups/:id/labels', () => {
  let tree: Awaited<ReturnType<typeof groupTree>>;
  let reporter: TestUser;
  let guest: TestUser;
  beforeAll(async () => {
    tree = await groupTree();
    [reporter, guest] = await Promise.all([createUser(), createUser()]);
    await Promise.all([addMember('groups', tree.group.id, reporter.id, 20), addMember('groups', tree.group.id, guest.id, 10)]);
  });

  it("creates a label and answers 201 with GitLab's GroupLabel entity", async () => {
    // Act
    const response = await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, body: { name: 'bug', color: 'red', description: 'Broken' } });

    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(GROUP_LABEL_FIELDS);
    expect(response.body).toEqual({ id: expect.any(Number), name: 'bug', color: '#FF0000', description: 'Broken', text_color: '#FFFFFF', subscribed: false });
  });

  it('lets a reporter of the group create labels (the group found by its path)', async () => {
    const response = await api(`/groups/${encodeURIComponent(tree.group.fullPath)}/labels`, { token: reporter.token, body: { name: unique('r'), color: '#123' } });
    expect(response.status).toBe(201);
  });

  it('answers 403 to a guest and 404 to a non-member of the private group, writing nothing', async () => {
    // Arrange
    const outsider = await createUser();
    const name = unique('denied');

    // Act
    const asGuest = await api(`/groups/${tree.group.id}/labels`, { token: guest.token, body: { name, color: '#123' } });
    const asOutsider = await api(`/groups/${tree.group.id}/labels`, { token: outsider.token, body: { name, color: '#123' } });

    // Assess
    expect(asGuest.status).toBe(403);
    expect(asOutsider).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect((await api(`/groups/${tree.group.id}/labels/${name}`, { token: tree.owner.token })).status).toBe(404);
  });

  it.each([
    [{ color: undefined }, { error: 'color is missing' }],
    [{ color: 'blurple' }, { message: { color: ['must be a valid color code'] } }],
    [{ name: 'a,b' }, { message: { title: ['is invalid'] } }],
  ])('answers 400 for %j and writes nothing', async (override, error) => {
    // Arrange
    const before = (await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, query: { per_page: 100 } })).body.length;

    // Act
    const response = await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, body: { name: unique('bad'), color: '#123', ...override } });

    // Assess
    expect(response).toMatchObject({ status: 400, body: error });
    expect((await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, query: { per_page: 100 } })).body).toHaveLength(before);
  });

  it('answers 409 for a name the group already has, in any case', async () => {
    const label = await addGroupLabel(tree.group.id, tree.owner.token);
    const response = await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, body: { name: label.name.toUpperCase(), color: '#123' } });
    expect(response).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
  });
});

describe('GET /groups/:id/labels and /groups/:id/labels/:label_id', () => {
  let tree: Awaited<ReturnType<typeof groupTree>>;
  let parentLabel: { id: number; name: string };
  let ownLabel: { id: number; name: string };
  beforeAll(async () => {
    tree = await groupTree();
    parentLabel = await addGroupLabel(tree.group.id, tree.owner.token, { name: 'alpha-parent', description: 'from the top' });
    ownLabel = await addGroupLabel(tree.subgroup.id, tree.owner.token, { name: 'beta-own' });
  });

  it("lists the group's labels and its ancestors' by name; include_ancestor_groups=false only its own", async () => {
    // Act
    const all = await api(`/groups/${tree.subgroup.id}/labels`, { token: tree.owner.token });
    const own = await api(`/groups/${tree.subgroup.id}/labels`, { token: tree.owner.token, query: { include_ancestor_groups: false } });

    // Assess
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(['alpha-parent', 'beta-own']);
    expect(all.headers.get('x-total')).toBe('2');
    expect(names(own.body)).toEqual(['beta-own']);
  });

  it('filters by search and adds the counts with with_counts=true', async () => {
    const response = await api(`/groups/${tree.subgroup.id}/labels`, { token: tree.owner.token, query: { search: 'top', with_counts: true } });
    expect(response.body).toEqual([
      expect.objectContaining({ id: parentLabel.id, open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }),
    ]);
  });

  it('reads one label by id or by name, an ancestor label too', async () => {
    const byId = await api(`/groups/${tree.subgroup.id}/labels/${ownLabel.id}`, { token: tree.owner.token });
    const byName = await api(`/groups/${tree.subgroup.id}/labels/ALPHA-PARENT`, { token: tree.owner.token });
    expect(byId).toMatchObject({ status: 200, body: { id: ownLabel.id, name: 'beta-own' } });
    expect(byName).toMatchObject({ status: 200, body: { id: parentLabel.id } });
  });

  it("answers 404 for a missing label, another group's label and a private group the caller cannot see", async () => {
    const other = await createGroup(tree.owner.token);
    const outsider = await createUser();
    expect((await api(`/groups/${tree.group.id}/labels/nope`, { token: tree.owner.token })).body).toEqual({ message: '404 Label Not Found' });
    expect((await api(`/groups/${other.id}/labels/${ownLabel.id}`, { token: tree.owner.token })).status).toBe(404);
    expect((await api(`/groups/${tree.group.id}/labels`, { token: outsider.token })).status).toBe(404);
  });

  it('requires a token', async () => {
    expect((await api(`/groups/${tree.group.id}/labels`)).status).toBe(401);
  });
});

describe('PUT and DELETE /groups/:id/labels/:label_id', () => {
  let tree: Awaited<ReturnType<typeof groupTree>>;
  let guest: TestUser;
  beforeAll(async () => {
    tree = await groupTree();
    guest = await createUser();
    await addMember('groups', tree.group.id, guest.id, 10);
  });

  it('renames and recolours a label', async () => {
    // Arrange
    const label = await addGroupLabel(tree.group.id, tree.owner.token);
    const name = unique('renamed');

    // Act
    const response = await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: tree.owner.token, method: 'PUT', body: { new_name: name, color: '#000000' } });

    // Assess
    expect(response).toMatchObject({ status: 200, body: { id: label.id, name, color: '#000000', text_color: '#FFFFFF' } });
    expect((await api(`/groups/${tree.group.id}/labels/${name}`, { token: tree.owner.token })).body.id).toBe(label.id);
    expect((await api(`/groups/${tree.group.id}/labels/${label.name}`, { token: tree.owner.token })).status).toBe(404);
  });

  it('edits through the collection form with label_id or name', async () => {
    const label = await addGroupLabel(tree.group.id, tree.owner.token);
    const response = await api(`/groups/${tree.group.id}/labels`, { token: tree.owner.token, method: 'PUT', body: { name: label.name, description: 'via name' } });
    expect(response).toMatchObject({ status: 200, body: { id: label.id, description: 'via name' } });
  });

  it('answers 400 when nothing changes or the new name is taken, and changes nothing', async () => {
    // Arrange
    const [first, second] = [await addGroupLabel(tree.group.id, tree.owner.token), await addGroupLabel(tree.group.id, tree.owner.token)];

    // Act
    const empty = await api(`/groups/${tree.group.id}/labels/${first.id}`, { token: tree.owner.token, method: 'PUT', body: {} });
    const taken = await api(`/groups/${tree.group.id}/labels/${first.id}`, { token: tree.owner.token, method: 'PUT', body: { new_name: second.name, color: '#000' } });

    // Assess
    expect(empty).toMatchObject({ status: 400, body: { error: 'new_name, color, description are missing, at least one parameter must be provided' } });
    expect(taken).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    expect((await api(`/groups/${tree.group.id}/labels/${first.id}`, { token: tree.owner.token })).body).toMatchObject({ name: first.name, color: first.color });
  });

  it("answers 403 to a guest; an ancestor's label is not the subgroup's to edit (404)", async () => {
    const label = await addGroupLabel(tree.group.id, tree.owner.token);
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: guest.token, method: 'PUT', body: { color: '#000' } })).status).toBe(403);
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: guest.token, method: 'DELETE' })).status).toBe(403);
    expect((await api(`/groups/${tree.subgroup.id}/labels/${label.id}`, { token: tree.owner.token, method: 'DELETE' })).status).toBe(404);
  });

  it('deletes a label (204), then answers 404; its name is free again', async () => {
    // Arrange
    const label = await addGroupLabel(tree.group.id, tree.owner.token);

    // Act
    const response = await api(`/groups/${tree.group.id}/labels/${encodeURIComponent(label.name)}`, { token: tree.owner.token, method: 'DELETE' });

    // Assess
    expect(response.status).toBe(204);
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: tree.owner.token, method: 'DELETE' })).status).toBe(404);
    await addGroupLabel(tree.group.id, tree.owner.token, { name: label.name });
  });
});

describe('label subscriptions', () => {
  let tree: Awaited<ReturnType<typeof groupTree>>;
  let reader: TestUser;
  beforeAll(async () => {
    tree = await groupTree();
    reader = await createUser();
    await addMember('groups', tree.group.id, reader.id, 10);
  });

  it('subscribes to a group label (201, subscribed), 304 the second time; only the subscriber sees subscribed', async () => {
    // Arrange
    const label = await addGroupLabel(tree.group.id, tree.owner.token);

    // Act
    const first = await api(`/groups/${tree.group.id}/labels/${label.id}/subscribe`, { token: reader.token, method: 'POST' });
    const second = await api(`/groups/${tree.group.id}/labels/${label.id}/subscribe`, { token: reader.token, method: 'POST' });

    // Assess
    expect(first).toMatchObject({ status: 201, body: { id: label.id, subscribed: true } });
    expect(second.status).toBe(304);
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: reader.token })).body.subscribed).toBe(true);
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: tree.owner.token })).body.subscribed).toBe(false);
    const listed = (await api(`/groups/${tree.group.id}/labels`, { token: reader.token })).body as Array<{ id: number; subscribed: boolean }>;
    expect(listed.find((entry) => entry.id === label.id)?.subscribed).toBe(true);
  });

  it('unsubscribes (201, not subscribed), 304 when not subscribed', async () => {
    const label = await addGroupLabel(tree.group.id, tree.owner.token);
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}/unsubscribe`, { token: reader.token, method: 'POST' })).status).toBe(304);
    await api(`/groups/${tree.group.id}/labels/${label.id}/subscribe`, { token: reader.token, method: 'POST' });
    const response = await api(`/groups/${tree.group.id}/labels/${label.id}/unsubscribe`, { token: reader.token, method: 'POST' });
    expect(response).toMatchObject({ status: 201, body: { subscribed: false } });
    expect((await api(`/groups/${tree.group.id}/labels/${label.id}`, { token: reader.token })).body.subscribed).toBe(false);
  });

  it("subscribes to a project label and to its group's label through the project; 404 for a private project's label", async () => {
    // Arrange
    const projectLabel = (await api(`/projects/${tree.project.id}/labels`, { token: tree.owner.token, body: { name: unique('p'), color: '#123' } })).body;
    const groupLabel = await addGroupLabel(tree.group.id, tree.owner.token);
    const outsider = await createUser();

    // Act
    const own = await api(`/projects/${tree.project.id}/labels/${projectLabel.id}/subscribe`, { token: reader.token, method: 'POST' });
    const inherited = await api(`/projects/${tree.project.id}/labels/${groupLabel.name}/subscribe`, { token: reader.token, method: 'POST' });
    const hidden = await api(`/projects/${tree.project.id}/labels/${projectLabel.id}/subscribe`, { token: outsider.token, method: 'POST' });

    // Assess
    expect(own).toMatchObject({ status: 201, body: { id: projectLabel.id, subscribed: true, is_project_label: true } });
    expect(inherited).toMatchObject({ status: 201, body: { id: groupLabel.id, subscribed: true, is_project_label: false } });
    expect(hidden.status).toBe(404);
    expect((await api(`/projects/${tree.project.id}/labels/${projectLabel.id}/subscribe`, { token: reader.token, method: 'POST' })).status).toBe(304);
    expect((await api(`/groups/${tree.group.id}/labels/${groupLabel.id}`, { token: reader.token })).body.subscribed).toBe(true);
  });
});

describe("a project's labels with its groups' labels", () => {
  let tree: Awaited<ReturnType<typeof groupTree>>;
  beforeAll(async () => {
    tree = await groupTree();
    await addGroupLabel(tree.group.id, tree.owner.token, { name: 'a-top' });
    await addGroupLabel(tree.subgroup.id, tree.owner.token, { name: 'b-sub' });
    await api(`/projects/${tree.project.id}/labels`, { token: tree.owner.token, body: { name: 'c-project', color: '#123', priority: 2 } });
  });

  it('lists them by name, group labels with is_project_label false; include_ancestor_groups=false lists only its own', async () => {
    // Act
    const all = await api(`/projects/${tree.project.id}/labels`, { token: tree.owner.token });
    const own = await api(`/projects/${tree.project.id}/labels`, { token: tree.owner.token, query: { include_ancestor_groups: false } });

    // Assess
    expect(all.body.map((label: { name: string; is_project_label: boolean; priority: number | null }) => [label.name, label.is_project_label, label.priority])).toEqual([
      ['a-top', false, null],
      ['b-sub', false, null],
      ['c-project', true, 2],
    ]);
    expect(names(own.body)).toEqual(['c-project']);
  });

  it("reads a group label through the project, but edits and deletes only the project's own (404)", async () => {
    const read = await api(`/projects/${tree.project.id}/labels/a-top`, { token: tree.owner.token });
    const edit = await api(`/projects/${tree.project.id}/labels/a-top`, { token: tree.owner.token, method: 'PUT', body: { color: '#000' } });
    const remove = await api(`/projects/${tree.project.id}/labels/a-top`, { token: tree.owner.token, method: 'DELETE' });
    expect(read).toMatchObject({ status: 200, body: { name: 'a-top', is_project_label: false } });
    expect(edit.status).toBe(404);
    expect(remove.status).toBe(404);
  });

  it('lets an admin manage any group label', async () => {
    const response = await api(`/groups/${tree.group.id}/labels`, { token: rootToken(), body: { name: unique('admin'), color: '#123' } });
    expect(response.status).toBe(201);
  });
});
