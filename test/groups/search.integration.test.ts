/**
 * `search=` of `GET /groups` and `GET /namespaces` served from the search entries
 * (`SEARCH_GROUPS#<term>`, `SEARCH_USER_NAMESPACES#<term>`): GitLab's rule on a group's name and
 * path (and full path for namespaces), kept in step with renames, subgroup path moves and
 * deletions. The service is shared with other test files: every search names unique markers.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, unique } from '../support/fixtures';

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);

async function listed(path: string, token: string | undefined, query: Record<string, string>): Promise<number[]> {
  const response = await api(path, { token, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return ids(response.body);
}

async function newGroup(token: string, body: Record<string, unknown>): Promise<{ id: number; full_path: string }> {
  const response = await api('/groups', { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('GET /groups?search= (search entries)', () => {
  it('finds a group by a word prefix of its name or path, case-insensitively, every word required', async () => {
    const marker = unique('sgn');
    const group = await newGroup(rootToken(), { name: `Platform ${marker}team`, path: `${marker}-plat`, visibility: 'public' });
    expect(await listed('/groups', undefined, { search: marker.toUpperCase() })).toEqual([group.id]);
    expect(await listed('/groups', undefined, { search: `${marker}-plat` })).toEqual([group.id]);
    expect(await listed('/groups', undefined, { search: `platf ${marker}` })).toEqual([group.id]);
    expect(await listed('/groups', undefined, { search: `${marker} backend` })).toEqual([]);
  });

  it('moves a renamed group, and forgets a deleted one', async () => {
    // Prepare
    const [before, after] = [unique('sgo'), unique('sgr')];
    const group = await newGroup(rootToken(), { name: `${before} Team`, path: before, visibility: 'public' });
    expect(await listed('/groups', undefined, { search: before })).toEqual([group.id]);

    // Act: a new name and path
    const renamed = await api(`/groups/${group.id}`, { method: 'PUT', token: rootToken(), body: { name: `${after} Team`, path: after } });

    // Assess
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await listed('/groups', undefined, { search: before })).toEqual([]);
    expect(await listed('/groups', undefined, { search: after })).toEqual([group.id]);

    // Act: delete
    expect((await api(`/groups/${group.id}`, { method: 'DELETE', token: rootToken() })).status).toBe(202);

    // Assess
    expect(await listed('/groups', rootToken(), { search: after })).toEqual([]);
  });

  it('matches a query shorter than three characters only to a whole name or path', async () => {
    const exact = await newGroup(rootToken(), { name: 'Kv', path: unique('kv'), visibility: 'public' });
    const longer = await newGroup(rootToken(), { name: `Kvass ${unique('sgk')}`, path: unique('kvass'), visibility: 'public' });
    const found = await listed('/groups', undefined, { search: 'kV', per_page: '100' });
    expect(found).toContain(exact.id);
    expect(found).not.toContain(longer.id);
  });
});

describe('GET /namespaces?search= (search entries)', () => {
  it('finds groups by full path and users by username, and follows a parent rename', async () => {
    // Prepare: a group with a subgroup, and a user, all sharing a marker
    const [marker, renamed] = [unique('sns'), unique('snr')];
    const parent = await newGroup(rootToken(), { name: `${marker} Parent`, path: `${marker}-parent` });
    const child = await newGroup(rootToken(), { name: 'Child Unit', path: 'child-unit', parent_id: parent.id });
    const user = await createUser({ username: `${marker}_user` });
    const namespaceOf = (await api(`/namespaces/${user.username}`, { token: rootToken() })).body.id;

    // Act + Assess: the subgroup by its parent's path in its full path
    expect((await listed('/namespaces', rootToken(), { search: marker })).sort((a, b) => a - b)).toEqual([parent.id, child.id, namespaceOf].sort((a, b) => a - b));

    // Act: the parent's path changes, and with it the subgroup's full path
    expect((await api(`/groups/${parent.id}`, { method: 'PUT', token: rootToken(), body: { path: `${renamed}-parent` } })).status).toBe(200);

    // Assess
    expect(await listed('/namespaces', rootToken(), { search: `${renamed} child` })).toEqual([child.id]);
    expect((await listed('/namespaces', rootToken(), { search: marker })).sort((a, b) => a - b)).toEqual([parent.id, namespaceOf].sort((a, b) => a - b));
    expect(await listed('/groups', rootToken(), { search: 'child-unit', per_page: '100' })).toContain(child.id);
  });
});
