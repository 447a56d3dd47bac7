/**
 * SSH keys: the current user's keys (`/user/keys`), an admin's view of anyone's keys
 * (`/users/:id/keys`, `/keys/:id`), validation, fingerprint uniqueness under concurrency, paging.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, rootToken, type ApiResponse } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';
import { eventually as afterBackgroundWork } from '../support/eventually';
import { generateSshPublicKey, SSH_KEY_ALGORITHMS, type SshKeyType } from '../support/ssh-keys';

interface SshKey {
  id: number;
  title: string;
  key: string;
  created_at: string;
}

/** Adds a key as `user` (201 asserted) and returns it. */
async function addKey(user: TestUser, key = generateSshPublicKey(), title = unique('title')): Promise<SshKey> {
  const response = await api<SshKey>('/user/keys', { token: user.token, body: { title, key } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function listKeys(user: TestUser): Promise<SshKey[]> {
  const response = await api<SshKey[]>('/user/keys', { token: user.token });
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * Repeats a read until `done` holds (GSI reads are eventually consistent), at most ~3 s, and
 * returns the last response either way so the assertion shows what came back.
 */
async function eventually<T>(read: () => Promise<ApiResponse<T>>, done: (r: ApiResponse<T>) => boolean) {
  let response = await read();
  for (let attempt = 0; attempt < 30 && !done(response); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    response = await read();
  }
  return response;
}

/** The key line without its comment: what makes two lines the same key. */
const blob = (line: string) => line.split(' ').slice(0, 2).join(' ');

describe('SSH keys of the current user', () => {
  describe.each<SshKeyType>(['rsa', 'ed25519', 'ecdsa'])('POST /user/keys with a fresh %s key', (type) => {
    it('answers 201 with the stored key, which then is listed and readable by id', async () => {
      // Prepare
      const user = await createUser();
      const key = generateSshPublicKey(type);
      const title = unique('laptop');

      // Act
      const created = await api<SshKey>('/user/keys', { token: user.token, body: { title, key } });

      // Assess
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), title, key, created_at: expect.any(String) });
      expect(created.body.key.startsWith(`${SSH_KEY_ALGORITHMS[type]} `)).toBe(true);
      expect(Math.abs(Date.parse(created.body.created_at) - Date.now())).toBeLessThan(5 * 60_000);
      expect(await listKeys(user)).toEqual([created.body]);
      const single = await api<SshKey>(`/user/keys/${created.body.id}`, { token: user.token });
      expect(single.status).toBe(200);
      expect(single.body).toEqual(created.body);
    });
  });

  it('stores a pasted key without surrounding whitespace and line ending', async () => {
    // Prepare
    const user = await createUser();
    const key = generateSshPublicKey('ed25519');

    // Act
    const created = await api<SshKey>('/user/keys', { token: user.token, body: { title: 'pasted', key: `  ${key}\r\n` } });

    // Assess
    expect(created.status).toBe(201);
    expect(created.body.key).toBe(key);
  });

  it('accepts title and key as URL-encoded form fields', async () => {
    // Prepare
    const user = await createUser();
    const key = generateSshPublicKey('ecdsa');

    // Act
    const created = await api<SshKey>('/user/keys', { token: user.token, form: new URLSearchParams({ title: 'form', key }) });

    // Assess
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ title: 'form', key });
  });

  it('lists only the keys of the caller, oldest first', async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const first = await addKey(user);
    const second = await addKey(user);
    await addKey(other);

    // Act
    const keys = await listKeys(user);

    // Assess
    expect(keys).toEqual([first, second]);
  });

  it('lists no keys for a user who has none', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api('/user/keys', { token: user.token });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('answers 404 Key Not Found for the key of another user', async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const othersKey = await addKey(other);

    // Act
    const response = await api(`/user/keys/${othersKey.id}`, { token: user.token });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Key Not Found' });
  });

  it('answers 404 Key Not Found for an unknown key id', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api('/user/keys/999999999', { token: user.token });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Key Not Found' });
  });

  it.each<[string, Record<string, string>]>([
    ['GET', {}],
    ['POST', { title: 'x', key: 'ssh-ed25519 AAAA' }],
  ])('refuses an anonymous %s /user/keys with 401', async (method, body) => {
    // Act
    const response = await api('/user/keys', { method: method as 'GET' | 'POST', body: method === 'POST' ? body : undefined });

    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  describe('DELETE /user/keys/:key_id', () => {
    it('answers 200 with the deleted key and removes it', async () => {
      // Prepare
      const user = await createUser();
      const kept = await addKey(user);
      const doomed = await addKey(user);

      // Act
      const response = await api(`/user/keys/${doomed.id}`, { method: 'DELETE', token: user.token });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body).toEqual(doomed);
      expect(await listKeys(user)).toEqual([kept]);
      expect((await api(`/user/keys/${doomed.id}`, { token: user.token })).status).toBe(404);
    });

    it('is idempotent: 200 also when the key is already gone', async () => {
      // Prepare
      const user = await createUser();
      const key = await addKey(user);
      await api(`/user/keys/${key.id}`, { method: 'DELETE', token: user.token });

      // Act
      const again = await api(`/user/keys/${key.id}`, { method: 'DELETE', token: user.token });
      const never = await api('/user/keys/999999999', { method: 'DELETE', token: user.token });

      // Assess
      expect(again.status).toBe(200);
      expect(never.status).toBe(200);
    });

    it("leaves another user's key in place (200, nothing deleted)", async () => {
      // Prepare
      const [user, other] = await Promise.all([createUser(), createUser()]);
      const othersKey = await addKey(other);

      // Act
      const response = await api(`/user/keys/${othersKey.id}`, { method: 'DELETE', token: user.token });

      // Assess
      expect(response.status).toBe(200);
      expect(await listKeys(other)).toEqual([othersKey]);
    });

    it('releases the fingerprint: the same key can be added again, by anyone', async () => {
      // Prepare
      const [user, other] = await Promise.all([createUser(), createUser()]);
      const line = generateSshPublicKey('rsa');
      const key = await addKey(user, line);
      await api(`/user/keys/${key.id}`, { method: 'DELETE', token: user.token });

      // Act
      const readded = await api<SshKey>('/user/keys', { token: other.token, body: { title: 'again', key: line } });

      // Assess
      expect(readded.status, JSON.stringify(readded.body)).toBe(201);
      expect(readded.body.key).toBe(line);
      expect(readded.body.id).not.toBe(key.id);
    });
  });

  describe('refused input', () => {
    it.each<[string, Record<string, string>, unknown]>([
      ['title is missing', { key: 'KEY' }, { error: 'title is missing' }],
      ['key is missing', { title: 'laptop' }, { error: 'key is missing' }],
      ['both are missing', {}, { error: 'title is missing, key is missing' }],
    ])('answers 400 when %s', async (_label, input, expected) => {
      // Prepare
      const user = await createUser();
      const body = Object.fromEntries(
        Object.entries(input).map(([name, value]) => [name, value === 'KEY' ? generateSshPublicKey() : value]),
      );

      // Act
      const response = await api('/user/keys', { token: user.token, body });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(expected);
      expect(await listKeys(user)).toEqual([]);
    });

    it.each<[string, () => string]>([
      ['random text', () => 'this is not a key'],
      ['a type without a key', () => 'ssh-ed25519'],
      ['a truncated key', () => generateSshPublicKey('rsa').slice(0, 120)],
      ['a key with corrupted base64', () => generateSshPublicKey('ed25519').replace(/AAAA(.{4})/, 'AAAA!!!!')],
      ['two keys at once', () => `${generateSshPublicKey('ed25519')}\n${generateSshPublicKey('ed25519')}`],
    ])('answers 400 {key: is invalid, fingerprint: cannot be generated} for %s, and stores nothing', async (_label, build) => {
      // Prepare
      const user = await createUser();
      const existing = await addKey(user);

      // Act
      const response = await api('/user/keys', { token: user.token, body: { title: 'bad', key: build() } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } });
      expect(await listKeys(user)).toEqual([existing]);
    });

    it('answers 400 when the title is longer than 255 characters', async () => {
      // Prepare
      const user = await createUser();

      // Act
      const response = await api('/user/keys', { token: user.token, body: { title: 'x'.repeat(256), key: generateSshPublicKey() } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
      expect(await listKeys(user)).toEqual([]);
    });
  });

  describe('fingerprint uniqueness', () => {
    it('refuses a key that another user already has: 400 fingerprint has already been taken', async () => {
      // Prepare
      const [owner, other] = await Promise.all([createUser(), createUser()]);
      const line = generateSshPublicKey('ed25519');
      await addKey(owner, line);

      // Act
      const response = await api('/user/keys', { token: other.token, body: { title: 'mine too', key: line } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
      expect(await listKeys(other)).toEqual([]);
    });

    it('refuses the same key twice for one user, even with another comment', async () => {
      // Prepare
      const user = await createUser();
      const line = generateSshPublicKey('ecdsa');
      const first = await addKey(user, line);

      // Act
      const response = await api('/user/keys', { token: user.token, body: { title: 'again', key: `${blob(line)} other-comment` } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
      expect(await listKeys(user)).toEqual([first]);
    });

    it('lets exactly one of several parallel requests with the same key win', async () => {
      // Prepare
      const users = await Promise.all([createUser(), createUser(), createUser()]);
      const line = generateSshPublicKey('ed25519');

      // Act: 6 requests, 2 per user, all at once
      const responses = await Promise.all(
        [...users, ...users].map((user, index) =>
          api('/user/keys', { token: user.token, body: { title: `race-${index}`, key: line } }),
        ),
      );

      // Assess
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 400, 400, 400, 400, 400]);
      for (const refused of responses.filter((r) => r.status === 400)) {
        expect(refused.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
      }
      const stored = (await Promise.all(users.map(listKeys))).flat().filter((k) => blob(k.key) === blob(line));
      expect(stored).toHaveLength(1);
      expect(stored[0]).toEqual(responses.find((r) => r.status === 201)!.body);
    });
  });

  describe('pagination', () => {
    it('pages GET /user/keys with per_page=1 and GitLab headers', async () => {
      // Prepare
      const user = await createUser();
      const first = await addKey(user);
      const second = await addKey(user);

      // Act
      const page1 = await api<SshKey[]>('/user/keys', { token: user.token, query: { per_page: 1 } });

      // Assess
      expect(page1.status).toBe(200);
      expect(page1.body).toEqual([first]);
      expect(page1.headers.get('x-total')).toBe('2');
      expect(page1.headers.get('x-total-pages')).toBe('2');
      expect(page1.headers.get('x-per-page')).toBe('1');
      expect(page1.headers.get('x-page')).toBe('1');
      expect(page1.headers.get('x-next-page')).toBe('2');
      expect(page1.headers.get('x-prev-page')).toBe('');
      const link = page1.headers.get('link') ?? '';
      const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
      expect(next).toBeDefined();
      expect(link).toMatch(/<[^>]+[?&]page=1[&>][^>]*>; rel="first"/);
      expect(link).toMatch(/<[^>]+[?&]page=2[&>][^>]*>; rel="last"/);

      // The next link is followed as-is, like GitLab clients do
      const nextUrl = new URL(next!);
      const page2 = await api<SshKey[]>(nextUrl.pathname.replace(/^\/api\/v4/, ''), {
        token: user.token,
        query: nextUrl.searchParams,
      });
      expect(page2.status).toBe(200);
      expect(page2.body).toEqual([second]);
      expect(page2.headers.get('x-next-page')).toBe('');
      expect(page2.headers.get('x-prev-page')).toBe('1');
      expect(page2.headers.get('link')).not.toContain('rel="next"');
    });
  });
});

describe("SSH keys of any user, for admins (/users/:id/keys)", () => {
  it("GET lists the user's keys", async () => {
    // Prepare
    const user = await createUser();
    const key = await addKey(user);

    // Act
    const response = await api<SshKey[]>(`/users/${user.id}/keys`, { token: rootToken() });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([key]);
  });

  it('POST adds a key for the user (201), which the user then sees', async () => {
    // Prepare
    const user = await createUser();
    const line = generateSshPublicKey('rsa');

    // Act
    const response = await api<SshKey>(`/users/${user.id}/keys`, { token: rootToken(), body: { title: 'by admin', key: line } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number), title: 'by admin', key: line, created_at: expect.any(String) });
    expect(await listKeys(user)).toEqual([response.body]);
  });

  it('POST refuses a key with a taken fingerprint (400) and a garbage key (400)', async () => {
    // Prepare
    const [owner, user] = await Promise.all([createUser(), createUser()]);
    const line = generateSshPublicKey();
    await addKey(owner, line);

    // Act
    const taken = await api(`/users/${user.id}/keys`, { token: rootToken(), body: { title: 't', key: line } });
    const garbage = await api(`/users/${user.id}/keys`, { token: rootToken(), body: { title: 't', key: 'garbage' } });

    // Assess
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({ message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } });
    expect(await listKeys(user)).toEqual([]);
  });

  it('DELETE removes the key (200 with the key), then answers 404 Key Not Found', async () => {
    // Prepare
    const user = await createUser();
    const key = await addKey(user);

    // Act
    const deleted = await api(`/users/${user.id}/keys/${key.id}`, { method: 'DELETE', token: rootToken() });
    const again = await api(`/users/${user.id}/keys/${key.id}`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(key);
    expect(await listKeys(user)).toEqual([]);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Key Not Found' });
  });

  it("DELETE answers 404 Key Not Found for a key of another user, and keeps it", async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const othersKey = await addKey(other);

    // Act
    const response = await api(`/users/${user.id}/keys/${othersKey.id}`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Key Not Found' });
    expect(await listKeys(other)).toEqual([othersKey]);
  });

  it.each<[string, 'GET' | 'POST' | 'DELETE', string]>([
    ['GET', 'GET', '/users/999999999/keys'],
    ['POST', 'POST', '/users/999999999/keys'],
    ['DELETE', 'DELETE', '/users/999999999/keys/1'],
  ])('%s answers 404 User Not Found for an unknown user', async (_label, method, path) => {
    // Act
    const response = await api(path, {
      method,
      token: rootToken(),
      body: method === 'POST' ? { title: 't', key: generateSshPublicKey() } : undefined,
    });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });

  describe.each<[string, (user: TestUser, key: SshKey) => [string, 'GET' | 'POST' | 'DELETE']]>([
    ['GET /users/:id/keys', (user) => [`/users/${user.id}/keys`, 'GET']],
    ['POST /users/:id/keys', (user) => [`/users/${user.id}/keys`, 'POST']],
    ['DELETE /users/:id/keys/:key_id', (user, key) => [`/users/${user.id}/keys/${key.id}`, 'DELETE']],
  ])('%s', (_label, target) => {
    it('answers 403 to a non-admin, even about their own keys, and changes nothing', async () => {
      // Prepare
      const user = await createUser();
      const key = await addKey(user);
      const [path, method] = target(user, key);

      // Act
      const response = await api(path, {
        method,
        token: user.token,
        body: method === 'POST' ? { title: 't', key: generateSshPublicKey() } : undefined,
      });

      // Assess
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: '403 Forbidden' });
      expect(await listKeys(user)).toEqual([key]);
    });

    it('answers 401 to an anonymous caller', async () => {
      // Prepare
      const user = await createUser();
      const key = await addKey(user);
      const [path, method] = target(user, key);

      // Act
      const response = await api(path, {
        method,
        body: method === 'POST' ? { title: 't', key: generateSshPublicKey() } : undefined,
      });

      // Assess
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: '401 Unauthorized' });
      expect(await listKeys(user)).toEqual([key]);
    });
  });
});

