/**
 * Impersonation tokens (`/users/:id/impersonation_tokens`, admin only): creation, listing by
 * state, revocation, scopes, expiry, and how a token authenticates (header, Bearer, parameter),
 * including for blocked users.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken, type ApiRequestOptions } from '../support/api';
import { createToken, createUser, unique, type TestUser } from '../support/fixtures';
import { generateSshPublicKey } from '../support/ssh-keys';

interface ImpersonationToken {
  id: number;
  name: string;
  active: boolean;
  revoked: boolean;
  scopes: string[];
  token?: string;
  impersonation: boolean;
  created_at: string;
  expires_at: string | null;
  user_id: number;
}

/** A UTC date `days` from today, `YYYY-MM-DD` (the server's notion of "today" is UTC too). */
const utcDate = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const tokensPath = (userId: number) => `/users/${userId}/impersonation_tokens`;

/** Creates a token as root (201 asserted) and returns the whole response body. */
async function createImpersonationToken(userId: number, body: Record<string, unknown> = {}): Promise<ImpersonationToken> {
  const response = await api<ImpersonationToken>(tokensPath(userId), {
    token: rootToken(),
    body: { name: unique('token'), scopes: ['api'], ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function listTokens(userId: number, state?: string): Promise<ImpersonationToken[]> {
  const response = await api<ImpersonationToken[]>(tokensPath(userId), { token: rootToken(), query: { state } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function currentUser(options: ApiRequestOptions) {
  return api<{ id: number; username: string }>('/user', options);
}

describe('POST /users/:id/impersonation_tokens', () => {
  it('answers 201 with the token, its secret, and its state', async () => {
    // Prepare
    const user = await createUser();
    const name = unique('ci');
    const expiresAt = utcDate(30);

    // Act
    const response = await api<ImpersonationToken>(tokensPath(user.id), {
      token: rootToken(),
      body: { name, scopes: ['api', 'read_user'], expires_at: expiresAt },
    });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.any(Number),
      name,
      active: true,
      revoked: false,
      scopes: ['api', 'read_user'],
      token: expect.any(String),
      impersonation: true,
      created_at: expect.any(String),
      expires_at: expiresAt,
    });
    expect(response.body.token!.length).toBeGreaterThanOrEqual(20);
  });

  it('creates a token without expiry when expires_at is left out', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const token = await createImpersonationToken(user.id);

    // Assess
    expect(token.expires_at).toBeNull();
    expect(token.active).toBe(true);
  });

  it('gives every token its own secret', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const [first, second] = await Promise.all([createImpersonationToken(user.id), createImpersonationToken(user.id)]);

    // Assess
    expect(first.token).not.toBe(second.token);
    expect(first.id).not.toBe(second.id);
  });

  it('creates a token that authenticates as the user', async () => {
    // Prepare
    const user = await createUser();
    const { token } = await createImpersonationToken(user.id);

    // Act
    const response = await currentUser({ token });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, username: user.username });
  });

  it.each<[string, (scopes: string[]) => ApiRequestOptions]>([
    ['a JSON array', (scopes) => ({ body: { name: 'json', scopes } })],
    [
      'repeated form fields scopes[]',
      (scopes) => ({ form: new URLSearchParams([['name', 'form'], ...scopes.map((s): [string, string] => ['scopes[]', s])]) }),
    ],
    [
      'repeated query parameters scopes[]',
      (scopes) => ({ query: new URLSearchParams([['name', 'query'], ...scopes.map((s): [string, string] => ['scopes[]', s])]) }),
    ],
  ])('accepts the scopes as %s', async (_label, request) => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api<ImpersonationToken>(tokensPath(user.id), {
      method: 'POST',
      token: rootToken(),
      ...request(['api', 'read_user']),
    });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.scopes).toEqual(['api', 'read_user']);
  });

  // GitLab's `Expirable#expired?` (`expires_at <= Time.current`): `expires_at` is the first day
  // the token no longer works, from 00:00 UTC.
  it('accepts expires_at today, but the token is expired from today: inactive, and a 401', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const created = await createImpersonationToken(user.id, { expires_at: utcDate(0) });

    // Assess
    expect(created.expires_at).toBe(utcDate(0));
    expect(created.active).toBe(false);
    expect((await currentUser({ token: created.token })).status).toBe(401);
    expect((await listTokens(user.id, 'inactive')).map((t) => t.id)).toContain(created.id);
    expect((await listTokens(user.id, 'active')).map((t) => t.id)).not.toContain(created.id);
  });

  it('a token expiring tomorrow is active and authenticates', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const created = await createImpersonationToken(user.id, { expires_at: utcDate(1) });

    // Assess
    expect(created.active).toBe(true);
    const response = await currentUser({ token: created.token });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(user.id);
    expect((await listTokens(user.id, 'active')).map((t) => t.id)).toContain(created.id);
  });

  describe('refused input', () => {
    it.each<[string, Record<string, unknown>, unknown]>([
      ['name is missing', { scopes: ['api'] }, { error: 'name is missing' }],
      ['scopes are missing', { name: 'x' }, { error: 'scopes is missing' }],
      ['a scope is unknown', { name: 'x', scopes: ['api', 'write_everything'] }, { error: 'scopes does not have a valid value' }],
      ['the only scope is unknown', { name: 'x', scopes: ['sudo'] }, { error: 'scopes does not have a valid value' }],
      ['expires_at is not a date', { name: 'x', scopes: ['api'], expires_at: 'tomorrow' }, { error: 'expires_at is invalid' }],
    ])('answers 400 when %s, and creates nothing', async (_label, body, expected) => {
      // Prepare
      const user = await createUser();
      const before = await listTokens(user.id);

      // Act
      const response = await api(tokensPath(user.id), { token: rootToken(), body });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(expected);
      expect(await listTokens(user.id)).toEqual(before);
    });

    it('answers 400 for an expires_at in the past, and creates nothing', async () => {
      // Prepare
      const user = await createUser();
      const before = await listTokens(user.id);

      // Act
      const response = await api(tokensPath(user.id), {
        token: rootToken(),
        body: { name: 'stale', scopes: ['api'], expires_at: utcDate(-1) },
      });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toHaveProperty('message.expires_at');
      expect(await listTokens(user.id)).toEqual(before);
    });
  });

  it('refuses a name over 255 characters (or a huge one) with GitLab 400, creating nothing', async () => {
    // Prepare
    const user = await createUser();
    const before = await listTokens(user.id);

    // Act
    const long = await api(tokensPath(user.id), { token: rootToken(), body: { name: 'n'.repeat(256), scopes: ['api'] } });
    const huge = await api(tokensPath(user.id), { token: rootToken(), body: { name: 'n'.repeat(500_000), scopes: ['api'] } });

    // Assess
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    expect(huge.status).toBe(400);
    expect(await listTokens(user.id)).toEqual(before);
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    // Act
    const response = await api(tokensPath(999999999), { token: rootToken(), body: { name: 'x', scopes: ['api'] } });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });
});

