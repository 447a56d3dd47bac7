/** `GET /namespaces/:id`: one namespace by id or full path, as GitLab shows it to the caller. */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createUser } from '../support/fixtures';

describe('GET /namespaces/:id', () => {
  it("shows a readable group by id or path, the caller's own namespace, and any to an admin", async () => {
    // Prepare
    const user = await createUser();
    const other = await createUser();
    const group = await createGroup(user.token, { visibility: 'private' });
    const own = (await api('/namespaces', { token: user.token, query: { search: user.username } })).body.find((n: { kind: string }) => n.kind === 'user');

    // Act
    const byId = await api(`/namespaces/${group.id}`, { token: user.token });
    const byPath = await api(`/namespaces/${encodeURIComponent(group.fullPath)}`, { token: user.token });
    const mine = await api(`/namespaces/${user.username}`, { token: user.token });
    const asAdmin = await api(`/namespaces/${own.id}`, { token: rootToken() });

    // Assess
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: group.id, kind: 'group', full_path: group.fullPath });
    expect(byPath.body.id).toBe(group.id);
    expect(mine.body).toMatchObject({ id: own.id, kind: 'user', path: user.username });
    expect(asAdmin.body.id).toBe(own.id);

    // A private group of others and another user's namespace are not found; a token is required.
    expect(await api(`/namespaces/${group.id}`, { token: other.token })).toMatchObject({ status: 404, body: { message: '404 Namespace Not Found' } });
    expect(await api(`/namespaces/${user.username}`, { token: other.token })).toMatchObject({ status: 404, body: { message: '404 Namespace Not Found' } });
    expect(await api('/namespaces/999999999', { token: user.token })).toMatchObject({ status: 404, body: { message: '404 Namespace Not Found' } });
    expect((await api(`/namespaces/${group.id}`)).status).toBe(401);
  });
});
