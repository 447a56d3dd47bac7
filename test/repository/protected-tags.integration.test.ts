/**
 * Protected tags over HTTP (GitLab's `lib/api/protected_tags.rb` and `Gitlab::Checks::TagCheck`):
 * the API with GitLab's entity, answers and permissions (maintainers only, reads included); who
 * may create and delete a protected tag through the tags API and with the real `git` CLI; and a
 * pipeline of a protected tag running as protected (`CI_COMMIT_REF_PROTECTED`, protected
 * variables).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, git, gitOk, localRepository } from '../support/git';
import { TestRunner } from '../ci/runner';
import { createFiles, enc, repo } from './api/helpers';

const DEVELOPER = 30;

const protectedTags = (project: { id: number }, name = '') => `/projects/${project.id}/protected_tags${name && `/${enc(name)}`}`;

/** Protects a name as the project's owner (201 asserted). */
async function protect(project: OwnedProject, name: string, level?: number) {
  const response = await api(protectedTags(project), { token: project.owner.token, body: { name, ...(level === undefined ? {} : { create_access_level: level }) } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response;
}

const tagApi = (project: OwnedProject, token: string, tag_name: string) => api(repo(project.id, '/tags'), { token, body: { tag_name, ref: 'main' } });
const deleteTag = (project: OwnedProject, token: string, name: string) => api(repo(project.id, `/tags/${enc(name)}`), { token, method: 'DELETE' });

/** A project with one commit on `main`, and a developer. */
async function projectWithDeveloper(): Promise<{ project: OwnedProject; developer: TestUser }> {
  const project = await ownedProject();
  const developer = await newMember(project, DEVELOPER);
  await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
  return { project, developer };
}

describe('protected tags API', () => {
  let project: OwnedProject;
  let developer: TestUser;
  beforeAll(async () => {
    ({ project, developer } = await projectWithDeveloper());
  });

  it("protects names and patterns with GitLab's ProtectedTag entity; lists, reads and unprotects them", async () => {
    const wildcard = await protect(project, 'v*');
    expect(wildcard.body).toEqual({ name: 'v*', create_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: 'Maintainers' }] });
    expect((await protect(project, 'release-1', 0)).body.create_access_levels).toEqual([{ id: expect.any(Number), access_level: 0, access_level_description: 'No one' }]);
    expect((await protect(project, 'dev-*', 30)).body.create_access_levels[0]).toMatchObject({ access_level: 30, access_level_description: 'Developers + Maintainers' });

    const again = await api(protectedTags(project), { token: project.owner.token, body: { name: 'v*' } });
    expect(again).toMatchObject({ status: 422, body: { message: ['Name has already been taken'] } });
    const invalid = await api(protectedTags(project), { token: project.owner.token, body: { name: 'x', create_access_level: 20 } });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'create_access_level does not have a valid value' } });

    const list = await api(protectedTags(project), { token: project.owner.token });
    expect(list.status).toBe(200);
    expect(list.body.map((tag: { name: string }) => tag.name)).toEqual(['v*', 'release-1', 'dev-*']);
    expect((await api(protectedTags(project, 'v*'), { token: project.owner.token })).body).toEqual(wildcard.body);
    expect(await api(protectedTags(project, 'nope'), { token: project.owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await api(protectedTags(project, 'release-1'), { token: project.owner.token, method: 'DELETE' })).status).toBe(204);
    expect(await api(protectedTags(project, 'release-1'), { token: project.owner.token, method: 'DELETE' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('lets only maintainers in, reads included; a stranger gets 404', async () => {
    expect((await api(protectedTags(project), { token: developer.token })).status).toBe(403);
    expect((await api(protectedTags(project, 'v*'), { token: developer.token })).status).toBe(403);
    expect((await api(protectedTags(project), { token: developer.token, body: { name: 'mine' } })).status).toBe(403);
    expect((await api(protectedTags(project, 'v*'), { token: developer.token, method: 'DELETE' })).status).toBe(403);
    expect((await api(protectedTags(project), { token: (await createUser()).token })).status).toBe(404);
  });

  it('of parallel protections of one name, lets exactly one win', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => api(protectedTags(project), { token: project.owner.token, body: { name: 'rc-*' } })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 422, 422, 422, 422]);
  });
});

describe('protected tags in the tags API', () => {
  let project: OwnedProject;
  let developer: TestUser;
  beforeAll(async () => {
    ({ project, developer } = await projectWithDeveloper());
    // Tagged before its protection: no one may create it (and so delete it) once protected.
    expect((await tagApi(project, project.owner.token, 'locked-1')).status).toBe(201);
    await protect(project, 'v*');
    await protect(project, 'dev-*', 30);
    await protect(project, 'locked-*', 0);
  });

  it('lets whoever the create level allows create a protected tag, and flags it protected', async () => {
    expect(await tagApi(project, developer.token, 'v1.0')).toMatchObject({ status: 400, body: { message: 'You are not allowed to create this tag as it is protected.' } });
    expect(await tagApi(project, project.owner.token, 'locked-2')).toMatchObject({ status: 400, body: { message: 'You are not allowed to create this tag as it is protected.' } });
    expect(await tagApi(project, project.owner.token, 'v1.0')).toMatchObject({ status: 201, body: { name: 'v1.0', protected: true } });
    expect(await tagApi(project, developer.token, 'dev-1')).toMatchObject({ status: 201, body: { protected: true } });
    expect(await tagApi(project, developer.token, 'plain')).toMatchObject({ status: 201, body: { protected: false } });
    const tags = await api(repo(project.id, '/tags'), { token: developer.token, query: { order_by: 'name', sort: 'asc' } });
    expect(tags.body.map((tag: { name: string; protected: boolean }) => [tag.name, tag.protected])).toEqual([
      ['dev-1', true],
      ['locked-1', true],
      ['plain', false],
      ['v1.0', true],
    ]);
    expect((await api(repo(project.id, '/tags/v1.0'), { token: developer.token })).body.protected).toBe(true);
  });

  it('lets maintainers alone delete a protected tag, and only one they may create', async () => {
    expect(await deleteTag(project, developer.token, 'dev-1')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await deleteTag(project, project.owner.token, 'locked-1')).toMatchObject({ status: 400, body: { message: 'You are not allowed to create this tag as it is protected.' } });
    expect((await deleteTag(project, project.owner.token, 'dev-1')).status).toBe(204);
    expect((await deleteTag(project, developer.token, 'plain')).status).toBe(204);
    const left = await api(repo(project.id, '/tags'), { token: developer.token, query: { order_by: 'name', sort: 'asc' } });
    expect(left.body.map((tag: { name: string }) => tag.name)).toEqual(['locked-1', 'v1.0']);
  });
});

