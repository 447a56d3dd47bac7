import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = () => ({ token: rootToken() });

describe('POST /users', () => {
  it('creates a user and returns the admin form', async () => {
    // Prepare
    const username = unique('new');
    // Act
    const response = await api('/users', {
      ...root(),
      body: { username, email: `${username}@example.com`, name: 'New User', password: 'long-enough', bio: 'hi', projects_limit: 7 },
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      username,
      name: 'New User',
      state: 'active',
      email: `${username}@example.com`,
      bio: 'hi',
      projects_limit: 7,
      identities: [],
      external: false,
      can_create_group: true,
      two_factor_enabled: false,
    });
    expect(response.body.web_url).toMatch(new RegExp(`/${username}$`));
    expect(response.body).not.toHaveProperty('password');
  });

  it('accepts form-encoded parameters and query parameters', async () => {
    const username = unique('form');
    const form = new URLSearchParams({ username, email: `${username}@example.com`, name: 'Form User' });
    const response = await api('/users', { ...root(), form, query: { reset_password: 'true' } });
    expect(response.status).toBe(201);
    expect(response.body.username).toBe(username);
  });

  it('accepts multipart/form-data parameters', async () => {
    const username = unique('multi');
    const form = new FormData();
    form.set('username', username);
    form.set('email', `${username}@example.com`);
    form.set('name', 'Multipart User');
    form.set('password', 'long-enough');
    form.set('external', 'true');
    const response = await api('/users', { ...root(), form });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ username, external: true });
  });

  it('answers 400 for a malformed JSON body and creates nothing', async () => {
    const username = unique('json');
    const response = await fetch(`${baseUrl()}/api/v4/users`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json' },
      body: `{"username": "${username}", "email": "${username}@example.com", "name": "X", "password": "long-enough"`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect((await api('/users', { ...root(), query: { username } })).body).toEqual([]);
  });

  it.each([
    [{ email: undefined }, 'email is missing'],
    [{ username: undefined }, 'username is missing'],
    [{ name: undefined }, 'name is missing'],
    [{ password: undefined }, 'password, reset_password are missing, at least one parameter must be provided'],
    [{ projects_limit: 'lots' }, 'projects_limit is invalid'],
    [{ admin: 'maybe' }, 'admin is invalid'],
  ])('rejects %o with 400 {"error": "%s"} and creates nothing', async (override, message) => {
    const username = unique('bad');
    const body = { username, email: `${username}@example.com`, name: 'Bad', password: 'long-enough', ...override };
    const response = await api('/users', { ...root(), body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
    const lookup = await api('/users', { ...root(), query: { username } });
    expect(lookup.body).toEqual([]);
  });

  it.each([
    [{ email: 'not-an-email' }, { email: ['is invalid'] }],
    [{ password: 'short' }, { password: ['is too short (minimum is 8 characters)'] }],
    [{ username: '-dash' }, { username: [expect.stringContaining('can contain only letters')] }],
    [{ username: 'ends.git' }, { username: [expect.stringContaining('Cannot start with')] }],
    [{ username: 'admin' }, { username: ['admin is a reserved name'] }],
    [{ username: 'API' }, { username: ['API is a reserved name'] }],
    [{ projects_limit: -1 }, { projects_limit: ['must be greater than or equal to 0'] }],
  ])('rejects invalid model fields %o with a validation message', async (override, message) => {
    const username = unique('inv');
    const body = { username, email: `${username}@example.com`, name: 'Invalid', password: 'long-enough', ...override };
    const response = await api('/users', { ...root(), body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it('answers 409 when the username or email is taken, whatever the case', async () => {
    const existing = await createUser();
    const byUsername = await api('/users', {
      ...root(),
      body: { username: existing.username.toUpperCase(), email: `${unique()}@example.com`, name: 'Dup', password: 'long-enough' },
    });
    expect(byUsername.status).toBe(409);
    expect(byUsername.body).toEqual({ message: 'Username has already been taken' });
    const byEmail = await api('/users', {
      ...root(),
      body: { username: unique(), email: existing.email.toUpperCase(), name: 'Dup', password: 'long-enough' },
    });
    expect(byEmail.status).toBe(409);
    expect(byEmail.body).toEqual({ message: 'Email has already been taken' });
  });

  it('creates exactly one user when the same username is requested concurrently', async () => {
    const username = unique('race');
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api('/users', {
          ...root(),
          body: { username, email: `${username}-${i}@example.com`, name: 'Racer', password: 'long-enough' },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const lookup = await api('/users', { ...root(), query: { username } });
    expect(lookup.body).toHaveLength(1);
  });

  it('creates exactly one user when the same email is requested concurrently', async () => {
    const email = `${unique('race')}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        api('/users', { ...root(), body: { username: unique('racer'), email, name: 'Racer', password: 'long-enough' } }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).map((r) => r.body)).toEqual(
      Array.from({ length: 5 }, () => ({ message: 'Email has already been taken' })),
    );
  });

  it('is admin only', async () => {
    const user = await createUser();
    const body = { username: unique(), email: `${unique()}@example.com`, name: 'X', password: 'long-enough' };
    expect((await api('/users', { token: user.token, body })).status).toBe(403);
    const anonymous = await api('/users', { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('GET /users/:id', () => {
  it('shows the single-user form to other users and the admin form to admins', async () => {
    const subject = await createUser({ bio: 'about me' });
    const viewer = await createUser();
    const asUser = await api(`/users/${subject.id}`, { token: viewer.token });
    expect(asUser.status).toBe(200);
    expect(asUser.body).toMatchObject({ id: subject.id, username: subject.username, bio: 'about me' });
    expect(asUser.body).toHaveProperty('created_at');
    expect(asUser.body).not.toHaveProperty('email');
    const asAdmin = await api(`/users/${subject.id}`, root());
    expect(asAdmin.body).toMatchObject({ email: subject.email, projects_limit: expect.any(Number) });
  });

  it('answers 404 for an unknown user', async () => {
    const response = await api('/users/999999999', root());
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });

  it('answers 400 for a non-numeric id', async () => {
    const response = await api('/users/abc', root());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'id is invalid' });
  });
});

describe('GET /users', () => {
  it('finds a user by username, case-insensitively, even anonymously (public form)', async () => {
    const user = await createUser();
    const response = await api('/users', { query: { username: user.username.toUpperCase() } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: user.id, username: user.username, name: `Test ${user.username}`, state: 'active', avatar_url: null, web_url: expect.any(String) },
    ]);
  });

  it('refuses to list all users to anonymous callers', async () => {
    const response = await api('/users');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
  });

  it('searches username and name for everyone, and email only for admins', async () => {
    const marker = unique('srch');
    const user = await createUser({ username: `${marker}x`, email: `${unique('mail')}@${marker}.example.com` });
    const viewer = await createUser();
    const byName = await api('/users', { token: viewer.token, query: { search: marker.toUpperCase() } });
    expect(byName.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    const emailOnly = `${marker}.example.com`;
    const asUser = await api('/users', { token: viewer.token, query: { search: emailOnly } });
    expect(asUser.body).toEqual([]);
    const asAdmin = await api('/users', { ...root(), query: { search: emailOnly } });
    expect(asAdmin.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
  });

  it('filters blocked and active users', async () => {
    const marker = unique('state');
    const blocked = await createUser({ username: `${marker}b` });
    const active = await createUser({ username: `${marker}a` });
    expect((await api(`/users/${blocked.id}/block`, { ...root(), method: 'POST' })).status).toBe(201);
    const ids = async (query: Record<string, string>) =>
      (await api('/users', { ...root(), query: { search: marker, ...query } })).body.map((u: { id: number }) => u.id).sort();
    expect(await ids({ blocked: 'true' })).toEqual([blocked.id]);
    expect(await ids({ active: 'true' })).toEqual([active.id]);
    expect(await ids({})).toEqual([blocked.id, active.id].sort());
  });

  it('filters by extern_uid and provider, and by external, for admins only', async () => {
    const externUid = unique('uid');
    const user = await createUser({ extern_uid: externUid, provider: 'ldapmain', external: true });
    const found = await api('/users', { ...root(), query: { extern_uid: externUid, provider: 'ldapmain' } });
    expect(found.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(found.body[0].identities).toEqual([{ provider: 'ldapmain', extern_uid: externUid }]);
    const external = await api('/users', { ...root(), query: { external: 'true', search: user.username } });
    expect(external.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    const viewer = await createUser();
    expect((await api('/users', { token: viewer.token, query: { external: 'true' } })).status).toBe(403);
    expect((await api('/users', { token: viewer.token, query: { extern_uid: externUid, provider: 'ldapmain' } })).status).toBe(403);
  });

  it('answers 409 when an identity is already linked to another user', async () => {
    const externUid = unique('uid');
    await createUser({ extern_uid: externUid, provider: 'github' });
    const response = await api('/users', {
      ...root(),
      body: { username: unique(), email: `${unique()}@example.com`, name: 'X', password: 'long-enough', extern_uid: externUid, provider: 'github' },
    });
    expect(response.status).toBe(409);
  });

  it('pages with GitLab headers and links, keeping the other query parameters', async () => {
    // Prepare: five users that only this test's search matches
    const marker = unique('page');
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await createUser({ username: `${marker}${i}` }));
    const newestFirst = users.map((u) => u.id).sort((a, b) => b - a);
    // Act
    const first = await api('/users', { ...root(), query: { search: marker, per_page: 2 } });
    const last = await api('/users', { ...root(), query: { search: marker, per_page: 2, page: 3 } });
    // Assess
    expect(first.body.map((u: { id: number }) => u.id)).toEqual(newestFirst.slice(0, 2));
    expect(Object.fromEntries(['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [h, first.headers.get(h)]))).toEqual({
      'x-page': '1',
      'x-per-page': '2',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '5',
      'x-total-pages': '3',
    });
    const link = first.headers.get('link')!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="first"');
    expect(link).toContain('rel="last"');
    expect(link).not.toContain('rel="prev"');
    expect(link).toMatch(/page=2&per_page=2&search=/);
    expect(last.body.map((u: { id: number }) => u.id)).toEqual(newestFirst.slice(4));
    expect(last.headers.get('x-next-page')).toBe('');
    expect(last.headers.get('x-prev-page')).toBe('2');
    expect(last.headers.get('link')).toContain('rel="prev"');
  });

  it('sorts ascending with sort=asc', async () => {
    const marker = unique('sort');
    const a = await createUser({ username: `${marker}a` });
    const b = await createUser({ username: `${marker}b` });
    const response = await api('/users', { ...root(), query: { search: marker, sort: 'asc' } });
    expect(response.body.map((u: { id: number }) => u.id)).toEqual([a.id, b.id]);
  });

  it('walks a list with keyset pagination by following rel="next" links', async () => {
    const marker = unique('keyset');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createUser({ username: `${marker}${i}` })).id);
    const seen: number[] = [];
    let next: string | undefined = `/users?pagination=keyset&per_page=2&search=${marker}`;
    let pages = 0;
    while (next && pages < 10) {
      const response = await api(next, root());
      expect(response.status).toBe(200);
      seen.push(...response.body.map((u: { id: number }) => u.id));
      const match = /<[^>]*\/api\/v4(\/users\?[^>]*)>; rel="next"/.exec(response.headers.get('link') ?? '');
      next = match?.[1];
      pages++;
    }
    expect(seen).toEqual(ids.sort((x, y) => y - x));
    expect(pages).toBe(3);
  });

  it('reports the maintained total for an unfiltered list', async () => {
    await createUser();
    const response = await api('/users', { ...root(), query: { per_page: 1 } });
    expect(Number(response.headers.get('x-total'))).toBeGreaterThanOrEqual(2);
    expect(response.headers.get('x-total-pages')).toBe(response.headers.get('x-total'));
  });

  it('rejects a forged keyset cursor', async () => {
    const cursor = Buffer.from(JSON.stringify({ PK: 'USER#1', SK: 'USER', GSI1PK: 'OTHER', GSI1SK: '1' })).toString('base64url');
    const response = await api('/users', { ...root(), query: { pagination: 'keyset', cursor } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'cursor is invalid' });
  });
});

describe('PUT /users/:id', () => {
  it('modifies fields and renames, freeing the old username', async () => {
    const user = await createUser();
    const renamed = unique('renamed');
    const response = await api(`/users/${user.id}`, {
      ...root(),
      method: 'PUT',
      body: { username: renamed, name: 'Renamed', location: 'Berlin', can_create_group: false },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, username: renamed, name: 'Renamed', location: 'Berlin', can_create_group: false });
    expect((await api('/users', { ...root(), query: { username: renamed } })).body).toHaveLength(1);
    const reuse = await createUser({ username: user.username, email: `${unique()}@example.com` });
    expect(reuse.id).not.toBe(user.id);
  });

  it('answers 404 with the reason when the new email or username is taken', async () => {
    const user = await createUser();
    const other = await createUser();
    const email = await api(`/users/${user.id}`, { ...root(), method: 'PUT', body: { email: other.email } });
    expect(email.status).toBe(404);
    expect(email.body).toEqual({ message: '404 Email has already been taken' });
    const username = await api(`/users/${user.id}`, { ...root(), method: 'PUT', body: { username: other.username } });
    expect(username.status).toBe(404);
    const unchanged = await api(`/users/${user.id}`, root());
    expect(unchanged.body).toMatchObject({ username: user.username, email: user.email });
  });

  it('validates fields and is admin only', async () => {
    const user = await createUser();
    const invalid = await api(`/users/${user.id}`, { ...root(), method: 'PUT', body: { email: 'nope' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { email: ['is invalid'] } });
    const self = await api(`/users/${user.id}`, { token: user.token, method: 'PUT', body: { name: 'Me' } });
    expect(self.status).toBe(403);
    expect((await api('/users/999999999', { ...root(), method: 'PUT', body: { name: 'X' } })).status).toBe(404);
  });

  it('lets an admin grant admin rights', async () => {
    const user = await createUser();
    await api(`/users/${user.id}`, { ...root(), method: 'PUT', body: { admin: true } });
    const current = await api('/user', { token: user.token });
    expect(current.body.is_admin).toBe(true);
  });
});

describe('DELETE /users/:id', () => {
  it('deletes the user with everything it owns, and is idempotent', async () => {
    // Prepare
    const user = await createUser();
    const email = `${unique()}@example.com`;
    expect((await api('/user/emails', { token: user.token, body: { email } })).status).toBe(201);
    // Act
    const first = await api(`/users/${user.id}`, { ...root(), method: 'DELETE' });
    const second = await api(`/users/${user.id}`, { ...root(), method: 'DELETE' });
    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: user.id, username: user.username });
    expect(second.status).toBe(200);
    expect(second.body).toBe('');
    expect((await api(`/users/${user.id}`, root())).status).toBe(404);
    expect((await api('/user', { token: user.token })).status).toBe(401);
    // Username, primary and secondary emails are free again once the deletion has run.
    await eventually(async () => {
      const reused = await api('/users', { ...root(), body: { username: user.username, email: user.email, name: 'Again', password: 'secret-password' } });
      expect(reused.status).toBe(201);
    });
    const again = await createUser();
    expect((await api('/user/emails', { token: again.token, body: { email } })).status).toBe(201);
  });

  it('removes what the user has in other features: personal projects, stars, memberships', async () => {
    // Prepare: a personal project, a star on another user's project and a group membership.
    const user = await createUser();
    const personal = await createProject(user.token, { visibility: 'public' });
    const other = await createUser();
    const starred = await createProject(other.token, { visibility: 'public' });
    expect((await api(`/projects/${starred.id}/star`, { token: user.token, method: 'POST' })).status).toBe(201);
    const group = await createGroup(rootToken());
    await addMember('groups', group.id, user.id, 30);

    // Act
    const deleted = await api(`/users/${user.id}`, { ...root(), method: 'DELETE' });

    // Assess
    expect(deleted.status).toBe(200);
    await eventually(async () => {
      expect((await api(`/projects/${personal.id}`, root())).status).toBe(404);
      expect((await api(`/projects/${starred.id}`, root())).body.star_count).toBe(0);
      const members = await api<Array<{ id: number }>>(`/groups/${group.id}/members`, root());
      expect(members.body.map((member) => member.id)).not.toContain(user.id);
    });
  });

  it('is admin only', async () => {
    const user = await createUser();
    expect((await api(`/users/${user.id}`, { token: user.token, method: 'DELETE' })).status).toBe(403);
    expect((await api(`/users/${user.id}`, root())).status).toBe(200);
  });
});

describe('POST /users/:id/block and /unblock', () => {
  it('blocks a user, whose tokens then stop working, and unblocks it', async () => {
    const user = await createUser();
    const block = await api(`/users/${user.id}/block`, { ...root(), method: 'POST' });
    expect(block.status).toBe(201);
    expect(block.body).toBe(true);
    expect((await api(`/users/${user.id}`, root())).body.state).toBe('blocked');
    expect((await api('/user', { token: user.token })).status).toBe(401);
    const unblock = await api(`/users/${user.id}/unblock`, { ...root(), method: 'POST' });
    expect(unblock.status).toBe(201);
    expect(unblock.body).toBe(true);
    expect((await api('/user', { token: user.token })).status).toBe(200);
  });

  it('answers 201 null to blocking a blocked user and 201 false to unblocking an active one, as current GitLab, changing nothing', async () => {
    // Prepare
    const user = await createUser();
    expect((await api(`/users/${user.id}/block`, { ...root(), method: 'POST' })).status).toBe(201);
    const blocked = (await api(`/users/${user.id}`, root())).body;

    // Act
    const again = await api(`/users/${user.id}/block`, { ...root(), method: 'POST' });

    // Assess: GitLab's `break if user.blocked?` answers 201 with the JSON body `null`
    expect(again.status).toBe(201);
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(again.body).toBeNull();
    expect((await api(`/users/${user.id}`, root())).body).toEqual(blocked);

    // Prepare
    expect((await api(`/users/${user.id}/unblock`, { ...root(), method: 'POST' })).status).toBe(201);
    const active = (await api(`/users/${user.id}`, root())).body;

    // Act
    const unblockAgain = await api(`/users/${user.id}/unblock`, { ...root(), method: 'POST' });

    // Assess: the state machine refuses `activate` on an active user, so GitLab answers `false`
    expect(unblockAgain.status).toBe(201);
    expect(unblockAgain.body).toBe(false);
    expect((await api(`/users/${user.id}`, root())).body).toEqual(active);
  });

  it('answers 404 for an unknown user and 403 for non-admins', async () => {
    expect((await api('/users/999999999/block', { ...root(), method: 'POST' })).body).toEqual({ message: '404 User Not Found' });
    expect((await api('/users/999999999/unblock', { ...root(), method: 'POST' })).status).toBe(404);
    const user = await createUser();
    expect((await api(`/users/${user.id}/block`, { token: user.token, method: 'POST' })).status).toBe(403);
    expect((await api(`/users/${user.id}`, root())).body.state).toBe('active');
  });
});

describe('GET /user', () => {
  it('returns the current user in the admin form', async () => {
    const user = await createUser();
    const response = await api('/user', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, username: user.username, email: user.email });
    expect(response.body).not.toHaveProperty('is_admin');
    expect(response.body).not.toHaveProperty('private_token');
  });

  it('lets an admin act as another user with sudo (parameter or header, id or username)', async () => {
    const user = await createUser();
    const byParam = await api('/user', { ...root(), query: { sudo: user.id } });
    expect(byParam.body).toMatchObject({ id: user.id, is_admin: false, private_token: rootToken() });
    const byHeader = await api('/user', { ...root(), headers: { Sudo: user.username } });
    expect(byHeader.body.id).toBe(user.id);
  });

  it('refuses sudo to non-admins and answers 404 for an unknown sudo user', async () => {
    const user = await createUser();
    const other = await createUser();
    const forbidden = await api('/user', { token: user.token, query: { sudo: other.id } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    const unknown = await api('/user', { ...root(), query: { sudo: 'nobody-' + unique() } });
    expect(unknown.status).toBe(404);
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await api('/user')).body).toEqual({ message: '401 Unauthorized' });
    expect((await api('/user', { token: 'glpat-wrong' })).status).toBe(401);
    // A bad token is refused even where anonymous reads are allowed.
    expect((await api('/users/1', { token: 'glpat-wrong' })).status).toBe(401);
  });
});

describe('DELETE /users/:id/identities/:provider', () => {
  it('removes the identity (204) and frees its extern_uid for another user; 404 Identity Not Found after', async () => {
    // Prepare
    const externUid = unique('uid');
    const user = await createUser({ extern_uid: externUid, provider: 'ldapmain' });

    // Act
    const removed = await api(`/users/${user.id}/identities/ldapmain`, { ...root(), method: 'DELETE' });

    // Assess
    expect(removed.status).toBe(204);
    expect((await api(`/users/${user.id}`, root())).body.identities).toEqual([]);
    const again = await api(`/users/${user.id}/identities/ldapmain`, { ...root(), method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Identity Not Found' });
    const reuse = await createUser({ extern_uid: externUid, provider: 'ldapmain' });
    expect((await api(`/users/${reuse.id}`, root())).body.identities).toEqual([{ provider: 'ldapmain', extern_uid: externUid }]);
  });

  it('answers 403 to a non-admin and 404 User Not Found for an unknown user, changing nothing', async () => {
    const user = await createUser({ extern_uid: unique('uid'), provider: 'ldapmain' });
    expect((await api(`/users/${user.id}/identities/ldapmain`, { token: user.token, method: 'DELETE' })).status).toBe(403);
    expect((await api('/users/999999999/identities/ldapmain', { ...root(), method: 'DELETE' })).body).toEqual({ message: '404 User Not Found' });
    expect((await api(`/users/${user.id}`, root())).body.identities).toHaveLength(1);
  });
});
