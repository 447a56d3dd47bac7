/**
 * Users' states (deactivate, activate, ban, unban, approve, reject), their effect on
 * authentication and lists, following, and statuses, as python-gitlab and gitbeaker call them
 * (`user.ban()`, `Users.follow`, `user.status`, …), and a deleted user's follow pairs going with it.
 * One set of users for the file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { createUser, type TestUser } from '../support/fixtures';

const root = () => ({ token: rootToken() });
const post = (path: string, token = rootToken()) => api(path, { token, method: 'POST' });

let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([createUser(), createUser(), createUser()]);
});

describe('admin state changes', () => {
  it('bans and unbans with GitLab answers; a banned user is refused and listed by state', async () => {
    const banned = await post(`/users/${carol.id}/ban`);
    expect([banned.status, banned.body]).toEqual([201, true]);
    expect((await api(`/users/${carol.id}`, root())).body.state).toBe('banned');
    // Its tokens are refused like a blocked user's.
    expect((await api('/user', { token: carol.token })).status).toBe(401);
    // GitLab's rules on a banned user, and non-admins (nothing changes: asked together).
    const answers = await Promise.all([
      post(`/users/${carol.id}/ban`),
      post(`/users/${carol.id}/deactivate`),
      post(`/users/${carol.id}/activate`),
      post(`/users/${carol.id}/block`),
      post(`/users/${carol.id}/approve`),
      post(`/users/${carol.id}/reject`),
      post(`/users/${bob.id}/ban`, alice.token),
      post(`/users/${carol.id}/approve`, alice.token),
      post('/users/999999999/ban'),
    ]);
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [403, { message: 'You cannot ban banned users.' }],
      [403, { message: 'Error occurred. A blocked user cannot be deactivated' }],
      [403, { message: '403 Forbidden - A blocked user must be unblocked to be activated' }],
      [201, null],
      [409, { message: 'The user you are trying to approve is not pending approval' }],
      [409, { message: 'This user does not have a pending request' }],
      [403, { message: '403 Forbidden' }],
      [403, { message: 'You are not allowed to approve a user' }],
      [404, { message: '404 User Not Found' }],
    ]);

    const unbanned = await post(`/users/${carol.id}/unban`);
    expect([unbanned.status, unbanned.body]).toEqual([201, true]);
    expect((await api('/user', { token: carol.token })).status).toBe(200);
    expect(await post(`/users/${carol.id}/unban`).then((r) => [r.status, r.body])).toEqual([403, { message: 'You cannot unban active users.' }]);
  });

  it('refuses to deactivate a recently active user, activates an active one to false, and races block against ban consistently', async () => {
    const racer = await createUser();
    const [deactivate, activate, block, ban] = await Promise.all([
      post(`/users/${bob.id}/deactivate`),
      post(`/users/${bob.id}/activate`),
      post(`/users/${racer.id}/block`),
      post(`/users/${racer.id}/ban`),
    ]);
    expect([deactivate.status, deactivate.body]).toEqual([
      403,
      { message: 'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated' },
    ]);
    expect([activate.status, activate.body]).toEqual([201, false]);
    const state = (await api(`/users/${racer.id}`, root())).body.state;
    // Either order, applied one after the other: block then ban (403) or ban then block (null: already blocked?).
    expect([block.status, ban.status]).toEqual([201, state === 'blocked' ? 403 : 201]);
    expect(block.body).toBe(state === 'blocked' ? true : null);
    expect(['blocked', 'banned']).toContain(state);
    const listed = await api('/users', { ...root(), query: { blocked: true, per_page: 100, sort: 'desc' } });
    expect(listed.body.some((u: { id: number }) => u.id === racer.id)).toBe(state === 'blocked');
  });
});

describe('following', () => {
  it('follows once under concurrency, lists and counts both sides, unfollows', async () => {
    const follows = await Promise.all([1, 2, 3].map(() => post(`/users/${bob.id}/follow`, alice.token)));
    expect(follows.map((r) => r.status).sort()).toEqual([201, 304, 304]);
    expect(follows.find((r) => r.status === 201)!.body).toMatchObject({ id: bob.id, username: bob.username, state: 'active' });
    expect((await post(`/users/${alice.id}/follow`, alice.token)).status).toBe(304);

    const followers = await api(`/users/${bob.id}/followers`, { token: carol.token });
    expect(followers.body.map((u: { id: number }) => u.id)).toEqual([alice.id]);
    expect((await api(`/users/${alice.id}/following`, { token: carol.token })).body.map((u: { id: number }) => u.id)).toEqual([bob.id]);
    expect((await api(`/users/${bob.id}/followers`)).status).toBe(403);
    expect((await api(`/users/${bob.id}`, { token: alice.token })).body).toMatchObject({ followers: 1, following: 0, is_followed: true });
    expect((await api(`/users/${alice.id}`, { token: bob.token })).body).toMatchObject({ followers: 0, following: 1, is_followed: false });

    expect((await post(`/users/${bob.id}/unfollow`, alice.token)).status).toBe(201);
    expect((await post(`/users/${bob.id}/unfollow`, alice.token)).status).toBe(304);
    expect((await api(`/users/${bob.id}/followers`, { token: carol.token })).body).toEqual([]);
    expect((await api(`/users/${bob.id}`, { token: alice.token })).body).toMatchObject({ followers: 0, is_followed: false });
  });

  it("removes a deleted user's follow pairs both ways, with the other users' counts", async () => {
    // Prepare: erin follows and is followed by a user about to be deleted.
    const [erin, leaving] = await Promise.all([createUser(), createUser()]);
    expect((await post(`/users/${leaving.id}/follow`, erin.token)).status).toBe(201);
    expect((await post(`/users/${erin.id}/follow`, leaving.token)).status).toBe(201);

    // Act
    expect((await api(`/users/${leaving.id}`, { ...root(), method: 'DELETE' })).status).toBe(200);

    // Assess
    await eventually(async () => expect((await api(`/users/${leaving.id}`, root())).status).toBe(404), 120_000);
    await eventually(async () => {
      expect((await api(`/users/${erin.id}`, root())).body).toMatchObject({ followers: 0, following: 0 });
      expect((await api(`/users/${erin.id}/followers`, root())).body).toEqual([]);
      expect((await api(`/users/${erin.id}/following`, root())).body).toEqual([]);
    });
  });
});

describe('status and preferences', () => {
  it('sets, patches, reads (by id and username) and clears a status', async () => {
    const empty = { emoji: null, message: null, availability: null, message_html: null, clear_status_at: null };
    expect((await api('/user/status', { token: alice.token })).body).toEqual(empty);

    const set = await api('/user/status', { token: alice.token, method: 'PUT', body: { message: 'Out <b>sick</b>', availability: 'busy', clear_status_after: '1_day' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ emoji: 'speech_balloon', message: 'Out <b>sick</b>', availability: 'busy', message_html: 'Out &lt;b&gt;sick&lt;/b&gt;' });
    expect(Date.parse(set.body.clear_status_at) - Date.now()).toBeGreaterThan(86_000_000);

    const patched = await api('/user/status', { token: alice.token, method: 'PATCH', body: { emoji: 'coffee' } });
    expect(patched.body).toMatchObject({ emoji: 'coffee', message: 'Out <b>sick</b>', availability: 'busy' });
    expect((await api(`/users/${alice.username}/status`)).body).toEqual(patched.body);
    expect((await api(`/users/${alice.id}/status`, { token: bob.token })).body).toEqual(patched.body);
    expect((await api('/users/no-such-user-xyz/status')).status).toBe(404);

    expect((await api('/user/status', { token: alice.token, method: 'PUT', body: { clear_status_after: '2_days' } })).body).toEqual({
      error: 'clear_status_after does not have a valid value',
    });
    expect((await api('/user/status', { token: alice.token, method: 'PUT', body: { message: 'x'.repeat(101) } })).status).toBe(400);
    const cleared = await api('/user/status', { token: alice.token, method: 'PUT', body: {} });
    expect([cleared.status, cleared.body]).toEqual([200, null]);
    expect((await api(`/users/${alice.id}/status`)).body).toEqual(empty);
  });

  it('reads and updates preferences', async () => {
    expect((await api('/user/preferences', { token: bob.token })).body).toEqual({
      id: bob.id,
      user_id: bob.id,
      view_diffs_file_by_file: false,
      show_whitespace_in_diffs: true,
      pass_user_identities_to_ci_jwt: false,
    });
    const updated = await api('/user/preferences', { token: bob.token, method: 'PUT', body: { view_diffs_file_by_file: true } });
    expect(updated.body).toMatchObject({ view_diffs_file_by_file: true, show_whitespace_in_diffs: true });
    expect((await api('/user/preferences', { token: bob.token, method: 'PUT', body: {} })).status).toBe(400);
  });

  it('keeps every field of concurrent partial changes (preferences, status PATCH)', async () => {
    // Act: each request changes one field of the same stored value at once.
    const dave = await createUser();
    const put = (body: Record<string, unknown>) => api('/user/preferences', { token: dave.token, method: 'PUT', body });
    const patch = (body: Record<string, unknown>) => api('/user/status', { token: dave.token, method: 'PATCH', body });
    expect((await patch({ emoji: 'coffee' })).status).toBe(200);
    const answers = await Promise.all([
      put({ view_diffs_file_by_file: true }),
      put({ show_whitespace_in_diffs: false }),
      put({ pass_user_identities_to_ci_jwt: true }),
      patch({ message: 'away' }),
      patch({ availability: 'busy' }),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await api('/user/preferences', { token: dave.token })).body).toMatchObject({ view_diffs_file_by_file: true, show_whitespace_in_diffs: false, pass_user_identities_to_ci_jwt: true });
    expect((await api('/user/status', { token: dave.token })).body).toMatchObject({ message: 'away', availability: 'busy' });
  });
});
