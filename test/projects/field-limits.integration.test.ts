/** GitLab's field lengths on projects: refused with its 400 before anything is written (never DynamoDB's 400 KB item limit, a 500). */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, unique } from '../support/fixtures';

describe('project field lengths', () => {
  it('refuses a description over 2,000 characters or a huge one on create and edit, and accepts 2,000', async () => {
    const user = await createUser();
    const name = unique('limits');
    for (const description of ['d'.repeat(2001), 'x'.repeat(300_000)]) {
      const refused = await api('/projects', { token: user.token, body: { name, description } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { description: ['is too long (maximum is 2000 characters)'] } });
    }
    expect((await api('/projects', { token: user.token, query: { owned: true } })).body).toEqual([]);

    const created = await api('/projects', { token: user.token, body: { name, description: 'd'.repeat(2000) } });
    expect(created.status).toBe(201);
    const edited = await api(`/projects/${created.body.id}`, { method: 'PUT', token: user.token, body: { description: 'e'.repeat(2001), default_branch: 'b'.repeat(300) } });
    expect(edited.status).toBe(400);
    expect(edited.body.message).toMatchObject({ description: ['is too long (maximum is 2000 characters)'], default_branch: ['is too long (maximum is 255 characters)'] });
    expect((await api(`/projects/${created.body.id}`, { token: user.token })).body.description).toBe('d'.repeat(2000));
    const topics = await api(`/projects/${created.body.id}`, { method: 'PUT', token: user.token, body: { tag_list: ['t'.repeat(420_000)] } });
    expect(topics).toMatchObject({ status: 400, body: { message: { tag_list: ['is too long (maximum is 255 characters)'] } } });
    const many = await api(`/projects/${created.body.id}`, { method: 'PUT', token: user.token, body: { tag_list: Array.from({ length: 101 }, (_, i) => `t${i}`) } });
    expect(many.status).toBe(400);
  });
});
