import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, openIssue, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = () => ({ token: rootToken() });
const ids = (body: Array<{ id: number }>) => body.map((p) => p.id);

/**
 * The owner the tests after POST /projects share (creating a user costs more than a test's
 * projects): they create projects of their own in its namespace, with unique names, and ask only
 * about those. The tests of POST /projects, which count the namespace's projects, and the one that
 * checks an owner's starred list, each have an owner of their own.
 */
let owner: TestUser;
beforeAll(async () => {
  owner = await createUser();
});

describe('POST /projects', () => {
  it('creates a project in the caller’s namespace, with the path derived from the name', async () => {
    // Prepare
    const owner = await createUser();
    const name = `My Project ${unique('x')}`;
    // Act
    const response = await api('/projects', { token: owner.token, body: { name, description: 'hello', visibility: 'internal' } });
    // Assess
    expect(response.status).toBe(201);
    const path = name.toLowerCase().replace(/ /g, '-');
    expect(response.body).toMatchObject({
      name,
      path,
      path_with_namespace: `${owner.username}/${path}`,
      description: 'hello',
      visibility: 'internal',
      default_branch: 'master',
      archived: false,
      star_count: 0,
      forks_count: 0,
      open_issues_count: 0,
      creator_id: owner.id,
      owner: { id: owner.id },
      namespace: { kind: 'user', path: owner.username, full_path: owner.username },
      issues_enabled: true,
      shared_with_groups: [],
      permissions: { project_access: null, group_access: null },
    });
    expect(response.body.web_url).toMatch(new RegExp(`/${owner.username}/${path}$`));
    expect(response.body.http_url_to_repo).toBe(`${response.body.web_url}.git`);
    expect(response.body.ssh_url_to_repo).toMatch(new RegExp(`^git@[^:]+:${owner.username}/${path}\\.git$`));
  });

  it('accepts a path alone, the name defaulting to it', async () => {
    const owner = await createUser();
    const path = unique('only-path');
    const response = await api('/projects', { token: owner.token, body: { path } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: path, path });
  });

  it.each([
    [{}, { error: 'name, path are missing, at least one parameter must be provided' }],
    [{ name: 'x', visibility: 'secret' }, { error: 'visibility does not have a valid value' }],
    [{ name: 'x', issues_enabled: 'maybe' }, { error: 'issues_enabled is invalid' }],
    [{ name: 'x', path: '-bad' }, { message: { path: [expect.stringContaining('can contain only'), expect.stringContaining('must not start with')] } }],
    [{ name: 'x', path: 'repo.git' }, { message: { path: [expect.stringContaining('can contain only')] } }],
    [{ name: 'x', path: 'tree' }, { message: { path: ['tree is a reserved name'] } }],
    [{ name: 'New' }, { message: { path: ['new is a reserved name'] } }],
    [{ name: '   ' , path: 'ok' }, { message: { name: ["can't be blank"] } }],
  ])('rejects %o with 400 and creates nothing', async (body, error) => {
    const owner = await createUser();
    const response = await api('/projects', { token: owner.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error);
    expect((await api('/projects', { token: owner.token, query: { owned: true } })).body).toEqual([]);
  });

  it('refuses a path already taken in the namespace, whatever the case', async () => {
    const owner = await createUser();
    const first = await createProject(owner.token, { path: unique('dup') });
    const response = await api('/projects', { token: owner.token, body: { name: 'Again', path: first.path.toUpperCase() } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
  });

  it('refuses a name already taken in the namespace (case-sensitive), not in another one', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const name = unique('Named ');
    await createProject(owner.token, { name, path: unique('first') });
    const again = await api('/projects', { token: owner.token, body: { name, path: unique('second') } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await api('/projects', { token: owner.token, query: { owned: true } })).body).toHaveLength(1);
    expect((await api('/projects', { token: owner.token, body: { name: name.toUpperCase(), path: unique('third') } })).status).toBe(201);
    expect((await api('/projects', { token: owner.token, body: { name, path: unique('elsewhere'), namespace_id: group.id } })).status).toBe(201);
  });

  it('creates exactly one project when the same name is requested concurrently with different paths', async () => {
    const owner = await createUser();
    const name = unique('Race ');
    const responses = await Promise.all(Array.from({ length: 5 }, () => api('/projects', { token: owner.token, body: { name, path: unique('p') } })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect((await api('/projects', { token: owner.token, query: { owned: true } })).body).toHaveLength(1);
  });

  it('creates exactly one project when the same path is requested concurrently', async () => {
    const owner = await createUser();
    const path = unique('race');
    const responses = await Promise.all(Array.from({ length: 6 }, () => api('/projects', { token: owner.token, body: { path } })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 400)).toHaveLength(5);
    const owned = await api('/projects', { token: owner.token, query: { owned: true } });
    expect(owned.body).toHaveLength(1);
  });

  it('enforces projects_limit, even for concurrent requests', async () => {
    const owner = await createUser({ projects_limit: 2 });
    const responses = await Promise.all(Array.from({ length: 5 }, () => api('/projects', { token: owner.token, body: { name: unique('lim') } })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = responses.filter((r) => r.status === 400);
    expect(refused).toHaveLength(3);
    expect(refused[0].body).toEqual({ message: { limit_reached: [expect.stringContaining('Your project limit is 2 projects')] } });
    // Deleting one frees a slot.
    const created = responses.find((r) => r.status === 201)!;
    expect((await api(`/projects/${created.body.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(202);
    const name = unique('lim');
    await eventually(async () => expect((await api('/projects', { token: owner.token, body: { name } })).status).toBe(201));
  });

  it('creates in a group only for maintainers and owners of that group', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const [developer, maintainer, outsider] = await Promise.all([createUser(), createUser(), createUser()]);
    await addMember('groups', group.id, developer.id, 30);
    await addMember('groups', group.id, maintainer.id, 40);
    const inGroup = await api('/projects', { token: maintainer.token, body: { name: unique('g'), namespace_id: group.id } });
    expect(inGroup.status).toBe(201);
    expect(inGroup.body.namespace).toMatchObject({ id: group.id, kind: 'group', full_path: group.fullPath });
    expect(inGroup.body.permissions).toEqual({ project_access: null, group_access: { access_level: 40, notification_level: 3 } });
    expect((await api('/projects', { token: developer.token, body: { name: unique('g'), namespace_id: group.id } })).status).toBe(403);
    const hidden = await api('/projects', { token: outsider.token, body: { name: unique('g'), namespace_id: group.id } });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Namespace Not Found' });
  });

  it('answers 401 without a token', async () => {
    expect((await api('/projects', { body: { name: 'x' } })).status).toBe(401);
  });
});

describe('POST /projects/user/:user_id', () => {
  it('lets an admin create a project owned by another user', async () => {
    const response = await api(`/projects/user/${owner.id}`, { ...root(), body: { name: unique('for') } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ creator_id: owner.id, owner: { id: owner.id }, namespace: { full_path: owner.username } });
    const asOwner = await api(`/projects/${response.body.id}`, { token: owner.token });
    expect(asOwner.status).toBe(200);
  });

  it('is admin only, requires a name, and 404s for an unknown user', async () => {
    const user = await createUser();
    expect((await api(`/projects/user/${user.id}`, { token: user.token, body: { name: 'x' } })).status).toBe(403);
    expect((await api(`/projects/user/${user.id}`, { ...root(), body: {} })).body).toEqual({ error: 'name is missing' });
    expect((await api('/projects/user/999999999', { ...root(), body: { name: 'x' } })).body).toEqual({ message: '404 User Not Found' });
  });
});

describe('GET /projects/:id', () => {
  it('finds a project by id and by URL-encoded path, case-insensitively', async () => {
    const project = await createProject(owner.token);
    const byId = await api(`/projects/${project.id}`, { token: owner.token });
    const byPath = await api(`/projects/${encodeURIComponent(project.fullPath.toUpperCase())}`, { token: owner.token });
    expect(byId.status).toBe(200);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(project.id);
  });

  it.each([
    ['private', { anonymous: 404, outsider: 404, member: 200 }],
    ['internal', { anonymous: 404, outsider: 200, member: 200 }],
    ['public', { anonymous: 200, outsider: 200, member: 200 }],
  ] as const)('applies %s visibility', async (visibility, expected) => {
    const [outsider, member] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token, { visibility });
    await addMember('projects', project.id, member.id, 10);
    const anonymous = await api(`/projects/${project.id}`);
    expect(anonymous.status).toBe(expected.anonymous);
    if (expected.anonymous === 404) expect(anonymous.body).toEqual({ message: '404 Project Not Found' });
    expect((await api(`/projects/${project.id}`, { token: outsider.token })).status).toBe(expected.outsider);
    expect((await api(`/projects/${encodeURIComponent(project.fullPath)}`, { token: outsider.token })).status).toBe(expected.outsider);
    const asMember = await api(`/projects/${project.id}`, { token: member.token });
    expect(asMember.status).toBe(expected.member);
    expect(asMember.body.permissions).toEqual({ project_access: { access_level: 10, notification_level: 3 }, group_access: null });
  });

  it('gives group members access to the group’s private projects, and not after expiry', async () => {
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespace_id: group.id });
    const [member, expiring] = await Promise.all([createUser(), createUser()]);
    const today = new Date().toISOString().slice(0, 10);
    await addMember('groups', group.id, member.id, 20);
    await addMember('groups', group.id, expiring.id, 20, { expires_at: today });
    expect((await api(`/projects/${project.id}`, { token: member.token })).body.permissions.group_access).toEqual({ access_level: 20, notification_level: 3 });
    // GitLab's `Member#expired?` (`Expirable`): the expiry day is the first day without access.
    expect((await api(`/projects/${project.id}`, { token: expiring.token })).status).toBe(404);
  });

  it('shows the runners token to maintainers and owners only, the same on every read', async () => {
    const project = await createProject(owner.token, { visibility: 'internal' });
    const [developer, maintainer] = await Promise.all([createUser(), createUser()]);
    await addMember('projects', project.id, developer.id, 30);
    await addMember('projects', project.id, maintainer.id, 40);
    const token = (await api(`/projects/${project.id}`, { token: owner.token })).body.runners_token;
    expect(token).toMatch(/^GR1348941[\w-]{20}$/);
    expect((await api(`/projects/${project.id}`, { token: maintainer.token })).body.runners_token).toBe(token);
    expect((await api(`/projects/${project.id}`, { token: developer.token })).body).not.toHaveProperty('runners_token');
    const listed = await api('/projects', { token: developer.token, query: { membership: true } });
    expect(listed.body.find((p: { id: number }) => p.id === project.id)).not.toHaveProperty('runners_token');
  });

  it('adds statistics only when asked', async () => {
    const project = await createProject(owner.token);
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).not.toHaveProperty('statistics');
    const withStats = await api(`/projects/${project.id}`, { token: owner.token, query: { statistics: true } });
    expect(withStats.body.statistics).toEqual({ commit_count: 0, storage_size: 0, repository_size: 0, lfs_objects_size: 0, job_artifacts_size: 0 });
  });

  it('answers 404 for unknown ids and paths', async () => {
    expect((await api('/projects/999999999', root())).body).toEqual({ message: '404 Project Not Found' });
    expect((await api(`/projects/${encodeURIComponent('nobody/nothing')}`, root())).status).toBe(404);
  });
});

describe('GET /projects', () => {
  it('shows anonymous callers only public projects, users what they may see, admins everything', async () => {
    const marker = unique('vis');
    const pub = await createProject(owner.token, { name: `${marker} pub`, visibility: 'public' });
    const internal = await createProject(owner.token, { name: `${marker} int`, visibility: 'internal' });
    const priv = await createProject(owner.token, { name: `${marker} priv`, visibility: 'private' });
    const [viewer, member] = await Promise.all([createUser(), createUser()]);
    await addMember('projects', priv.id, member.id, 20);
    const list = async (token?: string) => ids((await api('/projects', { token, query: { search: marker, order_by: 'id', sort: 'asc' } })).body);
    expect(await list()).toEqual([pub.id]);
    expect(await list(viewer.token)).toEqual([pub.id, internal.id]);
    expect(await list(member.token)).toEqual([pub.id, internal.id, priv.id]);
    expect(await list(owner.token)).toEqual([pub.id, internal.id, priv.id]);
    expect(await list(rootToken())).toEqual([pub.id, internal.id, priv.id]);
  });

  it('filters by owned, membership, starred, visibility and archived', async () => {
    const user = await createUser();
    const other = await createUser();
    const marker = unique('flt');
    const mine = await createProject(user.token, { name: `${marker} mine` });
    const theirs = await createProject(other.token, { name: `${marker} theirs`, visibility: 'public' });
    const shared = await createProject(other.token, { name: `${marker} shared` });
    await addMember('projects', shared.id, user.id, 30);
    await api(`/projects/${theirs.id}/star`, { token: user.token, method: 'POST' });
    await api(`/projects/${mine.id}/archive`, { token: user.token, method: 'POST' });
    const list = async (query: Record<string, unknown>) =>
      ids((await api('/projects', { token: user.token, query: { search: marker, sort: 'asc', ...query } })).body);
    expect(await list({ owned: true })).toEqual([mine.id]);
    expect(await list({ membership: true })).toEqual([mine.id, shared.id]);
    expect(await list({ starred: true })).toEqual([theirs.id]);
    expect(await list({ visibility: 'public' })).toEqual([theirs.id]);
    expect(await list({ archived: true })).toEqual([mine.id]);
    expect(await list({ archived: false })).toEqual([theirs.id, shared.id]);
  });

  it('orders by name and path, and returns the simple form', async () => {
    const user = await createUser();
    const marker = unique('ord');
    const b = await createProject(user.token, { name: `${marker} b`, path: `${marker}-a` });
    const a = await createProject(user.token, { name: `${marker} a`, path: `${marker}-b` });
    const byName = await api('/projects', { token: user.token, query: { search: marker, order_by: 'name', sort: 'asc' } });
    expect(ids(byName.body)).toEqual([a.id, b.id]);
    const byPath = await api('/projects', { token: user.token, query: { search: marker, order_by: 'path', sort: 'asc' } });
    expect(ids(byPath.body)).toEqual([b.id, a.id]);
    const simple = await api('/projects', { token: user.token, query: { search: marker, simple: true } });
    expect(Object.keys(simple.body[0]).sort()).toEqual(
      ['created_at', 'http_url_to_repo', 'id', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'ssh_url_to_repo', 'web_url'].sort(),
    );
  });

  it('pages with offset headers and with keyset cursors', async () => {
    const user = await createUser();
    const marker = unique('pg');
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await createProject(user.token, { name: `${marker} ${i}` })).id);
    const newestFirst = [...created].reverse();
    const page2 = await api('/projects', { token: user.token, query: { search: marker, per_page: 2, page: 2 } });
    expect(ids(page2.body)).toEqual(newestFirst.slice(2, 4));
    expect(page2.headers.get('x-total')).toBe('5');
    expect(page2.headers.get('x-total-pages')).toBe('3');
    expect(page2.headers.get('x-next-page')).toBe('3');
    expect(page2.headers.get('x-prev-page')).toBe('1');
    const seen: number[] = [];
    let next: string | undefined = `/projects?pagination=keyset&per_page=2&search=${encodeURIComponent(marker)}&owned=true`;
    for (let guard = 0; next && guard < 5; guard++) {
      const response: { body: Array<{ id: number }>; headers: Headers } = await api(next, { token: user.token });
      seen.push(...ids(response.body));
      next = /<[^>]*\/api\/v4(\/projects\?[^>]*)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(seen).toEqual(newestFirst);
  });
});

describe('GET /projects/search/:query', () => {
  it('finds visible projects by name', async () => {
    const marker = unique('find');
    const pub = await createProject(owner.token, { name: `${marker} public`, visibility: 'public' });
    await createProject(owner.token, { name: `${marker} private` });
    const anonymous = await api(`/projects/search/${marker}`);
    expect(anonymous.status).toBe(200);
    expect(ids(anonymous.body)).toEqual([pub.id]);
    expect((await api(`/projects/search/${marker}`, { token: owner.token })).body).toHaveLength(2);
  });
});

describe('PUT /projects/:id', () => {
  it('edits settings and renames, freeing the old path', async () => {
    const project = await createProject(owner.token);
    const newPath = unique('renamed');
    const response = await api(`/projects/${project.id}`, {
      token: owner.token,
      method: 'PUT',
      body: { name: 'Renamed', path: newPath, description: 'd', issues_enabled: false, visibility: 'public' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Renamed', path: newPath, description: 'd', issues_enabled: false, visibility: 'public' });
    expect((await api(`/projects/${encodeURIComponent(`${owner.username}/${newPath}`)}`)).status).toBe(200);
    expect((await api('/projects', { token: owner.token, body: { path: project.path } })).status).toBe(201);
  });

  it('refuses a rename to a name taken in the namespace, and frees the old name on rename', async () => {
    const [first, second] = [await createProject(owner.token), await createProject(owner.token)];
    const firstName = (await api(`/projects/${first.id}`, { token: owner.token })).body.name;
    const taken = await api(`/projects/${second.id}`, { token: owner.token, method: 'PUT', body: { name: firstName } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await api(`/projects/${first.id}`, { token: owner.token, method: 'PUT', body: { name: 'Moved on' } })).status).toBe(200);
    expect((await api(`/projects/${second.id}`, { token: owner.token, method: 'PUT', body: { name: firstName } })).status).toBe(200);
  });

  it('changes only the attributes given: python-gitlab’s save() sends only the changed fields', async () => {
    // Prepare
    const project = await createProject(owner.token, { description: 'before' });
    const before = (await api(`/projects/${project.id}`, { token: owner.token })).body;
    // Act
    const response = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: { description: 'after' } });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...before, description: 'after' });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toEqual({ ...before, description: 'after' });
  });

  it('answers GitLab’s at_least_one_of 400 when no attribute is given, and writes nothing', async () => {
    // Prepare
    const project = await createProject(owner.token, { description: 'kept' });
    const before = (await api(`/projects/${project.id}`, { token: owner.token })).body;
    const error =
      'default_branch, description, lfs_enabled, name, only_allow_merge_if_all_discussions_are_resolved, ' +
      'only_allow_merge_if_pipeline_succeeds, path, public_jobs, request_access_enabled, shared_runners_enabled, ' +
      'tag_list, visibility, issues_enabled, jobs_enabled, merge_requests_enabled, wiki_enabled, snippets_enabled, ' +
      'container_registry_enabled, import_url, ci_config_path, build_timeout, ci_default_git_depth, build_git_strategy, ' +
      'auto_cancel_pending_pipelines, keep_latest_artifact, ci_forward_deployment_enabled, topics, issues_access_level, ' +
      'merge_requests_access_level, builds_access_level, wiki_access_level, snippets_access_level, container_registry_access_level, ' +
      'group_runners_enabled are missing, at least one parameter must be provided';
    // Act
    const empty = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: {} });
    const unknownOnly = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: { star_count: 7 } });
    // Assess
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error });
    expect(unknownOnly.status).toBe(400);
    expect(unknownOnly.body).toEqual({ error });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toEqual(before);
  });

  it('keeps the CI/CD settings with GitLab’s defaults and ranges, shown to maintainers only (the config path to readers of the code)', async () => {
    // Prepare
    const project = await createProject(owner.token, { visibility: 'public' });
    const [reporter, outsider] = await Promise.all([createUser(), createUser()]);
    await addMember('projects', project.id, reporter.id, 20);
    const settings = { ci_config_path: 'ci/main.yml', build_timeout: 7200, ci_default_git_depth: 0, build_git_strategy: 'clone' };
    // Act
    const defaults = (await api(`/projects/${project.id}`, { token: owner.token })).body;
    const edited = await api(`/projects/${project.id}`, {
      token: owner.token,
      method: 'PUT',
      body: { ...settings, auto_cancel_pending_pipelines: 'disabled', keep_latest_artifact: false, ci_forward_deployment_enabled: false },
    });
    const refused = await Promise.all(
      [{ build_timeout: 599 }, { build_timeout: 30 * 86400 }, { ci_default_git_depth: 1001 }, { ci_config_path: '../other.yml' }].map((body) =>
        api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body }),
      ),
    );
    const asReporter = (await api(`/projects/${project.id}`, { token: reporter.token })).body;
    const asOutsider = (await api(`/projects/${project.id}`, { token: outsider.token })).body;
    // Assess
    expect(defaults).toMatchObject({
      ci_config_path: null,
      build_timeout: 3600,
      ci_default_git_depth: 20,
      build_git_strategy: 'fetch',
      auto_cancel_pending_pipelines: 'enabled',
      keep_latest_artifact: true,
      ci_forward_deployment_enabled: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ ...settings, auto_cancel_pending_pipelines: 'disabled', keep_latest_artifact: false, ci_forward_deployment_enabled: false });
    expect(refused.map((r) => [r.status, r.body])).toEqual([
      [400, { message: { build_timeout: ['needs to be between 10 minutes and 1 month'] } }],
      [400, { message: { build_timeout: ['needs to be between 10 minutes and 1 month'] } }],
      [400, { message: { 'ci_cd_settings.default_git_depth': ['must be less than or equal to 1000'] } }],
      [400, { message: { ci_config_path: ['cannot include leading slash or directory traversal.'] } }],
    ]);
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toMatchObject(settings);
    expect(asReporter.ci_config_path).toBe('ci/main.yml');
    expect(asReporter).not.toHaveProperty('build_timeout');
    expect(asOutsider).not.toHaveProperty('keep_latest_artifact');
  });

  it('keeps topics and the features’ access levels (GitLab’s current names): `private` opens a feature to members only', async () => {
    // Prepare
    const [guest, reporter, outsider] = await Promise.all([createUser(), createUser(), createUser()]);
    const created = await api('/projects', { token: owner.token, body: { name: unique('Features'), visibility: 'public', topics: 'cli, tools' } });
    const project = created.body;
    await Promise.all([addMember('projects', project.id, guest.id, 10), addMember('projects', project.id, reporter.id, 20), openIssue(project.id, owner.token)]);
    // What each caller gets of a list: how many items it shows, or the status refusing it.
    const statuses = (path: string) =>
      Promise.all(
        [owner, guest, reporter, outsider].map(async (user) => {
          const response = await api(`/projects/${project.id}/${path}`, { token: user.token });
          return response.status === 200 ? `${response.body.length} shown` : response.status;
        }),
      );
    // Act
    const edited = await api(`/projects/${project.id}`, {
      token: owner.token,
      method: 'PUT',
      body: { issues_access_level: 'private', merge_requests_access_level: 'private', wiki_access_level: 'disabled', topics: ['cli'] },
    });
    const [issues, mergeRequests, jobs] = [await statuses('issues'), await statuses('merge_requests'), await statuses('jobs')];
    const byFlag = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: { issues_enabled: true, merge_requests_enabled: false } });
    const outsiderAfter = (await api(`/projects/${project.id}/issues`, { token: outsider.token })).body.length;
    const invalid = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: { issues_access_level: 'public' } });
    // Assess
    expect(created.body).toMatchObject({ topics: ['cli', 'tools'], tag_list: ['cli', 'tools'], issues_access_level: 'enabled', repository_access_level: 'enabled' });
    expect(edited.body).toMatchObject({
      topics: ['cli'],
      tag_list: ['cli'],
      issues_access_level: 'private',
      issues_enabled: true,
      merge_requests_access_level: 'private',
      wiki_access_level: 'disabled',
      wiki_enabled: false,
      builds_access_level: 'enabled',
    });
    expect({ issues, mergeRequests, jobs }).toEqual({
      issues: ['1 shown', '1 shown', '1 shown', '0 shown'],
      mergeRequests: ['0 shown', 404, '0 shown', 404],
      jobs: ['0 shown', '0 shown', '0 shown', '0 shown'],
    });
    expect(byFlag.body).toMatchObject({ issues_access_level: 'enabled', merge_requests_access_level: 'disabled', merge_requests_enabled: false });
    expect(outsiderAfter).toBe(1);
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'issues_access_level does not have a valid value' }]);
  });

  it('refuses a blank name with the model’s 400, and writes nothing', async () => {
    const project = await createProject(owner.token);
    const before = (await api(`/projects/${project.id}`, { token: owner.token })).body;
    const response = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: { name: '', description: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { name: ["can't be blank"] } });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toEqual(before);
  });

  it('requires maintainer access to edit and ownership to change visibility', async () => {
    const project = await createProject(owner.token);
    const [developer, maintainer] = await Promise.all([createUser(), createUser()]);
    await addMember('projects', project.id, developer.id, 30);
    await addMember('projects', project.id, maintainer.id, 40);
    expect((await api(`/projects/${project.id}`, { token: developer.token, method: 'PUT', body: { description: 'x' } })).status).toBe(403);
    expect((await api(`/projects/${project.id}`, { token: developer.token, method: 'PUT', body: { name: 'x' } })).status).toBe(403);
    expect((await api(`/projects/${project.id}`, { token: maintainer.token, method: 'PUT', body: { name: 'By maintainer' } })).status).toBe(200);
    expect((await api(`/projects/${project.id}`, { token: maintainer.token, method: 'PUT', body: { name: 'x', visibility: 'public' } })).status).toBe(403);
  });
});

