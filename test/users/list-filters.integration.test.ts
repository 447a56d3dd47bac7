/**
 * `GET /users` filters on the kind of user and on creation time (GitLab's `exclude_internal`,
 * `exclude_external`, `exclude_active`, `humans`, `exclude_humans`, `created_after`,
 * `created_before`): the ghost user is GitLab's internal user, a project bot is not human.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = () => ({ token: rootToken() });

/** Ids of the users `search` finds with `query`, as root sees them. */
async function ids(search: string, query: Record<string, string> = {}): Promise<number[]> {
  const response = await api<Array<{ id: number }>>('/users', { ...root(), query: { search, per_page: 100, ...query } });
  expect(response.status).toBe(200);
  return response.body.map((user) => user.id).sort((a, b) => a - b);
}

describe('GET /users filters', { timeout: 120_000 }, () => {
  const name = unique('filtered');
  let plain: TestUser;
  let external: TestUser;
  let blocked: TestUser;
  let ghostId: number;

  beforeAll(async () => {
    [plain, external, blocked] = await Promise.all([createUser({ name }), createUser({ name, external: true }), createUser({ name })]);
    expect((await api(`/users/${blocked.id}/block`, { ...root(), method: 'POST' })).status).toBe(201);
    // The ghost user exists once a user has been deleted.
    const doomed = await createUser();
    expect((await api(`/users/${doomed.id}`, { ...root(), method: 'DELETE' })).status).toBe(200);
    ghostId = await eventually(async () => {
      const found = (await api<Array<{ id: number; name: string }>>('/users', { ...root(), query: { search: 'Ghost User' } })).body;
      const ghost = found.find((user) => user.name === 'Ghost User');
      expect(ghost).toBeDefined();
      return ghost!.id;
    });
  }, 120_000);

  it('exclude_internal and humans leave out the ghost user; exclude_humans keeps only it', async () => {
    // Act + Assess
    expect(await ids('Ghost User')).toContain(ghostId);
    expect(await ids('Ghost User', { exclude_internal: 'true' })).not.toContain(ghostId);
    expect(await ids('Ghost User', { humans: 'true' })).not.toContain(ghostId);
    expect(await ids('Ghost User', { exclude_humans: 'true' })).toContain(ghostId);
    expect(await ids(name, { exclude_humans: 'true' })).toEqual([]);
  });

  it('exclude_external and exclude_active leave out external and active users', async () => {
    // Act + Assess
    expect(await ids(name)).toEqual([plain.id, external.id, blocked.id].sort((a, b) => a - b));
    expect(await ids(name, { exclude_external: 'true' })).toEqual([plain.id, blocked.id].sort((a, b) => a - b));
    expect(await ids(name, { exclude_active: 'true' })).toEqual([blocked.id]);
  });

  it('created_after and created_before bound the creation time', async () => {
    // Prepare
    const created = (await api(`/users/${external.id}`, root())).body.created_at as string;
    const before = new Date(Date.parse(created) - 1000).toISOString();

    // Act + Assess
    expect(await ids(name, { created_after: created })).toContain(external.id);
    expect(await ids(name, { created_before: created })).toContain(external.id);
    expect(await ids(name, { created_before: before })).toEqual([]);
    expect(await ids(name, { created_after: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
  });

  it('refuses a creation time that is not one', async () => {
    // Act
    const response = await api('/users', { ...root(), query: { created_after: 'yesterday-ish' } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'created_after is invalid' });
  });
});
