/**
 * The Groups API: groups and subgroups (create, read by id or full path, update, delete), the
 * group and namespace lists, and a group's projects. Every test builds its own users and groups
 * with unique names, so the file runs in parallel with the others against one service.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, type QueryValue } from '../support/api';
import { addMember, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = () => ({ token: rootToken() });
const ids = (body: Array<{ id: number }>) => body.map((g) => g.id);
const GUEST = 10;
const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

type Visibility = 'private' | 'internal' | 'public';

interface TestGroup {
  id: number;
  path: string;
  fullPath: string;
  name: string;
}

/** Creates a group (or subgroup) as `token`'s user, 201 asserted. */
async function newGroup(token: string, body: Record<string, unknown> = {}): Promise<TestGroup> {
  const path = (body.path as string | undefined) ?? unique('grp');
  const name = (body.name as string | undefined) ?? `Group ${path}`;
  const response = await api('/groups', { token, body: { ...body, name, path } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, path, fullPath: response.body.full_path, name };
}

const groupPath = (group: { fullPath: string }) => `/groups/${encodeURIComponent(group.fullPath)}`;

/**
 * Users the tests share (creating a user costs more than the groups of a test): `owner` creates
 * the tests' own groups and projects, and is asked only about those (never for its own lists);
 * `stranger` is signed in and a member of nothing (every write it tries is refused).
 */
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  [owner, stranger] = await Promise.all([createUser(), createUser()]);
});

/** Who calls a write on someone else's private group. */
type Caller = 'anonymous' | 'a stranger' | 'a maintainer' | 'an admin';

/** The token options of `who` for a request on `group`. */
async function callAs(who: Caller, group: TestGroup): Promise<{ token?: string }> {
  if (who === 'anonymous') return {};
  if (who === 'an admin') return root();
  if (who === 'a stranger') return { token: stranger.token };
  const user = await createUser();
  if (who === 'a maintainer') await addMember('groups', group.id, user.id, MAINTAINER);
  return { token: user.token };
}

