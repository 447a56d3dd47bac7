/** `GET /users/:user_id/projects`: a user's personal projects the caller may see, by id or username. */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, createUser } from '../support/fixtures';

describe('GET /users/:user_id/projects', () => {
  it("lists the user's personal projects the caller may see, newest first, by id or username", async () => {
    // Prepare
    const owner = await createUser();
    const other = await createUser();
    const hidden = await createProject(owner.token, { visibility: 'private' });
    const shown = await createProject(owner.token, { visibility: 'public' });
    await createProject(other.token, { visibility: 'public' });

    // Act
    const asOwner = await api(`/users/${owner.id}/projects`, { token: owner.token });
    const byName = await api(`/users/${owner.username}/projects`, { token: owner.token, query: { simple: true } });
    const anonymous = await api(`/users/${owner.id}/projects`);
    const asOther = await api(`/users/${owner.id}/projects`, { token: other.token });

    // Assess
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.map((project: { id: number }) => project.id)).toEqual([shown.id, hidden.id]);
    expect(byName.body.map((project: { id: number }) => project.id)).toEqual([shown.id, hidden.id]);
    expect(Object.keys(byName.body[0])).not.toContain('permissions');
    expect(anonymous.body.map((project: { id: number }) => project.id)).toEqual([shown.id]);
    expect(asOther.body.map((project: { id: number }) => project.id)).toEqual([shown.id]);

    // Paged as every project list: one per page, the next page linked.
    const first = await api(`/users/${owner.id}/projects`, { token: owner.token, query: { per_page: 1 } });
    expect(first.body.map((project: { id: number }) => project.id)).toEqual([shown.id]);
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await api(`/users/${owner.id}/projects`, { token: owner.token, query: { per_page: 1, page: 2 } });
    expect(second.body.map((project: { id: number }) => project.id)).toEqual([hidden.id]);
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    expect(await api('/users/999999999/projects')).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await api('/users/no-such-user-anywhere/projects')).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
  });
});
