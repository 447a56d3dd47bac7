/**
 * `GET /users?search=` served from the search entries (`SEARCH_USERS#<term>`): GitLab's rule
 * (every word a case-insensitive substring of the name or username; a query shorter than three
 * characters equals one of them), kept in step with renames and deletions, and read without
 * reading the list of all users. The service is shared with other test files: every search names
 * this test's unique markers.
 */
import { describe, expect, it, vi } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/platform/dynamo/client';
import { paginate } from '../../shared/platform/http/pagination';
import { listUsers } from '../../shared/users/queries/users';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { createUser, unique } from '../support/fixtures';

const root = () => ({ token: rootToken() });

const searchIds = async (search: string, token = rootToken(), query: Record<string, string> = {}): Promise<number[]> => {
  const response = await api('/users', { token, query: { search, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.map((user: { id: number }) => user.id);
};

describe('GET /users?search= (search entries)', () => {
  it('finds a user by a word prefix of the name or username, case-insensitively', async () => {
    // Prepare
    const marker = unique('srx');
    const user = await createUser({ username: `${marker}_dev`, name: `Ada ${marker}lovelace Byron` });
    const viewer = await createUser();

    // Act + Assess
    expect(await searchIds(marker, viewer.token)).toEqual([user.id]);
    expect(await searchIds(`${marker}LOVE`.toUpperCase(), viewer.token)).toEqual([user.id]);
    expect(await searchIds(`${marker}_dev`, viewer.token)).toEqual([user.id]);
  });

  it('requires every word of the query to match', async () => {
    const marker = unique('srw');
    const user = await createUser({ name: `Grace ${marker} Hopper` });
    expect(await searchIds(`${marker} hopper`)).toEqual([user.id]);
    expect(await searchIds(`hopp ${marker}`)).toEqual([user.id]);
    expect(await searchIds(`${marker} lovelace`)).toEqual([]);
  });

  it('moves a renamed user: the old words no longer find it, the new ones do', async () => {
    // Prepare
    const before = unique('sro');
    const after = unique('srn');
    const user = await createUser({ name: `${before} Person` });
    expect(await searchIds(before)).toEqual([user.id]);

    // Act
    const renamed = await api(`/users/${user.id}`, { method: 'PUT', ...root(), body: { name: `${after} Person` } });

    // Assess
    expect(renamed.status).toBe(200);
    expect(await searchIds(before)).toEqual([]);
    expect(await searchIds(after)).toEqual([user.id]);
  });

  it('moves a user whose username changes', async () => {
    const before = unique('sru');
    const after = unique('srv');
    const user = await createUser({ username: before, name: 'Renamed Person', email: `${unique('mail')}@example.com` });
    const viewer = await createUser();
    expect((await api(`/users/${user.id}`, { method: 'PUT', ...root(), body: { username: after } })).status).toBe(200);
    expect(await searchIds(before, viewer.token)).toEqual([]);
    expect(await searchIds(after, viewer.token)).toEqual([user.id]);
  });

  it('does not find a deleted user', async () => {
    const marker = unique('srd');
    const user = await createUser({ name: `${marker} Gone` });
    expect(await searchIds(marker)).toEqual([user.id]);
    const deleted = await api(`/users/${user.id}`, { method: 'DELETE', ...root() });
    expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(300);
    expect(await searchIds(marker)).toEqual([]);
  });

  it('matches a query shorter than three characters only to a whole name or username, as GitLab', async () => {
    // Prepare: a user named exactly "Qx", and one whose name only contains it
    const exact = await createUser({ name: 'Qx' });
    const longer = await createUser({ name: `Qxylophone ${unique('srq')}` });

    // Act
    const ids = await searchIds('qX', rootToken(), { per_page: '100' });

    // Assess
    expect(ids).toContain(exact.id);
    expect(ids).not.toContain(longer.id);
  });

  it('pages the matches in id order with exact totals', async () => {
    const marker = unique('srp');
    const users = [];
    for (let i = 0; i < 3; i++) users.push(await createUser({ name: `${marker} Number${i}` }));
    const response = await api('/users', { ...root(), query: { search: marker, per_page: 2, sort: 'asc' } });
    expect(response.body.map((u: { id: number }) => u.id)).toEqual(users.slice(0, 2).map((u) => u.id));
    expect(response.headers.get('x-total')).toBe('3');
    expect(response.headers.get('x-next-page')).toBe('2');
  });

  it('finds a user by exact primary email for admins only', async () => {
    const marker = unique('sre');
    const user = await createUser({ email: `${marker}@mail.example.org` });
    const viewer = await createUser();
    expect(await searchIds(`${marker}@mail.example.org`.toUpperCase())).toEqual([user.id]);
    expect(await searchIds(`${marker}@mail.example.org`, viewer.token)).toEqual([]);
  });
});

describe.skipIf(!isLocalRuntime())('a search reads the entries of its term, not the list of users', () => {
  it('queries only the term partitions, reading about as many entries as there are matches', async () => {
    // Prepare: many users that do not match, one that does
    const marker = unique('src');
    await Promise.all(Array.from({ length: 12 }, () => createUser()));
    const user = await createUser({ name: `${marker} Needle` });
    const send = vi.spyOn(db(), 'send');
    try {
      // Act
      const list = await listUsers({ search: marker }, { searchEmails: true });
      const page = await paginate({ page: 1, per_page: 20 }, { url: 'http://x/users', query: {} }, list);

      // Assess
      expect(page.items.map((u) => u.id)).toEqual([user.id]);
      expect(page.headers['X-Total']).toBe('1');
      const queries = send.mock.calls.map(([command]) => command).filter((command) => command instanceof QueryCommand);
      const partitions = queries.map((command) => (command as QueryCommand).input.ExpressionAttributeValues?.[':pk']);
      expect(partitions.length).toBeGreaterThan(0);
      expect(partitions.every((pk) => typeof pk === 'string' && pk.startsWith('SEARCH_USER'))).toBe(true);
      const read = await Promise.all(send.mock.results.map((result) => result.value));
      const itemsRead = read.reduce((sum, output) => sum + ((output as { Items?: unknown[] }).Items?.length ?? 0), 0);
      expect(itemsRead).toBeLessThanOrEqual(2);
    } finally {
      send.mockRestore();
    }
  });
});