describe('reading impersonation tokens', () => {
  it('lists the tokens of the user, never with their secret', async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const created = await createImpersonationToken(user.id, { scopes: ['read_user'] });
    await createImpersonationToken(other.id);

    // Act
    const tokens = await listTokens(user.id);

    // Assess: the fixture's own token plus the one made here; nothing of the other user
    expect(tokens).toHaveLength(2);
    for (const token of tokens) {
      expect(token).not.toHaveProperty('token');
      expect(token.impersonation).toBe(true);
      expect(token.user_id).toBe(user.id);
    }
    const { token: _secret, ...withoutSecret } = created;
    expect(tokens).toContainEqual(withoutSecret);
  });

  it('shows one token by id, without its secret', async () => {
    // Prepare
    const user = await createUser();
    const created = await createImpersonationToken(user.id);

    // Act
    const response = await api<ImpersonationToken>(`${tokensPath(user.id)}/${created.id}`, { token: rootToken() });

    // Assess
    expect(response.status).toBe(200);
    const { token: _secret, ...withoutSecret } = created;
    expect(response.body).toEqual(withoutSecret);
    expect(response.body).not.toHaveProperty('token');
  });

  it.each<[string, (user: TestUser, othersTokenId: number) => string]>([
    ['an unknown token id', (user) => `${tokensPath(user.id)}/999999999`],
    ["another user's token", (user, othersTokenId) => `${tokensPath(user.id)}/${othersTokenId}`],
  ])('answers 404 Impersonation Token Not Found for %s', async (_label, path) => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const othersToken = await createImpersonationToken(other.id);

    // Act
    const response = await api(path(user, othersToken.id), { token: rootToken() });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Impersonation Token Not Found' });
  });

  it('answers 404 User Not Found when listing the tokens of an unknown user', async () => {
    // Act
    const response = await api(tokensPath(999999999), { token: rootToken() });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });

  it('filters by state: a revoked token is only in inactive and all', async () => {
    // Prepare
    const user = await createUser();
    const kept = await createImpersonationToken(user.id);
    const revoked = await createImpersonationToken(user.id);
    expect((await api(`${tokensPath(user.id)}/${revoked.id}`, { method: 'DELETE', token: rootToken() })).status).toBe(204);

    // Act
    const [all, active, inactive, unspecified] = await Promise.all([
      listTokens(user.id, 'all'),
      listTokens(user.id, 'active'),
      listTokens(user.id, 'inactive'),
      listTokens(user.id),
    ]);

    // Assess
    const ids = (tokens: ImpersonationToken[]) => tokens.map((t) => t.id);
    expect(ids(all)).toEqual(expect.arrayContaining([kept.id, revoked.id]));
    expect(ids(active)).toContain(kept.id);
    expect(ids(active)).not.toContain(revoked.id);
    expect(ids(inactive)).toEqual([revoked.id]);
    expect(ids(unspecified)).toEqual(ids(all));
    expect(active.every((t) => t.active && !t.revoked)).toBe(true);
    expect(inactive[0]).toMatchObject({ active: false, revoked: true });
  });

  it('answers 400 for an unknown state', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api(tokensPath(user.id), { token: rootToken(), query: { state: 'expired' } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'state does not have a valid value' });
  });
});

