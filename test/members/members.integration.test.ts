/**
 * The Members API of groups and projects: listing, reading, adding, editing and removing direct
 * members; who may do it; GitLab's error bodies; pagination; and the invariants that must hold
 * under concurrency (one membership per user, a group never loses its last owner).
 */
import { Gitlab } from '@gitbeaker/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = () => ({ token: rootToken() });
const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

type Visibility = 'private' | 'internal' | 'public';
type Kind = 'groups' | 'projects';

/** A day relative to today (UTC), as `YYYY-MM-DD`. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Creates a top-level group as `owner` (its creator, hence its first owner). */
async function createGroup(owner: TestUser, visibility: Visibility = 'private'): Promise<{ id: number; fullPath: string }> {
  const path = unique('grp');
  const response = await api('/groups', { token: owner.token, body: { name: `Group ${path}`, path, visibility } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, fullPath: response.body.full_path ?? path };
}

/** Creates a project in `owner`'s personal namespace (the owner has access 50 through it, and is listed as a member at 50). */
async function createProject(
  owner: TestUser,
  visibility: Visibility = 'private',
  extra: Record<string, unknown> = {},
): Promise<{ id: number; fullPath: string }> {
  const name = unique('prj');
  const response = await api('/projects', { token: owner.token, body: { name, visibility, ...extra } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, fullPath: response.body.path_with_namespace };
}

/** Adds `user` to a group or project as root, asserting 201. */
async function addMember(kind: Kind, sourceId: number, user: { id: number }, accessLevel: number, extra: Record<string, unknown> = {}) {
  const response = await api(`/${kind}/${sourceId}/members`, { ...root(), body: { user_id: user.id, access_level: accessLevel, ...extra } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** The user ids of a source's members, as root sees them. */
async function memberIds(kind: Kind, sourceId: number): Promise<number[]> {
  const response = await api(`/${kind}/${sourceId}/members`, { ...root(), query: { per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body.map((member: { id: number }) => member.id);
}

/** The access levels of a group's members, by user id. */
async function levels(groupId: number): Promise<Record<number, number>> {
  const response = await api(`/groups/${groupId}/members`, { ...root(), query: { per_page: 100 } });
  return Object.fromEntries(response.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]));
}

/**
 * Users the tests share (creating a user is most of a test's cost here): `owner` creates each
 * test's own projects and groups, so a source's member list holds only what that test added (and
 * `owner`, created first, has the lowest id); `stranger` is signed in and a member of nothing
 * (every write it tries is refused).
 */
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  owner = await createUser();
  stranger = await createUser();
});

/** A private project of `owner`, with one member of each project level. */
async function projectWithRoles() {
  const project = await createProject(owner);
  const [guest, reporter, developer, maintainer] = await Promise.all(Array.from({ length: 4 }, () => createUser()));
  await addMember('projects', project.id, guest, GUEST);
  await addMember('projects', project.id, reporter, REPORTER);
  await addMember('projects', project.id, developer, DEVELOPER);
  await addMember('projects', project.id, maintainer, MAINTAINER);
  return { owner, project, guest, reporter, developer, maintainer, outsider: stranger };
}

describe('GET /projects/:id/members', () => {
  it('lists the members in the Member form, by user id (the personal namespace\'s owner first here)', async () => {
    // Prepare
    const project = await createProject(owner);
    // Created one after the other, so that a's id is the lower one.
    const a = await createUser();
    const b = await createUser();
    const before = new Date().toISOString();
    await addMember('projects', project.id, b, REPORTER, { expires_at: day(30) });
    await addMember('projects', project.id, a, DEVELOPER);

    // Act
    const response = await api(`/projects/${project.id}/members`, { token: owner.token });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      expect.objectContaining({ id: owner.id, username: owner.username, access_level: OWNER, expires_at: null }),
      {
        id: a.id,
        username: a.username,
        name: `Test ${a.username}`,
        state: 'active',
        avatar_url: null,
        web_url: `${baseUrl()}/${a.username}`,
        access_level: DEVELOPER,
        created_at: expect.any(String),
        expires_at: null,
      },
      expect.objectContaining({ id: b.id, username: b.username, access_level: REPORTER, expires_at: day(30) }),
    ]);
    // created_at is the membership's, not the user's sign-up.
    expect(response.body[1].created_at >= before).toBe(true);
  });

  it('filters by username or name with query, case-insensitively', async () => {
    const project = await createProject(owner);
    const tag = unique('q').toUpperCase();
    const [byUsername, byName, other] = await Promise.all([
      createUser({ username: `${tag.toLowerCase()}x` }),
      createUser({ name: `Someone ${tag}` }),
      createUser(),
    ]);
    for (const user of [byUsername, byName, other]) await addMember('projects', project.id, user, GUEST);

    const response = await api(`/projects/${project.id}/members`, { token: owner.token, query: { query: tag.toLowerCase() } });

    expect(response.status).toBe(200);
    expect(response.body.map((m: { id: number }) => m.id)).toEqual([byUsername.id, byName.id].sort((x, y) => x - y));
    expect(response.headers.get('x-total')).toBe('2');
  });

  it('pages with GitLab headers', async () => {
    const project = await createProject(owner);
    const users = await Promise.all(Array.from({ length: 3 }, () => createUser()));
    for (const user of users) await addMember('projects', project.id, user, GUEST);
    // The personal namespace's owner is a member too (created first, so the lowest id).
    const ids = [owner.id, ...users.map((u) => u.id).sort((x, y) => x - y)];

    const first = await api(`/projects/${project.id}/members`, { token: owner.token, query: { per_page: 2 } });
    const second = await api(`/projects/${project.id}/members`, { token: owner.token, query: { per_page: 2, page: 2 } });

    expect(first.status).toBe(200);
    expect(first.body.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 2));
    expect(first.headers.get('x-total')).toBe('4');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-per-page')).toBe('2');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(first.headers.get('link')).toContain(`/api/v4/projects/${project.id}/members?page=2&per_page=2`);
    expect(second.body.map((m: { id: number }) => m.id)).toEqual(ids.slice(2));
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
  });

  it('accepts the URL-encoded full path of the project as :id', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, GUEST);

    const response = await api(`/projects/${encodeURIComponent(project.fullPath)}/members`, { token: owner.token });

    expect(response.status).toBe(200);
    expect(response.body.map((m: { id: number }) => m.id)).toEqual([owner.id, member.id]);
  });

  it('answers 404 to a non-member of a private project, and for an unknown project', async () => {
    const project = await createProject(owner, 'private');

    const hidden = await api(`/projects/${project.id}/members`, { token: stranger.token });
    const unknown = await api('/projects/999999999/members', root());

    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Project Not Found' });
  });

  it('lets any signed-in user list the members of a public project', async () => {
    const project = await createProject(owner, 'public');
    const member = await createUser();
    await addMember('projects', project.id, member, GUEST);

    const response = await api(`/projects/${project.id}/members`, { token: stranger.token });

    expect(response.status).toBe(200);
    expect(response.body.map((m: { id: number }) => m.id)).toEqual([owner.id, member.id]);
  });

  it.each(['public', 'private'] as const)('answers 401 without a token, even on a %s project (GitLab authenticates every members route)', async (visibility) => {
    const project = await createProject(owner, visibility);

    const response = await api(`/projects/${project.id}/members`);

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });
});

