/**
 * Instance ("shared") runners and group runners, as current GitLab makes them
 * (`POST /user/runners` with `runner_type=instance_type` by an administrator, `group_type` by a
 * group owner) and as gitlab-runner then uses them (`POST /jobs/request`): an instance runner
 * takes jobs of any project with shared runners enabled, a group runner those of its group's
 * projects and its subgroups'. Every runner here has a tag of this file's own and does not run
 * untagged jobs, so it takes only this file's jobs (other files' pending jobs share the queues).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleDeadline, sweepContext } from '../../shared/ci/commands/sweep';
import { CI_SCHEDULE_SHARDS } from '../../shared/ci/store/keys';
import { dueDeadlineJobs } from '../../shared/ci/store/pipelines';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { createGroup, createProject, createUser, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

const TAG = unique('shared-');
const createRunner = (token: string, body: Record<string, unknown>) => api('/user/runners', { method: 'POST', token, body });
const ids = (response: { body: Array<{ id: number }> }) => response.body.map((runner) => runner.id);
const tagged = (name: string) => `${name}:\n  tags: [${TAG}]\n  script: [echo ${name}]\n`;

/** Pushes a pipeline of one job tagged with this file's tag; answers once the job is pending. */
async function pendingJob(project: { id: number; fullPath: string }, token: string, name: string): Promise<number> {
  const work = await localRepository({ '.gitlab-ci.yml': tagged(name) });
  await gitOk(['push', '-q', cloneUrl(project.fullPath, token), `HEAD:refs/heads/${unique('b-')}`], { cwd: work });
  return eventually(async () => {
    const jobs = await api(`/projects/${project.id}/jobs?scope=pending`, { token });
    expect(jobs.body.map((job: { name: string }) => job.name)).toContain(name);
    return jobs.body.find((job: { name: string }) => job.name === name).id as number;
  });
}