describe('DELETE /projects/:id', () => {
  it('deletes the project with everything it owns (owner only)', async () => {
    // An owner of its own: it asserts that owner's starred list ends empty.
    const owner = await createUser();
    const maintainer = await createUser();
    const project = await createProject(owner.token);
    await addMember('projects', project.id, maintainer.id, 40);
    await api(`/projects/${project.id}/star`, { token: owner.token, method: 'POST' });
    expect((await api(`/projects/${project.id}`, { token: maintainer.token, method: 'DELETE' })).status).toBe(403);
    const response = await api(`/projects/${project.id}`, { token: owner.token, method: 'DELETE' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: '202 Accepted' });
    expect((await api(`/projects/${project.id}`, root())).status).toBe(404);
    expect((await api('/projects', { token: maintainer.token, query: { membership: true } })).body).toEqual([]);
    expect((await api('/projects', { token: owner.token, query: { starred: true } })).body).toEqual([]);
    await eventually(async () => expect((await api('/projects', { token: owner.token, body: { path: project.path } })).status).toBe(201));
  });

  it('frees the name of the deleted project in its namespace', async () => {
    const name = unique('Reused ');
    const project = await createProject(owner.token, { name });
    expect((await api(`/projects/${project.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(202);
    const path = unique('again');
    await eventually(async () => expect((await api('/projects', { token: owner.token, body: { name, path } })).status).toBe(201));
  });
});

describe('star and unstar', () => {
  it('counts stars exactly and answers 304 when nothing changes', async () => {
    const project = await createProject(owner.token, { visibility: 'public' });
    const fans = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    const stars = await Promise.all(fans.map((fan) => api(`/projects/${project.id}/star`, { token: fan.token, method: 'POST' })));
    expect(stars.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect((await api(`/projects/${project.id}`)).body.star_count).toBe(6);
    const again = await api(`/projects/${project.id}/star`, { token: fans[0].token, method: 'POST' });
    expect(again.status).toBe(304);
    const unstar = await api(`/projects/${project.id}/unstar`, { token: fans[0].token, method: 'POST' });
    expect(unstar.status).toBe(201);
    expect(unstar.body.star_count).toBe(5);
    expect((await api(`/projects/${project.id}/unstar`, { token: fans[0].token, method: 'POST' })).status).toBe(304);
    // Concurrent double star by one user counts once.
    const double = await Promise.all([0, 1, 2].map(() => api(`/projects/${project.id}/star`, { token: owner.token, method: 'POST' })));
    expect(double.map((r) => r.status).sort()).toEqual([201, 304, 304]);
    expect((await api(`/projects/${project.id}`)).body.star_count).toBe(6);
  });

  it('needs a signed-in user who can see the project', async () => {
    const outsider = await createUser();
    const project = await createProject(owner.token);
    expect((await api(`/projects/${project.id}/star`, { token: outsider.token, method: 'POST' })).status).toBe(404);
    expect((await api(`/projects/${project.id}/star`, { method: 'POST' })).status).toBe(401);
  });
});

describe('archive and unarchive', () => {
  it('is idempotent and reserved to owners and admins', async () => {
    const maintainer = await createUser();
    const project = await createProject(owner.token);
    await addMember('projects', project.id, maintainer.id, 40);
    for (let i = 0; i < 2; i++) {
      const response = await api(`/projects/${project.id}/archive`, { token: owner.token, method: 'POST' });
      expect(response.status).toBe(201);
      expect(response.body.archived).toBe(true);
    }
    expect((await api(`/projects/${project.id}/unarchive`, { token: maintainer.token, method: 'POST' })).status).toBe(403);
    const unarchived = await api(`/projects/${project.id}/unarchive`, { ...root(), method: 'POST' });
    expect(unarchived.status).toBe(201);
    expect(unarchived.body.archived).toBe(false);
  });
});

describe('POST /projects/:id/fork', () => {
  it('forks into the given namespace and counts forks', async () => {
    const forker = await createUser();
    const source = await createProject(owner.token, { visibility: 'public', description: 'src' });
    const response = await api(`/projects/${source.id}/fork`, { token: forker.token, body: { namespace: forker.username } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      path: source.path,
      description: 'src',
      namespace: { full_path: forker.username },
      forked_from_project: { id: source.id, path_with_namespace: source.fullPath },
    });
    expect((await api(`/projects/${source.id}`)).body.forks_count).toBe(1);
    const twice = await api(`/projects/${source.id}/fork`, { token: forker.token, body: { namespace: forker.username } });
    expect(twice.status).toBe(409);
  });

  it('keeps forks_count exact when several users fork at once', async () => {
    const source = await createProject(owner.token, { visibility: 'public' });
    const forkers = await Promise.all(Array.from({ length: 5 }, () => createUser()));
    const forks = await Promise.all(
      forkers.map((forker) => api(`/projects/${source.id}/fork`, { token: forker.token, body: { namespace: forker.username } })),
    );
    expect(forks.map((r) => r.status)).toEqual(Array(5).fill(201));
    expect((await api(`/projects/${source.id}`)).body.forks_count).toBe(5);
    // Deleting a fork counts it down.
    expect((await api(`/projects/${forks[0].body.id}`, { token: forkers[0].token, method: 'DELETE' })).status).toBe(202);
    await eventually(async () => expect((await api(`/projects/${source.id}`)).body.forks_count).toBe(4));
  });

  it('requires a namespace the caller may use, and a project the caller may see', async () => {
    const forker = await createUser();
    const priv = await createProject(owner.token);
    const pub = await createProject(owner.token, { visibility: 'public' });
    expect((await api(`/projects/${pub.id}/fork`, { token: forker.token, body: {} })).body).toEqual({ error: 'namespace is missing' });
    expect((await api(`/projects/${priv.id}/fork`, { token: forker.token, body: { namespace: forker.username } })).status).toBe(404);
    expect((await api(`/projects/${pub.id}/fork`, { token: forker.token, body: { namespace: owner.username } })).status).toBe(404);
  });
});

describe('fork relations (admin)', () => {
  it('creates and removes a fork relation between existing projects', async () => {
    const source = await createProject(owner.token);
    const target = await createProject(owner.token);
    const link = await api(`/projects/${target.id}/fork/${source.id}`, { ...root(), method: 'POST' });
    expect(link.status).toBe(201);
    expect(link.body.forked_from_project.id).toBe(source.id);
    expect((await api(`/projects/${source.id}`, root())).body.forks_count).toBe(1);
    expect((await api(`/projects/${target.id}/fork/${source.id}`, { ...root(), method: 'POST' })).status).toBe(409);
    expect((await api(`/projects/${target.id}/fork`, { token: owner.token, method: 'DELETE' })).status).toBe(403);
    expect((await api(`/projects/${target.id}/fork`, { ...root(), method: 'DELETE' })).status).toBe(204);
    expect((await api(`/projects/${target.id}/fork`, { ...root(), method: 'DELETE' })).status).toBe(304);
    expect((await api(`/projects/${source.id}`, root())).body.forks_count).toBe(0);
  });
});

describe('GET /projects/:id/forks', () => {
  it('lists the forks the caller may see, newest first, with the list filters; links and unlinks move a project in and out', async () => {
    // Prepare
    const [owner, a, b] = await Promise.all([createUser(), createUser(), createUser()]);
    const source = await createProject(owner.token, { visibility: 'public' });
    const forkOf = async (user: { username: string; token: string }, visibility: string) => {
      const response = await api(`/projects/${source.id}/fork`, { token: user.token, body: { namespace: user.username } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect((await api(`/projects/${response.body.id}`, { token: user.token, method: 'PUT', body: { visibility } })).status).toBe(200);
      return response.body.id as number;
    };
    const publicFork = await forkOf(a, 'public');
    const privateFork = await forkOf(b, 'private');
    const linked = await createProject(owner.token, { visibility: 'public' });

    // Act / Assess
    const ids = async (token?: string, query: Record<string, string> = {}) => (await api(`/projects/${source.id}/forks`, { token, query })).body.map((p: { id: number }) => p.id);
    expect(await ids()).toEqual([publicFork]);
    expect(await ids(b.token)).toEqual([privateFork, publicFork]);
    expect(await ids(b.token, { owned: 'true' })).toEqual([privateFork]);
    expect(await ids(root().token, { sort: 'asc' })).toEqual([publicFork, privateFork]);
    expect((await api(`/projects/${linked.id}/fork/${source.id}`, { ...root(), method: 'POST' })).status).toBe(201);
    expect(await ids()).toEqual([linked.id, publicFork]);
    expect((await api(`/projects/${linked.id}/fork`, { ...root(), method: 'DELETE' })).status).toBe(204);
    expect(await ids()).toEqual([publicFork]);
    const page = await api(`/projects/${source.id}/forks`, { ...root(), query: { per_page: 1 } });
    expect(page.headers.get('x-next-page')).toBe('2');
  });

  it('answers 404 for a project the caller may not see', async () => {
    const hidden = await createProject(owner.token);
    const response = await api(`/projects/${hidden.id}/forks`, { token: (await createUser()).token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('sharing with groups', () => {
  it('shares a project with a group, whose members then get capped access, and unshares it', async () => {
    const project = await createProject(owner.token);
    const group = await createGroup(owner.token);
    const member = await createUser();
    await addMember('groups', group.id, member.id, 40);
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
    const share = await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: 20 } });
    expect(share.status).toBe(201);
    expect(share.body).toMatchObject({ project_id: project.id, group_id: group.id, group_access: 20, expires_at: null });
    const seen = await api(`/projects/${project.id}`, { token: member.token });
    expect(seen.status).toBe(200);
    expect(seen.body.shared_with_groups).toEqual([
      expect.objectContaining({ group_id: group.id, group_access_level: 20 }),
    ]);
    // Reporter (20) access through the share: not enough to edit.
    expect((await api(`/projects/${project.id}`, { token: member.token, method: 'PUT', body: { name: 'x' } })).status).toBe(403);
    expect((await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: 30 } })).status).toBe(409);
    expect((await api(`/projects/${project.id}/share/${group.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(204);
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/share/${group.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(404);
  });

  it('validates the share', async () => {
    const project = await createProject(owner.token);
    const group = await createGroup(owner.token);
    expect((await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_access: 20 } })).body).toEqual({ error: 'group_id is missing' });
    expect((await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: 60 } })).body).toEqual({
      error: 'group_access does not have a valid value',
    });
    expect((await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: 999999999, group_access: 20 } })).status).toBe(404);
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
  });
});