/**
 * GitLab makes the owner of a personal namespace a member of each of its projects when creating
 * it (`Projects::CreateService`: `add_owner` of the namespace owner; 9.x added them as master), so
 * the owner is in `GET /projects/:id/members` (`source.users` / `source_members`) and
 * `GET /projects/:id/members/:user_id` (`source.members.find_by!`), with access level 50.
 */
describe('the owner of a personal project', () => {
  it('is a member with access level 50 in GET /projects/:id/members/:user_id', async () => {
    // Prepare
    const project = await createProject(owner);
    const reader = await createUser();
    await addMember('projects', project.id, reader, GUEST);
    const createdAt = (await api(`/projects/${project.id}`, { token: owner.token })).body.created_at;

    // Act
    const asOwner = await api(`/projects/${project.id}/members/${owner.id}`, { token: owner.token });
    const asMember = await api(`/projects/${project.id}/members/${owner.id}`, { token: reader.token });

    // Assess
    expect(asOwner.status).toBe(200);
    expect(asOwner.body).toEqual({
      id: owner.id,
      username: owner.username,
      name: `Test ${owner.username}`,
      state: 'active',
      avatar_url: null,
      web_url: `${baseUrl()}/${owner.username}`,
      access_level: OWNER,
      created_at: createdAt,
      expires_at: null,
    });
    expect(asMember.status).toBe(200);
    expect(asMember.body).toEqual(asOwner.body);
  });

  it('is listed in GET /projects/:id/members, in user id order, counted, and filtered by query', async () => {
    // Prepare
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, DEVELOPER);

    // Act
    const all = await api(`/projects/${project.id}/members`, { token: member.token });
    const byQuery = await api(`/projects/${project.id}/members`, { token: member.token, query: { query: owner.username } });
    const others = await api(`/projects/${project.id}/members`, { token: member.token, query: { query: member.username } });

    // Assess
    expect(all.status).toBe(200);
    expect(all.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])).toEqual([
      [owner.id, OWNER],
      [member.id, DEVELOPER],
    ]);
    expect(all.headers.get('x-total')).toBe('2');
    expect(byQuery.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
    expect(others.body.map((m: { id: number }) => m.id)).toEqual([member.id]);
  });
});

