/**
 * A runner's idle poll (`POST /jobs/request` with the `last_update` it was given) against
 * DynamoDB Local: one BatchGetItem (the runner and its projects' queue versions, named by the
 * value itself) while nothing changes, the queue looked at once something does (a job queued, a
 * project enabled meanwhile), and `contacted_at` written about once in 40 to 55 minutes, by one
 * of two concurrent polls. The commands and the store are called in the test process, which
 * reaches the same table; everything else goes through the API.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { digestOf, parseLastUpdate, requestJob } from '../../shared/ci/commands/runners';
import { recordRunnerContact, runnerByDigest } from '../../shared/ci/store/runners';
import { db } from '../../shared/platform/dynamo/client';
import { api, isLocalRuntime } from '../support/api';
import { createProject, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

const MINUTE = 60_000;

async function pushCi(project: { id: number; fullPath: string }, token: string, ci: string): Promise<void> {
  const work = await localRepository({ '.gitlab-ci.yml': ci, 'README.md': '# poll\n' });
  await gitOk(['push', '-q', cloneUrl(project.fullPath, token), `main:refs/heads/b-${Math.random().toString(36).slice(2, 10)}`], { cwd: work });
}

async function registrationToken(project: { id: number }, token: string): Promise<string> {
  return (await api(`/projects/${project.id}`, { token })).body.runners_token;
}

/** The DynamoDB commands sent while `act` runs, by name. */
async function commandsSent(act: () => Promise<unknown>): Promise<string[]> {
  const send = vi.spyOn(db(), 'send');
  try {
    await act();
    return send.mock.calls.map(([command]) => command.constructor.name);
  } finally {
    send.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!isLocalRuntime())('an idle poll', () => {
  let project: OwnedProject;
  let runner: TestRunner;
  let lastUpdate: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    runner = await TestRunner.register(await registrationToken(project, project.owner.token), { locked: false });
    lastUpdate = (await runner.requestJob()).lastUpdate!;
  });

  it('gets a last_update naming its project, and the same one back while nothing is queued', async () => {
    expect(parseLastUpdate(lastUpdate)?.scope).toEqual({ kind: 'projects', projectIds: [project.id] });
    expect(await runner.requestJob(lastUpdate)).toEqual({ job: undefined, lastUpdate });
  });

  it('costs one BatchGetItem: the runner and its queue version read together', async () => {
    let answer: Awaited<ReturnType<typeof requestJob>>;
    const sent = await commandsSent(async () => (answer = await requestJob(runner.token, lastUpdate)));
    expect(answer!.found).toEqual({ result: 'none', lastUpdate });
    expect(sent).toEqual(['BatchGetCommand']);
  });

  it('answers 403 for a token that is no runner’s, whatever last_update it sends', async () => {
    const response = await api('/jobs/request', { method: 'POST', body: { token: 'glrt-not-a-runner', last_update: lastUpdate } });
    expect(response.status).toBe(403);
  });

  it('with a last_update naming other projects, looks at its own queue and answers its own last_update', async () => {
    const other = parseLastUpdate(lastUpdate)!;
    const forged = `${project.id + 1000}:${other.version}`;
    expect(await runner.requestJob(forged)).toEqual({ job: undefined, lastUpdate });
  });

  it('takes a job queued since, though it sends the old last_update', async () => {
    await pushCi(project, project.owner.token, 'build:\n  script: echo build\n');
    const { job } = await runner.requestJob(lastUpdate);
    expect(job).toMatchObject({ job_info: { name: 'build' } });
    await runner.update(job, 'success');
  });

  it('looks at the queue of a project it was enabled in meanwhile (its last_update named only the first)', async () => {
    // Prepare: an idle runner, then a second project of the same owner, with a pending job, enabling it.
    const idle = (await runner.requestJob()).lastUpdate!;
    const second = await createProject(project.owner.token);
    await pushCi(second, project.owner.token, 'other:\n  script: echo other\n');
    const enabled = await api(`/projects/${second.id}/runners`, { token: project.owner.token, body: { runner_id: runner.id } });
    expect(enabled.status).toBe(201);

    // Act
    const { job } = await runner.requestJob(idle);

    // Assess: the job of the second project; then idle again, with a last_update naming both projects.
    expect(job).toMatchObject({ job_info: { name: 'other', project_id: second.id } });
    await runner.update(job, 'success');
    const next = (await runner.requestJob()).lastUpdate!;
    expect(parseLastUpdate(next)?.scope).toEqual({ kind: 'projects', projectIds: [project.id, second.id] });
    expect(await commandsSent(() => requestJob(runner.token, next))).toEqual(['BatchGetCommand']);
  });
});

