import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, unique, newMember as addMember, ownedProject as createProject, type OwnedProject } from '../support/fixtures';

const LABEL_FIELDS = ['id', 'name', 'color', 'description', 'text_color', 'subscribed', 'priority', 'is_project_label'].sort();
const COUNT_FIELDS = ['open_issues_count', 'closed_issues_count', 'open_merge_requests_count'];

/** Internal: creates a label as the owner (201 asserted). */
async function addLabel(project: OwnedProject, body: Record<string, unknown> = {}) {
  const response = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name: unique('label'), color: '#428BCA', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const labelPath = (project: OwnedProject, idOrName: string | number) => `/projects/${project.id}/labels/${encodeURIComponent(String(idOrName))}`;

const labelNames = async (project: OwnedProject) =>
  ((await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { per_page: 100 } })).body as Array<{ name: string }>).map(
    (label) => label.name,
  );

describe('POST /projects/:id/labels', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it("creates a label and answers 201 with GitLab's ProjectLabel entity", async () => {
    // Act
    const response = await api(`/projects/${project.id}/labels`, {
      token: project.owner.token,
      body: { name: 'bug', color: '#d9534f', description: 'Something is broken', priority: 3 },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(LABEL_FIELDS);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'bug',
      color: '#d9534f',
      description: 'Something is broken',
      text_color: '#FFFFFF',
      subscribed: false,
      priority: 3,
      is_project_label: true,
    });
  });

  it('defaults description and priority to null, and accepts form fields and the project by path', async () => {
    // Act
    const response = await api(`/projects/${encodeURIComponent(project.fullPath)}/labels`, {
      token: project.owner.token,
      form: new URLSearchParams({ name: '  needs review  ', color: '#FFF' }),
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'needs review', color: '#FFF', description: null, priority: null, text_color: '#333333' });
  });

  it.each([
    ['red', '#FF0000', '#FFFFFF'],
    ['LightYellow', '#FFFFE0', '#333333'],
    ['#abcdef', '#abcdef', '#333333'],
    ['#123', '#123', '#FFFFFF'],
  ])('accepts the colour %s as %s with text colour %s', async (color, stored, textColor) => {
    const response = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name: unique('c'), color } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ color: stored, text_color: textColor });
  });

  it.each([
    [{ name: undefined }, { error: 'name is missing' }],
    [{ name: '  ' }, { error: 'name is missing' }],
    [{ color: undefined }, { error: 'color is missing' }],
    [{ name: undefined, color: undefined }, { error: 'name is missing, color is missing' }],
    [{ color: 'blurple' }, { message: { color: ['must be a valid color code'] } }],
    [{ color: '#12345' }, { message: { color: ['must be a valid color code'] } }],
    [{ color: '123456' }, { message: { color: ['must be a valid color code'] } }],
    [{ name: 'a,b' }, { message: { title: ['is invalid'] } }],
    [{ name: 'x'.repeat(256) }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    [{ priority: -1 }, { message: { priority: ['must be greater than or equal to 0'] } }],
    [{ priority: 'high' }, { error: 'priority is invalid' }],
  ])('rejects %o with 400 %o and creates nothing', async (override, body) => {
    // Prepare
    const fresh = await createProject();
    // Act
    const response = await api(`/projects/${fresh.id}/labels`, { token: fresh.owner.token, body: { name: 'valid', color: '#000000', ...override } });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
    expect(await labelNames(fresh)).toEqual([]);
  });

  it('answers 409 Label already exists for a name the project has, in any case', async () => {
    // Prepare
    const name = unique('Dup');
    await addLabel(project, { name });
    // Act
    const same = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name, color: '#000' } });
    const otherCase = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name: name.toUpperCase(), color: '#000' } });
    // Assess
    expect([same.status, otherCase.status]).toEqual([409, 409]);
    expect(same.body).toEqual({ message: 'Label already exists' });
    expect(otherCase.body).toEqual({ message: 'Label already exists' });
  });

  it('lets two projects have labels of the same name', async () => {
    const other = await createProject();
    await addLabel(project, { name: 'shared-name' });
    await addLabel(other, { name: 'shared-name' });
  });

  it('creates exactly one label when the same name is created in parallel', async () => {
    // Prepare
    const fresh = await createProject();
    // Act
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api(`/projects/${fresh.id}/labels`, { token: fresh.owner.token, body: { name: 'race', color: '#000' } })),
    );
    // Assess
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await labelNames(fresh)).toEqual(['race']);
  });

  it('answers 404 Project Not Found for an unknown project', async () => {
    const response = await api('/projects/999999999/labels', { token: rootToken(), body: { name: 'x', color: '#000' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /projects/:id/labels', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
    for (const name of ['beta', 'Alpha', 'gamma', 'Delta']) await addLabel(project, { name, description: name === 'gamma' ? 'About ALPHA releases' : undefined });
    await addLabel(await createProject(), { name: 'elsewhere' }); // another project's label never shows
  });

  it('lists the labels by name, case-insensitively, with pagination headers', async () => {
    // Act
    const first = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { per_page: 3 } });
    const second = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { per_page: 3, page: 2 } });

    // Assess
    expect(first.status).toBe(200);
    expect(first.body.map((l: { name: string }) => l.name)).toEqual(['Alpha', 'beta', 'Delta']);
    expect(second.body.map((l: { name: string }) => l.name)).toEqual(['gamma']);
    expect(Object.keys(first.body[0]).sort()).toEqual(LABEL_FIELDS);
    expect(first.headers.get('x-total')).toBe('4');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(second.headers.get('x-prev-page')).toBe('1');
  });

  it('filters by search in the name or description, case-insensitively', async () => {
    const response = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { search: 'alp' } });
    expect(response.status).toBe(200);
    expect(response.body.map((l: { name: string }) => l.name)).toEqual(['Alpha', 'gamma']);
    expect(response.headers.get('x-total')).toBe('2');
  });

  it('adds the issue and merge request counts with with_counts=true', async () => {
    const response = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { with_counts: true } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body[0]).sort()).toEqual([...LABEL_FIELDS, ...COUNT_FIELDS].sort());
    expect(response.body[0]).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
  });

  it('answers an empty list for a project without labels', async () => {
    const fresh = await createProject();
    const response = await api(`/projects/${fresh.id}/labels`, { token: fresh.owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get('x-total')).toBe('0');
  });
});