/** The ids a list returns for `query` (as `token`, or anonymously), one page of 100. */
async function listed(path: string, token: string | undefined, query: Record<string, string | number | boolean> = {}) {
  const response = await api(path, { token, query: { per_page: 100, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return ids(response.body);
}

describe('POST /groups', () => {
  it('creates a private top-level group whose creator is its owner', async () => {
    // Prepare
    const user = await createUser();
    const path = unique('Team');
    // Act
    const response = await api('/groups', { token: user.token, body: { name: 'My Team', path, description: 'about' } });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'My Team',
      path,
      description: 'about',
      visibility: 'private',
      lfs_enabled: true,
      avatar_url: null,
      web_url: expect.stringMatching(new RegExp(`/groups/${path}$`)),
      request_access_enabled: false,
      full_name: 'My Team',
      full_path: path,
      parent_id: null,
      created_at: expect.any(String),
      projects: [],
      shared_projects: [],
      shared_with_groups: [],
    });
    const members = await api(`/groups/${response.body.id}/members`, { token: user.token });
    expect(members.body).toEqual([expect.objectContaining({ id: user.id, access_level: OWNER })]);
  });

  it('accepts every setting, as form fields too', async () => {
    const user = await createUser();
    const path = unique('form');
    const form = new URLSearchParams({ name: 'Form', path, visibility: 'public', lfs_enabled: 'false', request_access_enabled: 'true' });
    const response = await api('/groups', { token: user.token, form });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ path, visibility: 'public', lfs_enabled: false, request_access_enabled: true });
  });

  it.each([
    [{ path: undefined }, 'path is missing'],
    [{ name: undefined }, 'name is missing'],
    [{ name: undefined, path: undefined }, 'name is missing, path is missing'],
    [{ name: '   ' }, 'name is missing'],
    [{ visibility: 'secret' }, 'visibility does not have a valid value'],
    [{ lfs_enabled: 'maybe' }, 'lfs_enabled is invalid'],
    [{ parent_id: 'abc' }, 'parent_id is invalid'],
  ])('rejects %o with 400 {"error": "%s"} and creates nothing', async (override, message) => {
    const path = unique('bad');
    const response = await api('/groups', { ...root(), body: { name: 'Bad', path, ...override } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
    expect((await api(`/groups/${path}`, root())).status).toBe(404);
  });

  it.each([
    [{ path: '-dash' }, { path: [expect.stringContaining("Cannot start with '-'")] }],
    [{ path: 'ends.' }, { path: [expect.stringContaining('can contain only')] }],
    [{ path: 'repo.git' }, { path: [expect.stringContaining('can contain only')] }],
    [{ path: 'feed.ATOM' }, { path: [expect.stringContaining('can contain only')] }],
    [{ path: 'with space' }, { path: [expect.stringContaining('can contain only')] }],
    [{ path: 'a/b' }, { path: [expect.stringContaining('can contain only')] }],
    [{ name: 'bad <name>' }, { name: [expect.stringContaining('can contain only letters')] }],
    [{ path: 'x'.repeat(256) }, { path: ['is too long (maximum is 255 characters)'] }],
    [{ path: 'api' }, { path: ['api is a reserved name'] }],
    [{ path: 'Uploads' }, { path: ['Uploads is a reserved name'] }],
  ])('rejects invalid model fields %o with a validation message', async (override, message) => {
    const body = { name: 'Invalid', path: unique('inv'), ...override };
    const response = await api('/groups', { ...root(), body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it('keeps reserved names apart by place: top-level words are free below, project words are not', async () => {
    const parent = await newGroup(rootToken());
    const below = await api('/groups', { ...root(), body: { name: 'Api', path: 'api', parent_id: parent.id } });
    expect(below.status, JSON.stringify(below.body)).toBe(201);
    const wildcard = await api('/groups', { ...root(), body: { name: 'Tree', path: 'tree', parent_id: parent.id } });
    expect(wildcard.status).toBe(400);
    expect(wildcard.body).toEqual({ message: { path: ['tree is a reserved name'] } });
    const rename = await api(`/groups/${parent.id}`, { ...root(), method: 'PUT', body: { path: 'help' } });
    expect(rename.status).toBe(400);
    expect(rename.body).toEqual({ message: { path: ['help is a reserved name'] } });
    expect((await api(`/groups/${parent.id}`, root())).body.path).toBe(parent.path);
  });

  it('refuses a path already taken by a group, whatever the case', async () => {
    const group = await newGroup(rootToken());
    const response = await api('/groups', { ...root(), body: { name: 'Again', path: group.path.toUpperCase() } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('shares one path space with usernames, in both directions and whatever the case', async () => {
    // Prepare
    const user = await createUser();
    const group = await newGroup(rootToken());
    // Act
    const asGroup = await api('/groups', { ...root(), body: { name: 'Clash', path: user.username.toUpperCase() } });
    const asUser = await api('/users', {
      ...root(),
      body: { username: group.path.toUpperCase(), email: `${unique()}@example.com`, name: 'Clash', password: 'long-enough' },
    });
    // Assess
    expect(asGroup.status).toBe(400);
    expect(asGroup.body).toEqual({ message: { path: ['has already been taken'] } });
    expect(asUser.status).toBe(409);
    expect(asUser.body).toEqual({ message: 'Username has already been taken' });
  });

  it('creates exactly one group when the same path is requested concurrently', async () => {
    const path = unique('race');
    const users = await Promise.all([createUser(), createUser(), createUser()]);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api('/groups', { token: users[i % 3].token, body: { name: `Racer ${i}`, path } })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 400).map((r) => r.body)).toEqual(
      Array.from({ length: 7 }, () => ({ message: { path: ['has already been taken'] } })),
    );
    const winner = responses.find((r) => r.status === 201)!.body;
    expect((await api(`/groups/${path}`, root())).body).toMatchObject({ id: winner.id, name: winner.name });
  });

  it('needs a signed-in user allowed to create groups', async () => {
    const restricted = await createUser({ can_create_group: false });
    const body = { name: 'Nope', path: unique('nope') };
    const anonymous = await api('/groups', { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    const forbidden = await api('/groups', { token: restricted.token, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: '403 Forbidden' });
    expect((await api(`/groups/${body.path}`, root())).status).toBe(404);
  });

  describe('subgroups (parent_id)', () => {
    it('creates a subgroup below its parent: full path, full name, parent id', async () => {
      const parent = await newGroup(owner.token, { name: 'Parent', visibility: 'internal' });
      const response = await api('/groups', { token: owner.token, body: { name: 'Child', path: 'child', parent_id: parent.id } });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        path: 'child',
        full_path: `${parent.path}/child`,
        full_name: 'Parent / Child',
        parent_id: parent.id,
        visibility: 'private',
        web_url: expect.stringMatching(new RegExp(`/groups/${parent.path}/child$`)),
      });
      const grandchild = await newGroup(owner.token, { name: 'Grandchild', path: 'gc', parent_id: response.body.id });
      const shown = await api(`/groups/${encodeURIComponent(`${parent.path}/child/gc`)}`, { token: owner.token });
      expect(shown.body).toMatchObject({ id: grandchild.id, full_name: 'Parent / Child / Grandchild' });
    });

    it('lets the same path exist below different parents, but not twice below one', async () => {
      const [a, b] = [await newGroup(owner.token), await newGroup(owner.token)];
      await newGroup(owner.token, { path: 'docs', parent_id: a.id });
      await newGroup(owner.token, { path: 'docs', parent_id: b.id });
      const again = await api('/groups', { token: owner.token, body: { name: 'Docs', path: 'DOCS', parent_id: a.id } });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('refuses a subgroup path used by a project of the parent, and the reverse', async () => {
      const parent = await newGroup(owner.token);
      const project = await createProject(owner.token, { path: unique('app'), namespace_id: parent.id });
      const subgroup = await api('/groups', { token: owner.token, body: { name: 'X', path: project.path, parent_id: parent.id } });
      expect(subgroup.status).toBe(400);
      expect(subgroup.body).toEqual({ message: { path: ['has already been taken'] } });
      const child = await newGroup(owner.token, { parent_id: parent.id });
      const clash = await api('/projects', { token: owner.token, body: { path: child.path, namespace_id: parent.id } });
      expect(clash.status).toBe(400);
    });

    it('refuses a subgroup more visible than its parent', async () => {
      const parent = await newGroup(owner.token, { visibility: 'internal' });
      const response = await api('/groups', { token: owner.token, body: { name: 'Pub', path: unique('pub'), parent_id: parent.id, visibility: 'public' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: { visibility_level: ['public is not allowed since the parent group has a internal visibility.'] },
      });
    });

    it.each([
      ['a maintainer of the parent', MAINTAINER, 403],
      ['a guest of the parent', GUEST, 403],
      ['a stranger to the private parent', 0, 404],
    ])('refuses %s', async (_, level, status) => {
      const caller = await createUser();
      const parent = await newGroup(owner.token);
      if (level) await addMember('groups', parent.id, caller.id, level);
      const response = await api('/groups', { token: caller.token, body: { name: 'Sub', path: unique('sub'), parent_id: parent.id } });
      expect(response.status).toBe(status);
      expect(response.body).toEqual(status === 404 ? { message: '404 Group Not Found' } : { message: '403 Forbidden' });
    });

    it('lets an inherited owner and an admin create subgroups, and 404s an unknown parent', async () => {
      const parent = await newGroup(owner.token);
      const child = await newGroup(owner.token, { parent_id: parent.id });
      await newGroup(owner.token, { parent_id: child.id });
      await newGroup(rootToken(), { parent_id: child.id });
      const unknown = await api('/groups', { ...root(), body: { name: 'X', path: unique('x'), parent_id: 999999999 } });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 Group Not Found' });
    });
  });
});

describe('GET /groups/:id', () => {
  it('finds a group by id and by URL-encoded full path, case-insensitively', async () => {
    const parent = await newGroup(owner.token);
    const child = await newGroup(owner.token, { parent_id: parent.id });
    for (const ref of [String(child.id), encodeURIComponent(child.fullPath), encodeURIComponent(child.fullPath.toUpperCase())]) {
      const response = await api(`/groups/${ref}`, { token: owner.token });
      expect(response.status, ref).toBe(200);
      expect(response.body).toMatchObject({ id: child.id, full_path: `${parent.path}/${child.path}`, parent_id: parent.id });
    }
  });

  it('embeds the projects the caller may see and the projects shared with the group', async () => {
    // Prepare
    const group = await newGroup(owner.token, { visibility: 'public' });
    const open = await createProject(owner.token, { namespace_id: group.id, visibility: 'public' });
    const hidden = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const other = await createUser();
    const shared = await createProject(other.token, { visibility: 'internal' });
    const share = await api(`/projects/${shared.id}/share`, { token: other.token, body: { group_id: group.id, group_access: DEVELOPER } });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    // Act
    const asOwner = await api(`/groups/${group.id}`, { token: owner.token });
    const asStranger = await api(`/groups/${group.id}`, { token: stranger.token });
    const anonymous = await api(`/groups/${group.id}`);
    // Assess
    expect(ids(asOwner.body.projects).sort()).toEqual([open.id, hidden.id].sort());
    expect(asOwner.body.projects[0]).toMatchObject({ namespace: { id: group.id, kind: 'group', full_path: group.fullPath } });
    expect(ids(asOwner.body.shared_projects)).toEqual([shared.id]);
    expect(ids(asStranger.body.projects)).toEqual([open.id]);
    expect(ids(asStranger.body.shared_projects)).toEqual([shared.id]);
    expect(ids(anonymous.body.projects)).toEqual([open.id]);
    expect(anonymous.body.shared_projects).toEqual([]);
  });

  it('leaves the projects out with with_projects=false', async () => {
    const group = await newGroup(rootToken());
    const response = await api(`/groups/${group.id}`, { ...root(), query: { with_projects: false } });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('projects');
    expect(response.body).toMatchObject({ id: group.id, full_path: group.fullPath });
  });

  describe.each<[Visibility, { anonymous: number; stranger: number; external: number }]>([
    ['public', { anonymous: 200, stranger: 200, external: 200 }],
    ['internal', { anonymous: 404, stranger: 200, external: 404 }],
    ['private', { anonymous: 404, stranger: 404, external: 404 }],
  ])('a %s group', (visibility, expected) => {
    it(`answers anonymous ${expected.anonymous}, a signed-in stranger ${expected.stranger}, an external user ${expected.external}`, async () => {
      const external = await createUser({ external: true });
      const group = await newGroup(owner.token, { visibility });
      const statuses = {
        anonymous: (await api(`/groups/${group.id}`)).status,
        stranger: (await api(`/groups/${group.id}`, { token: stranger.token })).status,
        external: (await api(groupPath(group), { token: external.token })).status,
      };
      expect(statuses).toEqual(expected);
    });
  });

  it('shows a private group to its members, to members of an ancestor and to admins only', async () => {
    const guest = await createUser();
    const parent = await newGroup(owner.token);
    const child = await newGroup(owner.token, { parent_id: parent.id });
    await addMember('groups', parent.id, guest.id, GUEST);
    expect((await api(`/groups/${child.id}`, { token: guest.token })).status).toBe(200);
    expect((await api(`/groups/${child.id}`, root())).status).toBe(200);
    const hidden = await api(groupPath(child), { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
  });

  it('answers 404 for unknown ids and paths, and for a user namespace path', async () => {
    for (const ref of ['999999999', unique('nowhere'), encodeURIComponent(`${unique('a')}/b`), stranger.username]) {
      const response = await api(`/groups/${ref}`, root());
      expect(response.status, ref).toBe(404);
      expect(response.body).toEqual({ message: '404 Group Not Found' });
    }
  });
});

describe('PUT /groups/:id', () => {
  it('lets an owner change the settings', async () => {
    const group = await newGroup(owner.token);
    const response = await api(`/groups/${group.id}`, {
      method: 'PUT',
      token: owner.token,
      body: { name: 'Renamed', description: 'new', visibility: 'internal', lfs_enabled: false, request_access_enabled: true },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: group.id,
      name: 'Renamed',
      full_name: 'Renamed',
      path: group.path,
      description: 'new',
      visibility: 'internal',
      lfs_enabled: false,
      request_access_enabled: true,
      projects: [],
    });
    expect((await api(`/groups/${group.id}`, { token: owner.token })).body).toMatchObject({ name: 'Renamed', visibility: 'internal' });
  });

  it.each<[Caller, number]>([
    ['anonymous', 401],
    ['a stranger', 404],
    ['a maintainer', 403],
    ['an admin', 200],
  ])('answers %s with %d', async (who, status) => {
    const group = await newGroup(owner.token);
    const response = await api(`/groups/${group.id}`, { method: 'PUT', ...(await callAs(who, group)), body: { description: 'changed' } });
    expect(response.status).toBe(status);
    const after = await api(`/groups/${group.id}`, root());
    expect(after.body.description).toBe(status === 200 ? 'changed' : '');
  });

  it('rejects invalid settings with 400 and changes nothing', async () => {
    const group = await newGroup(owner.token);
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ name: '' }, { message: { name: ["can't be blank"] } }],
      [{ path: '' }, { message: { path: ["can't be blank"] } }],
      [{ path: 'bad.git' }, { message: { path: [expect.stringContaining('can contain only')] } }],
      [{ visibility: 'hidden' }, { error: 'visibility does not have a valid value' }],
    ];
    for (const [body, error] of cases) {
      const response = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual(error);
    }
    expect((await api(`/groups/${group.id}`, { token: owner.token })).body).toMatchObject({ name: group.name, path: group.path });
  });

  it('changes the path: the new path resolves, the old one is free again', async () => {
    const group = await newGroup(owner.token);
    const path = unique('moved');
    const response = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { path } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ path, full_path: path, web_url: expect.stringMatching(new RegExp(`/groups/${path}$`)) });
    expect((await api(`/groups/${path}`, { token: owner.token })).body.id).toBe(group.id);
    expect((await api(`/groups/${group.path}`, { token: owner.token })).status).toBe(404);
    await newGroup(owner.token, { path: group.path });
  });

  it('changes only the case of the path', async () => {
    const group = await newGroup(owner.token, { path: unique('case') });
    const response = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { path: group.path.toUpperCase() } });
    expect(response.status).toBe(200);
    expect(response.body.full_path).toBe(group.path.toUpperCase());
    expect((await api(`/groups/${group.path}`, { token: owner.token })).body.id).toBe(group.id);
  });

  it('refuses a path taken by another group or a user, whatever the case', async () => {
    const [group, taken] = [await newGroup(owner.token), await newGroup(owner.token)];
    for (const path of [taken.path.toUpperCase(), stranger.username]) {
      const response = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { path } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: { path: ['has already been taken'] } });
    }
    expect((await api(`/groups/${group.id}`, { token: owner.token })).body.path).toBe(group.path);
  });

  it('lets exactly one of two groups take a free path concurrently', async () => {
    const [a, b] = [await newGroup(owner.token), await newGroup(owner.token)];
    const path = unique('contested');
    const responses = await Promise.all(
      [a, b].map((group) => api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { path } })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('moves every descendant along with a renamed group', async () => {
    // Prepare: top/{a/{a1,a2}, b} and a project in a1
    const top = await newGroup(owner.token, { name: 'Top' });
    const a = await newGroup(owner.token, { path: 'a', name: 'A', parent_id: top.id });
    const a1 = await newGroup(owner.token, { path: 'a1', parent_id: a.id });
    const a2 = await newGroup(owner.token, { path: 'a2', parent_id: a.id });
    const b = await newGroup(owner.token, { path: 'b', parent_id: top.id });
    const project = await createProject(owner.token, { path: 'app', namespace_id: a1.id });
    const path = unique('renamed');
    // Act
    const response = await api(`/groups/${top.id}`, { method: 'PUT', token: owner.token, body: { path } });
    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const expected: Array<[TestGroup, string]> = [[a, `${path}/a`], [a1, `${path}/a/a1`], [a2, `${path}/a/a2`], [b, `${path}/b`]];
    for (const [group, fullPath] of expected) {
      const byNewPath = await api(`/groups/${encodeURIComponent(fullPath)}`, { token: owner.token });
      expect(byNewPath.body, fullPath).toMatchObject({ id: group.id, full_path: fullPath });
      expect((await api(groupPath(group), { token: owner.token })).status, group.fullPath).toBe(404);
    }
    const moved = await api(`/projects/${encodeURIComponent(`${path}/a/a1/app`)}`, { token: owner.token });
    expect(moved.body).toMatchObject({ id: project.id, path_with_namespace: `${path}/a/a1/app` });
    // The old paths are free again, and the moved tree accepts new subgroups.
    await newGroup(owner.token, { path: top.path });
    await newGroup(owner.token, { path: 'a3', parent_id: a.id });
    // Renaming a subgroup moves its own descendants only.
    const renamedA = await api(`/groups/${a.id}`, { method: 'PUT', token: owner.token, body: { path: 'alpha' } });
    expect(renamedA.body.full_path).toBe(`${path}/alpha`);
    expect((await api(`/groups/${a1.id}`, { token: owner.token })).body.full_path).toBe(`${path}/alpha/a1`);
    expect((await api(`/groups/${b.id}`, { token: owner.token })).body.full_path).toBe(`${path}/b`);
  });

  it('never leaves a subgroup created during a rename at the old path', async () => {
    // Prepare
    const top = await newGroup(owner.token);
    const child = await newGroup(owner.token, { path: 'child', parent_id: top.id });
    const path = unique('during');
    // Act: rename the top group while subgroups are created below its child.
    const [rename, ...creations] = await Promise.all([
      api(`/groups/${top.id}`, { method: 'PUT', token: owner.token, body: { path } }),
      ...Array.from({ length: 6 }, (_, i) =>
        api('/groups', { token: owner.token, body: { name: `Sub ${i}`, path: `sub${i}`, parent_id: child.id } }),
      ),
    ]);
    // Assess: each creation either happened (before, during or after) or was refused as busy.
    expect(rename.status, JSON.stringify(rename.body)).toBe(200);
    for (const creation of creations) {
      expect([201, 409], JSON.stringify(creation.body)).toContain(creation.status);
      if (creation.status !== 201) continue;
      const shown = await api(`/groups/${creation.body.id}`, { token: owner.token });
      expect(shown.body.full_path).toBe(`${path}/child/${creation.body.path}`);
      expect((await api(groupPath({ fullPath: shown.body.full_path }), { token: owner.token })).body.id).toBe(creation.body.id);
    }
  });

  it('refuses to rename a subgroup to the path of a project of its parent', async () => {
    const parent = await newGroup(owner.token);
    const child = await newGroup(owner.token, { parent_id: parent.id });
    const project = await createProject(owner.token, { namespace_id: parent.id });
    const response = await api(`/groups/${child.id}`, { method: 'PUT', token: owner.token, body: { path: project.path } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('keeps visibility within the parent’s and above the subgroups’ and projects’', async () => {
    const parent = await newGroup(owner.token, { visibility: 'internal' });
    const child = await newGroup(owner.token, { parent_id: parent.id, visibility: 'internal' });
    const put = (id: number, visibility: Visibility) => api(`/groups/${id}`, { method: 'PUT', token: owner.token, body: { visibility } });

    const aboveParent = await put(child.id, 'public');
    expect(aboveParent.status).toBe(400);
    expect(aboveParent.body).toEqual({ message: { visibility_level: ['public is not allowed since the parent group has a internal visibility.'] } });

    const belowChild = await put(parent.id, 'private');
    expect(belowChild.status).toBe(400);
    expect(belowChild.body).toEqual({ message: { visibility_level: ['private is not allowed since there are sub-groups with higher visibility.'] } });

    await createProject(owner.token, { namespace_id: child.id, visibility: 'internal' });
    const belowProject = await put(child.id, 'private');
    expect(belowProject.status).toBe(400);
    expect(belowProject.body).toEqual({ message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] } });

    expect((await put(parent.id, 'public')).status).toBe(200);
    expect((await put(child.id, 'public')).status).toBe(200);
  });
});

describe('DELETE /groups/:id', () => {
  it('deletes the group with its subgroups, projects, memberships and shares, and frees the paths', async () => {
    // Prepare
    const member = await createUser();
    const group = await newGroup(owner.token);
    const child = await newGroup(owner.token, { parent_id: group.id });
    const grandchild = await newGroup(owner.token, { parent_id: child.id });
    const projects = [
      await createProject(owner.token, { namespace_id: group.id }),
      await createProject(owner.token, { namespace_id: grandchild.id }),
    ];
    await addMember('groups', child.id, member.id, DEVELOPER);
    const outsider = await createUser();
    const shared = await createProject(outsider.token);
    const share = await api(`/projects/${shared.id}/share`, { ...root(), body: { group_id: child.id, group_access: DEVELOPER } });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    // Act
    const response = await api(`/groups/${encodeURIComponent(group.fullPath)}`, { method: 'DELETE', token: owner.token });
    // Assess
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: '202 Accepted' });
    expect((await api(`/groups/${group.id}`, root())).status).toBe(404);
    // The tree goes in the background (the jobs worker).
    await eventually(async () => {
      for (const gone of [group, child, grandchild]) {
        expect((await api(`/groups/${gone.id}`, root())).status).toBe(404);
        expect((await api(groupPath(gone), root())).status).toBe(404);
      }
      for (const project of projects) expect((await api(`/projects/${project.id}`, root())).status).toBe(404);
      expect(await listed('/groups', member.token)).toEqual([]);
      expect((await api(`/projects/${shared.id}`, { token: outsider.token })).body.shared_with_groups).toEqual([]);
      // The full paths can be used again.
      expect((await api('/groups', { token: owner.token, body: { path: group.path, name: group.path } })).status).toBe(201);
    });
    const again = (await api(groupPath(group), root())).body;
    await newGroup(owner.token, { path: child.path, parent_id: again.id });
  });

  it.each<[Caller, number]>([
    ['anonymous', 401],
    ['a stranger', 404],
    ['a maintainer', 403],
    ['an admin', 202],
  ])('answers %s with %d', async (who, status) => {
    const group = await newGroup(owner.token);
    const response = await api(`/groups/${group.id}`, { method: 'DELETE', ...(await callAs(who, group)) });
    expect(response.status).toBe(status);
    expect((await api(`/groups/${group.id}`, root())).status).toBe(status === 202 ? 404 : 200);
  });

  it('deletes a subgroup alone, and its parent can then be deleted too', async () => {
    const parent = await newGroup(owner.token);
    const [one, two] = [await newGroup(owner.token, { parent_id: parent.id }), await newGroup(owner.token, { parent_id: parent.id })];
    expect((await api(`/groups/${one.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);
    expect((await api(`/groups/${two.id}`, { token: owner.token })).status).toBe(200);
    expect((await api(`/groups/${parent.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);
    await eventually(async () => expect((await api(`/groups/${two.id}`, root())).status).toBe(404));
  });
});

describe('GET /groups', () => {
  /** A user who is a member of one private group (and so of its subgroup), and groups of every visibility. */
  async function world() {
    const marker = unique('w');
    const member = await createUser();
    const make = (visibility: Visibility, extra: Record<string, unknown> = {}) =>
      newGroup(owner.token, { path: `${marker}-${visibility}-${unique('')}`, name: `${marker} ${visibility}`, visibility, ...extra });
    const pub = await make('public');
    const internal = await make('internal');
    const priv = await make('private');
    const sub = await make('private', { parent_id: priv.id });
    await addMember('groups', priv.id, member.id, DEVELOPER);
    return { marker, owner, member, pub, internal, priv, sub };
  }
  // Read, never changed, by the tests below but one (which builds its own).
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
  });

  it('shows anonymous callers the public groups only', async () => {
    expect(await listed('/groups', undefined, { search: w.marker })).toEqual([w.pub.id]);
  });

  it('shows a user the groups they are a member of (with subgroups), or all they may see with all_available', async () => {
    expect((await listed('/groups', w.member.token, { search: w.marker })).sort()).toEqual([w.priv.id, w.sub.id].sort());
    expect((await listed('/groups', w.member.token, { search: w.marker, all_available: true })).sort()).toEqual(
      [w.pub.id, w.internal.id, w.priv.id, w.sub.id].sort(),
    );
    expect(await listed('/groups', stranger.token, { search: w.marker })).toEqual([]);
    expect((await listed('/groups', stranger.token, { search: w.marker, all_available: true })).sort()).toEqual([w.pub.id, w.internal.id].sort());
    const external = await createUser({ external: true });
    expect(await listed('/groups', external.token, { search: w.marker, all_available: true })).toEqual([w.pub.id]);
  });

  it('shows admins every group, or only theirs with all_available=false', async () => {
    expect((await listed('/groups', rootToken(), { search: w.marker })).sort()).toEqual([w.pub.id, w.internal.id, w.priv.id, w.sub.id].sort());
    expect(await listed('/groups', rootToken(), { search: w.marker, all_available: false })).toEqual([]);
  });

  it('filters by owned, min_access_level, top_level_only and skip_groups', async () => {
    // A world of its own: the member becomes an owner of one group.
    const own = await world();
    await addMember('groups', own.pub.id, own.member.id, OWNER);
    expect(await listed('/groups', own.member.token, { search: own.marker, owned: true })).toEqual([own.pub.id]);
    expect((await listed('/groups', own.member.token, { search: own.marker, min_access_level: DEVELOPER })).sort()).toEqual(
      [own.pub.id, own.priv.id, own.sub.id].sort(),
    );
    expect(await listed('/groups', own.member.token, { search: own.marker, min_access_level: MAINTAINER })).toEqual([own.pub.id]);
    expect((await listed('/groups', own.member.token, { search: own.marker, top_level_only: true })).sort()).toEqual([own.pub.id, own.priv.id].sort());
    const skipped = await api('/groups', { token: own.member.token, query: new URLSearchParams([['search', own.marker], ['skip_groups[]', String(own.pub.id)], ['skip_groups[]', String(own.sub.id)]]) });
    expect(ids(skipped.body)).toEqual([own.priv.id]);
  });

  it('orders by name (default), path or id, ascending or descending', async () => {
    const marker = unique('ord');
    const names = ['bravo', 'Alpha', 'charlie'];
    const created: TestGroup[] = [];
    for (const [i, name] of names.entries()) {
      created.push(await newGroup(rootToken(), { name: `${marker} ${name}`, path: `${marker}-${3 - i}`, visibility: 'public' }));
    }
    const [bravo, alpha, charlie] = created;
    expect(await listed('/groups', undefined, { search: marker })).toEqual([alpha.id, bravo.id, charlie.id]);
    expect(await listed('/groups', undefined, { search: marker, sort: 'desc' })).toEqual([charlie.id, bravo.id, alpha.id]);
    expect(await listed('/groups', undefined, { search: marker, order_by: 'path' })).toEqual([charlie.id, alpha.id, bravo.id]);
    expect(await listed('/groups', rootToken(), { search: marker, order_by: 'id', sort: 'desc' })).toEqual([charlie.id, alpha.id, bravo.id]);
    const invalid = await api('/groups', { query: { order_by: 'size' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('pages with GitLab headers, offset and keyset', async () => {
    const marker = unique('page');
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await newGroup(rootToken(), { name: `${marker} ${i}`, path: `${marker}-${i}` })).id);
    const first = await api('/groups', { ...root(), query: { search: marker, per_page: 2 } });
    expect(ids(first.body)).toEqual(created.slice(0, 2));
    expect(first.headers.get('x-total')).toBe('5');
    expect(first.headers.get('x-total-pages')).toBe('3');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-per-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    const last = await api('/groups', { ...root(), query: { search: marker, per_page: 2, page: 3 } });
    expect(ids(last.body)).toEqual(created.slice(4));
    expect(last.headers.get('x-next-page')).toBe('');
    expect(last.headers.get('x-prev-page')).toBe('2');

    // Keyset, for a member list (in memory) and the admin index (order_by=id).
    for (const query of [{ order_by: 'name' }, { order_by: 'id' }]) {
      const seen: number[] = [];
      let next: string | undefined = `/groups?${new URLSearchParams({ search: marker, per_page: '2', pagination: 'keyset', ...query })}`;
      while (next) {
        const response: { status: number; body: Array<{ id: number }>; headers: Headers } = await api(next.replace(/^.*\/api\/v4/, ''), root());
        expect(response.status).toBe(200);
        seen.push(...ids(response.body));
        next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      }
      expect(seen, JSON.stringify(query)).toEqual(created);
    }
  });
});

describe('GET /groups/:id/projects', () => {
  it('lists the group’s projects the caller may see, archived ones only when asked', async () => {
    // Prepare
    const group = await newGroup(owner.token, { visibility: 'public' });
    const open = await createProject(owner.token, { namespace_id: group.id, visibility: 'public', name: 'Open one' });
    const internal = await createProject(owner.token, { namespace_id: group.id, visibility: 'internal' });
    const hidden = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const archived = await createProject(owner.token, { namespace_id: group.id, visibility: 'public' });
    expect((await api(`/projects/${archived.id}/archive`, { method: 'POST', token: owner.token })).status).toBe(201);
    await createProject(owner.token, { visibility: 'public' }); // elsewhere
    // Act / Assess
    expect(await listed(`/groups/${group.id}/projects`, owner.token)).toEqual([hidden.id, internal.id, open.id]);
    expect(await listed(`/groups/${group.id}/projects`, stranger.token)).toEqual([internal.id, open.id]);
    expect(await listed(groupPath(group) + '/projects', undefined)).toEqual([open.id]);
    expect(await listed(`/groups/${group.id}/projects`, owner.token, { archived: true })).toEqual([archived.id]);
    expect(await listed(`/groups/${group.id}/projects`, owner.token, { visibility: 'internal' })).toEqual([internal.id]);
    expect(await listed(`/groups/${group.id}/projects`, owner.token, { search: 'open' })).toEqual([open.id]);
    expect(await listed(`/groups/${group.id}/projects`, owner.token, { order_by: 'id', sort: 'asc' })).toEqual([open.id, internal.id, hidden.id]);
  });

  it('returns the simple form and pages with headers', async () => {
    const group = await newGroup(owner.token);
    const projects = [];
    for (let i = 0; i < 3; i++) projects.push(await createProject(owner.token, { namespace_id: group.id }));
    const response = await api(`/groups/${group.id}/projects`, { token: owner.token, query: { simple: true, per_page: 2 } });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    expect(Object.keys(response.body[0]).sort()).toEqual(
      ['created_at', 'http_url_to_repo', 'id', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'ssh_url_to_repo', 'web_url'],
    );
    expect(response.headers.get('x-next-page')).toBe('2');
    expect(response.headers.get('x-total')).toBe('3');
  });

  it('answers 404 for a private group the caller cannot see', async () => {
    const group = await newGroup(owner.token);
    await createProject(owner.token, { namespace_id: group.id });
    const response = await api(`/groups/${group.id}/projects`, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Group Not Found' });
    expect((await api(`/groups/${group.id}/projects`)).status).toBe(404);
  });
});

describe('GET /namespaces', () => {
  it('lists the user’s own namespace and the groups they are a member of', async () => {
    const user = await createUser();
    const mine = await newGroup(user.token);
    const joined = await newGroup(owner.token);
    await newGroup(owner.token, { visibility: 'public' }); // visible, but not a membership
    await addMember('groups', joined.id, user.id, GUEST);
    const response = await api('/namespaces', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: expect.any(Number), name: user.username, path: user.username, kind: 'user', full_path: user.username, parent_id: null, avatar_url: null },
      { id: mine.id, name: mine.name, path: mine.path, kind: 'group', full_path: mine.fullPath, parent_id: null, avatar_url: null },
      { id: joined.id, name: joined.name, path: joined.path, kind: 'group', full_path: joined.fullPath, parent_id: null, avatar_url: null },
    ]);
    expect(ids((await api('/namespaces', { token: user.token, query: { search: joined.path } })).body)).toEqual([joined.id]);
  });

  it('lists every namespace for admins, searchable and paged', async () => {
    const marker = unique('ns');
    const user = await createUser({ username: `${marker}user` });
    const group = await newGroup(user.token, { path: `${marker}-group` });
    const child = await newGroup(user.token, { path: 'child', parent_id: group.id });
    const response = await api('/namespaces', { ...root(), query: { search: marker } });
    expect(response.status).toBe(200);
    expect(response.body.map((n: { full_path: string }) => n.full_path)).toEqual([user.username, group.fullPath, child.fullPath]);
    expect(response.body[2]).toMatchObject({ kind: 'group', parent_id: group.id });
    const paged = await api('/namespaces', { ...root(), query: { search: marker, per_page: 1, page: 2 } });
    expect(paged.body.map((n: { id: number }) => n.id)).toEqual([group.id]);
    expect(paged.headers.get('x-prev-page')).toBe('1');
    expect(paged.headers.get('x-next-page')).toBe('3');
  });

  it('needs a token', async () => {
    const response = await api('/namespaces');
    expect(response.status).toBe(401);
  });
});

describe('GET /groups/:id/subgroups and /groups/:id/descendant_groups', () => {
  /** top (private) → a (public), b (private) ; a → a1 (private); member: developer in a only. */
  async function tree() {
    const member = await createUser();
    const top = await newGroup(owner.token, { visibility: 'public' });
    const a = await newGroup(owner.token, { parent_id: top.id, path: unique('alpha'), visibility: 'public' });
    const b = await newGroup(owner.token, { parent_id: top.id, path: unique('beta'), visibility: 'private' });
    const a1 = await newGroup(owner.token, { parent_id: a.id, path: unique('alpha-one'), visibility: 'private' });
    await addMember('groups', a.id, member.id, DEVELOPER);
    return { owner, member, top, a, b, a1 };
  }
  // Read, never changed, by the tests below.
  let t: Awaited<ReturnType<typeof tree>>;
  beforeAll(async () => {
    t = await tree();
  });

  it('lists the direct subgroups an owner may read, sorted by name, with GitLab headers', async () => {
    const response = await api(`/groups/${t.top.id}/subgroups`, { token: t.owner.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(ids(response.body)).toEqual([t.a.id, t.b.id]);
    expect(response.body[0]).toMatchObject({ id: t.a.id, parent_id: t.top.id, full_path: t.a.fullPath });
    expect(response.headers.get('x-total')).toBe('2');
  });

  it('lists every descendant, and only what the caller may read', async () => {
    const owner = await api(`/groups/${t.top.id}/descendant_groups`, { token: t.owner.token, query: { order_by: 'id' } });
    const member = await api(`/groups/${encodeURIComponent(t.top.fullPath)}/descendant_groups`, { token: t.member.token, query: { order_by: 'id' } });
    const anonymous = await api(`/groups/${t.top.id}/descendant_groups`);
    expect(ids(owner.body)).toEqual([t.a.id, t.b.id, t.a1.id]);
    // The member of `a` reads `a` and, through it, its private subgroup; not the private sibling.
    expect(ids(member.body)).toEqual([t.a.id, t.a1.id]);
    expect(ids(anonymous.body)).toEqual([t.a.id]);
  });

  it('filters by search, skip_groups and min_access_level, and sorts descending', async () => {
    const list = (query: Record<string, QueryValue>, token = t.owner.token) => api(`/groups/${t.top.id}/descendant_groups`, { token, query });
    expect(ids((await list({ search: 'alpha', order_by: 'id' })).body)).toEqual([t.a.id, t.a1.id]);
    expect(ids((await list({ skip_groups: [t.b.id], order_by: 'id', sort: 'desc' })).body)).toEqual([t.a1.id, t.a.id]);
    expect(ids((await list({ min_access_level: DEVELOPER }, t.member.token)).body).sort()).toEqual([t.a.id, t.a1.id].sort());
    expect(ids((await list({ owned: true }, t.member.token)).body)).toEqual([]);
  });

  it('answers 404 Group Not Found for a group the caller may not read', async () => {
    const hidden = await newGroup(owner.token, { visibility: 'private' });
    const response = await api(`/groups/${hidden.id}/subgroups`, { token: stranger.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Group Not Found' });
  });
});
