import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createUser, unique, type TestUser, newMember as addMember, ownedProject as createProject, type OwnedProject } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;

const MILESTONE_FIELDS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'due_date',
  'start_date',
  'expired',
  'web_url',
].sort();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Internal: creates a milestone (201 asserted). */
async function addMilestone(project: OwnedProject, body: Record<string, unknown> = {}, token = project.owner.token) {
  const response = await api(`/projects/${project.id}/milestones`, { token, body: { title: unique('m'), ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const milestoneUrl = (project: OwnedProject, id: number) => `/projects/${project.id}/milestones/${id}`;

describe('POST /projects/:id/milestones', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('creates an active milestone with the entity of GitLab', async () => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, {
      token: project.owner.token,
      body: { title: 'v1.0', description: 'First release', start_date: '2030-01-01', due_date: '2030-02-01' },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(MILESTONE_FIELDS);
    expect(response.body).toEqual({
      id: expect.any(Number),
      iid: expect.any(Number),
      project_id: project.id,
      title: 'v1.0',
      description: 'First release',
      state: 'active',
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      due_date: '2030-02-01',
      start_date: '2030-01-01',
      expired: false,
      web_url: `${baseUrl()}/${project.fullPath}/-/milestones/${response.body.iid}`,
    });
  });

  it('numbers iids per project, starting at 1', async () => {
    // Prepare
    const other = await createProject();

    // Act
    const first = await addMilestone(other);
    const second = await addMilestone(other);

    // Assess
    expect([first.iid, second.iid]).toEqual([1, 2]);
    expect(second.id).toBeGreaterThan(first.id);
  });

  it('leaves dates and the description null when not given, and accepts form fields and the project path', async () => {
    // Act
    const response = await api(`/projects/${encodeURIComponent(project.fullPath)}/milestones`, {
      token: project.owner.token,
      form: new URLSearchParams({ title: '  padded title  ' }),
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ title: 'padded title', description: null, due_date: null, start_date: null, expired: false });
  });

  it('marks a milestone whose due date is past as expired', async () => {
    // Act
    const milestone = await addMilestone(project, { due_date: '2000-01-01' });

    // Assess
    expect(milestone.expired).toBe(true);
  });

  it.each([
    [{}, 'title is missing'],
    [{ title: '   ' }, 'title is missing'],
    [{ title: 'x', due_date: '2030-13-01' }, 'due_date is invalid'],
    [{ title: 'x', start_date: 'tomorrow' }, 'start_date is invalid'],
  ])('answers 400 to %j: %s', async (body, error) => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('accepts full timestamps as dates and keeps the date as written, as GitLab', async () => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, {
      token: project.owner.token,
      body: { title: unique('m'), start_date: '2030-01-01T00:00:00Z', due_date: '2030-02-01T23:30:00-05:00' },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ start_date: '2030-01-01', due_date: '2030-02-01' });
    expect((await api(milestoneUrl(project, response.body.id), { token: project.owner.token })).body).toMatchObject({
      start_date: '2030-01-01',
      due_date: '2030-02-01',
    });
  });

  it.each([
    ['due_date', '2030-02-30T00:00:00Z'],
    ['start_date', '2030-01-01T25:00:00Z'],
  ])('answers 400 to an invalid %s timestamp %s and creates nothing', async (field, value) => {
    // Prepare
    const title = unique('bad date ');

    // Act
    const response = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title, [field]: value } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `${field} is invalid` });
    expect((await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { title } })).body).toEqual([]);
  });

  it('refuses a start date after the due date', async () => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, {
      token: project.owner.token,
      body: { title: unique('m'), start_date: '2030-02-02', due_date: '2030-02-01' },
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { due_date: ['must be greater than start date'] } });
  });

  it('refuses a title longer than 255 characters', async () => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: 'é'.repeat(256) } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('refuses a title the project already has, case-sensitively, while other projects may use it', async () => {
    // Prepare
    const title = unique('Release ');
    await addMilestone(project, { title });
    const other = await createProject();

    // Act
    const duplicate = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title } });
    const otherCase = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: title.toUpperCase() } });
    const elsewhere = await api(`/projects/${other.id}/milestones`, { token: other.owner.token, body: { title } });

    // Assess
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: { title: ['has already been taken'] } });
    expect(otherCase.status).toBe(201);
    expect(elsewhere.status).toBe(201);
  });

  it('creates exactly one milestone when the same title is created in parallel', async () => {
    // Prepare
    const racing = await createProject();
    const title = unique('race');

    // Act
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => api(`/projects/${racing.id}/milestones`, { token: racing.owner.token, body: { title } })),
    );

    // Assess
    expect(responses.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    const listed = await api(`/projects/${racing.id}/milestones`, { token: racing.owner.token, query: { title } });
    expect(listed.body).toHaveLength(1);
  });

  it('gives parallel creates of different titles distinct iids', async () => {
    // Prepare
    const racing = await createProject();

    // Act
    const responses = await Promise.all(Array.from({ length: 5 }, () => addMilestone(racing)));

    // Assess
    expect(new Set(responses.map((m) => m.iid)).size).toBe(5);
  });
});

