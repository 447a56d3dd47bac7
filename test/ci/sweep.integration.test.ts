/**
 * The CI scheduler against DynamoDB Local and s3rver: jobs made through the API and a runner
 * speaking the runner protocol, then the scheduler's steps called in the test process with a
 * clock set past their deadlines. Only this file's own jobs are settled at those future times
 * (the runtime is shared with the other files, whose jobs must not be dropped); `sweepCi` itself
 * runs with the real clock, which only handles what is really due.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { settleDeadline, settleExpiredArtifacts, sweepCi, sweepContext } from '../../shared/ci/commands/sweep';
import { CI_SCHEDULE_SHARDS } from '../../shared/ci/store/keys';
import { dueDeadlineJobs, expiredArtifactJobs, type ScheduledJob } from '../../shared/ci/store/pipelines';
import { api, baseUrl, isLocalRuntime } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';
import { patchTrace, TestRunner } from './runner';

const HOUR = 3_600_000;

/** Pushes a commit with this `.gitlab-ci.yml` to a new branch (a pipeline of its own). */
async function pushCi(project: OwnedProject, ci: string, branch = `b-${Math.random().toString(36).slice(2, 10)}`): Promise<void> {
  const work = await localRepository({ '.gitlab-ci.yml': ci, 'README.md': '# sweep\n' });
  await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), `main:refs/heads/${branch}`], { cwd: work });
}

async function registrationToken(project: OwnedProject): Promise<string> {
  return (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
async function jobsOf(project: OwnedProject): Promise<any[]> {
  return (await api(`/projects/${project.id}/jobs`, { token: project.owner.token })).body;
}

async function jobOf(project: OwnedProject, jobId: number): Promise<any> {
  return (await api(`/projects/${project.id}/jobs/${jobId}`, { token: project.owner.token })).body;
}

async function pipelineOf(project: OwnedProject, pipelineId: number): Promise<any> {
  return (await api(`/projects/${project.id}/pipelines/${pipelineId}`, { token: project.owner.token })).body;
}

/** The job's entry in the deadline index, if it is due at `now`. */
async function deadlineEntry(jobId: number, now: Date): Promise<ScheduledJob | undefined> {
  return (await dueDeadlineJobs(jobId % CI_SCHEDULE_SHARDS, now.toISOString(), 10_000)).find((found) => found.job.id === jobId);
}

/** The job's entry in the artifacts expiry index, if it is due at `now`. */
async function expiryEntry(jobId: number, now: Date): Promise<ScheduledJob | undefined> {
  return (await expiredArtifactJobs(jobId % CI_SCHEDULE_SHARDS, now.toISOString(), 10_000)).find((found) => found.job.id === jobId);
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms);

async function uploadArtifacts(job: any, expireIn: string) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('PK\u0005\u0006' + '\0'.repeat(18))]), 'artifacts.zip');
  const upload = await api(`/jobs/${job.id}/artifacts`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, form, query: { artifact_format: 'zip', artifact_type: 'archive', expire_in: expireIn } });
  expect(upload.status).toBe(201);
}

describe.skipIf(!isLocalRuntime())('a pending job no runner takes', () => {
  let project: OwnedProject;
  let build: any;

  beforeAll(async () => {
    project = await ownedProject('private');
    await pushCi(project, 'stages: [build, test]\nbuild:\n  stage: build\n  script: echo build\ntest:\n  stage: test\n  script: echo test\n');
    build = (await jobsOf(project)).find((job) => job.name === 'build');
  });

  it('is due an hour after it was queued, not before', async () => {
    expect(build.status).toBe('pending');
    expect(await deadlineEntry(build.id, later(build.created_at, HOUR - 60_000))).toBeUndefined();
    expect(await deadlineEntry(build.id, later(build.created_at, HOUR + 60_000))).toBeDefined();
  });

  it('is failed as stuck_or_timeout_failure when no runner could take it, and its pipeline fails', async () => {
    const now = later(build.created_at, HOUR + 60_000);
    const outcome = await settleDeadline((await deadlineEntry(build.id, now))!, sweepContext({ now }));

    expect(outcome).toBe('stuck');
    expect(await jobOf(project, build.id)).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
    const jobs = await jobsOf(project);
    expect(jobs.find((job) => job.name === 'test')).toMatchObject({ status: 'skipped' });
    expect(await pipelineOf(project, build.pipeline.id)).toMatchObject({ status: 'failed' });
    // It left the index with its status.
    expect(await deadlineEntry(build.id, later(build.created_at, 3 * 24 * HOUR))).toBeUndefined();
  });
});

