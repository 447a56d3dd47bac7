/**
 * Project access tokens as current GitLab manages them (`/projects/:id/access_tokens`): a
 * maintainer creates one (a bot user, its membership at the token's level, and its token, the
 * secret shown once), lists, reads, rotates and revokes them; the token authenticates as the bot,
 * which is listed among the project's members; refusals are GitLab's (401 reads, 400 writes) and
 * bad input writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, newMember, ownedProject, unique, type OwnedProject } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, commitFiles, git, gitOk, localRepository, pushNewRepository, scratch } from '../support/git';

interface ProjectAccessToken {
  id: number;
  name: string;
  revoked: boolean;
  created_at: string;
  description: string | null;
  scopes: string[];
  user_id: number;
  last_used_at: string | null;
  active: boolean;
  expires_at: string | null;
  last_used_ips: string[];
  access_level: number | null;
  resource_type: string;
  resource_id: number;
  token?: string;
}

const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

const utcDate = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A project access token made by the project's owner (201 asserted). */
async function projectToken(project: OwnedProject, body: Record<string, unknown> = {}): Promise<ProjectAccessToken> {
  const response = await api<ProjectAccessToken>(`/projects/${project.id}/access_tokens`, {
    token: project.owner.token,
    body: { name: unique('pat'), scopes: ['api'], ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A token as lists and reads show it: everything but the secret. */
function withoutSecret(token: ProjectAccessToken): ProjectAccessToken {
  const copy = { ...token };
  delete copy.token;
  return copy;
}

/** The project's token ids as root lists them. */
async function tokenIds(project: { id: number }, query: Record<string, string> = {}): Promise<number[]> {
  const response = await api<ProjectAccessToken[]>(`/projects/${project.id}/access_tokens`, { token: rootToken(), query });
  expect(response.status).toBe(200);
  return response.body.map((token) => token.id);
}

/** The project's member user ids, as root sees them. */
async function memberIds(project: { id: number }): Promise<number[]> {
  return (await api<{ id: number }[]>(`/projects/${project.id}/members`, { token: rootToken() })).body.map((member) => member.id);
}

describe('project access tokens', () => {
  it('a maintainer creates one: GitLab’s entity with the secret once, a bot user that is a member, and the token acts as the bot', async () => {
    // Prepare
    const project = await ownedProject('private');
    const maintainer = await newMember(project, MAINTAINER);

    // Act
    const response = await api<ProjectAccessToken>(`/projects/${project.id}/access_tokens`, {
      token: maintainer.token,
      body: { name: 'deploy bot', scopes: ['api', 'read_repository'], description: 'deploys' },
    });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const created = response.body;
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'deploy bot',
      revoked: false,
      created_at: expect.any(String),
      description: 'deploys',
      scopes: ['api', 'read_repository'],
      user_id: expect.any(Number),
      last_used_at: null,
      active: true,
      expires_at: utcDate(365),
      last_used_ips: [],
      access_level: MAINTAINER,
      resource_type: 'project',
      resource_id: project.id,
      token: expect.stringMatching(/^glpat-/),
    });
    const me = await api('/user', { token: created.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: created.user_id, name: 'deploy bot', bot: true, state: 'active' });
    expect(me.body.username).toMatch(new RegExp(`^project_${project.id}_bot_[0-9a-f]{32}$`));
    expect(me.body.email).toBe(`${me.body.username}@noreply.${new URL(me.body.web_url).hostname}`);
    expect((await api(`/projects/${project.id}`, { token: created.token })).status).toBe(200);
    const member = await api(`/projects/${project.id}/members/${created.user_id}`, { token: project.owner.token });
    expect(member.body).toMatchObject({ id: created.user_id, access_level: MAINTAINER });
  });

  it('lists and reads the project’s tokens without secrets, filtered by state; others’ projects do not show them', async () => {
    // Prepare
    const [project, other] = await Promise.all([ownedProject('private'), ownedProject('private')]);
    const first = await projectToken(project, { access_level: DEVELOPER });
    const second = await projectToken(project);
    const elsewhere = await projectToken(other);

    // Act
    const list = await api<ProjectAccessToken[]>(`/projects/${project.id}/access_tokens`, { token: project.owner.token });
    const one = await api<ProjectAccessToken>(`/projects/${project.id}/access_tokens/${first.id}`, { token: project.owner.token });
    const foreign = await api(`/projects/${project.id}/access_tokens/${elsewhere.id}`, { token: project.owner.token });

    // Assess
    expect(list.status).toBe(200);
    expect(list.body).toEqual([withoutSecret(first), withoutSecret(second)]);
    expect(list.headers.get('x-total')).toBe('2');
    expect(one.body).toEqual(list.body[0]);
    expect(one.body).not.toHaveProperty('token');
    expect(one.body.access_level).toBe(DEVELOPER);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: '404 project Access Token Not Found' });
    await api(`/projects/${project.id}/access_tokens/${first.id}`, { method: 'DELETE', token: project.owner.token });
    expect(await tokenIds(project, { state: 'active' })).toEqual([second.id]);
    expect(await tokenIds(project, { state: 'inactive' })).toEqual([]);
  });

  it('refuses reads to developers (401) and hides a private project from non-members (404)', async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await projectToken(project);
    const [developer, stranger] = await Promise.all([newMember(project, DEVELOPER), createUser()]);

    // Act
    const asDeveloper = await api(`/projects/${project.id}/access_tokens`, { token: developer.token });
    const oneAsDeveloper = await api(`/projects/${project.id}/access_tokens/${token.id}`, { token: developer.token });
    const asStranger = await api(`/projects/${project.id}/access_tokens`, { token: stranger.token });

    // Assess
    expect(asDeveloper.status).toBe(401);
    expect(asDeveloper.body).toEqual({ message: '401 Unauthorized' });
    expect(oneAsDeveloper.status).toBe(401);
    expect(asStranger.status).toBe(404);
    expect(asStranger.body).toEqual({ message: '404 Project Not Found' });
  });

  it('refuses bad input and levels above the creator’s with GitLab’s 400s, writing nothing', async () => {
    // Prepare
    const project = await ownedProject('private');
    const [maintainer, developer] = await Promise.all([newMember(project, MAINTAINER), newMember(project, DEVELOPER)]);
    const membersBefore = await memberIds(project);
    const create = (token: string, body: Record<string, unknown>) =>
      api(`/projects/${project.id}/access_tokens`, { token, body: { name: 'bot', scopes: ['api'], ...body } });

    // Act
    const missingName = await api(`/projects/${project.id}/access_tokens`, { token: maintainer.token, body: { scopes: ['api'] } });
    const missingScopes = await api(`/projects/${project.id}/access_tokens`, { token: maintainer.token, body: { name: 'bot' } });
    const badScope = await create(maintainer.token, { scopes: ['sudo'] });
    const badLevel = await create(maintainer.token, { access_level: 35 });
    const aboveOwn = await create(maintainer.token, { access_level: OWNER });
    const past = await create(maintainer.token, { expires_at: utcDate(-1) });
    const tooFar = await create(maintainer.token, { expires_at: utcDate(400) });
    const byDeveloper = await create(developer.token, {});

    // Assess
    expect(missingName.status).toBe(400);
    expect(missingName.body).toEqual({ error: 'name is missing' });
    expect(missingScopes.body).toEqual({ error: 'scopes is missing' });
    expect(badScope.status).toBe(400);
    expect(badLevel.status).toBe(400);
    expect(aboveOwn.status).toBe(400);
    expect(aboveOwn.body).toEqual({ message: '400 Bad request - Access level of the token contains permissions not held by the creating user' });
    expect(past.body).toEqual({ message: '400 Bad request - Expires at must be in the future' });
    expect(tooFar.body).toEqual({ message: `400 Bad request - Expires at must be before ${utcDate(365)}` });
    expect(byDeveloper.body).toEqual({ message: '400 Bad request - User does not have permission to create project access token' });
    expect(await tokenIds(project)).toEqual([]);
    expect(await memberIds(project)).toEqual(membersBefore);
  });

  it('the owner may give the owner level; the bot cannot create tokens itself', async () => {
    // Prepare
    const project = await ownedProject('private');

    // Act
    const owned = await projectToken(project, { access_level: OWNER });
    const byBot = await api(`/projects/${project.id}/access_tokens`, { token: owned.token, body: { name: 'nested', scopes: ['api'] } });

    // Assess
    expect(owned.access_level).toBe(OWNER);
    expect(byBot.status).toBe(400);
    expect(await tokenIds(project)).toEqual([owned.id]);
  });

  it('revoking answers 204, the token stops working at once and the bot leaves the project; developers get 400', async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await projectToken(project);
    const developer = await newMember(project, DEVELOPER);

    // Act
    const refused = await api(`/projects/${project.id}/access_tokens/${token.id}`, { method: 'DELETE', token: developer.token });
    const revoked = await api(`/projects/${project.id}/access_tokens/${token.id}`, { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^400 Bad request - .+ cannot delete .+$/);
    expect(revoked.status).toBe(204);
    expect((await api('/user', { token: token.token })).status).toBe(401);
    expect(await memberIds(project)).not.toContain(token.user_id);
    expect((await api(`/users/${token.user_id}`, { token: rootToken() })).status).toBe(404);
    expect(await tokenIds(project)).toEqual([]);
    const again = await api(`/projects/${project.id}/access_tokens/${token.id}`, { method: 'DELETE', token: project.owner.token });
    expect(again.status).toBe(404);
  });

  it('lists the bot among users unless without_project_bots or humans is asked', async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await projectToken(project);
    const username = (await api(`/users/${token.user_id}`, { token: rootToken() })).body.username as string;

    // Act
    const ids = async (query: Record<string, string>) =>
      (await api<{ id: number }[]>('/users', { token: rootToken(), query: { search: username, ...query } })).body.map((user) => user.id);

    // Assess
    expect(await ids({})).toEqual([token.user_id]);
    expect(await ids({ without_project_bots: 'true' })).toEqual([]);
    expect(await ids({ humans: 'true' })).toEqual([]);
  });

  it('deleting the project deletes its bots: their tokens stop working and the users are gone', async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await projectToken(project);
    expect((await api('/user', { token: token.token })).status).toBe(200);

    // Act
    const deleted = await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(deleted.status).toBe(202);
    await eventually(async () => {
      expect((await api('/user', { token: token.token })).status).toBe(401);
      expect((await api(`/users/${token.user_id}`, { token: rootToken() })).status).toBe(404);
    });
  });

  it('rotating revokes the old token and makes a working one for the same bot; others get 401, admins 404 for unknown ids', async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await projectToken(project, { scopes: ['api', 'read_api'], description: 'ci' });
    const developer = await newMember(project, DEVELOPER);

    // Act
    const refused = await api(`/projects/${project.id}/access_tokens/${token.id}/rotate`, { method: 'POST', token: developer.token });
    const rotated = await api<ProjectAccessToken>(`/projects/${project.id}/access_tokens/${token.id}/rotate`, {
      method: 'POST',
      token: project.owner.token,
    });
    const unknown = await api(`/projects/${project.id}/access_tokens/999999999/rotate`, { method: 'POST', token: rootToken() });

    // Assess
    expect(refused.status).toBe(401);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body).toMatchObject({
      name: token.name,
      scopes: ['api', 'read_api'],
      description: 'ci',
      user_id: token.user_id,
      access_level: MAINTAINER,
      expires_at: utcDate(7),
      active: true,
      token: expect.stringMatching(/^glpat-/),
    });
    expect(rotated.body.id).not.toBe(token.id);
    expect((await api('/user', { token: token.token })).status).toBe(401);
    expect((await api('/user', { token: rotated.body.token })).body.id).toBe(token.user_id);
    expect(unknown.status).toBe(404);
    const twice = await api(`/projects/${project.id}/access_tokens/${token.id}/rotate`, { method: 'POST', token: project.owner.token });
    expect(twice.status).toBe(400);
  });

  it('a developer-level bot token clones and pushes a branch over HTTP', async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await projectToken(project, { access_level: DEVELOPER });
    const work = await pushNewRepository(project.fullPath, project.owner.token, { 'README.md': '# bot\n' });

    // Act
    await commitFiles(work, { 'b.txt': 'b\n' }, 'by the bot');
    await gitOk(['push', '-q', cloneUrl(project.fullPath, token.token), 'HEAD:bot-branch'], { cwd: work });
    const clone = scratch('clone-');
    await gitOk(['clone', '-q', '--branch', 'bot-branch', cloneUrl(project.fullPath, token.token), clone]);

    // Assess
    expect((await gitOk(['log', '--format=%s'], { cwd: clone })).trim().split('\n')).toEqual(['by the bot', 'initial commit']);
  });

  it('honours narrower scopes: read_api reads but cannot write, read_repository clones but cannot push, write_repository pushes', async () => {
    // Prepare
    const project = await ownedProject('private');
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'HEAD:main'], { cwd: await localRepository({ 'README.md': '# scopes\n' }) });
    const readApi = await projectToken(project, { scopes: ['read_api'] });
    const readRepository = await projectToken(project, { scopes: ['read_repository'] });
    const writeRepository = await projectToken(project, { scopes: ['write_repository'] });
    const work = await localRepository({ 'c.txt': 'c\n' }, 'scoped');

    // Act
    const read = await api(`/projects/${project.id}/issues`, { token: readApi.token });
    const write = await api(`/projects/${project.id}/issues`, { token: readApi.token, body: { title: 'not allowed' } });
    const apiByRepositoryToken = await api(`/projects/${project.id}`, { token: readRepository.token });
    const cloned = await git(['clone', '-q', cloneUrl(project.fullPath, readRepository.token), scratch('scoped-')]);
    const pushRefused = await git(['push', '-q', cloneUrl(project.fullPath, readRepository.token), 'HEAD:refused'], { cwd: work });
    const cloneByReadApi = await git(['clone', '-q', cloneUrl(project.fullPath, readApi.token), scratch('scoped-')]);
    const pushed = await git(['push', '-q', cloneUrl(project.fullPath, writeRepository.token), 'HEAD:pushed'], { cwd: work });

    // Assess
    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ error: 'insufficient_scope' });
    expect(apiByRepositoryToken.status).toBe(403);
    expect(cloned.code).toBe(0);
    expect(pushRefused.code).not.toBe(0);
    expect(cloneByReadApi.code).not.toBe(0);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await api(`/projects/${project.id}/repository/branches/pushed`, { token: project.owner.token })).status).toBe(200);
    expect((await api(`/projects/${project.id}/repository/branches/refused`, { token: project.owner.token })).status).toBe(404);
  });
});