describe('GET /projects/:id/milestones/:milestone_id', () => {
  let project: OwnedProject;
  let milestone: Record<string, unknown> & { id: number };
  beforeAll(async () => {
    project = await createProject();
    milestone = await addMilestone(project, { description: 'notes' });
  });

  it('returns the milestone', async () => {
    // Act
    const response = await api(milestoneUrl(project, milestone.id), { token: project.owner.token });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual(milestone);
  });

  it('answers 404 Milestone Not Found for an unknown id and for the id of another project', async () => {
    // Prepare
    const other = await createProject();
    const foreign = await addMilestone(other);

    // Act
    const unknown = await api(milestoneUrl(project, 999999999), { token: project.owner.token });
    const elsewhere = await api(milestoneUrl(project, foreign.id), { token: project.owner.token });

    // Assess
    for (const response of [unknown, elsewhere]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Milestone Not Found' });
    }
  });
});

describe('PUT /projects/:id/milestones/:milestone_id', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('edits the title, description and dates, and keeps what it does not mention', async () => {
    // Prepare
    const milestone = await addMilestone(project, { description: 'before', due_date: '2030-05-01' });

    // Act
    const response = await api(milestoneUrl(project, milestone.id), {
      method: 'PUT',
      token: project.owner.token,
      body: { title: `${milestone.title} renamed`, start_date: '2030-04-01' },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: milestone.id,
      iid: milestone.iid,
      title: `${milestone.title} renamed`,
      description: 'before',
      start_date: '2030-04-01',
      due_date: '2030-05-01',
      state: 'active',
      created_at: milestone.created_at,
    });
    expect(response.body.updated_at >= milestone.updated_at).toBe(true);
  });

  it('frees the old title on a rename and refuses a title another milestone has', async () => {
    // Prepare
    const a = await addMilestone(project);
    const b = await addMilestone(project);

    // Act
    const taken = await api(milestoneUrl(project, a.id), { method: 'PUT', token: project.owner.token, body: { title: b.title } });
    const renamed = await api(milestoneUrl(project, a.id), { method: 'PUT', token: project.owner.token, body: { title: unique('new') } });
    const reused = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: a.title } });

    // Assess
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { title: ['has already been taken'] } });
    expect(renamed.status).toBe(200);
    expect(reused.status).toBe(201);
  });

  it('keeps its own title when the title sent is unchanged', async () => {
    // Prepare
    const milestone = await addMilestone(project);

    // Act
    const response = await api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { title: milestone.title } });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.title).toBe(milestone.title);
  });

  it('closes and activates with state_event', async () => {
    // Prepare
    const milestone = await addMilestone(project);

    // Act
    const closed = await api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    const active = await api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { state_event: 'activate' } });

    // Assess
    expect(closed.status).toBe(200);
    expect(closed.body.state).toBe('closed');
    expect(active.body.state).toBe('active');
  });

  it('accepts full timestamps as dates and keeps the date as written, as GitLab', async () => {
    // Prepare
    const milestone = await addMilestone(project, { due_date: '2030-05-01' });

    // Act
    const response = await api(milestoneUrl(project, milestone.id), {
      method: 'PUT',
      token: project.owner.token,
      body: { start_date: '2030-04-01T00:00:00Z', due_date: '2030-06-01T00:00:00.000+02:00' },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ start_date: '2030-04-01', due_date: '2030-06-01', title: milestone.title });
  });

  it('answers 400 to an invalid timestamp and changes nothing', async () => {
    // Prepare
    const milestone = await addMilestone(project, { start_date: '2030-01-01', due_date: '2030-02-01' });

    // Act
    const response = await api(milestoneUrl(project, milestone.id), {
      method: 'PUT',
      token: project.owner.token,
      body: { title: 'never applied', due_date: '2030-13-01T00:00:00Z' },
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'due_date is invalid' });
    expect((await api(milestoneUrl(project, milestone.id), { token: project.owner.token })).body).toEqual(milestone);
  });

  it('clears a date sent blank or null', async () => {
    // Prepare
    const milestone = await addMilestone(project, { start_date: '2030-01-01', due_date: '2030-02-01', description: 'text' });

    // Act
    const response = await api(milestoneUrl(project, milestone.id), {
      method: 'PUT',
      token: project.owner.token,
      body: { due_date: '', start_date: null, description: null },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ due_date: null, start_date: null, description: null, title: milestone.title });
  });

  it('refuses a start date after the kept due date', async () => {
    // Prepare
    const milestone = await addMilestone(project, { due_date: '2030-02-01' });

    // Act
    const response = await api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { start_date: '2030-03-01' } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { due_date: ['must be greater than start date'] } });
  });

  it.each([
    [{}, 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided'],
    [{ state_event: 'reopen' }, 'state_event does not have a valid value'],
    [{ due_date: '31/12/2030' }, 'due_date is invalid'],
  ])('answers 400 to %j: %s', async (body, error) => {
    // Prepare
    const milestone = await addMilestone(project);

    // Act
    const response = await api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('refuses a blank title', async () => {
    // Prepare
    const milestone = await addMilestone(project);

    // Act
    const response = await api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { title: '   ' } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { title: ["can't be blank"] } });
  });

  it('answers 404 for a milestone of another project', async () => {
    // Prepare
    const other = await createProject();
    const foreign = await addMilestone(other);

    // Act
    const response = await api(milestoneUrl(project, foreign.id), { method: 'PUT', token: project.owner.token, body: { title: 'hijack' } });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Milestone Not Found' });
  });

  it('applies parallel edits of different fields without losing one', async () => {
    // Prepare
    const milestone = await addMilestone(project);

    // Act
    const [a, b] = await Promise.all([
      api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { description: 'parallel' } }),
      api(milestoneUrl(project, milestone.id), { method: 'PUT', token: project.owner.token, body: { due_date: '2031-01-01' } }),
    ]);

    // Assess
    expect([a.status, b.status]).toEqual([200, 200]);
    const after = await api(milestoneUrl(project, milestone.id), { token: project.owner.token });
    expect(after.body).toMatchObject({ description: 'parallel', due_date: '2031-01-01' });
  });
});