describe.skipIf(!isLocalRuntime())('a pending job dropped as stuck', () => {
  it('is retried when its `retry: when` names stuck_or_timeout_failure, and the pipeline goes on', async () => {
    // Prepare
    const project = await ownedProject('private');
    await pushCi(project, 'build:\n  retry: { max: 1, when: [stuck_or_timeout_failure] }\n  script: echo build\n');
    const [build] = await jobsOf(project);
    const now = later(build.created_at, HOUR + 60_000);

    // Act
    const outcome = await settleDeadline((await deadlineEntry(build.id, now))!, sweepContext({ now }));

    // Assess: the dropped job stays failed, a new attempt waits in its place.
    expect(outcome).toBe('stuck');
    expect(await jobOf(project, build.id)).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
    const current = (await api(`/projects/${project.id}/pipelines/${build.pipeline.id}/jobs`, { token: project.owner.token })).body;
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ name: 'build', status: 'pending' });
    expect(current[0].id).not.toBe(build.id);
    expect(await pipelineOf(project, build.pipeline.id)).toMatchObject({ status: 'pending' });

    // The new attempt is the last one: dropped in turn, it is not retried again.
    const again = later(current[0].created_at, HOUR + 60_000);
    expect(await settleDeadline((await deadlineEntry(current[0].id, again))!, sweepContext({ now: again }))).toBe('stuck');
    expect((await jobsOf(project)).filter((job) => job.status === 'pending')).toEqual([]);
    expect(await pipelineOf(project, build.pipeline.id)).toMatchObject({ status: 'failed' });
  });

  it('is not retried when its `retry: when` names other failures only', async () => {
    const project = await ownedProject('private');
    await pushCi(project, 'build:\n  retry: { max: 2, when: script_failure }\n  script: echo build\n');
    const [build] = await jobsOf(project);
    const now = later(build.created_at, HOUR + 60_000);

    expect(await settleDeadline((await deadlineEntry(build.id, now))!, sweepContext({ now }))).toBe('stuck');

    expect((await jobsOf(project)).map((job) => [job.id, job.status])).toEqual([[build.id, 'failed']]);
    expect(await pipelineOf(project, build.pipeline.id)).toMatchObject({ status: 'failed' });
  });
});

describe.skipIf(!isLocalRuntime())('a pending job an online runner could take', () => {
  it('waits another hour instead of failing, and fails once a day old', async () => {
    // Prepare: a runner that matches the job and called just now, before the job was queued (so it never took it).
    const project = await ownedProject('private');
    const runner = await TestRunner.register(await registrationToken(project), { tag_list: ['docker'] });
    await runner.requestJob();
    await pushCi(project, 'build:\n  tags: [docker]\n  script: echo build\n');
    const [build] = await jobsOf(project);
    const inAnHour = later(build.created_at, HOUR + 60_000);

    // Act
    const first = await settleDeadline((await deadlineEntry(build.id, inAnHour))!, sweepContext({ now: inAnHour }));

    // Assess
    expect(first).toBe('rescheduled');
    expect(await jobOf(project, build.id)).toMatchObject({ status: 'pending' });
    expect(await deadlineEntry(build.id, inAnHour)).toBeUndefined();
    const nextDay = later(build.created_at, 24 * HOUR + 60_000);
    expect(await settleDeadline((await deadlineEntry(build.id, nextDay))!, sweepContext({ now: nextDay }))).toBe('stuck');
    expect(await jobOf(project, build.id)).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
  });
});