describe('GET /keys/:id', () => {
  it('shows an admin the key with its owner (admin form without sign-in and activity fields)', async () => {
    // Prepare
    const user = await createUser();
    const key = await addKey(user);

    // Act
    const response = await eventually(() => api(`/keys/${key.id}`, { token: rootToken() }), (r) => r.status === 200);

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...key, user: { id: user.id, username: user.username, email: user.email, state: 'active' } });
    const owner = response.body.user as Record<string, unknown>;
    for (const field of [
      'name',
      'avatar_url',
      'web_url',
      'created_at',
      'bio',
      'location',
      'skype',
      'linkedin',
      'twitter',
      'website_url',
      'organization',
      'color_scheme_id',
      'projects_limit',
      'current_sign_in_at',
      'identities',
      'can_create_group',
      'can_create_project',
      'two_factor_enabled',
    ]) {
      expect(owner, field).toHaveProperty(field);
    }
    for (const field of ['last_sign_in_at', 'confirmed_at', 'last_activity_on', 'external', 'is_admin', 'private_token']) {
      expect(owner, field).not.toHaveProperty(field);
    }
  });

  it('answers 403 to a non-admin, even for their own key', async () => {
    // Prepare
    const user = await createUser();
    const key = await addKey(user);

    // Act
    const response = await api(`/keys/${key.id}`, { token: user.token });

    // Assess
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
  });

  it('answers 401 to an anonymous caller', async () => {
    // Act
    const response = await api('/keys/1');

    // Assess
    expect(response.status).toBe(401);
  });

  it('answers 404 Key Not Found for an unknown key', async () => {
    // Act
    const response = await api('/keys/999999999', { token: rootToken() });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Key Not Found' });
  });

  it('answers 404 once the key is deleted', async () => {
    // Prepare
    const user = await createUser();
    const key = await addKey(user);
    await eventually(() => api(`/keys/${key.id}`, { token: rootToken() }), (r) => r.status === 200);
    await api(`/user/keys/${key.id}`, { method: 'DELETE', token: user.token });

    // Act
    const response = await eventually(() => api(`/keys/${key.id}`, { token: rootToken() }), (r) => r.status === 404);

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Key Not Found' });
  });
});

