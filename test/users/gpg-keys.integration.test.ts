/**
 * GPG keys (`/user/gpg_keys`, `/users/:id/gpg_keys`): keys exported by the real `gpg`, GitLab's
 * validation errors, one key for one user under concurrency, public reads, admins' writes on
 * anyone's keys, delete (204) and revoke (202).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, type TestUser } from '../support/fixtures';
import { gpgKey, stopGpgAgents, type GpgIdentity } from '../support/gpg';

let alice: TestUser;
let bob: TestUser;
let keys: GpgIdentity[];

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  keys = await Promise.all([gpgKey(['Alice <alice@example.com>']), gpgKey(['Shared <shared@example.com>']), gpgKey(['Admin added <added@example.com>'])]);
});
afterAll(stopGpgAgents);

const FORMAT = "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'";

describe('GPG keys', () => {
  it('adds, lists (paged), reads and deletes the current user’s keys; anyone reads them', async () => {
    const added = await api('/user/gpg_keys', { token: alice.token, body: { key: `\n${keys[0].publicKey}\n` } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), key: keys[0].publicKey.trim(), created_at: expect.any(String) });
    const id = added.body.id as number;

    const [mine, one, publicList, publicOne, othersKey] = await Promise.all([
      api('/user/gpg_keys', { token: alice.token }),
      api(`/user/gpg_keys/${id}`, { token: alice.token }),
      api(`/users/${alice.id}/gpg_keys`),
      api(`/users/${alice.id}/gpg_keys/${id}`),
      api(`/user/gpg_keys/${id}`, { token: bob.token }),
    ]);
    expect(mine.body).toEqual([added.body]);
    expect([one.body, publicList.body, publicOne.body]).toEqual([added.body, [added.body], added.body]);
    expect([othersKey.status, othersKey.body]).toEqual([404, { message: '404 GPG Key Not Found' }]);

    // A second key: the list pages as GitLab's, by id.
    const second = await api('/user/gpg_keys', { token: alice.token, body: { key: keys[2].publicKey } });
    const page = await api('/user/gpg_keys', { token: alice.token, query: { per_page: '1', page: '2' } });
    expect([page.body, page.headers.get('x-total'), page.headers.get('x-total-pages')]).toEqual([[second.body], '2', '2']);
    expect((await api(`/user/gpg_keys/${second.body.id}`, { method: 'DELETE', token: alice.token })).status).toBe(204);

    const removed = await api(`/user/gpg_keys/${id}`, { method: 'DELETE', token: alice.token });
    const again = await api(`/user/gpg_keys/${id}`, { method: 'DELETE', token: alice.token });
    expect([removed.status, again.status, again.body]).toEqual([204, 404, { message: '404 GPG Key Not Found' }]);
    expect((await api('/user/gpg_keys', { token: alice.token })).body).toEqual([]);
  });

  it('refuses what is not one readable public key block, as GitLab, and stores nothing', async () => {
    const post = (key?: string) => api('/user/gpg_keys', { token: bob.token, body: key === undefined ? {} : { key } });
    const [missing, ssh, twoBlocks, unreadable] = await Promise.all([
      post(),
      post('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA'),
      post(`${keys[1].publicKey.trim()}\n${keys[1].publicKey.trim()}`),
      post('-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----'),
    ]);
    expect([missing.status, missing.body]).toEqual([400, { error: 'key is missing' }]);
    expect([ssh.status, ssh.body]).toEqual([400, { message: { key: [FORMAT] } }]);
    expect([twoBlocks.status, twoBlocks.body]).toEqual([400, { message: { key: [FORMAT] } }]);
    expect([unreadable.status, unreadable.body]).toEqual([400, { message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } }]);
    expect((await api('/user/gpg_keys', { token: bob.token })).body).toEqual([]);
  });

  it('gives a key to one user only, also when two add it at once', async () => {
    const results = await Promise.all([alice, bob].map((user) => api('/user/gpg_keys', { token: user.token, body: { key: keys[1].publicKey } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(results.find((r) => r.status === 400)!.body).toEqual({ message: { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] } });
    const lists = await Promise.all([alice, bob].map((user) => api(`/users/${user.id}/gpg_keys`)));
    expect(lists.flatMap((list) => list.body as unknown[])).toHaveLength(1);
  });

  it('lets admins add, delete and revoke anyone’s keys, and nobody else', async () => {
    const [forbidden, unknownUser] = await Promise.all([
      api(`/users/${bob.id}/gpg_keys`, { token: alice.token, body: { key: keys[2].publicKey } }),
      api('/users/999999999/gpg_keys', { token: rootToken(), body: { key: keys[2].publicKey } }),
    ]);
    expect([forbidden.status, unknownUser.status, unknownUser.body]).toEqual([403, 404, { message: '404 User Not Found' }]);

    const added = await api(`/users/${bob.id}/gpg_keys`, { token: rootToken(), body: { key: keys[2].publicKey } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const id = added.body.id as number;
    expect((await api(`/user/gpg_keys/${id}`, { token: bob.token })).body).toEqual(added.body);

    const [deleteByOther, revokeByOther] = await Promise.all([
      api(`/users/${bob.id}/gpg_keys/${id}`, { method: 'DELETE', token: alice.token }),
      api(`/users/${bob.id}/gpg_keys/${id}/revoke`, { method: 'POST', token: alice.token }),
    ]);
    expect([deleteByOther.status, revokeByOther.status]).toEqual([403, 403]);
    const revoked = await api(`/users/${bob.id}/gpg_keys/${id}/revoke`, { method: 'POST', token: rootToken() });
    const gone = await api(`/users/${bob.id}/gpg_keys/${id}`, { method: 'DELETE', token: rootToken() });
    expect([revoked.status, gone.status, gone.body]).toEqual([202, 404, { message: '404 GPG Key Not Found' }]);

    // Revoked, the key can be added again, and the owner revokes it themselves.
    const readded = await api('/user/gpg_keys', { token: bob.token, body: { key: keys[2].publicKey } });
    expect(readded.status).toBe(201);
    const ownRevoke = await api(`/user/gpg_keys/${readded.body.id}/revoke`, { method: 'POST', token: bob.token });
    expect(ownRevoke.status).toBe(202);
    expect((await api(`/users/${bob.id}/gpg_keys/${readded.body.id}`)).status).toBe(404);
  });
});
