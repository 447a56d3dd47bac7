/**
 * Secondary emails: the current user's (`/user/emails`) and, for admins, anyone's
 * (`/users/:id/emails`); validation, uniqueness against every primary and secondary address
 * (case-insensitive), under concurrency, and the release of an address when it is deleted.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

interface Email {
  id: number;
  email: string;
}

const newAddress = (prefix = 'second') => `${unique(prefix)}@example.org`;

/** Adds a secondary address as `user` (201 asserted) and returns it. */
async function addEmail(user: TestUser, email = newAddress()): Promise<Email> {
  const response = await api<Email>('/user/emails', { token: user.token, body: { email } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function listEmails(user: TestUser): Promise<Email[]> {
  const response = await api<Email[]>('/user/emails', { token: user.token });
  expect(response.status).toBe(200);
  return response.body;
}

const TAKEN = { message: { email: ['has already been taken'] } };

describe('secondary emails of the current user', () => {
  it('POST /user/emails answers 201 with the address, which is then listed and readable by id', async () => {
    // Prepare
    const user = await createUser();
    const email = newAddress();

    // Act
    const created = await api<Email>('/user/emails', { token: user.token, body: { email } });

    // Assess
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), email });
    expect(await listEmails(user)).toEqual([created.body]);
    const single = await api<Email>(`/user/emails/${created.body.id}`, { token: user.token });
    expect(single.status).toBe(200);
    expect(single.body).toEqual(created.body);
  });

  it('accepts the address as a URL-encoded form field', async () => {
    // Prepare
    const user = await createUser();
    const email = newAddress();

    // Act
    const created = await api<Email>('/user/emails', { token: user.token, form: new URLSearchParams({ email }) });

    // Assess
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.email).toBe(email);
  });

  it('lists only the addresses of the caller, oldest first, without the primary one', async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const first = await addEmail(user);
    const second = await addEmail(user);
    await addEmail(other);

    // Act
    const emails = await listEmails(user);

    // Assess
    expect(emails).toEqual([first, second]);
  });

  it('answers 404 Email Not Found for the address of another user and for an unknown id', async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const othersEmail = await addEmail(other);

    // Act
    const foreign = await api(`/user/emails/${othersEmail.id}`, { token: user.token });
    const unknown = await api('/user/emails/999999999', { token: user.token });

    // Assess
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: '404 Email Not Found' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Email Not Found' });
  });

  it('refuses an anonymous caller with 401', async () => {
    // Act
    const list = await api('/user/emails');
    const add = await api('/user/emails', { body: { email: newAddress() } });

    // Assess
    expect(list.status).toBe(401);
    expect(add.status).toBe(401);
    expect(add.body).toEqual({ message: '401 Unauthorized' });
  });

  describe('DELETE /user/emails/:email_id', () => {
    it('answers 200 with the deleted address and removes it', async () => {
      // Prepare
      const user = await createUser();
      const kept = await addEmail(user);
      const doomed = await addEmail(user);

      // Act
      const response = await api(`/user/emails/${doomed.id}`, { method: 'DELETE', token: user.token });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body).toEqual(doomed);
      expect(await listEmails(user)).toEqual([kept]);
    });

    it('is idempotent: 200 also when the address is already gone', async () => {
      // Prepare
      const user = await createUser();
      const email = await addEmail(user);
      await api(`/user/emails/${email.id}`, { method: 'DELETE', token: user.token });

      // Act
      const again = await api(`/user/emails/${email.id}`, { method: 'DELETE', token: user.token });
      const never = await api('/user/emails/999999999', { method: 'DELETE', token: user.token });

      // Assess
      expect(again.status).toBe(200);
      expect(never.status).toBe(200);
    });

    it("leaves another user's address in place", async () => {
      // Prepare
      const [user, other] = await Promise.all([createUser(), createUser()]);
      const othersEmail = await addEmail(other);

      // Act
      const response = await api(`/user/emails/${othersEmail.id}`, { method: 'DELETE', token: user.token });

      // Assess
      expect(response.status).toBe(200);
      expect(await listEmails(other)).toEqual([othersEmail]);
    });

    it('releases the address: another user can add it', async () => {
      // Prepare
      const [user, other] = await Promise.all([createUser(), createUser()]);
      const email = await addEmail(user);
      await api(`/user/emails/${email.id}`, { method: 'DELETE', token: user.token });

      // Act
      const response = await api<Email>('/user/emails', { token: other.token, body: { email: email.email } });

      // Assess
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.email).toBe(email.email);
    });

    it('releases the address: a new user can be created with it (201)', async () => {
      // Prepare
      const user = await createUser();
      const email = await addEmail(user);
      await api(`/user/emails/${email.id}`, { method: 'DELETE', token: user.token });
      const username = unique('heir');

      // Act
      const response = await api('/users', {
        token: rootToken(),
        body: { email: email.email, username, name: username, password: 'secret-password' },
      });

      // Assess
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({ username, email: email.email });
    });
  });

  describe('refused input', () => {
    it('answers 400 email is missing without an address', async () => {
      // Prepare
      const user = await createUser();

      // Act
      const response = await api('/user/emails', { token: user.token, body: {} });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'email is missing' });
    });

    it.each(['not-an-email', 'two@at@signs', 'spaces in@example.org', '@example.org', 'user@'])(
      'answers 400 {email: is invalid} for %j and stores nothing',
      async (email) => {
        // Prepare
        const user = await createUser();

        // Act
        const response = await api('/user/emails', { token: user.token, body: { email } });

        // Assess
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ message: { email: ['is invalid'] } });
        expect(await listEmails(user)).toEqual([]);
      },
    );
  });

  describe('uniqueness', () => {
    it.each<[string, (address: string) => string]>([
      ['as written', (address) => address],
      ['in upper case', (address) => address.toUpperCase()],
    ])("refuses another user's primary address %s: 400 has already been taken", async (_label, variant) => {
      // Prepare
      const [owner, user] = await Promise.all([createUser(), createUser()]);

      // Act
      const response = await api('/user/emails', { token: user.token, body: { email: variant(owner.email) } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(TAKEN);
      expect(await listEmails(user)).toEqual([]);
    });

    it("refuses the caller's own primary address", async () => {
      // Prepare
      const user = await createUser();

      // Act
      const response = await api('/user/emails', { token: user.token, body: { email: user.email } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(TAKEN);
    });

    it('refuses a primary address stored with capitals when given in lower case', async () => {
      // Prepare
      const username = unique('caps');
      const owner = await createUser({ username, email: `${username.toUpperCase()}@Example.COM` });
      const user = await createUser();

      // Act
      const response = await api('/user/emails', { token: user.token, body: { email: owner.email.toLowerCase() } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(TAKEN);
    });

    it.each<[string, (address: string) => string]>([
      ['by another user', (address) => address],
      ['by another user, in other case', (address) => address.toUpperCase()],
    ])('refuses a secondary address already added %s', async (_label, variant) => {
      // Prepare
      const [owner, user] = await Promise.all([createUser(), createUser()]);
      const existing = await addEmail(owner);

      // Act
      const response = await api('/user/emails', { token: user.token, body: { email: variant(existing.email) } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(TAKEN);
      expect(await listEmails(user)).toEqual([]);
    });

    it('refuses the same secondary address twice for one user', async () => {
      // Prepare
      const user = await createUser();
      const existing = await addEmail(user);

      // Act
      const response = await api('/user/emails', { token: user.token, body: { email: existing.email } });

      // Assess
      expect(response.status).toBe(400);
      expect(response.body).toEqual(TAKEN);
      expect(await listEmails(user)).toEqual([existing]);
    });

    it('lets exactly one of several parallel requests for the same new address win', async () => {
      // Prepare
      const users = await Promise.all([createUser(), createUser(), createUser()]);
      const email = newAddress('race');

      // Act: 6 requests, 2 per user, all at once
      const responses = await Promise.all(
        [...users, ...users].map((user) => api('/user/emails', { token: user.token, body: { email } })),
      );

      // Assess
      expect(responses.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
      for (const refused of responses.filter((r) => r.status === 400)) expect(refused.body).toEqual(TAKEN);
      const stored = (await Promise.all(users.map(listEmails))).flat().filter((e) => e.email === email);
      expect(stored).toEqual([responses.find((r) => r.status === 201)!.body]);
    });

    it('lets exactly one claim of an address win when users are created with it while others add it', async () => {
      // Prepare
      const users = await Promise.all([createUser(), createUser(), createUser()]);
      const email = newAddress('mixed');

      // Act: 3 secondary-address requests and 3 user creations with the same address, all at once
      const secondary = users.map((user) => api('/user/emails', { token: user.token, body: { email } }));
      const creations = [1, 2, 3].map(() => {
        const username = unique('racer');
        return api('/users', { token: rootToken(), body: { email, username, name: username, password: 'secret-password' } });
      });
      const responses = await Promise.all([...secondary, ...creations]);

      // Assess
      const winners = responses.filter((r) => r.status === 201);
      expect(winners).toHaveLength(1);
      expect(responses.slice(0, 3).filter((r) => r.status !== 201).every((r) => r.status === 400)).toBe(true);
      expect(responses.slice(3).filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
      const asSecondary = (await Promise.all(users.map(listEmails))).flat().filter((e) => e.email === email);
      const asPrimary = await api<Array<{ email: string }>>('/users', { token: rootToken(), query: { search: email } });
      expect(asSecondary.length + asPrimary.body.filter((u) => u.email === email).length).toBe(1);
    });

    it("frees a user's former primary address when an admin changes it", async () => {
      // Prepare
      const [user, other] = await Promise.all([createUser(), createUser()]);
      const changed = await api(`/users/${user.id}`, { method: 'PUT', token: rootToken(), body: { email: newAddress('moved') } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);

      // Act
      const response = await api<Email>('/user/emails', { token: other.token, body: { email: user.email } });

      // Assess
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.email).toBe(user.email);
    });

    it('refuses to create a user whose email is already a secondary address: 409', async () => {
      // Prepare
      const owner = await createUser();
      const existing = await addEmail(owner);
      const username = unique('late');

      // Act
      const response = await api('/users', {
        token: rootToken(),
        body: { email: existing.email.toUpperCase(), username, name: username, password: 'secret-password' },
      });

      // Assess
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: 'Email has already been taken' });
      const lookup = await api('/users', { token: rootToken(), query: { username } });
      expect(lookup.body).toEqual([]);
    });

    it("refuses to change a user's primary email to another user's secondary address (404, unchanged)", async () => {
      // Prepare
      const [owner, user] = await Promise.all([createUser(), createUser()]);
      const existing = await addEmail(owner);

      // Act
      const response = await api(`/users/${user.id}`, { method: 'PUT', token: rootToken(), body: { email: existing.email } });

      // Assess
      expect(response.status).toBe(404);
      const current = await api(`/users/${user.id}`, { token: rootToken() });
      expect(current.body.email).toBe(user.email);
    });

    it("releases a deleted user's secondary addresses", async () => {
      // Prepare
      const [owner, user] = await Promise.all([createUser(), createUser()]);
      const existing = await addEmail(owner);
      expect((await api(`/users/${owner.id}`, { method: 'DELETE', token: rootToken() })).status).toBe(200);

      // Act: once the deletion has run in the background
      const response = await eventually(async () => {
        const added = await api('/user/emails', { token: user.token, body: { email: existing.email } });
        expect(added.status, JSON.stringify(added.body)).toBe(201);
        return added;
      });

      // Assess
      expect(response.body.email).toBe(existing.email);
    });
  });

  it('pages GET /user/emails with per_page=1 and GitLab headers', async () => {
    // Prepare
    const user = await createUser();
    const first = await addEmail(user);
    const second = await addEmail(user);

    // Act
    const page1 = await api<Email[]>('/user/emails', { token: user.token, query: { per_page: 1 } });
    const page2 = await api<Email[]>('/user/emails', { token: user.token, query: { per_page: 1, page: 2 } });

    // Assess
    expect(page1.body).toEqual([first]);
    expect(page1.headers.get('x-total')).toBe('2');
    expect(page1.headers.get('x-next-page')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page2.body).toEqual([second]);
    expect(page2.headers.get('x-next-page')).toBe('');
  });
});

describe('secondary emails of any user, for admins (/users/:id/emails)', () => {
  it("GET lists the user's addresses", async () => {
    // Prepare
    const user = await createUser();
    const email = await addEmail(user);

    // Act
    const response = await api<Email[]>(`/users/${user.id}/emails`, { token: rootToken() });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([email]);
  });

  it('POST adds an address for the user (201), which the user then sees', async () => {
    // Prepare
    const user = await createUser();
    const email = newAddress('admin');

    // Act
    const response = await api<Email>(`/users/${user.id}/emails`, { token: rootToken(), body: { email } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number), email });
    expect(await listEmails(user)).toEqual([response.body]);
  });

  it('POST refuses an invalid (400 is invalid) and a taken (400 has already been taken) address', async () => {
    // Prepare
    const [owner, user] = await Promise.all([createUser(), createUser()]);

    // Act
    const invalid = await api(`/users/${user.id}/emails`, { token: rootToken(), body: { email: 'nope' } });
    const taken = await api(`/users/${user.id}/emails`, { token: rootToken(), body: { email: owner.email } });

    // Assess
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { email: ['is invalid'] } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual(TAKEN);
    expect(await listEmails(user)).toEqual([]);
  });

  it('DELETE removes the address (200 with it), then answers 404 Email Not Found', async () => {
    // Prepare
    const user = await createUser();
    const email = await addEmail(user);

    // Act
    const deleted = await api(`/users/${user.id}/emails/${email.id}`, { method: 'DELETE', token: rootToken() });
    const again = await api(`/users/${user.id}/emails/${email.id}`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(email);
    expect(await listEmails(user)).toEqual([]);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Email Not Found' });
  });

  it('DELETE answers 404 Email Not Found for an address of another user, and keeps it', async () => {
    // Prepare
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const othersEmail = await addEmail(other);

    // Act
    const response = await api(`/users/${user.id}/emails/${othersEmail.id}`, { method: 'DELETE', token: rootToken() });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Email Not Found' });
    expect(await listEmails(other)).toEqual([othersEmail]);
  });

  it.each<['GET' | 'POST' | 'DELETE', string]>([
    ['GET', '/users/999999999/emails'],
    ['POST', '/users/999999999/emails'],
    ['DELETE', '/users/999999999/emails/1'],
  ])('%s answers 404 User Not Found for an unknown user', async (method, path) => {
    // Act
    const response = await api(path, { method, token: rootToken(), body: method === 'POST' ? { email: newAddress() } : undefined });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });

  describe.each<[string, (user: TestUser, email: Email) => [string, 'GET' | 'POST' | 'DELETE']]>([
    ['GET /users/:id/emails', (user) => [`/users/${user.id}/emails`, 'GET']],
    ['POST /users/:id/emails', (user) => [`/users/${user.id}/emails`, 'POST']],
    ['DELETE /users/:id/emails/:email_id', (user, email) => [`/users/${user.id}/emails/${email.id}`, 'DELETE']],
  ])('%s', (_label, target) => {
    it.each<[string, boolean, number, unknown]>([
      ['a non-admin, even about their own addresses', true, 403, { message: '403 Forbidden' }],
      ['an anonymous caller', false, 401, { message: '401 Unauthorized' }],
    ])('refuses %s and changes nothing', async (_who, withToken, status, body) => {
      // Prepare
      const user = await createUser();
      const email = await addEmail(user);
      const [path, method] = target(user, email);

      // Act
      const response = await api(path, {
        method,
        token: withToken ? user.token : undefined,
        body: method === 'POST' ? { email: newAddress() } : undefined,
      });

      // Assess
      expect(response.status).toBe(status);
      expect(response.body).toEqual(body);
      expect(await listEmails(user)).toEqual([email]);
    });
  });
});