/** A key line's fingerprints as OpenSSH prints them (`ssh-keygen -l -E md5|sha256`). */
function fingerprintsOf(line: string) {
  const blob = Buffer.from(line.split(' ')[1], 'base64');
  const md5 = createHash('md5').update(blob).digest('hex').match(/../g)!.join(':');
  const sha256 = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { md5, sha256 };
}

describe('GET /keys?fingerprint=', () => {
  it('finds a key with its owner by its MD5 or its SHA256 fingerprint, for an admin', async () => {
    // Prepare
    const user = await createUser();
    const key = await addKey(user);
    const { md5, sha256 } = fingerprintsOf(key.key);

    // Act
    const bySha256 = await api(`/keys?fingerprint=${encodeURIComponent(sha256)}`, { token: rootToken() });
    const byMd5 = await eventually(() => api(`/keys?fingerprint=${md5.toUpperCase()}`, { token: rootToken() }), (r) => r.status === 200);

    // Assess
    for (const response of [bySha256, byMd5]) {
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ ...key, user: { id: user.id, username: user.username } });
    }
  });

  it('answers 404 Key Not Found for a well-formed fingerprint nobody has', async () => {
    const { md5, sha256 } = fingerprintsOf(generateSshPublicKey());
    for (const fingerprint of [md5, sha256]) {
      const response = await api(`/keys?fingerprint=${encodeURIComponent(fingerprint)}`, { token: rootToken() });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Key Not Found' });
    }
  });

  it('answers 400 to a malformed fingerprint and to none', async () => {
    for (const query of ['?fingerprint=nonsense', '?fingerprint=SHA256:abc', '']) {
      const response = await api(`/keys${query}`, { token: rootToken() });
      expect(response.status, query).toBe(400);
    }
    expect((await api('/keys?fingerprint=nonsense', { token: rootToken() })).body).toEqual({ message: 'Failed to return the key' });
    expect((await api('/keys', { token: rootToken() })).body).toEqual({ error: 'fingerprint is missing' });
  });

  it('answers 403 to a non-admin, even for their own key', async () => {
    const user = await createUser();
    const key = await addKey(user);
    const response = await api(`/keys?fingerprint=${encodeURIComponent(fingerprintsOf(key.key).sha256)}`, { token: user.token });
    expect(response.status).toBe(403);
  });
});