describe('DELETE /projects/:id/milestones/:milestone_id', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it('deletes the milestone (204) and frees its title', async () => {
    // Prepare
    const milestone = await addMilestone(project);

    // Act
    const response = await api(milestoneUrl(project, milestone.id), { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect((await api(milestoneUrl(project, milestone.id), { token: project.owner.token })).status).toBe(404);
    const again = await addMilestone(project, { title: milestone.title });
    expect(again.iid).toBeGreaterThan(milestone.iid);
  });

  it('answers 404 for an unknown milestone', async () => {
    // Act
    const response = await api(milestoneUrl(project, 999999999), { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Milestone Not Found' });
  });
});

describe('GET /projects/:id/milestones', () => {
  let project: OwnedProject;
  const titles = { alpha: unique('alpha '), beta: unique('beta '), gamma: unique('gamma ') };
  let created: Array<{ id: number; iid: number; title: string }>;
  beforeAll(async () => {
    project = await createProject();
    created = [];
    created.push(await addMilestone(project, { title: titles.alpha, description: 'Contains the NEEDLE' }));
    created.push(await addMilestone(project, { title: titles.beta }));
    created.push(await addMilestone(project, { title: titles.gamma }));
    const closed = await api(milestoneUrl(project, created[1].id), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });
    expect(closed.status).toBe(200);
  });

  it('lists every milestone by id ascending, with pagination headers', async () => {
    // Act
    const first = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { per_page: 2 } });
    const second = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { per_page: 2, page: 2 } });

    // Assess
    expect(first.status).toBe(200);
    expect(first.body.map((m: { id: number }) => m.id)).toEqual([created[0].id, created[1].id]);
    expect(second.body.map((m: { id: number }) => m.id)).toEqual([created[2].id]);
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
  });

  it.each([
    [{ state: 'active' }, ['alpha', 'gamma']],
    [{ state: 'closed' }, ['beta']],
    [{ state: 'all' }, ['alpha', 'beta', 'gamma']],
    [{ search: 'needle' }, ['alpha']],
    [{ search: 'ETA' }, ['beta']],
  ] as const)('filters with %j', async (query, expected) => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.map((m: { title: string }) => m.title)).toEqual(expected.map((name) => titles[name]));
  });

  it('filters by exact title', async () => {
    // Act
    const exact = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { title: titles.gamma } });
    const partial = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { title: titles.gamma.slice(0, 5) } });

    // Assess
    expect(exact.body.map((m: { id: number }) => m.id)).toEqual([created[2].id]);
    expect(partial.body).toEqual([]);
  });

  it('filters by iids[]', async () => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, {
      token: project.owner.token,
      query: { 'iids[]': [created[0].iid, created[2].iid] },
    });

    // Assess
    expect(response.body.map((m: { id: number }) => m.id)).toEqual([created[0].id, created[2].id]);
  });

  it('answers 400 for an unknown state', async () => {
    // Act
    const response = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, query: { state: 'opened' } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'state does not have a valid value' });
  });
});