describe('GET /projects/:id/users and /events, POST housekeeping', () => {
  it('lists the users with access, searchable', async () => {
    const project = await createProject(owner.token);
    const member = await createUser();
    await addMember('projects', project.id, member.id, 30);
    const users = await api(`/projects/${project.id}/users`, { token: owner.token });
    expect(users.status).toBe(200);
    expect(ids(users.body).sort((a, b) => a - b)).toEqual([owner.id, member.id].sort((a, b) => a - b));
    expect(Object.keys(users.body[0]).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    const found = await api(`/projects/${project.id}/users`, { token: owner.token, query: { search: member.username } });
    expect(ids(found.body)).toEqual([member.id]);
  });

  it('shows the project feed newest first, publicly for public projects', async () => {
    const project = await createProject(owner.token, { visibility: 'public' });
    const events = await api(`/projects/${project.id}/events`);
    expect(events.status).toBe(200);
    expect(events.body[events.body.length - 1]).toMatchObject({ project_id: project.id, action_name: 'created', author_id: owner.id, author_username: owner.username });
    const priv = await createProject(owner.token);
    expect((await api(`/projects/${priv.id}/events`)).status).toBe(404);
  });

  it('accepts housekeeping from maintainers', async () => {
    const developer = await createUser();
    const project = await createProject(owner.token);
    await addMember('projects', project.id, developer.id, 30);
    expect((await api(`/projects/${project.id}/housekeeping`, { token: owner.token, method: 'POST' })).status).toBe(201);
    expect((await api(`/projects/${project.id}/housekeeping`, { token: developer.token, method: 'POST' })).status).toBe(403);
  });
});