describe('GET /users/:id/keys/:key_id', () => {
  it("shows anyone, even anonymously, one of a user's keys", async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const key = await addKey(user);

    // Act
    const responses = await Promise.all([api(`/users/${user.id}/keys/${key.id}`, { token: other.token }), api(`/users/${user.id}/keys/${key.id}`)]);

    // Assess
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual(key);
    }
  });

  it("answers 404 Key Not Found for another user's key and 404 User Not Found for an unknown user", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const key = await addKey(user);
    const wrongOwner = await api(`/users/${other.id}/keys/${key.id}`, { token: other.token });
    expect(wrongOwner.status).toBe(404);
    expect(wrongOwner.body).toEqual({ message: '404 Key Not Found' });
    const noUser = await api(`/users/999999999/keys/${key.id}`, { token: other.token });
    expect(noUser.body).toEqual({ message: '404 User Not Found' });
  });
});

describe('deleting a user', () => {
  it("releases the fingerprints of the user's keys", async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const line = generateSshPublicKey('ed25519');
    await addKey(user, line);
    const removed = await api(`/users/${user.id}`, { method: 'DELETE', token: rootToken() });
    expect(removed.status).toBe(200);

    // Act: once the deletion has run in the background
    const response = await afterBackgroundWork(async () => {
      const added = await api('/user/keys', { token: other.token, body: { title: 'inherited', key: line } });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      return added;
    });

    // Assess
    expect(response.body.title).toBe('inherited');
  });
});