describe('DELETE /users/:id/impersonation_tokens/:impersonation_token_id', () => {
  it('revokes the token: 204, then the token no longer authenticates and reads as revoked', async () => {
    // Prepare
    const user = await createUser();
    const created = await createImpersonationToken(user.id);
    expect((await currentUser({ token: created.token })).status).toBe(200);

    // Act
    const response = await api(`${tokensPath(user.id)}/${created.id}`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    const rejected = await currentUser({ token: created.token });
    expect(rejected.status).toBe(401);
    expect(rejected.body).toEqual({ message: '401 Unauthorized' });
    const shown = await api<ImpersonationToken>(`${tokensPath(user.id)}/${created.id}`, { token: rootToken() });
    expect(shown.body).toMatchObject({ id: created.id, revoked: true, active: false });
  });

  it("leaves the user's other tokens working", async () => {
    // Prepare
    const user = await createUser();
    const revoked = await createImpersonationToken(user.id);

    // Act
    await api(`${tokensPath(user.id)}/${revoked.id}`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect((await currentUser({ token: user.token })).status).toBe(200);
  });

  it('answers 404 Impersonation Token Not Found for an unknown token, and User Not Found for an unknown user', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const unknownToken = await api(`${tokensPath(user.id)}/999999999`, { method: 'DELETE', token: rootToken() });
    const unknownUser = await api(`${tokensPath(999999999)}/1`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect(unknownToken.status).toBe(404);
    expect(unknownToken.body).toEqual({ message: '404 Impersonation Token Not Found' });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toEqual({ message: '404 User Not Found' });
  });
});

describe('impersonation token routes are for admins only', () => {
  describe.each<[string, (user: TestUser, tokenId: number) => ApiRequestOptions & { path: string }]>([
    ['GET list', (user) => ({ path: tokensPath(user.id) })],
    ['GET one', (user, tokenId) => ({ path: `${tokensPath(user.id)}/${tokenId}` })],
    ['POST', (user) => ({ path: tokensPath(user.id), body: { name: 'x', scopes: ['api'] } })],
    ['DELETE', (user, tokenId) => ({ path: `${tokensPath(user.id)}/${tokenId}`, method: 'DELETE' })],
  ])('%s', (_label, target) => {
    it.each<[string, boolean, number, unknown]>([
      ['a non-admin, even about themselves', true, 403, { message: '403 Forbidden' }],
      ['an anonymous caller', false, 401, { message: '401 Unauthorized' }],
    ])('refuses %s and changes nothing', async (_who, withToken, status, body) => {
      // Prepare
      const user = await createUser();
      const before = await listTokens(user.id);
      const { path, ...request } = target(user, before[0].id);

      // Act
      const response = await api(path, { ...request, token: withToken ? user.token : undefined });

      // Assess
      expect(response.status).toBe(status);
      expect(response.body).toEqual(body);
      expect(await listTokens(user.id)).toEqual(before);
    });
  });
});

describe('authenticating with an impersonation token', () => {
  it.each<[string, (token: string) => ApiRequestOptions]>([
    ['the PRIVATE-TOKEN header', (token) => ({ headers: { 'PRIVATE-TOKEN': token } })],
    ['an Authorization: Bearer header', (token) => ({ headers: { Authorization: `Bearer ${token}` } })],
    ['the private_token query parameter', (token) => ({ query: { private_token: token } })],
  ])('accepts the token in %s', async (_label, present) => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await currentUser(present(user.token));

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, username: user.username });
  });

  it.each<[string, (token: string) => ApiRequestOptions]>([
    ['the PRIVATE-TOKEN header', (token) => ({ headers: { 'PRIVATE-TOKEN': token } })],
    ['an Authorization: Bearer header', (token) => ({ headers: { Authorization: `Bearer ${token}` } })],
    ['the private_token query parameter', (token) => ({ query: { private_token: token } })],
  ])('refuses an unknown token in %s with 401', async (_label, present) => {
    // Act
    const response = await currentUser(present(`glpat-${unique('nope')}`));

    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  it('does not treat private_token as a parameter of the route', async () => {
    // Prepare
    const user = await createUser();
    const key = generateSshPublicKey();

    // Act
    const response = await api('/user/keys', { query: { private_token: user.token }, body: { title: 'via query', key } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ title: 'via query', key });
  });

  describe('with the read_user scope', () => {
    it.each(['/user', '/users', '/user/keys', '/user/emails'])('may GET %s', async (path) => {
      // Prepare
      const user = await createUser();
      const token = await createToken(user.id, ['read_user']);

      // Act
      const response = await api(path, { token });

      // Assess
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    });

    it('GET /user returns the user of the token', async () => {
      // Prepare
      const user = await createUser();
      const token = await createToken(user.id, ['read_user']);

      // Act
      const response = await currentUser({ token });

      // Assess
      expect(response.body).toMatchObject({ id: user.id, username: user.username });
    });

    it('may not write: POST /user/keys answers 403 insufficient_scope and adds nothing', async () => {
      // Prepare
      const user = await createUser();
      const token = await createToken(user.id, ['read_user']);

      // Act
      const response = await api('/user/keys', { token, body: { title: 'nope', key: generateSshPublicKey() } });

      // Assess
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: 'insufficient_scope' });
      expect((await api('/user/keys', { token: user.token })).body).toEqual([]);
    });
  });

  describe('of a blocked user', () => {
    it('answers 401 while the user is blocked, and works again once unblocked', async () => {
      // Prepare
      const user = await createUser();
      expect((await currentUser({ token: user.token })).status).toBe(200);

      // Act
      const blocked = await api(`/users/${user.id}/block`, { method: 'POST', token: rootToken() });
      const whileBlocked = await currentUser({ token: user.token });
      const unblocked = await api(`/users/${user.id}/unblock`, { method: 'POST', token: rootToken() });
      const afterwards = await currentUser({ token: user.token });

      // Assess
      expect(blocked.status).toBe(201);
      expect(whileBlocked.status).toBe(401);
      expect(whileBlocked.body).toEqual({ message: '401 Unauthorized' });
      expect(unblocked.status).toBe(201);
      expect(afterwards.status).toBe(200);
      expect(afterwards.body).toMatchObject({ id: user.id });
    });
  });

  it("stops working once the user is deleted", async () => {
    // Prepare
    const user = await createUser();

    // Act
    await api(`/users/${user.id}`, { method: 'DELETE', token: rootToken() });
    const response = await currentUser({ token: user.token });

    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });
});