describe('milestone permissions', () => {
  let privateProject: OwnedProject;
  let publicProject: OwnedProject;
  let guest: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let privateMilestone: { id: number };
  let publicMilestone: { id: number };
  beforeAll(async () => {
    [privateProject, publicProject, stranger] = await Promise.all([createProject('private'), createProject('public'), createUser()]);
    [guest, reporter] = await Promise.all([addMember(privateProject, GUEST), addMember(privateProject, REPORTER)]);
    privateMilestone = await addMilestone(privateProject);
    publicMilestone = await addMilestone(publicProject);
  });

  it('lets anyone read the milestones of a public project, anonymously too', async () => {
    // Act
    const list = await api(`/projects/${publicProject.id}/milestones`);
    const one = await api(milestoneUrl(publicProject, publicMilestone.id));

    // Assess
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(one.status).toBe(200);
  });

  it('answers 404 Project Not Found to a non-member of a private project, for reads and writes', async () => {
    // Act
    const responses = await Promise.all([
      api(`/projects/${privateProject.id}/milestones`, { token: stranger.token }),
      api(milestoneUrl(privateProject, privateMilestone.id), { token: stranger.token }),
      api(`/projects/${privateProject.id}/milestones`, { token: stranger.token, body: { title: unique('m') } }),
      api(milestoneUrl(privateProject, privateMilestone.id), { method: 'DELETE', token: stranger.token }),
    ]);

    // Assess
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Project Not Found' });
    }
  });

  it('lets a guest read but not create, edit or delete (403)', async () => {
    // Act
    const read = await api(milestoneUrl(privateProject, privateMilestone.id), { token: guest.token });
    const writes = await Promise.all([
      api(`/projects/${privateProject.id}/milestones`, { token: guest.token, body: { title: unique('m') } }),
      api(milestoneUrl(privateProject, privateMilestone.id), { method: 'PUT', token: guest.token, body: { title: unique('m') } }),
      api(milestoneUrl(privateProject, privateMilestone.id), { method: 'DELETE', token: guest.token }),
    ]);

    // Assess
    expect(read.status).toBe(200);
    for (const response of writes) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: '403 Forbidden' });
    }
  });

  it('lets a reporter create, edit and delete', async () => {
    // Act
    const milestone = await addMilestone(privateProject, {}, reporter.token);
    const edited = await api(milestoneUrl(privateProject, milestone.id), { method: 'PUT', token: reporter.token, body: { state_event: 'close' } });
    const deleted = await api(milestoneUrl(privateProject, milestone.id), { method: 'DELETE', token: reporter.token });

    // Assess
    expect(edited.status).toBe(200);
    expect(deleted.status).toBe(204);
  });

  it('lets an admin who is not a member manage milestones', async () => {
    // Act
    const response = await api(`/projects/${privateProject.id}/milestones`, { token: rootToken(), body: { title: unique('admin') } });

    // Assess
    expect(response.status).toBe(201);
  });

  it('answers 401 to an anonymous write on a public project', async () => {
    // Act
    const response = await api(`/projects/${publicProject.id}/milestones`, { body: { title: unique('m') } });

    // Assess
    expect(response.status).toBe(401);
  });
});

