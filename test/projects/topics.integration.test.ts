/**
 * Project topics as python-gitlab calls them (`gl.topics.list/get/create/update/delete`) and as
 * projects assign them (`topics` / `tag_list` on create and edit): the admin's CRUD, GitLab's
 * answers to bad input and to non-admins, and `total_projects_count` kept exact by the project
 * writes, also when several projects create the same topic at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

describe('project topics', () => {
  let user: TestUser;
  const root = () => rootToken();
  const topicNamed = async (name: string) => {
    const found = await api('/topics', { query: { search: name } });
    return (found.body as Array<{ name: string }>).filter((topic) => topic.name.toLowerCase() === name.toLowerCase());
  };

  beforeAll(async () => {
    user = await createUser();
  });

  it('lets admins create, edit and delete topics, and anyone list and read them', async () => {
    // Prepare
    const name = unique('topic');

    // Act
    const createdTopic = await api('/topics', { token: root(), body: { name, title: 'My Topic', description: 'About it' } });
    const id = createdTopic.body.id as number;
    const [read, searched, anonymous, withoutProjects] = await Promise.all([
      api(`/topics/${id}`),
      api('/topics', { query: { search: name } }),
      api('/topics', { query: { per_page: 100 } }),
      api('/topics', { query: { search: name, without_projects: true } }),
    ]);
    const refused = await Promise.all([
      api('/topics', { token: user.token, body: { name: unique('t'), title: 'T' } }),
      api(`/topics/${id}`, { method: 'PUT', token: user.token, body: { title: 'Mine' } }),
      api(`/topics/${id}`, { method: 'DELETE', token: user.token }),
      api('/topics', { token: root(), body: { name: unique('t') } }),
      api('/topics', { token: root(), body: { name: name.toUpperCase(), title: 'Again' } }),
      api('/topics', { token: root(), body: { name: unique('t'), title: 'T', description: 'd'.repeat(1025) } }),
    ]);
    const edited = await api(`/topics/${id}`, { method: 'PUT', token: root(), body: { name: `${name}-renamed`, title: 'Renamed', description: '' } });
    const oldName = await api('/topics', { token: root(), body: { name, title: 'Free again' } });
    const deleted = await Promise.all([api(`/topics/${id}`, { method: 'DELETE', token: root() }), api(`/topics/${oldName.body.id}`, { method: 'DELETE', token: root() })]);
    const gone = await api(`/topics/${id}`);

    // Assess
    expect(createdTopic.status, JSON.stringify(createdTopic.body)).toBe(201);
    expect(createdTopic.body).toEqual({ id: expect.any(Number), name, title: 'My Topic', description: 'About it', total_projects_count: 0, avatar_url: null });
    expect(read.body).toEqual(createdTopic.body);
    expect(searched.body).toEqual([createdTopic.body]);
    expect(anonymous.status).toBe(200);
    expect(withoutProjects.body).toEqual([createdTopic.body]);
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 400, 400, 400]);
    expect(refused[0].body).toEqual({ message: '403 Forbidden' });
    expect(refused[3].body).toEqual({ error: 'title is missing' });
    expect(refused[4].body).toEqual({ message: { name: ['has already been taken'] } });
    expect(refused[5].body).toEqual({ message: { description: ['is too long (maximum is 1024 characters)'] } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id, name: `${name}-renamed`, title: 'Renamed', description: null });
    expect(oldName.status, JSON.stringify(oldName.body)).toBe(201);
    expect(deleted.map((response) => response.status)).toEqual([204, 204]);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Not found' });
  });

  it('creates the topics projects name and keeps each one\'s total_projects_count exact, also under concurrent writes', async () => {
    // Prepare
    const [a, b, c, shared] = [unique('ta'), unique('tb'), unique('tc'), unique('ts')];
    const existing = await api('/topics', { token: root(), body: { name: b, title: 'Existing' } });

    // Act
    // Names are stripped, blanks dropped, and found case-insensitively: `B` is the existing topic.
    const project = await createProject(user.token, { topics: [` ${a} `, b.toUpperCase(), '', a.toUpperCase()] });
    const afterCreate = await Promise.all([topicNamed(a), api(`/topics/${existing.body.id}`)]);
    const edited = await api(`/projects/${project.id}`, { method: 'PUT', token: user.token, body: { tag_list: [b, c] } });
    const afterEdit = await Promise.all([topicNamed(a), topicNamed(b), topicNamed(c)]);
    // Three projects at once name one new topic: one topic, counted three times.
    const many = await Promise.all(Array.from({ length: 3 }, () => createProject(user.token, { topics: [shared] })));
    const afterMany = await topicNamed(shared);
    const removed = await api(`/projects/${many[0].id}`, { method: 'DELETE', token: user.token });

    // Assess
    expect(afterCreate[0]).toEqual([expect.objectContaining({ name: a, title: a, description: null, total_projects_count: 1 })]);
    expect(afterCreate[1].body).toMatchObject({ name: b, title: 'Existing', total_projects_count: 1 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ topics: [b, c], tag_list: [b, c] });
    expect(afterEdit.map((found) => found.map((topic) => (topic as unknown as { total_projects_count: number }).total_projects_count))).toEqual([[0], [1], [1]]);
    expect(afterMany).toEqual([expect.objectContaining({ name: shared, total_projects_count: 3 })]);
    expect(removed.status).toBe(202);
    await eventually(async () => expect((await topicNamed(shared))[0]).toMatchObject({ total_projects_count: 2 }));
  });
});