describe('GET /projects/:id/members/:user_id', () => {
  it('returns one member with expires_at', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, REPORTER, { expires_at: day(10) });

    const response = await api(`/projects/${project.id}/members/${member.id}`, { token: owner.token });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: member.id, username: member.username, access_level: REPORTER, expires_at: day(10) });
  });

  it('answers 404 Member Not Found for a user who is not a direct member, or does not exist', async () => {
    const group = await createGroup(owner);
    const project = await createProject(owner);
    const inGroup = await createProject(owner, 'private', { namespace_id: group.id });

    // The creator of a group's project is no member of it (GitLab adds only a personal namespace's owner).
    const creator = await api(`/projects/${inGroup.id}/members/${owner.id}`, { token: owner.token });
    expect(creator.status).toBe(404);
    expect(creator.body).toEqual({ message: '404 Member Not Found' });
    for (const userId of [stranger.id, 999999999]) {
      const response = await api(`/projects/${project.id}/members/${userId}`, { token: owner.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Member Not Found' });
    }
  });

  it('answers 400 for a user_id that is not an integer', async () => {
    const project = await createProject(owner);

    const response = await api(`/projects/${project.id}/members/abc`, { token: owner.token });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'user_id is invalid' });
  });
});

describe('POST /projects/:id/members', () => {
  it('adds a member (201, Member form), who then can read the private project', async () => {
    // Prepare
    const project = await createProject(owner);
    const member = await createUser();
    expect((await api(`/projects/${project.id}/members`, { token: member.token })).status).toBe(404);

    // Act
    const response = await api(`/projects/${project.id}/members`, {
      token: owner.token,
      body: { user_id: member.id, access_level: DEVELOPER, expires_at: day(7) },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: member.id,
      username: member.username,
      name: `Test ${member.username}`,
      state: 'active',
      avatar_url: null,
      web_url: `${baseUrl()}/${member.username}`,
      access_level: DEVELOPER,
      created_at: expect.any(String),
      expires_at: day(7),
    });
    expect((await api(`/projects/${project.id}/members`, { token: member.token })).status).toBe(200);
  });

  it('accepts form-encoded parameters', async () => {
    const project = await createProject(owner);
    const member = await createUser();

    const form = new URLSearchParams({ user_id: String(member.id), access_level: String(GUEST) });
    const response = await api(`/projects/${project.id}/members`, { token: owner.token, form });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: member.id, access_level: GUEST, expires_at: null });
  });

  it('records a "joined" event authored by the new member', async () => {
    const project = await createProject(owner, 'public');
    const member = await createUser();

    await addMember('projects', project.id, member, REPORTER);

    const events = await api(`/users/${member.id}/events`, root());
    expect(events.status).toBe(200);
    expect(events.body[0]).toMatchObject({ project_id: project.id, action_name: 'joined', author_id: member.id, target_type: null });
  });

  it.each([
    [{ user_id: undefined, access_level: DEVELOPER }, { error: 'user_id is missing' }],
    [{ user_id: 'me' }, { error: 'user_id is invalid, access_level is missing' }],
    [{ user_id: undefined }, { error: 'user_id is missing, access_level is missing' }],
    [{ access_level: OWNER }, { error: 'access_level does not have a valid value' }],
    [{ access_level: 35 }, { error: 'access_level does not have a valid value' }],
    [{ access_level: 'developer' }, { error: 'access_level is invalid' }],
    [{ access_level: GUEST, expires_at: 'soon' }, { error: 'expires_at is invalid' }],
    [{ access_level: GUEST, expires_at: day(-1) }, { message: { expires_at: ['cannot be a date in the past'] } }],
  ])('rejects %o with 400 %o and adds nobody', async (override, body) => {
    const project = await createProject(owner);

    const response = await api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: stranger.id, ...override } });

    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
    expect(await memberIds('projects', project.id)).toEqual([owner.id]);
  });

  // GitLab's `Member#expired?` (`Expirable`: `expires_at <= Time.current`): the expiry day is the
  // first day without access; the date itself may be today (not in the past).
  it('accepts an expiry of today, the first day without access; tomorrow still gives access', async () => {
    const project = await createProject(owner);
    const [expiring, staying] = await Promise.all([createUser(), createUser()]);

    await addMember('projects', project.id, expiring, REPORTER, { expires_at: day(0) });
    await addMember('projects', project.id, staying, REPORTER, { expires_at: day(1) });

    const asOwner = await api(`/projects/${project.id}/members/${expiring.id}`, { token: owner.token });
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.expires_at).toBe(day(0));
    expect((await api(`/projects/${project.id}/members/${expiring.id}`, { token: expiring.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/members/${staying.id}`, { token: staying.token })).status).toBe(200);
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    const project = await createProject(owner);

    const response = await api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: 999999999, access_level: GUEST } });

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });

  it('answers 409 Member already exists and keeps the first membership', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, REPORTER);

    const again = await api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: MAINTAINER } });

    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Member already exists' });
    const current = await api(`/projects/${project.id}/members/${member.id}`, root());
    expect(current.body.access_level).toBe(REPORTER);
  });

  it('adds exactly one membership when the same user is added concurrently', async () => {
    const project = await createProject(owner);
    const member = await createUser();

    const responses = await Promise.all(
      [GUEST, REPORTER, DEVELOPER, MAINTAINER, GUEST, REPORTER].map((accessLevel) =>
        api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: accessLevel } }),
      ),
    );

    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await memberIds('projects', project.id)).toEqual([owner.id, member.id]);
  });
});

describe('PUT /projects/:id/members/:user_id', () => {
  it('changes the access level and expiry', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, GUEST);

    const response = await api(`/projects/${project.id}/members/${member.id}`, {
      token: owner.token,
      method: 'PUT',
      body: { access_level: MAINTAINER, expires_at: day(3) },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: member.id, access_level: MAINTAINER, expires_at: day(3) });
    const shown = await api(`/projects/${project.id}/members/${member.id}`, root());
    expect(shown.body).toMatchObject({ access_level: MAINTAINER, expires_at: day(3) });
  });

  it('keeps expires_at when it is absent and clears it when it is blank', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, GUEST, { expires_at: day(5) });
    const put = (body: Record<string, unknown>) =>
      api(`/projects/${project.id}/members/${member.id}`, { token: owner.token, method: 'PUT', body });

    const kept = await put({ access_level: REPORTER });
    const cleared = await put({ access_level: REPORTER, expires_at: '' });

    expect(kept.body).toMatchObject({ access_level: REPORTER, expires_at: day(5) });
    expect(cleared.body).toMatchObject({ access_level: REPORTER, expires_at: null });
  });

  it.each([
    [{}, { error: 'access_level is missing' }],
    [{ access_level: OWNER }, { error: 'access_level does not have a valid value' }],
    [{ access_level: DEVELOPER, expires_at: day(-2) }, { message: { expires_at: ['cannot be a date in the past'] } }],
  ])('rejects %o with 400 %o and changes nothing', async (body, error) => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, GUEST);

    const response = await api(`/projects/${project.id}/members/${member.id}`, { token: owner.token, method: 'PUT', body });

    expect(response.status).toBe(400);
    expect(response.body).toEqual(error);
    expect((await api(`/projects/${project.id}/members/${member.id}`, root())).body).toMatchObject({ access_level: GUEST, expires_at: null });
  });

  it('answers 404 Member Not Found for a user who is not a member', async () => {
    const project = await createProject(owner);

    const response = await api(`/projects/${project.id}/members/${stranger.id}`, {
      token: owner.token,
      method: 'PUT',
      body: { access_level: GUEST },
    });

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Member Not Found' });
  });
});

describe('DELETE /projects/:id/members/:user_id', () => {
  it('removes the member (204): the user loses access and a "left" event is recorded', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, DEVELOPER);

    const response = await api(`/projects/${project.id}/members/${member.id}`, { token: owner.token, method: 'DELETE' });

    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(await memberIds('projects', project.id)).toEqual([owner.id]);
    expect((await api(`/projects/${project.id}/members`, { token: member.token })).status).toBe(404);
    const events = await api(`/users/${member.id}/events`, root());
    expect(events.body.map((e: { action_name: string }) => e.action_name).slice(0, 2)).toEqual(['left', 'joined']);
  });

  it('answers 404 Member Not Found for a non-member, and when removing twice', async () => {
    const project = await createProject(owner);
    const member = await createUser();
    await addMember('projects', project.id, member, DEVELOPER);
    const remove = () => api(`/projects/${project.id}/members/${member.id}`, { token: owner.token, method: 'DELETE' });

    expect((await remove()).status).toBe(204);
    const again = await remove();

    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Member Not Found' });
  });
});

describe('project member permissions', () => {
  // One project for the role cases (each adds, edits and removes users of its own), another that nothing changes.
  let roles: Awaited<ReturnType<typeof projectWithRoles>>;
  let unchanged: Awaited<ReturnType<typeof projectWithRoles>>;
  beforeAll(async () => {
    [roles, unchanged] = await Promise.all([projectWithRoles(), projectWithRoles()]);
  });

  it.each([
    ['guest', 403],
    ['reporter', 403],
    ['developer', 403],
    ['maintainer', 'allowed'],
    ['owner', 'allowed'],
  ] as const)('a %s: add, edit and remove → %s', async (role, expected) => {
    // Prepare
    const actor = roles[role];
    const [newcomer, target] = await Promise.all([createUser(), createUser()]);
    await addMember('projects', roles.project.id, target, GUEST);
    const base = `/projects/${roles.project.id}/members`;

    // Act
    const add = await api(base, { token: actor.token, body: { user_id: newcomer.id, access_level: REPORTER } });
    const edit = await api(`${base}/${target.id}`, { token: actor.token, method: 'PUT', body: { access_level: REPORTER } });
    const remove = await api(`${base}/${target.id}`, { token: actor.token, method: 'DELETE' });

    // Assess
    if (expected === 403) {
      for (const response of [add, edit, remove]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ message: '403 Forbidden' });
      }
      expect((await api(`${base}/${target.id}`, root())).body.access_level).toBe(GUEST);
      expect(await memberIds('projects', roles.project.id)).not.toContain(newcomer.id);
    } else {
      expect([add.status, edit.status, remove.status]).toEqual([201, 200, 204]);
    }
  });

  it('every member can read the member list and single members', async () => {
    const { project, guest, maintainer } = unchanged;

    const list = await api(`/projects/${project.id}/members`, { token: guest.token });
    const one = await api(`/projects/${project.id}/members/${maintainer.id}`, { token: guest.token });

    expect(list.status).toBe(200);
    // The four members of each level, and the personal namespace's owner.
    expect(list.body).toHaveLength(5);
    expect(one.status).toBe(200);
  });

  it('a non-member of a private project gets 404 on every route', async () => {
    const { project, guest, outsider } = unchanged;
    const base = `/projects/${project.id}/members`;

    const responses = [
      await api(base, { token: outsider.token }),
      await api(`${base}/${guest.id}`, { token: outsider.token }),
      await api(base, { token: outsider.token, body: { user_id: outsider.id, access_level: MAINTAINER } }),
      await api(`${base}/${guest.id}`, { token: outsider.token, method: 'PUT', body: { access_level: MAINTAINER } }),
      await api(`${base}/${guest.id}`, { token: outsider.token, method: 'DELETE' }),
    ];

    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(await memberIds('projects', project.id)).not.toContain(outsider.id);
  });

  it('a signed-in non-member of a public project may read but not write (403)', async () => {
    const project = await createProject(owner, 'public');

    const read = await api(`/projects/${project.id}/members`, { token: stranger.token });
    const write = await api(`/projects/${project.id}/members`, { token: stranger.token, body: { user_id: stranger.id, access_level: MAINTAINER } });

    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
  });

  it('anonymous writes answer 401', async () => {
    const project = await createProject(owner, 'public');

    const response = await api(`/projects/${project.id}/members`, { body: { user_id: owner.id, access_level: GUEST } });

    expect(response.status).toBe(401);
  });
});

describe('group members', () => {
  it('lists the creator as the first owner', async () => {
    const group = await createGroup(owner);

    const response = await api(`/groups/${group.id}/members`, { token: owner.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ id: owner.id, username: owner.username, access_level: OWNER, expires_at: null })]);
  });

  it.each([GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER])('an owner adds a member at level %i', async (accessLevel) => {
    const group = await createGroup(owner);
    const member = await createUser();

    const response = await api(`/groups/${group.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: accessLevel } });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: member.id, access_level: accessLevel, expires_at: null });
  });

  it.each([0, 5, 60])('rejects access level %i with 400', async (accessLevel) => {
    const group = await createGroup(owner);

    const response = await api(`/groups/${group.id}/members`, { token: owner.token, body: { user_id: stranger.id, access_level: accessLevel } });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'access_level does not have a valid value' });
    expect(await memberIds('groups', group.id)).toEqual([owner.id]);
  });

  it('accepts the URL-encoded full path of the group as :id and reads single members', async () => {
    const group = await createGroup(owner);
    const member = await createUser();
    await addMember('groups', group.id, member, DEVELOPER);

    const response = await api(`/groups/${encodeURIComponent(group.fullPath)}/members/${member.id}`, { token: owner.token });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: member.id, access_level: DEVELOPER });
  });

  it('only owners (and admins) manage members: a maintainer gets 403 on add, edit and remove', async () => {
    const group = await createGroup(owner);
    const [maintainer, target, newcomer] = await Promise.all([createUser(), createUser(), createUser()]);
    await addMember('groups', group.id, maintainer, MAINTAINER);
    await addMember('groups', group.id, target, GUEST);
    const base = `/groups/${group.id}/members`;

    const responses = [
      await api(base, { token: maintainer.token, body: { user_id: newcomer.id, access_level: GUEST } }),
      await api(`${base}/${target.id}`, { token: maintainer.token, method: 'PUT', body: { access_level: REPORTER } }),
      await api(`${base}/${target.id}`, { token: maintainer.token, method: 'DELETE' }),
    ];

    expect(responses.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(await levels(group.id)).toEqual({ [owner.id]: OWNER, [maintainer.id]: MAINTAINER, [target.id]: GUEST });
    const list = await api(base, { token: maintainer.token });
    expect(list.status).toBe(200);
  });

  it('an owner adds, edits and removes members', async () => {
    const group = await createGroup(owner);
    const member = await createUser();
    const base = `/groups/${group.id}/members`;

    const add = await api(base, { token: owner.token, body: { user_id: member.id, access_level: GUEST } });
    const edit = await api(`${base}/${member.id}`, { token: owner.token, method: 'PUT', body: { access_level: MAINTAINER, expires_at: day(1) } });
    const remove = await api(`${base}/${member.id}`, { token: owner.token, method: 'DELETE' });

    expect([add.status, edit.status, remove.status]).toEqual([201, 200, 204]);
    expect(edit.body).toMatchObject({ access_level: MAINTAINER, expires_at: day(1) });
    expect(await memberIds('groups', group.id)).toEqual([owner.id]);
  });

  it('a non-member of a private group gets 404; a signed-in non-member of a public group may list', async () => {
    const [privateGroup, publicGroup] = await Promise.all([createGroup(owner, 'private'), createGroup(owner, 'public')]);

    const hidden = await api(`/groups/${privateGroup.id}/members`, { token: stranger.token });
    const shown = await api(`/groups/${publicGroup.id}/members`, { token: stranger.token });
    const write = await api(`/groups/${publicGroup.id}/members`, { token: stranger.token, body: { user_id: stranger.id, access_level: OWNER } });

    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    expect(shown.status).toBe(200);
    expect(write.status).toBe(403);
  });

  it('group members gain access to the group\'s projects until the day their membership expires', async () => {
    const group = await createGroup(owner);
    const project = await createProject(owner, 'private', { namespace_id: group.id });
    const [member, expiring] = await Promise.all([createUser(), createUser()]);
    expect((await api(`/projects/${project.id}/members`, { token: member.token })).status).toBe(404);

    await addMember('groups', group.id, member, REPORTER, { expires_at: day(1) });
    await addMember('groups', group.id, expiring, REPORTER, { expires_at: day(0) });

    expect((await api(`/projects/${project.id}/members`, { token: member.token })).status).toBe(200);
    expect((await api(`/groups/${group.id}/members`, { token: member.token })).status).toBe(200);
    expect((await api(`/projects/${project.id}/members`, { token: expiring.token })).status).toBe(404);
    expect((await api(`/groups/${group.id}/members`, { token: expiring.token })).status).toBe(404);
  });
});