describe.skipIf(!isLocalRuntime())('contacted_at', () => {
  it('is written by the first poll, then only once older than 40 to 55 minutes, by one of two concurrent polls', async () => {
    // Prepare
    const project = await ownedProject('private');
    const runner = await TestRunner.register(await registrationToken(project, project.owner.token));
    const digest = digestOf(runner.token);
    expect((await runnerByDigest(digest))!.contactedAt).toBeNull();

    // Act + Assess: the first poll records the contact; it shows in the Runners API.
    await runner.requestJob();
    const first = (await runnerByDigest(digest))!;
    expect(first.contactedAt).not.toBeNull();
    const runnerApi = await api(`/runners/${runner.id}`, { token: project.owner.token });
    expect(runnerApi.body).toMatchObject({ contacted_at: first.contactedAt, status: 'online', online: true });

    const at = (minutes: number) => new Date(Date.parse(first.contactedAt!) + minutes * MINUTE);
    // Within 40 minutes nothing is written, whatever the draw; past 55 minutes always.
    expect(await recordRunnerContact(first, at(39), () => 0)).toBe(false);
    expect(await recordRunnerContact(first, at(54), () => 0.99)).toBe(false);
    // Two polls that read the same value: one writes.
    const both = await Promise.all([recordRunnerContact(first, at(56)), recordRunnerContact(first, at(56))]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect((await runnerByDigest(digest))!.contactedAt).toBe(at(56).toISOString());
    // A poll holding the value from before the write does not overwrite the newer one.
    expect(await recordRunnerContact(first, at(57))).toBe(false);
    expect((await runnerByDigest(digest))!.contactedAt).toBe(at(56).toISOString());
  });

  it("records a manager's contact by the same rule, in the runner's write, without touching its other managers", async () => {
    // Prepare: a runner whose two machines first called at once
    const project = await ownedProject('private');
    const runner = await TestRunner.register(await registrationToken(project, project.owner.token));
    const digest = digestOf(runner.token);
    await Promise.all(['s_a', 's_b'].map((systemId) => api('/runners/verify', { method: 'POST', body: { token: runner.token, system_id: systemId } })));
    const read = (await runnerByDigest(digest))!;
    const at = (minutes: number) => new Date(Date.parse(read.managers!.s_a.contactedAt!) + minutes * MINUTE);

    // Act + Assess: within 40 minutes nothing is written; past 55 minutes the runner and the calling machine, by one of two polls
    expect(await recordRunnerContact(read, at(39), () => 0, 's_a')).toBe(false);
    const both = await Promise.all([recordRunnerContact(read, at(56), Math.random, 's_a'), recordRunnerContact(read, at(56), Math.random, 's_a')]);
    expect(both.filter(Boolean)).toHaveLength(1);
    const after = (await runnerByDigest(digest))!;
    expect(after.contactedAt).toBe(at(56).toISOString());
    expect(after.managers!.s_a.contactedAt).toBe(at(56).toISOString());
    expect(after.managers!.s_b.contactedAt).toBe(read.managers!.s_b.contactedAt);

    // The other machine, due while the runner is not: its contact is written all the same (with the runner's), the first machine's kept
    const late = new Date(Date.parse(read.managers!.s_b.contactedAt!) + 57 * MINUTE);
    expect(late.getTime() - Date.parse(after.contactedAt!)).toBeLessThan(40 * MINUTE);
    expect(await recordRunnerContact(after, late, Math.random, 's_b')).toBe(true);
    const last = (await runnerByDigest(digest))!;
    expect(last.managers!.s_b.contactedAt).toBe(late.toISOString());
    expect(last.managers!.s_a.contactedAt).toBe(at(56).toISOString());
  });
});