describe.skipIf(!isLocalRuntime())('a running job', () => {
  let project: OwnedProject;
  let runner: TestRunner;

  beforeAll(async () => {
    project = await ownedProject('private');
    runner = await TestRunner.register(await registrationToken(project));
  });

  async function claimed(ci: string): Promise<any> {
    await pushCi(project, ci);
    for (let attempt = 0; attempt < 50; attempt++) {
      const { job } = await runner.requestJob();
      if (job) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no job');
  }

  it('whose runner went silent for an hour is failed as stuck, and its runner is told', async () => {
    const job = await claimed('silent:\n  script: sleep 1\n');
    const started = (await jobOf(project, job.id)).started_at as string;
    expect(await deadlineEntry(job.id, later(started, HOUR - 60_000))).toBeUndefined();

    const now = later(started, HOUR + 1000);
    expect(await settleDeadline((await deadlineEntry(job.id, now))!, sweepContext({ now }))).toBe('stuck');

    expect(await jobOf(project, job.id)).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
    const late = await runner.update(job, 'success');
    expect(late.status).toBe(403);
    expect(late.headers.get('job-status')).toBe('failed');
    // Its token ended with it.
    expect((await patchTrace(job, 0, 'late\n')).status).toBe(403);
  });

  it('is failed with job_execution_timeout 15 minutes past its timeout, though its runner reports', async () => {
    const job = await claimed('slow:\n  timeout: 10 minutes\n  script: sleep 1\n');
    const started = (await jobOf(project, job.id)).started_at as string;
    expect((await patchTrace(job, 0, 'working\n')).status).toBe(202);
    const deadline = later(started, 25 * 60_000);

    expect(await deadlineEntry(job.id, later(started, 25 * 60_000 - 2000))).toBeUndefined();
    const entry = await deadlineEntry(job.id, deadline);
    expect(await settleDeadline(entry!, sweepContext({ now: deadline }))).toBe('timed_out');

    expect(await jobOf(project, job.id)).toMatchObject({ status: 'failed', failure_reason: 'job_execution_timeout' });
    expect((await runner.update(job, 'failed', { failure_reason: 'script_failure' })).status).toBe(403);
  });

  it('that its runner finishes first is left as the runner reported it (only one wins)', async () => {
    const job = await claimed('quick:\n  script: echo ok\n');
    const started = (await jobOf(project, job.id)).started_at as string;
    const now = later(started, HOUR + 1000);
    const entry = await deadlineEntry(job.id, now);
    expect(entry).toBeDefined();

    // The runner reports success after the scheduler found the entry, before it acts.
    expect((await runner.update(job, 'success')).status).toBe(200);
    const outcome = await settleDeadline(entry!, sweepContext({ now }));

    expect(outcome).toBe('rescheduled');
    expect(await jobOf(project, job.id)).toMatchObject({ status: 'success' });
  });
});

/** Runs the next job of the project's runner to success with artifacts that expire in `expireIn`; answers the job as the API shows it. */
async function finishedWithArtifacts(project: OwnedProject, runner: TestRunner, expireIn: string): Promise<any> {
  let job: any;
  for (let attempt = 0; attempt < 50 && !job; attempt++) {
    ({ job } = await runner.requestJob());
    if (!job) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await uploadArtifacts(job, expireIn);
  expect((await runner.update(job, 'success')).status).toBe(200);
  return jobOf(project, job.id);
}

describe.skipIf(!isLocalRuntime())('artifacts', () => {
  let project: OwnedProject;
  let runner: TestRunner;

  beforeAll(async () => {
    project = await ownedProject('private');
    // Each test's pipeline is its branch's latest success: these artifacts expire only when the project does not keep the latest.
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { keep_latest_artifact: false } })).status).toBe(200);
    runner = await TestRunner.register(await registrationToken(project));
  });

  async function finishedWithArtifactsOn(name: string, expireIn: string): Promise<any> {
    await pushCi(project, `${name}:\n  script: echo ok\n`);
    return finishedWithArtifacts(project, runner, expireIn);
  }

  it('that expired are deleted from the job and from storage', async () => {
    const job = await finishedWithArtifactsOn('expiring', '2 hours');
    expect(job.artifacts_expire_at).toEqual(expect.any(String));
    expect(await expiryEntry(job.id, later(job.artifacts_expire_at, -1000))).toBeUndefined();
    const now = later(job.artifacts_expire_at, 1000);

    expect(await settleExpiredArtifacts((await expiryEntry(job.id, now))!, sweepContext({ now }))).toBe('expired');

    expect(await jobOf(project, job.id)).toMatchObject({ artifacts: [], artifacts_file: null });
    expect((await api(`/projects/${project.id}/jobs/${job.id}/artifacts`, { token: project.owner.token })).status).toBe(404);
    expect(await expiryEntry(job.id, later(job.artifacts_expire_at, 24 * HOUR))).toBeUndefined();
  });

  it('that are kept leave the expiry index', async () => {
    const job = await finishedWithArtifactsOn('kept', '2 hours');
    expect(await expiryEntry(job.id, later(job.artifacts_expire_at, 1000))).toBeDefined();

    expect((await api(`/projects/${project.id}/jobs/${job.id}/artifacts/keep`, { method: 'POST', token: project.owner.token })).status).toBe(200);

    expect(await expiryEntry(job.id, later(job.artifacts_expire_at, 24 * HOUR))).toBeUndefined();
    const download = await fetch(`${baseUrl()}/api/v4/projects/${project.id}/jobs/${job.id}/artifacts`, { headers: { 'PRIVATE-TOKEN': project.owner.token } });
    expect(download.status).toBe(200);
  });

  it('are swept by a real-time run once their time has come', async () => {
    const job = await finishedWithArtifactsOn('brief', '1 second');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(job.artifacts_expire_at) - Date.now()) + 50));

    const report = await sweepCi();

    expect(report.complete).toBe(true);
    expect(report.artifactsExpired).toBeGreaterThanOrEqual(1);
    expect(await jobOf(project, job.id)).toMatchObject({ artifacts: [], artifacts_file: null });
  });
});

