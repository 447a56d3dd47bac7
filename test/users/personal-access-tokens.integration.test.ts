/**
 * Personal access tokens as current GitLab manages them: admins create them for users
 * (`POST /users/:id/personal_access_tokens`, the secret shown once), owners list, read, revoke and
 * rotate their own (`/personal_access_tokens`, `…/self`), admins anyone's; a revoked token stops
 * authenticating at once, a rotated one is replaced by a working one.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';

interface PersonalAccessToken {
  id: number;
  name: string;
  revoked: boolean;
  active: boolean;
  scopes: string[];
  user_id: number;
  description: string | null;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  token?: string;
}

const utcDate = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** An admin-made personal token for `user` (201 asserted). */
async function personalToken(user: TestUser, body: Record<string, unknown> = {}): Promise<PersonalAccessToken> {
  const response = await api<PersonalAccessToken>(`/users/${user.id}/personal_access_tokens`, {
    token: rootToken(),
    body: { name: unique('pat'), scopes: ['api'], ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('personal access tokens', () => {
  it('an admin creates one for a user: the secret once, GitLab’s entity, and it authenticates as the user', async () => {
    const user = await createUser();
    const created = await personalToken(user, { description: 'CI', expires_at: utcDate(30), scopes: ['api', 'read_user'] });
    expect(created).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      revoked: false,
      active: true,
      scopes: ['api', 'read_user'],
      user_id: user.id,
      description: 'CI',
      expires_at: utcDate(30),
      created_at: expect.any(String),
      last_used_at: null,
      token: expect.stringMatching(/^glpat-/),
    });
    expect((await api('/user', { token: created.token })).body.id).toBe(user.id);
    const self = await api<PersonalAccessToken>('/personal_access_tokens/self', { token: created.token });
    expect(self.body).toEqual({ ...created, token: undefined });
    expect(self.body).not.toHaveProperty('token');
  });

  it('lists the caller’s own tokens (not impersonation tokens) with filters; admins see anyone’s', async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const first = await personalToken(user, { name: 'deploy-one' });
    const second = await personalToken(user, { name: 'other-two' });
    await personalToken(other);
    const list = async (token: string, query: Record<string, string | number | boolean> = {}) =>
      (await api<PersonalAccessToken[]>('/personal_access_tokens', { token, query })).body.map((t) => t.id);

    // `user.token` is an impersonation token made by the fixtures: never listed here.
    expect(await list(user.token)).toEqual([first.id, second.id]);
    expect(await list(user.token, { search: 'DEPLOY' })).toEqual([first.id]);
    expect(await list(rootToken(), { user_id: user.id })).toEqual([first.id, second.id]);
    await api(`/personal_access_tokens/${first.id}`, { method: 'DELETE', token: first.token });
    expect(await list(user.token, { state: 'active' })).toEqual([second.id]);
    expect(await list(user.token, { revoked: true })).toEqual([first.id]);
  });

  it('reads and revokes by id only one’s own tokens (404 for another’s); admins any', async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const mine = await personalToken(user);
    const theirs = await personalToken(other);
    expect((await api(`/personal_access_tokens/${mine.id}`, { token: user.token })).status).toBe(200);
    const hidden = await api(`/personal_access_tokens/${theirs.id}`, { token: user.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Personal Access Token Not Found' });
    expect((await api(`/personal_access_tokens/${theirs.id}`, { method: 'DELETE', token: user.token })).status).toBe(404);
    expect((await api('/user', { token: theirs.token })).status).toBe(200);

    const read = async () => api<PersonalAccessToken>(`/personal_access_tokens/${theirs.id}`, { token: rootToken() });
    for (let attempt = 0; attempt < 30 && (await read()).status !== 200; attempt++) await new Promise((r) => setTimeout(r, 100));
    expect((await read()).body.user_id).toBe(other.id);
    expect((await api(`/personal_access_tokens/${theirs.id}`, { method: 'DELETE', token: rootToken() })).status).toBe(204);
    expect((await api('/user', { token: theirs.token })).status).toBe(401);
  });

  it('DELETE …/self revokes the presenting token at once', async () => {
    const user = await createUser();
    const token = await personalToken(user);
    expect((await api('/personal_access_tokens/self', { method: 'DELETE', token: token.token })).status).toBe(204);
    expect((await api('/user', { token: token.token })).status).toBe(401);
  });

  it('rotates: the old secret stops, a new token with the same name and scopes works, expiring in a week by default', async () => {
    const user = await createUser();
    const token = await personalToken(user, { scopes: ['read_user'] });
    const rotated = await api<PersonalAccessToken>(`/personal_access_tokens/${token.id}/rotate`, { method: 'POST', token: user.token });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body).toMatchObject({ name: token.name, scopes: ['read_user'], revoked: false, active: true, expires_at: utcDate(7) });
    expect(rotated.body.id).not.toBe(token.id);
    expect((await api('/user', { token: token.token })).status).toBe(401);
    expect((await api('/user', { token: rotated.body.token })).body.id).toBe(user.id);

    const again = await api(`/personal_access_tokens/${token.id}/rotate`, { method: 'POST', token: user.token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'token already revoked' });

    const apiToken = await personalToken(user);
    const self = await api<PersonalAccessToken>('/personal_access_tokens/self/rotate', { method: 'POST', token: apiToken.token, body: { expires_at: utcDate(3) } });
    expect(self.body).toMatchObject({ expires_at: utcDate(3), name: apiToken.name });
    expect((await api('/user', { token: apiToken.token })).status).toBe(401);
  });

  it('two racing rotations of one token make one new token', async () => {
    const user = await createUser();
    const token = await personalToken(user);
    const results = await Promise.all([0, 1, 2].map(() => api(`/personal_access_tokens/${token.id}/rotate`, { method: 'POST', token: user.token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it('refuses bad input and non-admin creation, creating nothing', async () => {
    const user = await createUser();
    const path = `/users/${user.id}/personal_access_tokens`;
    expect((await api(path, { token: user.token, body: { name: 'x', scopes: ['api'] } })).status).toBe(403);
    expect((await api(path, { token: rootToken(), body: { scopes: ['api'] } })).body).toEqual({ error: 'name is missing' });
    expect((await api(path, { token: rootToken(), body: { name: 'x', scopes: ['write_everything'] } })).status).toBe(400);
    expect((await api(path, { token: rootToken(), body: { name: 'x', scopes: ['api'], expires_at: utcDate(-1) } })).status).toBe(400);
    const long = await api(path, { token: rootToken(), body: { name: 'x', scopes: ['api'], description: 'd'.repeat(450_000) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'] } });
    expect((await api('/personal_access_tokens', { token: rootToken(), query: { user_id: user.id } })).body).toEqual([]);
  });
});