describe('GET /projects/:id/milestones/:milestone_id/issues', () => {
  it("lists the milestone's issues the caller may read, newest first, paged", async () => {
    // Prepare
    const project = await createProject('private');
    const token = project.owner.token;
    const milestone = await addMilestone(project);
    const other = await addMilestone(project);
    const issue = async (body: Record<string, unknown>) => (await api(`/projects/${project.id}/issues`, { token, body: { title: unique('issue'), ...body } })).body;
    const first = await issue({ milestone_id: milestone.id });
    const second = await issue({ milestone_id: milestone.id });
    await issue({ milestone_id: other.id });
    await issue({});
    const secret = await issue({ milestone_id: milestone.id, confidential: true });
    const guest = await addMember(project, GUEST);

    // Act
    const owner = await api(`${milestoneUrl(project, milestone.id)}/issues`, { token });
    const guests = await api(`${milestoneUrl(project, milestone.id)}/issues`, { token: guest.token });
    const paged = await api(`${milestoneUrl(project, milestone.id)}/issues`, { token, query: { per_page: 1 } });

    // Assess
    expect(owner.status).toBe(200);
    expect(owner.body.map((i: { iid: number }) => i.iid)).toEqual([secret.iid, second.iid, first.iid]);
    expect(owner.body[0].milestone).toMatchObject({ id: milestone.id });
    expect(guests.body.map((i: { iid: number }) => i.iid)).toEqual([second.iid, first.iid]);
    expect(paged.headers.get('x-total')).toBe('3');
  });

  it('answers 404 Milestone Not Found for a milestone of another project, and 404 for a hidden project', async () => {
    const project = await createProject('private');
    const elsewhere = await createProject('private');
    const milestone = await addMilestone(elsewhere);
    const wrong = await api(`${milestoneUrl(project, milestone.id)}/issues`, { token: project.owner.token });
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ message: '404 Milestone Not Found' });
    expect((await api(`${milestoneUrl(elsewhere, milestone.id)}/issues`, { token: (await createUser()).token })).status).toBe(404);
  });
});
