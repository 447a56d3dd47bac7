/**
 * The Runners API as python-gitlab and gitbeaker call it: a project's runners, the runners of the
 * projects a user maintains, one runner with its settings and projects, updating (pausing),
 * enabling a runner in another project and disabling it there (GitLab's rules: not from its only
 * project, not from its owner project, not a locked runner), deleting; who may do what (404 for
 * strangers on private projects, 403 for runners they cannot administer); the jobs a runner took,
 * a job's `runner`, and a runner enabled in two projects taking jobs from both. A runner's token is
 * never part of an answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createProject, createUser, newMember, ownedProject, type OwnedProject, type TestProject, type TestUser } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = 'build:\n  script: [echo hi]\n';

async function push(fullPath: string, token: string): Promise<void> {
  await pushNewRepository(fullPath, token, { '.gitlab-ci.yml': CI, 'README.md': '# runners\n' });
}

async function registrationToken(projectId: number, token: string): Promise<string> {
  return (await api(`/projects/${projectId}`, { token })).body.runners_token;
}

/** Every runner answer is checked for the tokens it must never contain. */
const secrets: string[] = [];
function withoutSecrets<T>(body: T): T {
  const text = JSON.stringify(body);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/"token"/);
  return body;
}

describe('the Runners API', () => {
  let project: OwnedProject;
  let other: TestProject;
  let owner: TestUser;
  let stranger: TestUser;
  /** Registered locked with tags; the other unlocked and untagged. */
  let tagged: TestRunner;
  let untagged: TestRunner;

  beforeAll(async () => {
    project = await ownedProject('private');
    owner = project.owner;
    other = await createProject(owner.token, { visibility: 'private' });
    stranger = await createUser();
    await push(project.fullPath, owner.token);
    tagged = await TestRunner.register(await registrationToken(project.id, owner.token), { description: 'tagged', tag_list: ['docker', 'linux'], info: { name: 'gitlab-runner', version: '17.0.0', platform: 'linux', architecture: 'amd64' } });
    untagged = await TestRunner.register(await registrationToken(project.id, owner.token), { description: 'untagged', locked: false });
    secrets.push(tagged.token, untagged.token);
  });

  it("lists a project's runners for its maintainers, 404 for strangers and 403 for reporters", async () => {
    const listed = await api(`/projects/${project.id}/runners`, { token: owner.token, query: { type: 'project_type' } });
    expect(listed.status).toBe(200);
    expect(withoutSecrets(listed.body)).toEqual([
      {
        id: tagged.id,
        description: 'tagged',
        ip_address: null,
        active: true,
        paused: false,
        is_shared: false,
        runner_type: 'project_type',
        name: 'gitlab-runner',
        online: false,
        created_at: expect.any(String),
        status: 'never_contacted',
      },
      expect.objectContaining({ id: untagged.id, description: 'untagged', name: 'test-runner' }),
    ]);

    const hidden = await api(`/projects/${project.id}/runners`, { token: stranger.token });
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const reporter = await newMember(project, 20);
    expect((await api(`/projects/${project.id}/runners`, { token: reporter.token })).status).toBe(403);
    expect((await api(`/projects/${project.id}/runners`)).status).toBe(401);
  });

  it('shows one runner with its settings and projects to its maintainers only', async () => {
    const shown = await api(`/runners/${tagged.id}`, { token: owner.token });
    expect(shown.status).toBe(200);
    expect(withoutSecrets(shown.body)).toMatchObject({
      id: tagged.id,
      description: 'tagged',
      tag_list: ['docker', 'linux'],
      run_untagged: true,
      locked: true,
      access_level: 'not_protected',
      maximum_timeout: null,
      version: '17.0.0',
      platform: 'linux',
      architecture: 'amd64',
      contacted_at: null,
      projects: [expect.objectContaining({ id: project.id, path_with_namespace: project.fullPath })],
    });

    expect(await api(`/runners/${tagged.id}`, { token: stranger.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - No access granted' } });
    expect(await api('/runners/999999999', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
    expect((await api(`/runners/${tagged.id}`, { token: rootToken() })).status).toBe(200);
  });

  it('updates a runner: description, tags, pausing; GitLab validations answer 400', async () => {
    const updated = await api(`/runners/${tagged.id}`, { method: 'PUT', token: owner.token, body: { description: 'renamed', tag_list: 'docker,arm', paused: true, maximum_timeout: 3600 } });
    expect(updated.status).toBe(200);
    expect(withoutSecrets(updated.body)).toMatchObject({ description: 'renamed', tag_list: ['docker', 'arm'], active: false, paused: true, maximum_timeout: 3600 });
    expect((await api(`/runners/${tagged.id}`, { token: owner.token })).body).toMatchObject({ description: 'renamed', paused: true });

    expect(await api(`/runners/${tagged.id}`, { method: 'PUT', token: owner.token, body: { maximum_timeout: 60 } })).toMatchObject({
      status: 400,
      body: { message: { maximum_timeout: ['needs to be at least 10 minutes'] } },
    });
    expect(await api(`/runners/${tagged.id}`, { method: 'PUT', token: owner.token, body: { active: true, paused: false } })).toMatchObject({
      status: 400,
      body: { error: 'active, paused are mutually exclusive' },
    });
    expect((await api(`/runners/${tagged.id}`, { method: 'PUT', token: owner.token, body: {} })).status).toBe(400);
    expect((await api(`/runners/${tagged.id}`, { method: 'PUT', token: stranger.token, body: { description: 'mine' } })).status).toBe(403);
  });

  it('a paused runner gets no job; its status says so once it called', async () => {
    const polled = await tagged.requestJob();
    expect(polled.job).toBeUndefined();
    expect((await api(`/runners/${tagged.id}`, { token: owner.token })).body).toMatchObject({ status: 'paused', online: true, contacted_at: expect.any(String) });
  });

  it("lists the runners of the caller's projects, filtered as GitLab filters", async () => {
    const ids = async (query: Record<string, string> = {}, token = owner.token) => {
      const response = await api('/runners', { token, query });
      expect(response.status).toBe(200);
      return (withoutSecrets(response.body) as Array<{ id: number }>).map((runner) => runner.id);
    };
    expect(await ids()).toEqual([tagged.id, untagged.id]);
    expect(await ids({ paused: 'true' })).toEqual([tagged.id]);
    expect(await ids({ status: 'active' })).toEqual([untagged.id]);
    expect(await ids({ tag_list: 'docker,arm' })).toEqual([tagged.id]);
    expect(await ids({ type: 'instance_type' })).toEqual([]);
    expect(await ids({}, stranger.token)).toEqual([]);
    expect((await api('/runners', { token: owner.token, query: { status: 'bogus' } })).status).toBe(400);

    expect((await api('/runners/all', { token: owner.token })).status).toBe(403);
    const all = await api('/runners/all', { token: rootToken(), query: { per_page: '100', status: 'paused' } });
    expect(all.status).toBe(200);
    expect((all.body as Array<{ id: number }>).map((runner) => runner.id)).toContain(tagged.id);
  });

  it("shows the runner that took a job as the job's runner, and the runner's jobs", async () => {
    const { job } = await untagged.requestJob();
    expect(job).toBeDefined();
    const read = await api(`/projects/${project.id}/jobs/${job.id}`, { token: owner.token });
    expect(withoutSecrets(read.body).runner).toMatchObject({ id: untagged.id, description: 'untagged', is_shared: false, runner_type: 'project_type', online: true, status: 'online' });
    const listed = await api(`/projects/${project.id}/jobs`, { token: owner.token });
    expect(listed.body.find((entry: { id: number }) => entry.id === job.id).runner).toMatchObject({ id: untagged.id });

    const jobs = await api(`/runners/${untagged.id}/jobs`, { token: owner.token });
    expect(jobs.status).toBe(200);
    expect(jobs.body).toEqual([expect.objectContaining({ id: job.id, status: 'running', project: expect.objectContaining({ id: project.id }) })]);
    expect((await api(`/runners/${untagged.id}/jobs`, { token: owner.token, query: { status: 'success' } })).body).toEqual([]);
    expect((await api(`/runners/${untagged.id}/jobs`, { token: stranger.token })).status).toBe(403);

    expect((await untagged.update(job, 'success')).status).toBe(200);
    expect((await api(`/runners/${untagged.id}/jobs`, { token: owner.token, query: { status: 'success' } })).body).toEqual([expect.objectContaining({ id: job.id })]);
  });

  it('enables a runner in another project it then takes jobs from; locked runners and strangers are refused', async () => {
    expect(await api(`/projects/${other.id}/runners`, { token: owner.token, body: { runner_id: tagged.id } })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Runner is locked' } });
    const strangers = await createProject(stranger.token);
    expect(await api(`/projects/${strangers.id}/runners`, { token: stranger.token, body: { runner_id: untagged.id } })).toMatchObject({ status: 403, body: { message: '403 Forbidden - No access granted' } });
    expect((await api(`/projects/${project.id}/runners`, { token: stranger.token, body: { runner_id: untagged.id } })).status).toBe(404);

    const enabled = await api(`/projects/${other.id}/runners`, { token: owner.token, body: { runner_id: untagged.id } });
    expect(enabled.status).toBe(201);
    expect(withoutSecrets(enabled.body)).toMatchObject({ id: untagged.id, description: 'untagged' });
    expect(await api(`/projects/${other.id}/runners`, { token: owner.token, body: { runner_id: untagged.id } })).toMatchObject({ status: 400 });
    expect((await api(`/projects/${other.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body.map((runner: { id: number }) => runner.id)).toEqual([untagged.id]);
    expect((await api(`/runners/${untagged.id}`, { token: owner.token })).body.projects.map((shown: { id: number }) => shown.id)).toEqual([project.id, other.id]);

    // Nothing queued in either project: the runner learns their queue version; a job queued in
    // the other project changes it, so the job reaches the runner that presents what it last saw.
    const idle = await untagged.requestJob();
    expect(idle.job).toBeUndefined();
    expect(idle.lastUpdate).toBeTruthy();
    expect((await untagged.requestJob(idle.lastUpdate!)).job).toBeUndefined();
    const otherPath = (await api(`/projects/${other.id}`, { token: owner.token })).body.path_with_namespace;
    await push(otherPath, owner.token);
    const { job } = await untagged.requestJob(idle.lastUpdate ?? undefined);
    expect(job).toMatchObject({ job_info: { project_id: other.id } });
    expect((await untagged.update(job, 'success')).status).toBe(200);
  });

  it("disables a runner in a project, never in its only or owner project; deleting one of several projects' is refused", async () => {
    expect(await api(`/runners/${untagged.id}`, { method: 'DELETE', token: owner.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Runner associated with more than one project' },
    });
    expect(await api(`/projects/${project.id}/runners/${tagged.id}`, { method: 'DELETE', token: owner.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead' },
    });
    expect(await api(`/projects/${project.id}/runners/${untagged.id}`, { method: 'DELETE', token: owner.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead' },
    });
    expect((await api(`/projects/${other.id}/runners/${tagged.id}`, { method: 'DELETE', token: owner.token })).status).toBe(404);
    expect((await api(`/projects/${other.id}/runners/${untagged.id}`, { method: 'DELETE', token: stranger.token })).status).toBe(404);

    expect((await api(`/projects/${other.id}/runners/${untagged.id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await api(`/projects/${other.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body).toEqual([]);
    expect((await api(`/runners/${untagged.id}`, { token: owner.token })).body.projects.map((shown: { id: number }) => shown.id)).toEqual([project.id]);
  });

  it('deletes a runner: gone from the API, its token no longer works, jobs keep no runner', async () => {
    const [job] = (await api(`/runners/${untagged.id}/jobs`, { token: owner.token })).body;
    expect((await api(`/runners/${untagged.id}`, { method: 'DELETE', token: stranger.token })).status).toBe(403);
    expect((await api(`/runners/${untagged.id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await api(`/runners/${untagged.id}`, { token: owner.token })).status).toBe(404);
    expect((await api('/runners/verify', { body: { token: untagged.token } })).status).toBe(403);
    expect((await api(`/projects/${project.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body.map((runner: { id: number }) => runner.id)).toEqual([tagged.id]);
    const read = await api(`/projects/${job.project.id}/jobs/${job.id}`, { token: owner.token });
    expect(read.body.runner).toBeNull();
  });
});