describe('instance runners', () => {
  let admin: string;
  let shared: TestRunner;
  let sharedId: number;
  let project: OwnedProject;

  beforeAll(async () => {
    admin = rootToken();
    project = await ownedProject('private');
    const created = await createRunner(admin, { runner_type: 'instance_type', tag_list: TAG, run_untagged: false, description: 'shared fleet', maintenance_note: 'rack 1' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    sharedId = created.body.id;
    shared = await TestRunner.verify(created.body.token, unique('s_'));
  });

  afterAll(async () => {
    expect((await api(`/runners/${sharedId}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await shared.requestJob().catch((error: Error) => error.message))).toMatch(/^request: 403/);
  });

  it('is created by administrators only, shown as an instance runner', async () => {
    const developer = await createUser();
    const refused = await Promise.all([
      createRunner(project.owner.token, { runner_type: 'instance_type' }),
      createRunner(developer.token, { runner_type: 'instance_type', tag_list: TAG }),
    ]);
    expect(refused.map((answer) => [answer.status, answer.body])).toEqual([
      [403, { message: '403 Forbidden - Insufficient permissions' }],
      [403, { message: '403 Forbidden - Insufficient permissions' }],
    ]);

    const details = await api(`/runners/${sharedId}`, { token: admin });
    expect(details.body).toMatchObject({ id: sharedId, runner_type: 'instance_type', is_shared: true, tag_list: [TAG], run_untagged: false, description: 'shared fleet', maintenance_note: 'rack 1', projects: [], groups: [] });
    // Every user may read it (its note is for admins), only admins change it.
    expect((await api(`/runners/${sharedId}`, { token: project.owner.token })).body).toMatchObject({ id: sharedId, is_shared: true, maintenance_note: null });
    expect((await api(`/runners/${sharedId}`, { method: 'PUT', token: project.owner.token, body: { description: 'mine' } })).body).toEqual({ message: '403 Forbidden - No access granted' });
  });

  it('is listed by type for admins, among the runners of projects with shared runners enabled, changed and deleted by admins', async () => {
    // Prepare: a project runner, a project with shared runners off
    const own = await createRunner(project.owner.token, { runner_type: 'project_type', project_id: project.id });
    const closed = await createProject(project.owner.token, { visibility: 'private', shared_runners_enabled: false });

    // Act
    const [all, instances, projects, shareds, refused, served, notServed, instanceOnly] = await Promise.all([
      api('/runners/all', { token: admin, query: { per_page: 100, tag_list: TAG } }),
      api('/runners/all', { token: admin, query: { type: 'instance_type', per_page: 100 } }),
      api('/runners/all', { token: admin, query: { type: 'project_type', per_page: 100 } }),
      api('/runners/all', { token: admin, query: { scope: 'shared', per_page: 100 } }),
      api('/runners/all', { token: project.owner.token }),
      api(`/projects/${project.id}/runners`, { token: project.owner.token, query: { per_page: 100 } }),
      api(`/projects/${closed.id}/runners`, { token: project.owner.token, query: { per_page: 100 } }),
      api(`/projects/${project.id}/runners`, { token: project.owner.token, query: { type: 'instance_type', per_page: 100 } }),
    ]);

    // Assess
    expect(ids(all)).toContain(sharedId);
    expect(instances.body.find((runner: { id: number }) => runner.id === sharedId)).toMatchObject({ runner_type: 'instance_type', is_shared: true });
    expect(instances.body.every((runner: { runner_type: string }) => runner.runner_type === 'instance_type')).toBe(true);
    expect(ids(projects)).not.toContain(sharedId);
    expect(ids(projects)).toContain(own.body.id);
    expect(ids(shareds)).toContain(sharedId);
    expect(refused.status).toBe(403);
    expect(ids(served)).toEqual(expect.arrayContaining([own.body.id, sharedId]));
    expect(ids(notServed)).not.toContain(sharedId);
    expect(ids(instanceOnly)).toContain(sharedId);
    expect(ids(instanceOnly)).not.toContain(own.body.id);
    // An instance runner is no project's to enable.
    expect((await api(`/projects/${project.id}/runners`, { method: 'POST', token: project.owner.token, body: { runner_id: sharedId } })).body).toEqual({ message: '403 Forbidden - No access granted' });
    const changed = await api(`/runners/${sharedId}`, { method: 'PUT', token: admin, body: { description: 'shared fleet 2' } });
    expect(changed.body).toMatchObject({ description: 'shared fleet 2', runner_type: 'instance_type' });
  });

  it('takes a job of a project it was never enabled in, and none of a project with shared runners disabled', async () => {
    // Prepare: a project that turned shared runners off, with a job pending first
    const closed = await createProject(project.owner.token, { visibility: 'private', shared_runners_enabled: false });
    const closedJob = await pendingJob(closed, project.owner.token, 'closed');
    const openJob = await pendingJob(project, project.owner.token, 'open');

    // Act
    const job = await shared.pickNext();

    // Assess: the open project's job, run to the end; the closed project's stays pending
    expect(job).toMatchObject({ id: openJob, job_info: { name: 'open', project_id: project.id } });
    expect((await shared.update(job, 'success')).status).toBe(200);
    expect((await shared.requestJob()).job).toBeUndefined();
    expect((await api(`/projects/${closed.id}/jobs/${closedJob}`, { token: project.owner.token })).body).toMatchObject({ status: 'pending', runner: null });

    // Turning shared runners off stops the instance runner at once, even for a job queued before
    const late = await pendingJob(project, project.owner.token, 'late');
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { shared_runners_enabled: false } })).status).toBe(200);
    expect((await shared.requestJob()).job).toBeUndefined();
    expect((await api(`/projects/${project.id}/jobs/${late}`, { token: project.owner.token })).body.status).toBe('pending');
    await api(`/projects/${project.id}/jobs/${late}/cancel`, { method: 'POST', token: project.owner.token });
    await api(`/projects/${closed.id}/jobs/${closedJob}/cancel`, { method: 'POST', token: project.owner.token });
    await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { shared_runners_enabled: true } });
  }, 60_000);

  it('races a project runner for one job: exactly one of them gets it', async () => {
    // Prepare: a project runner with the same tag, and one pending job
    const racing = await createProject(project.owner.token, { visibility: 'private' });
    const own = await createRunner(project.owner.token, { runner_type: 'project_type', project_id: racing.id, tag_list: TAG, run_untagged: false });
    const projectRunner = await TestRunner.verify(own.body.token, unique('s_'));
    const jobId = await pendingJob(racing, project.owner.token, 'raced');

    // Act: both ask at once
    const answers = await Promise.all([projectRunner.requestJob(), shared.requestJob(), projectRunner.requestJob(), shared.requestJob()]);

    // Assess
    const handed = answers.filter((answer) => answer.job);
    expect(handed.map((answer) => answer.job.id)).toEqual([jobId]);
    const job = await api(`/projects/${racing.id}/jobs/${jobId}`, { token: project.owner.token });
    expect(job.body).toMatchObject({ status: 'running', runner: { id: expect.any(Number) } });
    await api(`/projects/${racing.id}/jobs/${jobId}/cancel`, { method: 'POST', token: project.owner.token });
  });

  it('answers an idle poll from its queue version, and wakes when a shared project queues a job', async () => {
    // Prepare: idle
    const idle = (await shared.requestJob()).lastUpdate!;
    expect(idle).toMatch(/^i:[0-9a-z]+$/);
    expect(await shared.requestJob(idle)).toEqual({ job: undefined, lastUpdate: idle });

    // Act: a job queued in a project the runner never heard of
    const other = await createProject(project.owner.token, { visibility: 'private' });
    const jobId = await pendingJob(other, project.owner.token, 'woken');
    const { job } = await shared.requestJob(idle);

    // Assess
    expect(job).toMatchObject({ id: jobId, job_info: { project_id: other.id } });
    await shared.update(job, 'success');
  });
});

describe('group runners', () => {
  let owner: TestUser;
  let maintainer: TestUser;
  let group: { id: number; fullPath: string };
  let subgroup: { id: number; fullPath: string };
  let runner: TestRunner;
  let runnerId: number;

  beforeAll(async () => {
    owner = await createUser();
    maintainer = await createUser();
    group = await createGroup(owner.token);
    subgroup = await createGroup(owner.token, { parent_id: group.id });
    await api(`/groups/${group.id}/members`, { method: 'POST', token: owner.token, body: { user_id: maintainer.id, access_level: 40 } });
    const created = await createRunner(owner.token, { runner_type: 'group_type', group_id: group.id, tag_list: TAG, run_untagged: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    runnerId = created.body.id;
    runner = await TestRunner.verify(created.body.token, unique('s_'));
  });

  it('is created by group owners, shown with its group', async () => {
    const refused = await Promise.all([
      createRunner(maintainer.token, { runner_type: 'group_type', group_id: group.id }),
      createRunner(owner.token, { runner_type: 'group_type', group_id: 99999999 }),
    ]);
    expect(refused.map((answer) => [answer.status, answer.body])).toEqual([
      [403, { message: '403 Forbidden - Insufficient permissions' }],
      [400, { message: '400 Bad request - Missing/invalid group' }],
    ]);
    const details = await api(`/runners/${runnerId}`, { token: owner.token });
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    expect(details.body).toMatchObject({ runner_type: 'group_type', is_shared: false, projects: [], groups: [{ id: group.id, web_url: expect.any(String), name: expect.any(String) }] });
    expect((await api(`/runners/${runnerId}`, { token: maintainer.token })).status).toBe(403);
  });

  it("takes a job of a subgroup's project, and none of another group's", async () => {
    // Prepare: another group's job first, then the subgroup's
    const stranger = await createGroup(owner.token);
    const outside = await createProject(owner.token, { namespace_id: stranger.id, visibility: 'private' });
    const inside = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'private' });
    const outsideJob = await pendingJob(outside, owner.token, 'outside');
    const insideJob = await pendingJob(inside, owner.token, 'inside');

    // Act
    const job = await runner.pickNext();

    // Assess
    expect(job).toMatchObject({ id: insideJob, job_info: { project_id: inside.id } });
    await runner.update(job, 'success');
    expect((await runner.requestJob()).job).toBeUndefined();
    expect((await api(`/projects/${outside.id}/jobs/${outsideJob}`, { token: owner.token })).body.status).toBe('pending');
    await api(`/projects/${outside.id}/jobs/${outsideJob}/cancel`, { method: 'POST', token: owner.token });
    expect((await runner.requestJob()).lastUpdate).toBe(`g${group.id}:${(await runner.requestJob()).lastUpdate!.split(':')[1]}`);
  });

  it('is listed for the group and its subgroups and among their projects’ runners, changed and deleted by owners only', async () => {
    // Prepare: a developer, a project of the subgroup, an owner of a subgroup only
    const developer = await createUser();
    await api(`/groups/${group.id}/members`, { method: 'POST', token: owner.token, body: { user_id: developer.id, access_level: 30 } });
    const inside = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'private' });

    // Act
    const [ofGroup, ofSubgroup, groupOnly, instancesOnly, ofProject, refused] = await Promise.all([
      api(`/groups/${group.id}/runners`, { token: maintainer.token, query: { per_page: 100 } }),
      api(`/groups/${subgroup.id}/runners`, { token: maintainer.token, query: { type: 'group_type' } }),
      api(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { type: 'group_type', tag_list: TAG } }),
      api(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { type: 'instance_type', per_page: 100 } }),
      api(`/projects/${inside.id}/runners`, { token: owner.token, query: { type: 'group_type' } }),
      api(`/groups/${group.id}/runners`, { token: developer.token }),
    ]);

    // Assess
    expect(ofGroup.body.find((found: { id: number }) => found.id === runnerId)).toMatchObject({ runner_type: 'group_type', is_shared: false });
    expect(ids(ofSubgroup)).toEqual([runnerId]);
    expect(ids(groupOnly)).toEqual([runnerId]);
    expect(instancesOnly.body.every((found: { runner_type: string }) => found.runner_type === 'instance_type')).toBe(true);
    expect(ids(ofProject)).toEqual([runnerId]);
    expect(refused).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api(`/groups/${group.id}/runners`, { token: (await createUser()).token })).status).toBe(404);
    // A group runner is enabled in no project.
    expect((await api(`/projects/${inside.id}/runners`, { method: 'POST', token: owner.token, body: { runner_id: runnerId } })).body).toEqual({ message: '403 Forbidden - Runner is a group runner' });

    expect((await api(`/runners/${runnerId}`, { method: 'PUT', token: maintainer.token, body: { paused: true } })).status).toBe(403);
    expect((await api(`/runners/${runnerId}`, { method: 'PUT', token: owner.token, body: { description: 'group fleet' } })).body).toMatchObject({ description: 'group fleet', groups: [{ id: group.id }] });
    expect((await api(`/runners/${runnerId}`, { method: 'DELETE', token: maintainer.token })).body).toEqual({ message: '403 Forbidden - No access granted' });
    expect((await api(`/runners/${runnerId}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await api(`/groups/${group.id}/runners`, { token: owner.token, query: { type: 'group_type' } })).body).toEqual([]);
    await expect(runner.requestJob()).rejects.toThrow(/^request: 403/);
  });
});

/** The job's entry in the scheduler's deadline index, due at `now`. */
async function deadlineEntry(jobId: number, now: Date) {
  return (await dueDeadlineJobs(jobId % CI_SCHEDULE_SHARDS, now.toISOString(), 10_000)).find((found) => found.job.id === jobId);
}

describe.skipIf(!isLocalRuntime())('the stuck-job check', () => {
  it('counts an online group runner of the project’s groups and an online instance runner, not one that may not take the job', async () => {
    // Prepare: a group runner and an instance runner, both online; projects with shared runners off (in the group, and not) and on
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const groupMade = await createRunner(owner.token, { runner_type: 'group_type', group_id: group.id, tag_list: TAG, run_untagged: false });
    await TestRunner.verify(groupMade.body.token, unique('s_'));
    const instanceMade = await createRunner(rootToken(), { runner_type: 'instance_type', tag_list: TAG, run_untagged: false });
    await TestRunner.verify(instanceMade.body.token, unique('s_'));
    const inGroup = await createProject(owner.token, { namespace_id: group.id, visibility: 'private', shared_runners_enabled: false });
    const alone = await createProject(owner.token, { visibility: 'private', shared_runners_enabled: false });
    const open = await createProject(owner.token, { visibility: 'private' });
    const jobs = await Promise.all([inGroup, alone, open].map((project) => pendingJob(project, owner.token, 'stuck')));

    try {
      // Act: an hour after they were queued
      const inAnHour = new Date(Date.now() + 3_600_000 + 60_000);
      const outcomes = [];
      for (const jobId of jobs) outcomes.push(await settleDeadline((await deadlineEntry(jobId, inAnHour))!, sweepContext({ now: inAnHour })));

      // Assess: only the job no runner may take is failed
      expect(outcomes).toEqual(['rescheduled', 'stuck', 'rescheduled']);
      // An instance runner's token is reset as a project runner's: the old one is refused at once.
      const reset = await api(`/runners/${instanceMade.body.id}/reset_authentication_token`, { method: 'POST', token: rootToken() });
      expect(reset.status).toBe(201);
      expect((await api('/runners/verify', { method: 'POST', body: { token: instanceMade.body.token } })).status).toBe(403);
      expect((await api('/runners/verify', { method: 'POST', body: { token: reset.body.token } })).body).toMatchObject({ id: instanceMade.body.id });
    } finally {
      await api(`/runners/${instanceMade.body.id}`, { method: 'DELETE', token: rootToken() });
      await Promise.all([[inGroup, jobs[0]], [open, jobs[2]]].map(([project, jobId]) => api(`/projects/${(project as { id: number }).id}/jobs/${jobId}/cancel`, { method: 'POST', token: owner.token })));
    }
  }, 60_000);
});
