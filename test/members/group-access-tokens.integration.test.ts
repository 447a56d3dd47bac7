/**
 * Group access tokens as current GitLab manages them (`/groups/:id/access_tokens`), as
 * python-gitlab (`group.access_tokens`) and gitbeaker call them: a group owner creates one (a bot
 * user that is a member of the group at the token's level, its token shown once), lists (`state`),
 * reads, rotates and revokes them; the token reaches the group's projects and its subgroups'
 * projects through the bot's inherited membership, over the API and with `git`; refusals are
 * GitLab's (401 reads, 400 writes) and bad input writes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, commitFiles, git, gitOk, pushNewRepository, scratch } from '../support/git';

interface GroupAccessToken {
  id: number;
  name: string;
  user_id: number;
  active: boolean;
  revoked: boolean;
  scopes: string[];
  expires_at: string | null;
  access_level: number | null;
  resource_type: string;
  resource_id: number;
  token?: string;
  [field: string]: unknown;
}

const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

const utcDate = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A token as lists and reads show it: everything but the secret. */
function withoutSecret({ token: _secret, ...shown }: GroupAccessToken): GroupAccessToken {
  return shown;
}

describe('group access tokens', () => {
  let owner: TestUser;
  let maintainer: TestUser;
  let group: { id: number; fullPath: string };
  let subgroupProject: { id: number; fullPath: string };
  let groupProject: { id: number };

  /** A token of the group made by its owner (201 asserted). */
  async function groupToken(body: Record<string, unknown> = {}, groupId = group.id): Promise<GroupAccessToken> {
    const response = await api<GroupAccessToken>(`/groups/${groupId}/access_tokens`, { token: owner.token, body: { name: unique('gat'), scopes: ['api'], ...body } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  /** The group's token ids as its owner lists them. */
  async function tokenIds(query: Record<string, string> = {}): Promise<number[]> {
    const response = await api<GroupAccessToken[]>(`/groups/${group.id}/access_tokens`, { token: owner.token, query });
    expect(response.status).toBe(200);
    return response.body.map((token) => token.id);
  }

  beforeAll(async () => {
    [owner, maintainer] = await Promise.all([createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'private' });
    const subgroup = await createGroup(owner.token, { visibility: 'private', parent_id: group.id });
    [groupProject, subgroupProject] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id }),
      createProject(owner.token, { namespace_id: subgroup.id }),
      addMember('groups', group.id, maintainer.id, MAINTAINER),
    ]);
    await pushNewRepository(subgroupProject.fullPath, owner.token, { 'README.md': '# deep\n' });
  });

  it('an owner creates one: GitLab’s entity with the secret once, a bot that is a group member, reaching the group’s and its subgroups’ projects (API and git)', async () => {
    // Act
    const response = await api<GroupAccessToken>(`/groups/${encodeURIComponent(group.fullPath)}/access_tokens`, {
      token: owner.token,
      body: { name: 'group bot', scopes: ['api', 'read_repository'], access_level: DEVELOPER, description: 'builds' },
    });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const created = response.body;
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'group bot',
      revoked: false,
      created_at: expect.any(String),
      description: 'builds',
      scopes: ['api', 'read_repository'],
      user_id: expect.any(Number),
      last_used_at: null,
      active: true,
      expires_at: utcDate(365),
      last_used_ips: [],
      access_level: DEVELOPER,
      resource_type: 'group',
      resource_id: group.id,
      token: expect.stringMatching(/^glpat-/),
    });
    const me = await api('/user', { token: created.token });
    expect(me.body).toMatchObject({ id: created.user_id, name: 'group bot', bot: true });
    expect(me.body.username).toMatch(new RegExp(`^group_${group.id}_bot_[0-9a-f]{32}$`));
    const member = await api(`/groups/${group.id}/members/${created.user_id}`, { token: owner.token });
    expect(member.body).toMatchObject({ id: created.user_id, access_level: DEVELOPER });
    // Inherited membership: the group's project and the subgroup's, as a developer.
    expect((await api(`/projects/${groupProject.id}`, { token: created.token })).status).toBe(200);
    const issue = await api(`/projects/${subgroupProject.id}/issues`, { token: created.token, body: { title: 'from the bot' } });
    expect(issue.status).toBe(201);
    expect(issue.body.author.id).toBe(created.user_id);
    const work = scratch('gat-');
    await gitOk(['clone', '-q', cloneUrl(subgroupProject.fullPath, created.token), work]);
    await commitFiles(work, { 'bot.txt': 'bot\n' }, 'by the group bot');
    await gitOk(['push', '-q', 'origin', 'HEAD:bot-branch'], { cwd: work });
    expect((await api(`/projects/${subgroupProject.id}/repository/branches/bot-branch`, { token: owner.token })).body.commit.title).toBe('by the group bot');
    // Nothing outside the group.
    const elsewhere = await createProject(owner.token);
    expect((await api(`/projects/${elsewhere.id}`, { token: created.token })).status).toBe(404);
  });

  it('lists and reads the group’s tokens without secrets (state filter); revoking answers 204, refuses the token at once and removes the bot', async () => {
    // Prepare
    const other = await createGroup(owner.token);
    const [first, second, foreign] = [await groupToken({ access_level: MAINTAINER }), await groupToken({ access_level: OWNER }), await groupToken({}, other.id)];
    const before = await tokenIds();

    // Act
    const list = await api<GroupAccessToken[]>(`/groups/${group.id}/access_tokens`, { token: owner.token, query: { per_page: 100 } });
    const one = await api<GroupAccessToken>(`/groups/${group.id}/access_tokens/${second.id}`, { token: owner.token });
    const notHere = await api(`/groups/${group.id}/access_tokens/${foreign.id}`, { token: owner.token });
    const revoked = await api(`/groups/${group.id}/access_tokens/${second.id}`, { method: 'DELETE', token: owner.token });

    // Assess
    expect(list.body.filter((token) => token.id === first.id || token.id === second.id)).toEqual([withoutSecret(first), withoutSecret(second)]);
    expect(before.slice(-2)).toEqual([first.id, second.id]);
    expect(one.body).toEqual(withoutSecret(second));
    expect(notHere.status).toBe(404);
    expect(notHere.body).toEqual({ message: '404 group Access Token Not Found' });
    expect(revoked.status).toBe(204);
    expect((await api('/user', { token: second.token })).status).toBe(401);
    expect((await api(`/groups/${group.id}/members/${second.user_id}`, { token: owner.token })).status).toBe(404);
    expect((await api(`/users/${second.user_id}`, { token: rootToken() })).status).toBe(404);
    expect(await tokenIds({ state: 'active' })).toContain(first.id);
    expect(await tokenIds({ state: 'active' })).not.toContain(second.id);
    expect(await tokenIds({ state: 'inactive' })).toEqual([]);
    expect((await api(`/groups/${group.id}/access_tokens/${second.id}`, { method: 'DELETE', token: owner.token })).status).toBe(404);
    // The owner bot was counted among the owners and uncounted again: the human owner is still the last one.
    const leave = await api(`/groups/${group.id}/members/${owner.id}`, { method: 'DELETE', token: owner.token });
    expect(leave.status).toBe(403);
  });

  it('rotating revokes the old token and makes a working one for the same bot; maintainers get 401, admins 404 for unknown ids', async () => {
    // Prepare
    const token = await groupToken({ scopes: ['api', 'read_api'] });

    // Act
    const refused = await api(`/groups/${group.id}/access_tokens/${token.id}/rotate`, { method: 'POST', token: maintainer.token });
    const rotated = await api<GroupAccessToken>(`/groups/${group.id}/access_tokens/${token.id}/rotate`, { method: 'POST', token: owner.token, body: { expires_at: utcDate(30) } });
    const unknown = await api(`/groups/${group.id}/access_tokens/999999999/rotate`, { method: 'POST', token: rootToken() });
    const twice = await api(`/groups/${group.id}/access_tokens/${token.id}/rotate`, { method: 'POST', token: owner.token });

    // Assess
    expect(refused.status).toBe(401);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body).toMatchObject({ name: token.name, user_id: token.user_id, scopes: ['api', 'read_api'], access_level: MAINTAINER, expires_at: utcDate(30), resource_type: 'group', token: expect.stringMatching(/^glpat-/) });
    expect(rotated.body.id).not.toBe(token.id);
    expect((await api(`/projects/${subgroupProject.id}`, { token: token.token })).status).toBe(401);
    expect((await api(`/projects/${subgroupProject.id}`, { token: rotated.body.token })).status).toBe(200);
    expect((await git(['ls-remote', cloneUrl(subgroupProject.fullPath, token.token)])).code).not.toBe(0);
    expect(unknown.status).toBe(404);
    expect(twice.status).toBe(400);
  });

  it('only owners manage them (maintainers 401 on reads, 400 on writes; hidden groups 404; bots 400); bad input is GitLab’s 400, writing nothing', async () => {
    // Prepare
    const stranger = await createUser();
    const bot = await groupToken({ access_level: OWNER });
    const before = await tokenIds();
    const create = (token: string, body: Record<string, unknown>) => api(`/groups/${group.id}/access_tokens`, { token, body: { name: 'bot', scopes: ['api'], ...body } });

    // Act
    const listByMaintainer = await api(`/groups/${group.id}/access_tokens`, { token: maintainer.token });
    const oneByMaintainer = await api(`/groups/${group.id}/access_tokens/${bot.id}`, { token: maintainer.token });
    const createByMaintainer = await create(maintainer.token, { access_level: DEVELOPER });
    const revokeByMaintainer = await api(`/groups/${group.id}/access_tokens/${bot.id}`, { method: 'DELETE', token: maintainer.token });
    const byStranger = await api(`/groups/${group.id}/access_tokens`, { token: stranger.token });
    const byBot = await create(bot.token as string, {});
    const missingName = await api(`/groups/${group.id}/access_tokens`, { token: owner.token, body: { scopes: ['api'] } });
    const missingScopes = await create(owner.token, { scopes: undefined });
    const badScope = await create(owner.token, { scopes: ['sudo'] });
    const badLevel = await create(owner.token, { access_level: 35 });
    const past = await create(owner.token, { expires_at: utcDate(-1) });
    const tooFar = await create(owner.token, { expires_at: utcDate(400) });

    // Assess
    expect([listByMaintainer.status, oneByMaintainer.status]).toEqual([401, 401]);
    expect(listByMaintainer.body).toEqual({ message: '401 Unauthorized' });
    expect(createByMaintainer.body).toEqual({ message: '400 Bad request - User does not have permission to create group access token' });
    expect(revokeByMaintainer.status).toBe(400);
    expect(revokeByMaintainer.body.message).toMatch(/^400 Bad request - .+ cannot delete .+$/);
    expect(byStranger.status).toBe(404);
    expect(byStranger.body).toEqual({ message: '404 Group Not Found' });
    expect(byBot.status).toBe(400);
    expect(missingName.body).toEqual({ error: 'name is missing' });
    expect(missingScopes.body).toEqual({ error: 'scopes is missing' });
    expect([badScope.status, badLevel.status]).toEqual([400, 400]);
    expect(past.body).toEqual({ message: '400 Bad request - Expires at must be in the future' });
    expect(tooFar.body).toEqual({ message: `400 Bad request - Expires at must be before ${utcDate(365)}` });
    expect(await tokenIds()).toEqual(before);
  });

  it('deleting the group deletes its bots: their tokens stop working and the users are gone', async () => {
    // Prepare
    const doomed = await createGroup(owner.token);
    const token = await groupToken({}, doomed.id);

    // Act
    const deleted = await api(`/groups/${doomed.id}`, { method: 'DELETE', token: owner.token });

    // Assess
    expect(deleted.status).toBe(202);
    await eventually(async () => {
      expect((await api('/user', { token: token.token })).status).toBe(401);
      expect((await api(`/users/${token.user_id}`, { token: rootToken() })).status).toBe(404);
    });
  });
});
