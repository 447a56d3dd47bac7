/** GitLab's field lengths on groups: refused with its 400 before anything is written. */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, unique } from '../support/fixtures';

describe('group field lengths', () => {
  it('refuses a description over 255 characters on create and edit, writing nothing', async () => {
    const user = await createUser();
    const path = unique('grp');
    const refused = await api('/groups', { token: user.token, body: { name: path, path, description: 'd'.repeat(256) } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'] } });
    expect((await api(`/groups/${path}`, { token: user.token })).status).toBe(404);

    const created = await api('/groups', { token: user.token, body: { name: path, path, description: 'd'.repeat(255) } });
    expect(created.status).toBe(201);
    const edited = await api(`/groups/${created.body.id}`, { method: 'PUT', token: user.token, body: { description: 'x'.repeat(300_000) } });
    expect(edited.status).toBe(400);
    expect((await api(`/groups/${created.body.id}`, { token: user.token })).body.description).toBe('d'.repeat(255));
  });
});
