/**
 * Deploy tokens (GitLab's `lib/api/deploy_tokens.rb`), as python-gitlab (`project.deploytokens`,
 * `group.deploytokens`) and gitbeaker call them: create (the secret shown once), list (`active`),
 * read, delete, GitLab's validation answers and permissions; then what a token is for: cloning
 * with the real git CLI as `<username>:<token>` (its project, or its group's projects at any
 * depth), never pushing, never the REST API; and the `gitlab-deploy-token` CI jobs are given.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, git, gitOk, pushNewRepository, scratch } from '../support/git';
import { TestRunner } from '../ci/runner';

/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read field by field */
const create = (path: string, token: string, body: Record<string, unknown>) => api(`${path}/deploy_tokens`, { method: 'POST', token, body });

describe('project deploy tokens API', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let maintainer: TestUser;
  let created: any;

  beforeAll(async () => {
    project = await ownedProject('private');
    [developer, maintainer] = await Promise.all([createUser(), createUser()]);
    await Promise.all([addMember('projects', project.id, developer.id, 30), addMember('projects', project.id, maintainer.id, 40)]);
    created = await create(`/projects/${project.id}`, maintainer.token, { name: 'My deploy token', scopes: ['read_registry', 'read_repository'], expires_at: '2999-01-01' });
  });

  it('creates a token with its secret once, then reads and lists it without', async () => {
    // Assess
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toEqual({
      id,
      name: 'My deploy token',
      username: `gitlab+deploy-token-${id}`,
      expires_at: '2999-01-01T00:00:00.000Z',
      token: expect.stringMatching(/^gldt-/),
      revoked: false,
      expired: false,
      scopes: ['read_repository', 'read_registry'],
    });
    const { token: _secret, ...shown } = created.body;
    const read = await api(`/projects/${encodeURIComponent(project.fullPath)}/deploy_tokens/${id}`, { token: project.owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(shown);

    // An expired one: listed, but not with `active=true`; a custom username and comma-separated scopes.
    const expired = await create(`/projects/${project.id}`, project.owner.token, { name: 'old', scopes: 'read_repository,write_registry', expires_at: '2020-02-14', username: 'deployer.bot+1' });
    expect(expired.status).toBe(201);
    expect(expired.body).toMatchObject({ username: 'deployer.bot+1', expired: true, scopes: ['read_repository', 'write_registry'] });
    const all = await api(`/projects/${project.id}/deploy_tokens`, { token: maintainer.token, query: { per_page: 1 } });
    expect(all.body.map((token: any) => token.id)).toEqual([id]);
    expect(all.headers.get('x-next-page')).toBe('2');
    const everything = await api(`/projects/${project.id}/deploy_tokens`, { token: maintainer.token });
    expect(everything.body.map((token: any) => token.id)).toEqual([id, expired.body.id]);
    expect(everything.body[0]).not.toHaveProperty('token');
    const active = await api(`/projects/${project.id}/deploy_tokens`, { token: maintainer.token, query: { active: true } });
    expect(active.body.map((token: any) => token.id)).toEqual([id]);

    // Deleted: 204, then 404 for a read and a second delete.
    const path = `/projects/${project.id}/deploy_tokens/${expired.body.id}`;
    expect((await api(path, { method: 'DELETE', token: maintainer.token })).status).toBe(204);
    expect(await api(path, { token: maintainer.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await api(path, { method: 'DELETE', token: maintainer.token })).status).toBe(404);
  });

  it.each([
    [{ scopes: ['read_repository'] }, { error: 'name is missing' }],
    [{ name: 'x' }, { error: 'scopes is missing' }],
    [{ name: 'x', scopes: ['read_repository', 'write_repository'] }, { error: 'scopes does not have a valid value' }],
    [{ name: 'x', scopes: [] }, { message: "Scopes can't be blank" }],
    [{ name: 'x', scopes: ['read_repository'], username: 'no spaces' }, { message: "Username can contain only letters, digits, '_', '-', '+', and '.'" }],
    [{ name: 'x'.repeat(256), scopes: ['read_repository'] }, { message: 'Name is too long (maximum is 255 characters)' }],
    [{ name: 'x', scopes: ['read_repository'], expires_at: 'soon' }, { error: 'expires_at is invalid' }],
  ])('answers %j with 400 %j and creates nothing', async (body, error) => {
    // Act
    const response = await create(`/projects/${project.id}`, maintainer.token, body);
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error);
  });

  it('needs a maintainer: 403 for a developer, 404 for a stranger, 401 anonymous', async () => {
    // Prepare
    const stranger = await createUser();
    const base = `/projects/${project.id}/deploy_tokens`;
    // Act / Assess
    expect((await api(base, { token: developer.token })).status).toBe(403);
    expect((await create(`/projects/${project.id}`, developer.token, { name: 'x', scopes: ['read_repository'] })).status).toBe(403);
    expect((await api(`${base}/${created.body.id}`, { method: 'DELETE', token: developer.token })).status).toBe(403);
    expect((await api(base, { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
    expect((await api(base)).status).toBe(401);
    // Another project's token is not this one's.
    const other = await createProject(maintainer.token);
    expect((await api(`/projects/${other.id}/deploy_tokens/${created.body.id}`, { token: maintainer.token })).status).toBe(404);
  });
});

describe('group deploy tokens API', () => {
  it('lets maintainers read, and only owners create and delete', async () => {
    // Prepare
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember('groups', group.id, maintainer.id, 40);
    const base = `/groups/${encodeURIComponent(group.fullPath)}/deploy_tokens`;
    // Act
    const token = await create(`/groups/${group.id}`, owner.token, { name: 'group token', scopes: ['read_repository'], username: 'group-deployer' });
    // Assess
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ name: 'group token', username: 'group-deployer', expires_at: null, expired: false, revoked: false, scopes: ['read_repository'] });
    expect((await api(base, { token: maintainer.token })).body.map((t: any) => t.id)).toEqual([token.body.id]);
    expect((await api(`${base}/${token.body.id}`, { token: maintainer.token })).body.username).toBe('group-deployer');
    expect((await create(`/groups/${group.id}`, maintainer.token, { name: 'x', scopes: ['read_repository'] })).status).toBe(403);
    expect((await api(`${base}/${token.body.id}`, { method: 'DELETE', token: maintainer.token })).status).toBe(403);
    expect((await api(base, { token: (await createUser()).token })).status).toBe(404);
    expect((await api(`${base}/${token.body.id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await api(base, { token: owner.token })).body).toEqual([]);
  });
});

describe('git over HTTP with a deploy token', () => {
  let owner: TestUser;
  let group: { id: number; fullPath: string };
  let inSubgroup: { id: number; fullPath: string };
  let outside: OwnedProject;
  let sha: string;
  let groupToken: any;

  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token);
    const subgroup = await createGroup(owner.token, { parent_id: group.id });
    inSubgroup = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'private' });
    outside = await ownedProject('private');
    const work = await pushNewRepository(inSubgroup.fullPath, owner.token, { 'README.md': '# deployed\n' });
    sha = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    await pushNewRepository(outside.fullPath, outside.owner.token);
    groupToken = (await create(`/groups/${group.id}`, owner.token, { name: 'clone', scopes: ['read_repository'] })).body;
  });

  it('clones a private project of a subgroup with a group token, and refuses a push with 403', async () => {
    // Act
    const url = cloneUrl(inSubgroup.fullPath, groupToken.token, groupToken.username);
    const dir = scratch('deploy-clone-');
    await gitOk(['clone', '-q', url, dir]);
    // Assess
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim()).toBe(sha);
    await commitFiles(dir, { 'deployed.txt': 'no\n' }, 'pushed with a deploy token');
    const pushed = await git(['push', 'origin', 'HEAD:refs/heads/deployed'], { cwd: dir });
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('You are not allowed to upload code.');
    expect((await api(`/projects/${inSubgroup.id}/repository/branches/deployed`, { token: owner.token })).status).toBe(404);
  });

  it('refuses the token for another username, another group\'s project, the REST API, and once deleted or expired', async () => {
    // Prepare
    const project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    const own = (await create(`/projects/${project.id}`, owner.token, { name: 'mine', scopes: ['read_repository'] })).body;
    const registryOnly = (await create(`/projects/${project.id}`, owner.token, { name: 'registry', scopes: ['read_registry'] })).body;
    const expired = (await create(`/projects/${project.id}`, owner.token, { name: 'expired', scopes: ['read_repository'], expires_at: '2020-01-01' })).body;
    await pushNewRepository(project.fullPath, owner.token);
    const lsRemote = (path: string, token: any, username = token.username) => git(['ls-remote', cloneUrl(path, token.token, username)]);
    // Act / Assess
    const DENIED = 'HTTP Basic: Access denied';
    expect((await lsRemote(project.fullPath, own)).code).toBe(0);
    expect((await lsRemote(project.fullPath, own, 'someone-else')).stderr).toContain(DENIED);
    expect((await lsRemote(outside.fullPath, groupToken)).stderr).toContain(DENIED);
    expect((await lsRemote(inSubgroup.fullPath, own)).stderr).toContain(DENIED);
    expect((await lsRemote(project.fullPath, registryOnly)).stderr).toContain('You are not allowed to download code.');
    expect((await lsRemote(project.fullPath, expired)).stderr).toContain(DENIED);
    expect((await lsRemote(`${group.fullPath}/${unique('missing')}`, groupToken)).stderr).toContain('could not be found');
    expect((await api(`/projects/${project.id}`, { token: own.token })).status).toBe(401);
    expect((await api(`/projects/${project.id}/deploy_tokens/${own.id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await lsRemote(project.fullPath, own)).stderr).toContain(DENIED);
  });
});

describe('CI_DEPLOY_USER and CI_DEPLOY_PASSWORD', () => {
  it('gives jobs the group\'s active gitlab-deploy-token, which clones the project', async () => {
    // Prepare
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    await create(`/groups/${group.id}`, owner.token, { name: 'gitlab-deploy-token', scopes: ['read_repository'], expires_at: '2020-01-01' });
    const token = (await create(`/groups/${group.id}`, owner.token, { name: 'gitlab-deploy-token', scopes: ['read_repository'], username: unique('ci-deployer') })).body;
    await pushNewRepository(project.fullPath, owner.token, { '.gitlab-ci.yml': 'job:\n  script: [echo deploy]\n' });
    const runnersToken = (await api(`/projects/${project.id}`, { token: rootToken() })).body.runners_token;
    const runner = await TestRunner.register(runnersToken);
    // Act
    const job = await runner.pickNext();
    // Assess
    const variables = Object.fromEntries(job.variables.map((variable: any) => [variable.key, variable]));
    expect(variables.CI_DEPLOY_USER).toMatchObject({ value: token.username, public: true, masked: false });
    expect(variables.CI_DEPLOY_PASSWORD).toMatchObject({ value: token.token, public: false, masked: true });
    await gitOk(['ls-remote', cloneUrl(project.fullPath, variables.CI_DEPLOY_PASSWORD.value, variables.CI_DEPLOY_USER.value)]);
  });
});
