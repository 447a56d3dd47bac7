/**
 * The branches and protected branches APIs over HTTP: listing and searching, the Branch entity's
 * flags (merged, protected, can_push, default), creating from a ref (also in an empty
 * repository), deleting and GitLab's pre-receive refusals, the merged branches cleanup, the legacy
 * protect / unprotect, and protected branch rules with wildcards.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/api';
import { createUser, newMember, ownedProject, type OwnedProject } from '../../support/fixtures';
import { createFiles, enc, repo } from './helpers';

const DEVELOPER = 30;
const MAINTAINER = 40;
const REPORTER = 20;

const BRANCH_FIELDS = ['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url'];

describe('branches', () => {
  let project: OwnedProject;
  let mainTip: string;
  beforeAll(async () => {
    project = await ownedProject();
    await createFiles(project.id, project.owner.token, { 'README.md': '# x\n' });
    await createFiles(project.id, project.owner.token, { 'feature.txt': 'f' }, { branch: 'feature/login', start_branch: 'main' });
    await createFiles(project.id, project.owner.token, { 'b.txt': 'b' }, { branch: 'old', start_branch: 'main' });
    mainTip = (await createFiles(project.id, project.owner.token, { 'more.txt': 'm' })).id;
    await api(repo(project.id, '/branches'), { token: project.owner.token, body: { branch: 'merged-one', ref: 'main~1' } });
  });

  it("lists branches by name with GitLab's Branch entity", async () => {
    const response = await api(repo(project.id, '/branches'), { token: project.owner.token });
    expect(response.status).toBe(200);
    expect(response.body.map((b: { name: string }) => b.name)).toEqual(['feature/login', 'main', 'merged-one', 'old']);
    expect(response.headers.get('x-total')).toBe('4');
    const main = response.body.find((b: { name: string }) => b.name === 'main');
    expect(Object.keys(main)).toEqual(BRANCH_FIELDS);
    // The default branch of the first push is protected (GitLab's default): maintainers push and merge.
    expect(main).toMatchObject({ merged: false, protected: true, developers_can_push: false, developers_can_merge: false, can_push: true, default: true });
    expect(main.commit.id).toBe(mainTip);
    expect(main.web_url).toMatch(new RegExp(`/${project.fullPath}/-/tree/main$`));
    const merged = response.body.find((b: { name: string }) => b.name === 'merged-one');
    expect(merged).toMatchObject({ merged: true, default: false });
    expect(response.body.find((b: { name: string }) => b.name === 'feature/login')).toMatchObject({ merged: false, web_url: expect.stringMatching(/\/-\/tree\/feature\/login$/) });
  });

  it('searches with ^ and $ and by regex', async () => {
    const names = async (query: Record<string, string>) => (await api(repo(project.id, '/branches'), { token: project.owner.token, query })).body.map((b: { name: string }) => b.name);
    expect(await names({ search: 'LOG' })).toEqual(['feature/login']);
    expect(await names({ search: '^m' })).toEqual(['main', 'merged-one']);
    expect(await names({ search: 'one$' })).toEqual(['merged-one']);
    expect(await names({ regex: '^(old|main)$' })).toEqual(['main', 'old']);
  });

  it('reads one branch, its name URL-encoded; 404 Branch Not Found otherwise', async () => {
    const response = await api(repo(project.id, `/branches/${enc('feature/login')}`), { token: project.owner.token });
    expect(response.body).toMatchObject({ name: 'feature/login', default: false });
    expect(await api(repo(project.id, '/branches/nope'), { token: project.owner.token })).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
  });

  it('creates a branch from a branch, a tag or a commit id; refuses bad names, taken names and unknown refs', async () => {
    const created = await api(repo(project.id, '/branches'), { token: project.owner.token, body: { branch: 'from-main', ref: 'main' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'from-main', commit: { id: mainTip }, merged: false });
    const fromSha = await api(repo(project.id, '/branches'), { token: project.owner.token, body: { branch: 'from-sha', ref: mainTip.slice(0, 10) } });
    expect(fromSha.body.commit.id).toBe(mainTip);
    const cases: Array<[Record<string, string>, unknown]> = [
      [{ branch: 'from-main', ref: 'main' }, { message: 'Branch already exists' }],
      [{ branch: 'bad..name', ref: 'main' }, { message: 'Branch name is invalid' }],
      [{ branch: 'new', ref: 'nowhere' }, { message: 'Invalid reference name: nowhere' }],
      [{ branch: 'a'.repeat(40).replace(/a/g, 'b'), ref: 'main' }, { message: 'You cannot create a branch with a 40-character hexadecimal branch name.' }],
      [{ ref: 'main' }, { error: 'branch is missing' }],
    ];
    for (const [body, expected] of cases) {
      const response = await api(repo(project.id, '/branches'), { token: project.owner.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual(expected);
    }
  });

  it('gives an empty repository its default branch with an empty README.md first', async () => {
    const empty = await ownedProject();
    const response = await api(repo(empty.id, '/branches'), { token: empty.owner.token, body: { branch: 'dev', ref: 'master' } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.commit).toMatchObject({ title: 'Add README.md', parent_ids: [] });
    const tree = await api(repo(empty.id, '/tree'), { token: empty.owner.token, query: { ref: 'dev' } });
    expect(tree.body.map((e: { path: string }) => e.path)).toEqual(['README.md']);
  });

  it('refuses, writing nothing, a revision an empty repository cannot resolve, or a branch named like its default one', async () => {
    // Prepare
    const empty = await ownedProject();
    const defaultBranch = (await api(`/projects/${empty.id}`, { token: empty.owner.token })).body.default_branch as string;

    // Act
    const unknown = await api(repo(empty.id, '/branches'), { token: empty.owner.token, body: { branch: 'dev', ref: 'nowhere' } });
    const same = await api(repo(empty.id, '/branches'), { token: empty.owner.token, body: { branch: defaultBranch, ref: defaultBranch } });

    // Assess
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Invalid reference name: nowhere' } });
    expect(same).toMatchObject({ status: 400, body: { message: 'Branch already exists' } });
    expect((await api(repo(empty.id, '/branches'), { token: empty.owner.token })).body).toEqual([]);
  });

  it('deletes a branch (204), but not the default branch nor a protected one for a developer', async () => {
    await api(repo(project.id, '/branches'), { token: project.owner.token, body: { branch: 'doomed', ref: 'main' } });
    expect((await api(repo(project.id, '/branches/doomed'), { token: project.owner.token, method: 'DELETE' })).status).toBe(204);
    expect((await api(repo(project.id, '/branches/doomed'), { token: project.owner.token })).status).toBe(404);
    expect((await api(repo(project.id, '/branches/doomed'), { token: project.owner.token, method: 'DELETE' })).body).toEqual({ message: '404 Branch Not Found' });
    const main = await api(repo(project.id, '/branches/main'), { token: project.owner.token, method: 'DELETE' });
    expect(main).toMatchObject({ status: 400, body: { message: 'The default branch of a project cannot be deleted.' } });

    const developer = await newMember(project, DEVELOPER);
    await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, body: { name: 'old' } });
    const protectedOne = await api(repo(project.id, '/branches/old'), { token: developer.token, method: 'DELETE' });
    expect(protectedOne).toMatchObject({
      status: 400,
      body: { message: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.' },
    });
    const reporter = await newMember(project, REPORTER);
    expect((await api(repo(project.id, '/branches/feature%2Flogin'), { token: reporter.token, method: 'DELETE' })).status).toBe(403);
  });

  it('deletes the branches merged into the default branch, but protected ones (202)', async () => {
    const other = await ownedProject();
    await createFiles(other.id, other.owner.token, { 'a.txt': 'a' });
    for (const branch of ['merged-a', 'merged-b', 'kept-protected']) await api(repo(other.id, '/branches'), { token: other.owner.token, body: { branch, ref: 'main' } });
    await createFiles(other.id, other.owner.token, { 'b.txt': 'b' });
    await createFiles(other.id, other.owner.token, { 'c.txt': 'c' }, { branch: 'unmerged', start_branch: 'main' });
    await api(`/projects/${other.id}/protected_branches`, { token: other.owner.token, body: { name: 'kept-*' } });

    const response = await api(repo(other.id, '/merged_branches'), { token: other.owner.token, method: 'DELETE' });
    expect(response).toMatchObject({ status: 202, body: { message: '202 Accepted' } });
    const names = (await api(repo(other.id, '/branches'), { token: other.owner.token })).body.map((b: { name: string }) => b.name);
    expect(names).toEqual(['kept-protected', 'main', 'unmerged']);
  });
});

describe('protect and unprotect (legacy)', () => {
  it('protects a branch for maintainers or developers, and unprotects it', async () => {
    const project = await ownedProject();
    await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
    const developer = await newMember(project, DEVELOPER);
    const maintainer = await newMember(project, MAINTAINER);

    expect((await api(repo(project.id, '/branches/main/protect'), { token: developer.token, method: 'PUT' })).status).toBe(403);
    const protectedMain = await api(repo(project.id, '/branches/main/protect'), { token: maintainer.token, method: 'PUT' });
    expect(protectedMain.body).toMatchObject({ name: 'main', protected: true, developers_can_push: false, developers_can_merge: false, can_push: true });
    expect((await api(repo(project.id, '/branches/main'), { token: developer.token })).body).toMatchObject({ protected: true, can_push: false });

    const opened = await api(repo(project.id, '/branches/main/protect'), { token: maintainer.token, method: 'PUT', query: { developers_can_push: true, developers_can_merge: true } });
    expect(opened.body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true });
    expect((await api(repo(project.id, '/branches/main'), { token: developer.token })).body.can_push).toBe(true);
    // A flag left out leaves that level alone.
    const half = await api(repo(project.id, '/branches/main/protect'), { token: maintainer.token, method: 'PUT', body: { developers_can_merge: false } });
    expect(half.body).toMatchObject({ developers_can_push: true, developers_can_merge: false });

    const unprotected = await api(repo(project.id, '/branches/main/unprotect'), { token: maintainer.token, method: 'PUT' });
    expect(unprotected.body).toMatchObject({ protected: false, developers_can_push: false });
    expect((await api(repo(project.id, '/branches/nope/protect'), { token: maintainer.token, method: 'PUT' })).body).toEqual({ message: '404 Branch Not Found' });
  });
});

describe('protected branches API', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
    await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
    await api(repo(project.id, '/branches'), { token: project.owner.token, body: { branch: 'release/1.0', ref: 'main' } });
  });

  it("protects a name or a pattern and answers GitLab's ProtectedBranch entity", async () => {
    const created = await api(`/projects/${project.id}/protected_branches`, {
      token: project.owner.token,
      body: { name: 'release/*', push_access_level: 0, merge_access_level: 30, allow_force_push: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'release/*',
      push_access_levels: [{ id: expect.any(Number), access_level: 0, access_level_description: 'No one' }],
      merge_access_levels: [{ id: expect.any(Number), access_level: 30, access_level_description: 'Developers + Maintainers' }],
      allow_force_push: true,
    });
    const defaults = await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, body: { name: 'hotfix' } });
    expect(defaults.body).toMatchObject({
      push_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
      merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
      allow_force_push: false,
    });
    const again = await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, body: { name: 'hotfix' } });
    expect(again).toMatchObject({ status: 409, body: { message: "Protected branch 'hotfix' already exists" } });
    const invalid = await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, body: { name: 'x', push_access_level: 20 } });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'push_access_level does not have a valid value' } });
    const long = await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, body: { name: 'b'.repeat(256) } });
    expect(long).toMatchObject({ status: 400, body: { message: { name: ['is too long (maximum is 255 characters)'] } } });

    const branch = await api(repo(project.id, `/branches/${enc('release/1.0')}`), { token: project.owner.token });
    expect(branch.body).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: true, can_push: false });
  });

  it('lists, reads, edits and deletes protections; 404 Not found for an unknown name', async () => {
    const list = await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token });
    // `main` first: protected by the repository's first push.
    expect(list.body.map((b: { name: string }) => b.name)).toEqual(['main', 'release/*', 'hotfix']);
    expect((await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, query: { search: 'REL' } })).body).toHaveLength(1);
    const one = await api(`/projects/${project.id}/protected_branches/${enc('release/*')}`, { token: project.owner.token });
    expect(one.body.name).toBe('release/*');
    const patched = await api(`/projects/${project.id}/protected_branches/main`, { token: project.owner.token, method: 'PATCH', body: { allow_force_push: true } });
    expect(patched.body.allow_force_push).toBe(true);
    expect((await api(`/projects/${project.id}/protected_branches/nope`, { token: project.owner.token })).body).toEqual({ message: '404 Not found' });
    expect((await api(`/projects/${project.id}/protected_branches/main`, { token: project.owner.token, method: 'DELETE' })).status).toBe(204);
    expect((await api(`/projects/${project.id}/protected_branches/main`, { token: project.owner.token, method: 'DELETE' })).status).toBe(404);
  });

  it('lets reporters read protections but only maintainers change them', async () => {
    const reporter = await newMember(project, REPORTER);
    const developer = await newMember(project, DEVELOPER);
    expect((await api(`/projects/${project.id}/protected_branches`, { token: reporter.token })).status).toBe(200);
    expect((await api(`/projects/${project.id}/protected_branches`, { token: developer.token, body: { name: 'dev-*' } })).status).toBe(403);
    expect((await api(`/projects/${project.id}/protected_branches/${enc('release/*')}`, { token: developer.token, method: 'DELETE' })).status).toBe(403);
    const stranger = await createUser();
    expect((await api(`/projects/${project.id}/protected_branches`, { token: stranger.token })).status).toBe(404);
  });
});