describe('GET /projects/:id/labels/:label_id', () => {
  let project: OwnedProject;
  let label: { id: number; name: string };
  beforeAll(async () => {
    project = await createProject();
    label = await addLabel(project, { name: 'needs/design review' });
  });

  it('finds a label by id', async () => {
    const response = await api(labelPath(project, label.id), { token: project.owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: label.id, name: 'needs/design review' });
    expect(Object.keys(response.body).sort()).toEqual(LABEL_FIELDS);
  });

  it('finds a label by its URL-encoded name, in any case', async () => {
    const exact = await api(labelPath(project, 'needs/design review'), { token: project.owner.token });
    const otherCase = await api(labelPath(project, 'NEEDS/Design Review'), { token: project.owner.token });
    expect([exact.status, otherCase.status]).toEqual([200, 200]);
    expect(exact.body.id).toBe(label.id);
    expect(otherCase.body.id).toBe(label.id);
  });

  it('finds a label whose name is all digits by name when no label has that id', async () => {
    const numeric = await addLabel(project, { name: '999999999' });
    const response = await api(labelPath(project, '999999999'), { token: project.owner.token });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(numeric.id);
  });

  it("answers 404 Label Not Found for an unknown label and another project's label", async () => {
    const other = await createProject();
    const foreign = await addLabel(other);
    for (const idOrName of ['no-such-label', 888888888, foreign.id]) {
      const response = await api(labelPath(project, idOrName), { token: project.owner.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Label Not Found' });
    }
  });
});

describe('PUT /projects/:id/labels/:label_id', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('changes name, colour, description and priority, and keeps what is not given', async () => {
    // Prepare
    const label = await addLabel(project, { name: unique('old'), description: 'kept', priority: 2 });
    const newName = unique('new');

    // Act
    const renamed = await api(labelPath(project, label.id), { method: 'PUT', token: project.owner.token, body: { new_name: newName, color: 'white' } });
    const reprioritized = await api(labelPath(project, newName), { method: 'PUT', token: project.owner.token, body: { priority: 7 } });

    // Assess
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...label, name: newName, color: '#FFFFFF', text_color: '#333333', description: 'kept', priority: 2 });
    expect(reprioritized.status).toBe(200);
    expect(reprioritized.body).toMatchObject({ id: label.id, name: newName, priority: 7 });
    expect((await api(labelPath(project, label.id), { token: project.owner.token })).body).toEqual(reprioritized.body);
  });

  it('removes the priority with priority=null and clears the description with an empty string', async () => {
    const label = await addLabel(project, { description: 'text', priority: 1 });
    const response = await api(labelPath(project, label.id), { method: 'PUT', token: project.owner.token, body: { priority: null, description: '' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ priority: null, description: '' });
  });

  it('frees the old name on a rename and finds the label by its new name', async () => {
    // Prepare
    const oldName = unique('before');
    const newName = unique('after');
    const label = await addLabel(project, { name: oldName });

    // Act
    await api(labelPath(project, label.id), { method: 'PUT', token: project.owner.token, body: { new_name: newName } });
    const byNewName = await api(labelPath(project, newName), { token: project.owner.token });
    const byOldName = await api(labelPath(project, oldName), { token: project.owner.token });
    const reused = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name: oldName, color: '#000' } });

    // Assess
    expect(byNewName.body.id).toBe(label.id);
    expect(byOldName.status).toBe(404);
    expect(reused.status).toBe(201);
  });

  it('renames a label to its own name in another case', async () => {
    const name = unique('case');
    const label = await addLabel(project, { name });
    const response = await api(labelPath(project, label.id), { method: 'PUT', token: project.owner.token, body: { new_name: name.toUpperCase() } });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe(name.toUpperCase());
    expect((await api(labelPath(project, name), { token: project.owner.token })).body.id).toBe(label.id);
  });

  it("answers GitLab's model error when renaming onto another label's name", async () => {
    // Prepare
    const taken = await addLabel(project);
    const label = await addLabel(project);
    // Act
    const response = await api(labelPath(project, label.id), { method: 'PUT', token: project.owner.token, body: { new_name: taken.name.toUpperCase() } });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { title: ['has already been taken'] } });
    expect((await api(labelPath(project, label.id), { token: project.owner.token })).body.name).toBe(label.name);
  });

  it.each([
    [{}, { error: 'new_name, color, description, priority are missing, at least one parameter must be provided' }],
    [{ color: 'nope' }, { message: { color: ['must be a valid color code'] } }],
    [{ new_name: 'a,b' }, { message: { title: ['is invalid'] } }],
    [{ new_name: '' }, { message: { title: ["can't be blank"] } }],
  ])('rejects %o with 400 %o', async (body, expected) => {
    const label = await addLabel(project);
    const response = await api(labelPath(project, label.id), { method: 'PUT', token: project.owner.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(expected);
  });

  it('answers 404 Label Not Found for an unknown label', async () => {
    const response = await api(labelPath(project, 'missing'), { method: 'PUT', token: project.owner.token, body: { color: '#000' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Label Not Found' });
  });
});

describe('PUT /projects/:id/labels (label in the parameters)', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('edits the label given by name or by label_id', async () => {
    const label = await addLabel(project);
    const byName = await api(`/projects/${project.id}/labels`, { method: 'PUT', token: project.owner.token, body: { name: label.name, description: 'by name' } });
    const byId = await api(`/projects/${project.id}/labels`, { method: 'PUT', token: project.owner.token, body: { label_id: label.id, color: '#eee' } });
    expect([byName.status, byId.status]).toEqual([200, 200]);
    expect(byId.body).toMatchObject({ id: label.id, description: 'by name', color: '#eee' });
  });

  it.each([
    [{ color: '#000' }, 'label_id, name are missing, exactly one parameter must be provided'],
    [{ label_id: 1, name: 'x', color: '#000' }, 'label_id, name are mutually exclusive'],
    [{ name: 'x' }, 'new_name, color, description, priority are missing, at least one parameter must be provided'],
  ])('rejects %o with 400 %s', async (body, error) => {
    const response = await api(`/projects/${project.id}/labels`, { method: 'PUT', token: project.owner.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });
});

describe('DELETE /projects/:id/labels/:label_id and DELETE /projects/:id/labels', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('deletes a label by id (204), after which it is 404 and its name is free', async () => {
    // Prepare
    const label = await addLabel(project);
    // Act
    const deleted = await api(labelPath(project, label.id), { method: 'DELETE', token: project.owner.token });
    const again = await api(labelPath(project, label.id), { method: 'DELETE', token: project.owner.token });
    const read = await api(labelPath(project, label.id), { token: project.owner.token });
    const recreated = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name: label.name, color: '#000' } });
    // Assess
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Label Not Found' });
    expect(read.status).toBe(404);
    expect(recreated.status).toBe(201);
    expect(recreated.body.id).not.toBe(label.id);
  });

  it('deletes a label by name in the path or in the parameters', async () => {
    const first = await addLabel(project, { name: unique('Path Name') });
    const second = await addLabel(project);
    const third = await addLabel(project);
    const byPathName = await api(labelPath(project, first.name.toLowerCase()), { method: 'DELETE', token: project.owner.token });
    const byName = await api(`/projects/${project.id}/labels`, { method: 'DELETE', token: project.owner.token, query: { name: second.name } });
    const byId = await api(`/projects/${project.id}/labels`, { method: 'DELETE', token: project.owner.token, query: { label_id: third.id } });
    expect([byPathName.status, byName.status, byId.status]).toEqual([204, 204, 204]);
    const left = await labelNames(project);
    for (const label of [first, second, third]) expect(left).not.toContain(label.name);
  });

  it('answers 400 without label_id or name, and 404 for an unknown name', async () => {
    const missing = await api(`/projects/${project.id}/labels`, { method: 'DELETE', token: project.owner.token });
    const unknown = await api(`/projects/${project.id}/labels`, { method: 'DELETE', token: project.owner.token, query: { name: 'nope' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'label_id, name are missing, exactly one parameter must be provided' });
    expect(unknown.status).toBe(404);
  });

  it('lets exactly one of two parallel deletes succeed', async () => {
    const label = await addLabel(project);
    const responses = await Promise.all([1, 2].map(() => api(labelPath(project, label.id), { method: 'DELETE', token: project.owner.token })));
    expect(responses.map((r) => r.status).sort()).toEqual([204, 404]);
  });
});

describe('label permissions', () => {
  const labelsOf = (project: OwnedProject) => `/projects/${project.id}/labels`;

  it('answers 401 to an anonymous request, even on a public project (GitLab authenticates every labels route)', async () => {
    const project = await createProject('public');
    const response = await api(labelsOf(project));
    expect(response.status).toBe(401);
  });

  it('lets a guest read labels but not create, edit or delete them (403)', async () => {
    // Prepare
    const project = await createProject();
    const label = await addLabel(project);
    const guest = await addMember(project, 10);
    // Act
    const list = await api(labelsOf(project), { token: guest.token });
    const read = await api(labelPath(project, label.id), { token: guest.token });
    const create = await api(labelsOf(project), { token: guest.token, body: { name: 'x', color: '#000' } });
    const edit = await api(labelPath(project, label.id), { method: 'PUT', token: guest.token, body: { color: '#000' } });
    const remove = await api(labelPath(project, label.id), { method: 'DELETE', token: guest.token });
    // Assess
    expect([list.status, read.status, create.status, edit.status, remove.status]).toEqual([200, 200, 403, 403, 403]);
    expect(create.body).toEqual({ message: '403 Forbidden' });
  });

  it('lets a reporter manage labels', async () => {
    const project = await createProject();
    const reporter = await addMember(project, 20);
    const create = await api(labelsOf(project), { token: reporter.token, body: { name: 'by-reporter', color: '#000' } });
    const edit = await api(labelPath(project, create.body.id), { method: 'PUT', token: reporter.token, body: { color: '#fff' } });
    const remove = await api(labelPath(project, create.body.id), { method: 'DELETE', token: reporter.token });
    expect([create.status, edit.status, remove.status]).toEqual([201, 200, 204]);
  });

  it('hides the labels of a private project from non-members (404)', async () => {
    const project = await createProject();
    const label = await addLabel(project);
    const stranger = await createUser();
    const list = await api(labelsOf(project), { token: stranger.token });
    const read = await api(labelPath(project, label.id), { token: stranger.token });
    const create = await api(labelsOf(project), { token: stranger.token, body: { name: 'x', color: '#000' } });
    expect([list.status, read.status, create.status]).toEqual([404, 404, 404]);
    expect(list.body).toEqual({ message: '404 Project Not Found' });
  });

  it('lets any signed-in user read the labels of a public project, but not change them (403)', async () => {
    const project = await createProject('public');
    await addLabel(project, { name: 'public-label' });
    const stranger = await createUser();
    const list = await api(labelsOf(project), { token: stranger.token });
    const create = await api(labelsOf(project), { token: stranger.token, body: { name: 'x', color: '#000' } });
    expect(list.status).toBe(200);
    expect(list.body.map((l: { name: string }) => l.name)).toEqual(['public-label']);
    expect(create.status).toBe(403);
  });

  it("lets an admin manage any project's labels", async () => {
    const project = await createProject();
    const response = await api(labelsOf(project), { token: rootToken(), body: { name: 'by-admin', color: '#000' } });
    expect(response.status).toBe(201);
  });
});