describe.skipIf(!isLocalRuntime())("a ref's latest successful pipeline (keep_latest_artifact, GitLab's default)", () => {
  it('keeps its artifacts past their expiry and serves them by ref; a newer success on the ref lets them expire', async () => {
    // Prepare: a first successful pipeline on the branch, its artifacts past their expiry.
    const project = await ownedProject('private');
    const runner = await TestRunner.register(await registrationToken(project));
    const work = await localRepository({ '.gitlab-ci.yml': 'package:\n  script: echo ok\n' });
    const push = () => gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main:refs/heads/release'], { cwd: work });
    await push();
    const first = await finishedWithArtifacts(project, runner, '2 hours');
    const expired = later(first.artifacts_expire_at, 1000);
    const byRef = () => api(`/projects/${project.id}/jobs/artifacts/release/download`, { query: { job: 'package' }, token: project.owner.token });

    // Act: the scheduler finds them due.
    const kept = await settleExpiredArtifacts((await expiryEntry(first.id, expired))!, sweepContext({ now: expired }));

    // Assess: kept, looked at again a day on; still served, by id and by ref.
    expect(kept).toBe('rescheduled');
    expect(await expiryEntry(first.id, later(first.artifacts_expire_at, 2 * HOUR))).toBeUndefined();
    expect(await expiryEntry(first.id, later(first.artifacts_expire_at, 25 * HOUR))).toBeDefined();
    expect((await jobOf(project, first.id)).artifacts_file).toMatchObject({ filename: 'artifacts.zip' });
    expect((await byRef()).status).toBe(200);

    // Act: a newer commit's pipeline succeeds on the branch.
    await commitFiles(work, { 'README.md': 'again\n' }, 'again');
    await push();
    const second = await finishedWithArtifacts(project, runner, '2 hours');

    // Assess: the first pipeline's artifacts are due again and expire; the ref serves the newer ones.
    const due = await expiryEntry(first.id, expired);
    expect(due).toBeDefined();
    expect(await settleExpiredArtifacts(due!, sweepContext({ now: expired }))).toBe('expired');
    expect(await jobOf(project, first.id)).toMatchObject({ artifacts_file: null });
    expect((await byRef()).status).toBe(200);
    expect((await jobOf(project, second.id)).artifacts_file).toMatchObject({ filename: 'artifacts.zip' });
  });
});
