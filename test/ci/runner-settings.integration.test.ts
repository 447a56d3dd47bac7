/**
 * A project's runner settings as GitLab applies them: turning `shared_runners_enabled` (or
 * `group_runners_enabled`) back on queues its pending jobs for instance (or group) runners, a race
 * with a project runner's claim giving the job to one of them; `group_runners_enabled` off keeps
 * group runners from its jobs and lists; a transferred project's pending jobs go to its new group's
 * runners; `GET /runners` lists the runners the caller manages.
 * Every runner here has a tag of this file's own and runs no untagged job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { TestRunner } from './runner';

const TAG = unique('settings-');
const createRunner = (token: string, body: Record<string, unknown>) => api('/user/runners', { method: 'POST', token, body: { tag_list: TAG, run_untagged: false, ...body } });
const ids = (response: { body: Array<{ id: number }> }) => response.body.map((runner) => runner.id).sort((a, b) => a - b);

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
describe('project runner settings and the runners a user manages', () => {
  let owner: TestUser;
  let project: { id: number; fullPath: string };
  let group: { id: number };
  let subgroup: { id: number };
  const runners: Record<'instance' | 'group' | 'subgroup' | 'project', { id: number; runner: TestRunner }> = {} as never;
  const edit = (body: Record<string, unknown>) => api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body });

  /** A pipeline of one job tagged with this file's tag, on a new branch; answers once the job is pending. */
  async function pendingJob(name: string): Promise<number> {
    const branch = unique('b-');
    const commit = await api(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch, start_branch: 'main', commit_message: name, actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: `${name}:\n  tags: [${TAG}]\n  script: [echo]\n` }] },
    });
    expect(commit.status, JSON.stringify(commit.body)).toBe(201);
    return eventually(async () => {
      const jobs = await api(`/projects/${project.id}/jobs`, { token: owner.token, query: { 'scope[]': 'pending' } });
      const job = jobs.body.find((found: any) => found.name === name);
      expect(job).toBeDefined();
      return job.id as number;
    });
  }

  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token);
    subgroup = await createGroup(owner.token, { parent_id: group.id });
    project = await createProject(owner.token, { namespace_id: group.id, shared_runners_enabled: false, group_runners_enabled: false });
    const first = await api(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'main', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'noop:\n  script: [echo]\n  rules:\n    - when: never\n' }] },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const made = await Promise.all([
      createRunner(rootToken(), { runner_type: 'instance_type' }),
      createRunner(owner.token, { runner_type: 'group_type', group_id: group.id }),
      createRunner(owner.token, { runner_type: 'group_type', group_id: subgroup.id, paused: true }),
      createRunner(owner.token, { runner_type: 'project_type', project_id: project.id }),
    ]);
    const verified = await Promise.all(made.map((answer) => TestRunner.verify(answer.body.token, unique('m_'))));
    (['instance', 'group', 'subgroup', 'project'] as const).forEach((kind, i) => (runners[kind] = { id: made[i].body.id, runner: verified[i] }));
  });

  afterAll(async () => {
    await Promise.all(Object.values(runners).map(({ id }) => api(`/runners/${id}`, { method: 'DELETE', token: rootToken() })));
  });

  it('queues pending jobs for group runners, then instance runners, when the settings are turned back on; a racing claim gives the job once', async () => {
    // Prepare: both settings off, shown to the owner; a job pending that neither runner may take
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toMatchObject({ shared_runners_enabled: false, group_runners_enabled: false });
    const first = await pendingJob('first');
    expect((await runners.instance.runner.requestJob()).job).toBeUndefined();
    expect((await runners.group.runner.requestJob()).job).toBeUndefined();
    const listed = await api(`/projects/${project.id}/runners`, { token: owner.token, query: { per_page: 100 } });
    expect(ids(listed)).toEqual([runners.project.id]);

    // Act: group runners on
    expect((await edit({ group_runners_enabled: true })).body.group_runners_enabled).toBe(true);

    // Assess: the group runner takes the job queued before
    expect((await runners.group.runner.requestJob()).job).toMatchObject({ id: first });

    // Prepare: a second job, queued while shared runners are still off
    const second = await pendingJob('second');

    // Act: shared runners on, while the project runner asks for a job
    const [enabled, byProject] = await Promise.all([edit({ shared_runners_enabled: true }), runners.project.runner.requestJob()]);
    const byInstance = await runners.instance.runner.requestJob();

    // Assess: one of them got it, and no other runner gets it afterwards
    expect(enabled.body.shared_runners_enabled).toBe(true);
    const takers = [byProject.job, byInstance.job].filter(Boolean);
    expect(takers.map((job: any) => job.id)).toEqual([second]);
    expect((await runners.group.runner.requestJob()).job).toBeUndefined();
  }, 30_000);

  it("moves a transferred project's pending jobs to its new group's runners", async () => {
    // Prepare: a project of group A with a job pending for group runners, a runner in group A and one in group B
    const [groupA, groupB] = await Promise.all([createGroup(owner.token), createGroup(owner.token)]);
    const moving = await createProject(owner.token, { namespace_id: groupA.id, shared_runners_enabled: false });
    const [inA, inB] = await Promise.all(
      [groupA, groupB].map(async (g) => {
        const made = await createRunner(owner.token, { runner_type: 'group_type', group_id: g.id });
        return { id: made.body.id as number, runner: await TestRunner.verify(made.body.token, unique('m_')) };
      }),
    );
    const commit = await api(`/projects/${moving.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'main', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: `moved:\n  tags: [${TAG}]\n  script: [echo]\n` }] },
    });
    expect(commit.status, JSON.stringify(commit.body)).toBe(201);
    const jobId = await eventually(async () => {
      const [job] = (await api(`/projects/${moving.id}/jobs`, { token: owner.token, query: { 'scope[]': 'pending' } })).body;
      expect(job).toBeDefined();
      return job.id as number;
    });

    try {
      // Act
      const moved = await api(`/projects/${moving.id}/transfer`, { method: 'PUT', token: owner.token, body: { namespace: groupB.id } });

      // Assess: group B's runner takes it; group A's never gets it
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((await inA.runner.requestJob()).job).toBeUndefined();
      expect((await inB.runner.requestJob()).job).toMatchObject({ id: jobId });
    } finally {
      await Promise.all([inA, inB].map(({ id }) => api(`/runners/${id}`, { method: 'DELETE', token: rootToken() })));
    }
  }, 30_000);

  it('GET /runners lists the runners of projects the caller maintains and of groups they own (subgroups too), never instance runners, with type, status and paused filters', async () => {
    // Prepare: a developer of the project manages none of them
    const developer = await createUser();
    await api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: 30 } });

    // Act
    const [all, groups, paused, online, asDeveloper] = await Promise.all([
      api('/runners', { token: owner.token, query: { per_page: 100 } }),
      api('/runners', { token: owner.token, query: { type: 'group_type' } }),
      api('/runners', { token: owner.token, query: { paused: true } }),
      api('/runners', { token: owner.token, query: { status: 'online' } }),
      api('/runners', { token: developer.token }),
    ]);

    // Assess
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([runners.group.id, runners.subgroup.id, runners.project.id].sort((a, b) => a - b));
    expect(all.body.find((runner: any) => runner.id === runners.subgroup.id)).toMatchObject({ runner_type: 'group_type', is_shared: false, paused: true, active: false });
    expect(ids(groups)).toEqual([runners.group.id, runners.subgroup.id]);
    expect(ids(paused)).toEqual([runners.subgroup.id]);
    // Every one verified (`gitlab-runner register`) contacted the server: online.
    expect(ids(online)).toEqual(ids(all));
    expect(asDeveloper.body).toEqual([]);
    // A group owner's view: group runners stop serving the project when it turns them off again.
    expect((await edit({ group_runners_enabled: false })).status).toBe(200);
    await eventually(async () => expect(ids(await api(`/projects/${project.id}/runners`, { token: owner.token, query: { type: 'group_type' } }))).toEqual([]));
  });
});
