/**
 * The Users API driven by a real GitLab client, @gitbeaker/rest: what it sends (JSON bodies,
 * `PRIVATE-TOKEN`, pagination by following `Link: rel="next"`) and what it expects back must
 * both work, as they do against GitLab.
 */
import { Gitlab, GitbeakerRequestError } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl, rootToken } from '../support/api';
import { unique } from '../support/fixtures';
import { generateSshPublicKey } from '../support/ssh-keys';

const rootClient = () => new Gitlab({ host: baseUrl(), token: rootToken() });

/** The HTTP status of a rejected gitbeaker call. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GitbeakerRequestError) return error.cause?.response?.status;
    throw error;
  }
  return undefined;
}

/** Creates a user through gitbeaker and returns it. */
async function createUser(gitlab = rootClient()) {
  const username = unique('gb');
  return gitlab.Users.create({ email: `${username}@example.com`, username, name: `Gitbeaker ${username}`, password: 'secret-password' });
}

describe('@gitbeaker/rest against the service', () => {
  it('Users.showCurrentUser returns root, an admin', async () => {
    // Prepare
    const gitlab = rootClient();

    // Act
    const me = await gitlab.Users.showCurrentUser();

    // Assess
    expect(me).toMatchObject({ username: 'root', state: 'active', is_admin: true });
    expect(typeof me.id).toBe('number');
  });

  it('Users.create creates a user that Users.show then returns', async () => {
    // Prepare
    const gitlab = rootClient();
    const username = unique('gb');

    // Act
    const created = await gitlab.Users.create({
      email: `${username}@example.com`,
      username,
      name: 'Created By Gitbeaker',
      password: 'secret-password',
    });

    // Assess
    expect(created).toMatchObject({ username, name: 'Created By Gitbeaker', email: `${username}@example.com`, state: 'active' });
    const shown = await gitlab.Users.show(created.id);
    expect(shown).toMatchObject({ id: created.id, username });
  });

  it('Users.create rejects a taken username with 409', async () => {
    // Prepare
    const gitlab = rootClient();
    const existing = await createUser(gitlab);

    // Act
    const status = await statusOf(
      gitlab.Users.create({ email: `${unique('gb')}@example.com`, username: existing.username, name: 'Dup', password: 'secret-password' }),
    );

    // Assess
    expect(status).toBe(409);
  });

  it('Users.all({ search }) follows the pagination links to every page', async () => {
    // Prepare: three users sharing a unique marker in their name
    const gitlab = rootClient();
    const marker = unique('needle');
    const created = [];
    for (let index = 0; index < 3; index++) {
      const username = `${marker}x${index}`;
      created.push(
        await gitlab.Users.create({ email: `${username}@example.com`, username, name: `${marker} ${index}`, password: 'secret-password' }),
      );
    }

    // Act: one user per page, so the client must follow rel="next" twice
    const found = await gitlab.Users.all({ search: marker, perPage: 1 });

    // Assess
    expect(found.map((user) => user.id).sort((a, b) => a - b)).toEqual(created.map((user) => user.id).sort((a, b) => a - b));
  });

  it('Users.all with showExpanded reports the pagination of one page', async () => {
    // Prepare
    const gitlab = rootClient();
    const marker = unique('pg');
    for (let index = 0; index < 2; index++) {
      const username = `${marker}x${index}`;
      await gitlab.Users.create({ email: `${username}@example.com`, username, name: username, password: 'secret-password' });
    }

    // Act
    const { data, paginationInfo } = await gitlab.Users.all({ search: marker, perPage: 1, page: 1, showExpanded: true });

    // Assess
    expect(data).toHaveLength(1);
    expect(paginationInfo).toMatchObject({ current: 1, perPage: 1, next: 2 });
  });

  it('UserSSHKeys.create adds a key for a user, listed by UserSSHKeys.all', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const key = generateSshPublicKey('ed25519');

    // Act
    const created = await gitlab.UserSSHKeys.create('gitbeaker key', key, { userId: user.id });

    // Assess
    expect(created).toMatchObject({ title: 'gitbeaker key', key });
    const listed = await gitlab.UserSSHKeys.all({ userId: user.id });
    expect(listed).toEqual([created]);
  });

  it('UserSSHKeys.create rejects a key another user has, with 400', async () => {
    // Prepare
    const gitlab = rootClient();
    const [owner, user] = [await createUser(gitlab), await createUser(gitlab)];
    const key = generateSshPublicKey('rsa');
    await gitlab.UserSSHKeys.create('first', key, { userId: owner.id });

    // Act
    const status = await statusOf(gitlab.UserSSHKeys.create('second', key, { userId: user.id }));

    // Assess
    expect(status).toBe(400);
    expect(await gitlab.UserSSHKeys.all({ userId: user.id })).toEqual([]);
  });

  it('UserEmails.create adds a secondary address, listed by UserEmails.all', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const email = `${unique('gbmail')}@example.org`;

    // Act
    const created = await gitlab.UserEmails.create(email, { userId: user.id });

    // Assess
    expect(created).toMatchObject({ id: expect.any(Number), email });
    expect(await gitlab.UserEmails.all({ userId: user.id })).toEqual([created]);
  });

  it('UserImpersonationTokens.create makes a token a second client signs in with', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);

    // Act
    const token = await gitlab.UserImpersonationTokens.create(user.id, 'gitbeaker', ['api']);
    const asUser = new Gitlab({ host: baseUrl(), token: token.token! });
    const me = await asUser.Users.showCurrentUser();

    // Assess
    expect(token).toMatchObject({ name: 'gitbeaker', scopes: ['api'], impersonation: true, active: true, revoked: false });
    expect(me).toMatchObject({ id: user.id, username: user.username });
  });

  it('the impersonating client manages its own keys and emails', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const { token } = await gitlab.UserImpersonationTokens.create(user.id, 'self-service', ['api']);
    const asUser = new Gitlab({ host: baseUrl(), token: token! });
    const key = generateSshPublicKey('ecdsa');
    const email = `${unique('self')}@example.org`;

    // Act
    const createdKey = await asUser.UserSSHKeys.create('own key', key);
    const createdEmail = await asUser.UserEmails.create(email);
    await asUser.UserSSHKeys.remove(createdKey.id);

    // Assess
    expect(createdKey).toMatchObject({ title: 'own key', key });
    expect(await asUser.UserSSHKeys.all()).toEqual([]);
    expect(await asUser.UserEmails.all()).toEqual([createdEmail]);
    expect(await statusOf(asUser.UserImpersonationTokens.all(user.id))).toBe(403);
  });

  it('UserImpersonationTokens.revoke stops the token; all({ state }) reflects it', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const created = await gitlab.UserImpersonationTokens.create(user.id, 'short-lived', ['read_user']);
    const asUser = new Gitlab({ host: baseUrl(), token: created.token! });
    expect((await asUser.Users.showCurrentUser()).id).toBe(user.id);

    // Act
    await gitlab.UserImpersonationTokens.revoke(user.id, created.id);

    // Assess
    expect(await statusOf(asUser.Users.showCurrentUser())).toBe(401);
    const inactive = await gitlab.UserImpersonationTokens.all(user.id, { state: 'inactive' });
    expect(inactive.map((t) => t.id)).toEqual([created.id]);
    expect(await gitlab.UserImpersonationTokens.show(user.id, created.id)).toMatchObject({ revoked: true, active: false });
  });

  it('Users.block and Users.unblock switch the user and its tokens off and on', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const { token } = await gitlab.UserImpersonationTokens.create(user.id, 'blockable', ['api']);
    const asUser = new Gitlab({ host: baseUrl(), token: token! });

    // Act & Assess: blocked
    await gitlab.Users.block(user.id);
    expect(await gitlab.Users.show(user.id)).toMatchObject({ state: 'blocked' });
    expect(await statusOf(asUser.Users.showCurrentUser())).toBe(401);

    // Act & Assess: unblocked
    await gitlab.Users.unblock(user.id);
    expect(await gitlab.Users.show(user.id)).toMatchObject({ state: 'active' });
    expect(await asUser.Users.showCurrentUser()).toMatchObject({ id: user.id });
  });

  it('Users.remove deletes the user: show answers 404 and its token 401', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const { token } = await gitlab.UserImpersonationTokens.create(user.id, 'doomed', ['api']);
    const asUser = new Gitlab({ host: baseUrl(), token: token! });

    // Act
    await gitlab.Users.remove(user.id);

    // Assess
    expect(await statusOf(gitlab.Users.show(user.id))).toBe(404);
    expect(await statusOf(asUser.Users.showCurrentUser())).toBe(401);
  });

  it('Users.remove of a user that is already gone resolves (idempotent delete)', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    await gitlab.Users.remove(user.id);

    // Act
    const outcome = await gitlab.Users.remove(user.id).then(
      () => 'resolved',
      (error: unknown) => error,
    );

    // Assess
    expect(outcome).toBe('resolved');
  });

  it('a non-admin client is refused admin operations with 403', async () => {
    // Prepare
    const gitlab = rootClient();
    const user = await createUser(gitlab);
    const { token } = await gitlab.UserImpersonationTokens.create(user.id, 'plain', ['api']);
    const asUser = new Gitlab({ host: baseUrl(), token: token! });

    // Act
    const statuses = await Promise.all([
      statusOf(asUser.Users.create({ email: `${unique('x')}@example.com`, username: unique('x'), name: 'x', password: 'secret-password' })),
      statusOf(asUser.Users.block(user.id)),
      statusOf(asUser.Users.allActivities()),
    ]);

    // Assess
    expect(statuses).toEqual([403, 403, 403]);
    expect(await gitlab.Users.show(user.id)).toMatchObject({ state: 'active' });
  });
});