describe('protected tags and git push', () => {
  it("refuses, with GitLab's messages, creating a protected tag below its level, moving one, and deleting one by push", async () => {
    const project = await ownedProject();
    const developer = await newMember(project, DEVELOPER);
    const work = await localRepository();
    const first = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    const owner = cloneUrl(project.fullPath, project.owner.token);
    const dev = cloneUrl(project.fullPath, developer.token);
    await gitOk(['push', '-q', owner, 'main'], { cwd: work });
    await protect(project, 'v*');
    await gitOk(['tag', 'v1'], { cwd: work });
    await gitOk(['tag', 'x1'], { cwd: work });

    const created = await git(['push', dev, 'v1', 'x1'], { cwd: work });
    expect(created.code).not.toBe(0);
    expect(created.stderr).toContain('You are not allowed to create this tag as it is protected.');
    await gitOk(['push', '-q', owner, 'v1'], { cwd: work });

    const second = await commitFiles(work, { 'b.txt': 'b\n' }, 'second');
    await gitOk(['tag', '-f', 'v1', second], { cwd: work });
    await gitOk(['tag', '-f', 'x1', second], { cwd: work });
    const moved = await git(['push', '--force', owner, 'v1'], { cwd: work });
    expect(moved.stderr).toContain('Protected tags cannot be updated.');
    // An unprotected tag moves for developers (GitLab's `admin_tag`).
    await gitOk(['push', '-q', '--force', dev, 'x1'], { cwd: work });

    const byDeveloper = await git(['push', dev, '--delete', 'v1'], { cwd: work });
    expect(byDeveloper.stderr).toContain('You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.');
    const byOwner = await git(['push', owner, '--delete', 'v1'], { cwd: work });
    expect(byOwner.stderr).toContain('You can only delete protected tags using the web interface.');

    const remote = await gitOk(['ls-remote', '--tags', owner], { cwd: work });
    expect(remote).toContain(`${first}\trefs/tags/v1`);
    expect(remote).toContain(`${second}\trefs/tags/x1`);
    // The web interface (the API) may.
    expect((await deleteTag(project, project.owner.token, 'v1')).status).toBe(204);
  });
});

describe('pipelines of protected tags', () => {
  it('run as protected: CI_COMMIT_REF_PROTECTED, protected variables and git_info.protected, which other tags do not get', async () => {
    const project = await ownedProject();
    const variable = await api(`/projects/${project.id}/variables`, { token: project.owner.token, body: { key: 'RELEASE_KEY', value: 'release-secret', protected: true } });
    expect(variable.status).toBe(201);
    await protect(project, 'v*');
    const work = await localRepository({ '.gitlab-ci.yml': 'release:\n  script: [echo release]\n  rules:\n    - if: $CI_COMMIT_TAG\n' });
    const remote = cloneUrl(project.fullPath, project.owner.token);
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['tag', 'v1.0'], { cwd: work });
    await gitOk(['tag', 'nightly'], { cwd: work });
    await gitOk(['push', '-q', remote, 'v1.0', 'nightly'], { cwd: work });

    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    const seen = new Map<string, Map<string, string>>();
    const gitInfo = new Map<string, { protected: boolean }>();
    for (const deadline = Date.now() + 30_000; seen.size < 2 && Date.now() < deadline; ) {
      const { job } = await runner.requestJob();
      if (!job) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const variables = new Map<string, string>((job.variables as Array<{ key: string; value: string }>).map((v) => [v.key, v.value]));
      seen.set(variables.get('CI_COMMIT_TAG')!, variables);
      gitInfo.set(variables.get('CI_COMMIT_TAG')!, job.git_info);
      expect((await runner.update(job, 'success')).status).toBe(200);
    }
    expect([...seen.keys()].sort()).toEqual(['nightly', 'v1.0']);
    expect(seen.get('v1.0')!.get('CI_COMMIT_REF_PROTECTED')).toBe('true');
    expect(seen.get('v1.0')!.get('RELEASE_KEY')).toBe('release-secret');
    expect(seen.get('nightly')!.get('CI_COMMIT_REF_PROTECTED')).toBe('false');
    expect(seen.get('nightly')!.has('RELEASE_KEY')).toBe(false);
    expect([gitInfo.get('v1.0')?.protected, gitInfo.get('nightly')?.protected]).toEqual([true, false]);
  });
});