describe('the last owner of a group', () => {
  const reason = { message: '403 Forbidden - The last owner of a group cannot be removed or demoted' };

  it('cannot be removed or demoted, even by an admin', async () => {
    const group = await createGroup(owner);

    const removed = await api(`/groups/${group.id}/members/${owner.id}`, { ...root(), method: 'DELETE' });
    const demoted = await api(`/groups/${group.id}/members/${owner.id}`, { ...root(), method: 'PUT', body: { access_level: MAINTAINER } });

    expect(removed.status).toBe(403);
    expect(removed.body).toEqual(reason);
    expect(demoted.status).toBe(403);
    expect(demoted.body).toEqual(reason);
    expect(await levels(group.id)).toEqual({ [owner.id]: OWNER });
  });

  it('can be demoted once another owner exists (added or promoted), which then is the last one', async () => {
    const group = await createGroup(owner);
    const second = await createUser();
    await addMember('groups', group.id, second, DEVELOPER);
    const put = (userId: number, accessLevel: number) =>
      api(`/groups/${group.id}/members/${userId}`, { ...root(), method: 'PUT', body: { access_level: accessLevel } });

    expect((await put(second.id, OWNER)).status).toBe(200); // promotion counts a second owner
    expect((await put(owner.id, DEVELOPER)).status).toBe(200);
    const last = await api(`/groups/${group.id}/members/${second.id}`, { ...root(), method: 'DELETE' });

    expect(last.status).toBe(403);
    expect(last.body).toEqual(reason);
    expect(await levels(group.id)).toEqual({ [owner.id]: DEVELOPER, [second.id]: OWNER });
  });

  it.each([2, 4])('survives concurrent removal of all %i owners: all but one removal succeed', async (owners) => {
    // Prepare
    const group = await createGroup(owner);
    const others = await Promise.all(Array.from({ length: owners - 1 }, () => createUser()));
    for (const other of others) await addMember('groups', group.id, other, OWNER);

    // Act
    const responses = await Promise.all(
      [owner, ...others].map(({ id }) => api(`/groups/${group.id}/members/${id}`, { ...root(), method: 'DELETE' })),
    );

    // Assess
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(owners - 1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(1);
    const remaining = Object.entries(await levels(group.id));
    expect(remaining).toHaveLength(1);
    expect(remaining[0][1]).toBe(OWNER);
  });

  it('survives concurrent demotion of both owners: exactly one demotion succeeds', async () => {
    const group = await createGroup(owner);
    const second = await createUser();
    await addMember('groups', group.id, second, OWNER);

    const responses = await Promise.all(
      [owner.id, second.id].map((id) =>
        api(`/groups/${group.id}/members/${id}`, { ...root(), method: 'PUT', body: { access_level: GUEST } }),
      ),
    );

    expect(responses.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(Object.values(await levels(group.id)).sort()).toEqual([GUEST, OWNER]);
  });
});

describe('deleting a user', () => {
  // Needs removeAllMembershipsOf (shared/members) among the removal steps of deleting a user (functions/api.ts).
  it('removes all their memberships, and a deleted owner stops counting as an owner', async () => {
    // Prepare
    const group = await createGroup(owner);
    const project = await createProject(owner);
    const leaving = await createUser();
    await addMember('groups', group.id, leaving, OWNER);
    await addMember('projects', project.id, leaving, DEVELOPER);

    // Act
    const deleted = await api(`/users/${leaving.id}`, { ...root(), method: 'DELETE' });

    // Assess
    expect(deleted.status).toBe(200);
    expect(await memberIds('groups', group.id)).toEqual([owner.id]);
    expect(await memberIds('projects', project.id)).toEqual([owner.id]);
    // Once the deletion has finished (its username is free again: the last step), the owner count has moved too.
    await eventually(async () => {
      const again = await api('/users', { ...root(), body: { username: leaving.username, email: `${unique('again')}@example.com`, name: 'Again', password: 'secret-password' } });
      expect(again.status).toBe(201);
    });
    // The owner count went from 2 back to 1: the remaining owner is the last one.
    const demoted = await api(`/groups/${group.id}/members/${owner.id}`, { ...root(), method: 'PUT', body: { access_level: MAINTAINER } });
    expect(demoted.status).toBe(403);
  });
});

describe('@gitbeaker/rest members', () => {
  it('ProjectMembers.add/show/edit/remove and GroupMembers.all work as against GitLab', async () => {
    // Prepare
    const project = await createProject(owner);
    const group = await createGroup(owner);
    const member = await createUser();
    const gitlab = new Gitlab({ host: baseUrl(), token: owner.token });

    // Act
    const added = await gitlab.ProjectMembers.add(project.id, 30, { userId: member.id, expiresAt: day(2) });
    const shown = await gitlab.ProjectMembers.show(project.id, member.id);
    const edited = await gitlab.ProjectMembers.edit(project.id, member.id, 40);
    await gitlab.ProjectMembers.remove(project.id, member.id);
    await gitlab.GroupMembers.add(group.id, 20, { userId: member.id });
    const groupMembers = await gitlab.GroupMembers.all(group.id);

    // Assess
    expect(added).toMatchObject({ id: member.id, access_level: 30, expires_at: day(2) });
    expect(shown).toMatchObject({ id: member.id, access_level: 30 });
    expect(edited).toMatchObject({ id: member.id, access_level: 40, expires_at: day(2) });
    expect(await memberIds('projects', project.id)).toEqual([owner.id]);
    expect(groupMembers.map((m) => [m.id, m.access_level])).toEqual([
      [owner.id, 50],
      [member.id, 20],
    ]);
  });
});

describe('GET …/members/all: direct and inherited members', () => {
  /** A group, its subgroup and a project in the subgroup, each with members of their own. */
  async function hierarchy() {
    const [parentDev, subReporter, projectMaintainer, both] = await Promise.all(Array.from({ length: 4 }, () => createUser()));
    const parent = await createGroup(owner);
    const path = unique('sub');
    const sub = await api('/groups', { token: owner.token, body: { name: path, path, parent_id: parent.id } });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const project = await api('/projects', { token: owner.token, body: { name: unique('prj'), namespace_id: sub.body.id } });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    await Promise.all([
      addMember('groups', parent.id, parentDev, DEVELOPER),
      addMember('groups', parent.id, both, REPORTER),
      addMember('groups', sub.body.id, subReporter, REPORTER),
      addMember('projects', project.body.id, projectMaintainer, MAINTAINER),
      addMember('projects', project.body.id, both, DEVELOPER),
    ]);
    return { owner, parentDev, subReporter, projectMaintainer, both, outsider: stranger, parent, subId: sub.body.id as number, projectId: project.body.id as number };
  }

  const levelsOf = (members: Array<{ id: number; access_level: number }>) => Object.fromEntries(members.map((m) => [m.id, m.access_level]));
  // Read, never changed, by the tests below.
  let h: Awaited<ReturnType<typeof hierarchy>>;
  beforeAll(async () => {
    h = await hierarchy();
  });

  it("lists a project's members with those of its groups' chain, each user once at their highest level", async () => {
    // Act
    const response = await api(`/projects/${h.projectId}/members/all`, { token: h.subReporter.token });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(levelsOf(response.body)).toEqual({
      [h.owner.id]: OWNER,
      [h.parentDev.id]: DEVELOPER,
      [h.subReporter.id]: REPORTER,
      [h.projectMaintainer.id]: MAINTAINER,
      [h.both.id]: DEVELOPER,
    });
    expect(response.body.map((m: { id: number }) => m.id)).toEqual([...response.body.map((m: { id: number }) => m.id)].sort((a, b) => a - b));
    expect(response.headers.get('x-total')).toBe('5');
    // The direct list is unchanged.
    expect(levelsOf((await api(`/projects/${h.projectId}/members`, root())).body)).toEqual({ [h.projectMaintainer.id]: MAINTAINER, [h.both.id]: DEVELOPER });
  });

  it("lists a subgroup's members with its ancestors', and reads one inherited member", async () => {
    // Act
    const all = await api(`/groups/${h.subId}/members/all`, root());
    const one = await api(`/groups/${h.subId}/members/all/${h.parentDev.id}`, root());
    const direct = await api(`/groups/${h.subId}/members/${h.parentDev.id}`, root());

    // Assess
    expect(levelsOf(all.body)).toEqual({ [h.owner.id]: OWNER, [h.parentDev.id]: DEVELOPER, [h.both.id]: REPORTER, [h.subReporter.id]: REPORTER });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: h.parentDev.id, username: h.parentDev.username, access_level: DEVELOPER });
    expect(direct.status).toBe(404);
  });

  it("includes the members of a group the project is shared with, capped at the share's level, until it expires", async () => {
    // Prepare
    const [invitedOwner, late] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner);
    const invited = await createGroup(invitedOwner);
    await addMember('groups', invited.id, late, MAINTAINER);
    const shared = await api(`/projects/${project.id}/share`, { ...root(), body: { group_id: invited.id, group_access: REPORTER } });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);

    // Act
    const response = await api(`/projects/${project.id}/members/all`, root());

    // Assess
    expect(levelsOf(response.body)).toEqual({ [owner.id]: OWNER, [invitedOwner.id]: REPORTER, [late.id]: REPORTER });
  });

  it('filters by query, answers 404 Member Not Found for a non-member, and 404 for a private source the caller cannot read', async () => {
    // Act
    const filtered = await api(`/projects/${h.projectId}/members/all`, { ...root(), query: { query: h.parentDev.username } });
    const stranger = await api(`/projects/${h.projectId}/members/all/${h.outsider.id}`, root());
    const hidden = await api(`/projects/${h.projectId}/members/all`, { token: h.outsider.token });

    // Assess
    expect(filtered.body.map((m: { id: number }) => m.id)).toEqual([h.parentDev.id]);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: '404 Member Not Found' });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /users/:id/memberships', () => {
  it("lists an admin the user's direct memberships with their sources' names, filtered by type and paged", async () => {
    // Prepare
    const member = await createUser();
    const group = await createGroup(owner);
    const project = await createProject(owner);
    await Promise.all([addMember('groups', group.id, member, DEVELOPER), addMember('projects', project.id, member, REPORTER)]);
    const groupName = (await api(`/groups/${group.id}`, root())).body.name;
    const projectName = (await api(`/projects/${project.id}`, root())).body.name;

    // Act
    const all = await api(`/users/${member.id}/memberships`, root());
    const projects = await api(`/users/${member.id}/memberships`, { ...root(), query: { type: 'Project' } });
    const firstPage = await api(`/users/${member.id}/memberships`, { ...root(), query: { per_page: 1 } });

    // Assess
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body).toEqual([
      { source_id: group.id, source_name: groupName, source_type: 'Namespace', access_level: DEVELOPER },
      { source_id: project.id, source_name: projectName, source_type: 'Project', access_level: REPORTER },
    ]);
    expect(projects.body).toEqual([all.body[1]]);
    expect(firstPage.body).toEqual([all.body[0]]);
    expect(firstPage.headers.get('x-next-page')).toBe('2');
  });

  it('answers 403 to a non-admin, 404 User Not Found for an unknown user and 400 for an unknown type', async () => {
    const user = stranger;
    expect((await api(`/users/${user.id}/memberships`, { token: user.token })).status).toBe(403);
    const unknown = await api('/users/999999999/memberships', root());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
    const badType = await api(`/users/${user.id}/memberships`, { ...root(), query: { type: 'Group' } });
    expect(badType.status).toBe(400);
    expect(badType.body).toEqual({ error: 'type does not have a valid value' });
  });
});
