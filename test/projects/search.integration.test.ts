/**
 * `search=` of the project lists served from the search entries (`SEARCH_PROJECTS#<term>`):
 * GitLab's `Project.search` (every word a case-insensitive substring of the name, path or
 * description), kept in step with edits and deletions, with the list's other filters. The
 * service is shared with other test files: every search names this test's unique markers.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createProject, createUser, unique } from '../support/fixtures';

const ids = (body: Array<{ id: number }>) => body.map((project) => project.id);

async function search(path: string, token: string | undefined, query: Record<string, string>): Promise<number[]> {
  const response = await api(path, { token, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return ids(response.body);
}

describe('GET /projects?search= (search entries)', () => {
  it('finds a project by a word prefix of its name, path or description, case-insensitively', async () => {
    // Prepare
    const owner = await createUser();
    const [byName, byPath, byDescription] = [unique('spn'), unique('spp'), unique('spd')];
    const named = await createProject(owner.token, { name: `Tools ${byName}extra` });
    const pathed = await createProject(owner.token, { name: unique('Plain '), path: `${byPath}-repo` });
    const described = await createProject(owner.token, { name: unique('Other '), description: `Handles ${byDescription} things` });

    // Act + Assess
    expect(await search('/projects', owner.token, { search: byName.toUpperCase() })).toEqual([named.id]);
    expect(await search('/projects', owner.token, { search: byPath })).toEqual([pathed.id]);
    expect(await search('/projects', owner.token, { search: byDescription })).toEqual([described.id]);
    expect(await search(`/projects/search/${byName}`, owner.token, {})).toEqual([named.id]);
  });

  it('requires every word to match in one column', async () => {
    const owner = await createUser();
    const marker = unique('spw');
    const project = await createProject(owner.token, { name: `${marker} Billing Service` });
    expect(await search('/projects', owner.token, { search: `service ${marker}` })).toEqual([project.id]);
    expect(await search('/projects', owner.token, { search: `${marker} shipping` })).toEqual([]);
  });

  it('moves a project whose name and path change, and forgets a deleted one', async () => {
    // Prepare
    const owner = await createUser();
    const [before, after] = [unique('spo'), unique('spr')];
    const project = await createProject(owner.token, { name: `${before} App` });
    expect(await search('/projects', owner.token, { search: before })).toEqual([project.id]);

    // Act: rename
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { name: `${after} App`, path: `${after}-app` } })).status).toBe(200);

    // Assess
    expect(await search('/projects', owner.token, { search: before })).toEqual([]);
    expect(await search('/projects', owner.token, { search: after })).toEqual([project.id]);

    // Act: delete
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assess
    expect(await search('/projects', owner.token, { search: after })).toEqual([]);
    expect(await search('/projects', rootToken(), { search: after })).toEqual([]);
  });

  it('keeps the visibility and the list filters: owned, membership, a group or a user', async () => {
    // Prepare: the same word in a private project, a public one, and a group's project
    const marker = unique('spv');
    const owner = await createUser();
    const stranger = await createUser();
    const privateOne = await createProject(owner.token, { name: `${marker} Secret`, visibility: 'private' });
    const publicOne = await createProject(owner.token, { name: `${marker} Open`, visibility: 'public' });
    const group = await createGroup(owner.token, { visibility: 'public' });
    const inGroup = await createProject(owner.token, { name: `${marker} Grouped`, namespace_id: group.id, visibility: 'public' });
    const asc = { search: marker, order_by: 'id', sort: 'asc' };

    // Act + Assess
    expect(await search('/projects', owner.token, asc)).toEqual([privateOne.id, publicOne.id, inGroup.id]);
    expect(await search('/projects', stranger.token, asc)).toEqual([publicOne.id, inGroup.id]);
    expect(await search('/projects', undefined, asc)).toEqual([publicOne.id, inGroup.id]);
    expect(await search('/projects', stranger.token, { ...asc, membership: 'true' })).toEqual([]);
    expect(await search('/projects', owner.token, { ...asc, owned: 'true' })).toEqual([privateOne.id, publicOne.id, inGroup.id]);
    expect(await search(`/groups/${group.id}/projects`, stranger.token, { search: marker })).toEqual([inGroup.id]);
    expect(await search(`/users/${owner.id}/projects`, owner.token, asc)).toEqual([privateOne.id, publicOne.id]);
    expect(await search('/projects', owner.token, { search: marker, order_by: 'name', sort: 'asc' })).toEqual([inGroup.id, publicOne.id, privateOne.id]);
  });

  it('matches a query shorter than three characters only to a whole name or path', async () => {
    const owner = await createUser();
    const exact = await createProject(owner.token, { name: 'Zq', path: unique('zq') });
    const longer = await createProject(owner.token, { name: `Zqa ${unique('spz')}` });
    const found = await search('/projects', owner.token, { search: 'ZQ', owned: 'true' });
    expect(found).toEqual([exact.id]);
    expect(found).not.toContain(longer.id);
  });
});
