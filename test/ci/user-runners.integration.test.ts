/**
 * Runners as current GitLab makes them: a maintainer creates one (`POST /user/runners`, python-gitlab's
 * `gl.user.runners.create`) and gets its token once; `gitlab-runner register --token` verifies it
 * with the machine's `system_id` (`POST /runners/verify`), which makes that machine one of the
 * runner's managers (`GET /runners/:id/managers`); the runner takes jobs; `gitlab-runner unregister`
 * of one machine removes its manager (`DELETE /runners/managers`); the token is reset by the runner
 * itself or through the Runners API, and the old one stops working at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createProject, createUser, newMember, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const createRunner = (token: string, body: Record<string, unknown>) => api('/user/runners', { method: 'POST', token, body });
const verify = (token: string, systemId?: string) => api('/runners/verify', { method: 'POST', body: { token, ...(systemId ? { system_id: systemId } : {}) } });
const managers = async (runnerId: number, token: string) => {
  const response = await api(`/runners/${runnerId}/managers`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Array<Record<string, unknown>>;
};

describe('runners created by users', () => {
  let project: OwnedProject;
  let owner: TestUser;
  let developer: TestUser;

  beforeAll(async () => {
    project = await ownedProject('private');
    owner = project.owner;
    developer = await newMember(project, 30);
  });

  it('creates a project runner that registers with its token, takes jobs and lists its managers', async () => {
    // Act: create, then `gitlab-runner register --token` on a machine
    const created = await createRunner(owner.token, { runner_type: 'project_type', project_id: project.id, description: 'made by a user', tag_list: 'docker,linux', run_untagged: true, maintenance_note: 'rack 4' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    const details = await api(`/runners/${created.body.id}`, { token: owner.token });
    expect(details.body).toMatchObject({ description: 'made by a user', tag_list: ['docker', 'linux'], locked: false, run_untagged: true, maintenance_note: 'rack 4', status: 'never_contacted', runner_type: 'project_type' });
    expect(await managers(created.body.id, owner.token)).toEqual([]);

    const runner = await TestRunner.verify(created.body.token, 's_machine_one');

    // Assess: the machine is a manager, contacted; the runner is online and runs the project's job
    expect(runner.id).toBe(created.body.id);
    expect(await managers(runner.id, owner.token)).toEqual([
      {
        id: expect.any(Number),
        system_id: 's_machine_one',
        version: '18.0.0',
        revision: null,
        platform: 'linux',
        architecture: 'amd64',
        created_at: expect.any(String),
        contacted_at: expect.any(String),
        ip_address: null,
        status: 'online',
      },
    ]);
    expect((await api(`/runners/${runner.id}`, { token: owner.token })).body.status).toBe('online');
    await pushNewRepository(project.fullPath, owner.token, { '.gitlab-ci.yml': 'build:\n  script: [echo hi]\n' });
    const ran = await runner.runNext();
    expect(ran?.state).toBe('success');
    expect(ran?.job.runner_info).toBeDefined();
  });

  it('adds each machine once, even when its first calls come together, and removes one on unregister', async () => {
    // Prepare
    const created = await createRunner(owner.token, { runner_type: 'project_type', project_id: project.id });
    const { token, id } = created.body;

    // Act: three first calls of one machine at once, then a job request from another
    const first = await Promise.all([verify(token, 's_same'), verify(token, 's_same'), verify(token, 's_same')]);
    await api('/jobs/request', { method: 'POST', body: { token, system_id: 's_other', info: { version: '18.1.0' } } });

    // Assess
    expect(first.map((response) => response.status)).toEqual([200, 200, 200]);
    const listed = await managers(id, owner.token);
    expect(listed.map((manager) => [manager.system_id, manager.version])).toEqual([
      ['s_same', null],
      ['s_other', '18.1.0'],
    ]);
    expect(listed[0].id as number).toBeLessThan(listed[1].id as number);

    // `gitlab-runner unregister` of one machine: 204, then 404; the runner stays, with its other machine
    const removed = await api('/runners/managers', { method: 'DELETE', body: { token, system_id: 's_same' } });
    expect(removed.status).toBe(204);
    const again = await api('/runners/managers', { method: 'DELETE', body: { token, system_id: 's_same' } });
    expect(again).toMatchObject({ status: 404, body: { message: '404 Runner manager not found Not Found' } });
    expect(await api('/runners/managers', { method: 'DELETE', body: { token } })).toMatchObject({ status: 400, body: { error: 'system_id is missing' } });
    expect((await api('/runners/managers', { method: 'DELETE', body: { token: 'glrt-nobody', system_id: 's_other' } })).status).toBe(403);
    expect((await managers(id, owner.token)).map((manager) => manager.system_id)).toEqual(['s_other']);
    expect((await verify(token)).status).toBe(200);
  });

  it('resets the token with the token itself: the old one is refused at once, the runner keeps its id and projects', async () => {
    // Prepare: a runner enabled in a second project too
    const created = await createRunner(owner.token, { runner_type: 'project_type', project_id: project.id });
    const second = await createProject(owner.token, { visibility: 'private' });
    expect((await api(`/projects/${second.id}/runners`, { method: 'POST', token: owner.token, body: { runner_id: created.body.id } })).status).toBe(201);

    // Act: two resets with the same token at once
    const resets = await Promise.all([1, 2].map(() => api('/runners/reset_authentication_token', { method: 'POST', body: { token: created.body.token } })));

    // Assess: one wins; its token works, the old one does not; both projects still list the runner
    expect(resets.map((response) => response.status).sort()).toEqual([201, 403]);
    const reset = resets.find((response) => response.status === 201)!.body;
    expect(reset).toEqual({ token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    expect(reset.token).not.toBe(created.body.token);
    expect((await verify(created.body.token)).status).toBe(403);
    expect((await api('/jobs/request', { method: 'POST', body: { token: created.body.token } })).status).toBe(403);
    expect((await verify(reset.token)).body).toEqual({ id: created.body.id, token: reset.token, token_expires_at: null });
    for (const projectId of [project.id, second.id]) {
      const listed = await api(`/projects/${projectId}/runners`, { token: owner.token });
      expect(listed.body.map((runner: { id: number }) => runner.id)).toContain(created.body.id);
    }
    expect((await api(`/runners/${created.body.id}`, { token: owner.token })).status).toBe(200);
  });

  it('resets the token through the Runners API for those who may update the runner', async () => {
    // Prepare
    const created = await createRunner(owner.token, { runner_type: 'project_type', project_id: project.id });

    // Act
    const denied = await api(`/runners/${created.body.id}/reset_authentication_token`, { method: 'POST', token: developer.token });
    const reset = await api(`/runners/${created.body.id}/reset_authentication_token`, { method: 'POST', token: owner.token });

    // Assess
    expect(denied).toMatchObject({ status: 403, body: { message: '403 Forbidden - No access granted' } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(201);
    expect(reset.body).toEqual({ token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    expect((await verify(created.body.token)).status).toBe(403);
    expect((await verify(reset.body.token)).status).toBe(200);
    expect((await api('/runners/9999999/reset_authentication_token', { method: 'POST', token: owner.token })).status).toBe(404);
  });

  it("refuses what GitLab refuses, creating nothing, and takes a token with only the create_runner scope", async () => {
    // Prepare: a personal access token limited to creating runners
    const scoped = await api(`/users/${owner.id}/personal_access_tokens`, { method: 'POST', token: rootToken(), body: { name: unique('runner-maker'), scopes: ['create_runner'] } });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(201);
    const stranger = await createUser();
    const before = (await api(`/projects/${project.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body.length;

    // Act
    const answers = await Promise.all([
      createRunner(developer.token, { runner_type: 'project_type', project_id: project.id }),
      createRunner(stranger.token, { runner_type: 'project_type', project_id: project.id }),
      createRunner(owner.token, { project_id: project.id }),
      createRunner(owner.token, { runner_type: 'shared', project_id: project.id }),
      createRunner(owner.token, { runner_type: 'project_type' }),
      createRunner(owner.token, { runner_type: 'project_type', project_id: 99999999 }),
      createRunner(owner.token, { runner_type: 'group_type' }),
      createRunner(owner.token, { runner_type: 'project_type', project_id: project.id, active: true, paused: true }),
      api('/user/runners', { method: 'POST', body: { runner_type: 'project_type', project_id: project.id } }),
    ]);

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [403, { message: '403 Forbidden - Insufficient permissions' }],
      [403, { message: '403 Forbidden - Insufficient permissions' }],
      [400, { error: 'runner_type is missing' }],
      [400, { error: 'runner_type does not have a valid value' }],
      [400, { error: 'project_id is missing' }],
      [400, { message: '400 Bad request - Missing/invalid project' }],
      [400, { error: 'group_id is missing' }],
      [400, { error: 'active, paused are mutually exclusive' }],
      [401, { message: '401 Unauthorized' }],
    ]);
    expect((await api(`/projects/${project.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body.length).toBe(before);

    const made = await createRunner(scoped.body.token, { runner_type: 'project_type', project_id: project.id, paused: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await api(`/runners/${made.body.id}`, { token: owner.token })).body).toMatchObject({ active: false, paused: true });
    // The scope creates runners and nothing else.
    expect((await api('/user', { token: scoped.body.token })).status).toBe(403);
  });
});
