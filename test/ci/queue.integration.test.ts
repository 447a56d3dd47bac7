/**
 * The job queue under concurrency: many runners polling one project's queue at once must each
 * get distinct jobs, and every job must be handed out exactly once (the claim is a transaction
 * conditioned on the job still being pending, `claimJob`). The runners here only claim and
 * report success (`PUT /jobs/:id`): no clone, no script, since what is tested is the claim.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const JOBS = 30;
const RUNNERS = 12;
/** Between two empty polls of one runner (gitlab-runner waits `check_interval`, 3 s by default). */
const IDLE_POLL_MS = 400;

const jobName = (i: number) => `job-${String(i + 1).padStart(2, '0')}`;

/** One stage of `count` independent jobs. */
const parallelJobs = (count: number) =>
  ['stages: [test]', ...Array.from({ length: count }, (_, i) => `${jobName(i)}:\n  stage: test\n  script: echo ${i + 1}`)].join('\n') + '\n';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pushCi(project: OwnedProject, ci: string): Promise<void> {
  await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': ci, 'README.md': '# queue\n' });
}

async function latestPipeline(project: OwnedProject): Promise<{ id: number; status: string }> {
  const response = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token });
  expect(response.status).toBe(200);
  return response.body[0];
}

async function pipelineJobs(project: OwnedProject, pipelineId: number): Promise<Array<{ id: number; name: string; status: string }>> {
  const response = await api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token, query: { per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body;
}

async function registrationToken(project: OwnedProject): Promise<string> {
  return (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
}

/**
 * One `POST /jobs/request`, answered as gitlab-runner reads it (`network/gitlab.go`): 201 with a
 * job, 204 nothing to do, 409 a conflict (GitLab's answer when the runner lost the race for a
 * job it saw pending: try again). `X-GitLab-Last-Update` is kept by the caller when sent.
 */
async function poll(runner: TestRunner, lastUpdate?: string): Promise<{ status: 201 | 204 | 409; job?: { id: number; token: string }; lastUpdate: string | null }> {
  const response = await api('/jobs/request', {
    method: 'POST',
    body: { token: runner.token, info: { name: 'queue-test' }, ...(lastUpdate ? { last_update: lastUpdate } : {}) },
  });
  if (response.status !== 201 && response.status !== 204 && response.status !== 409) {
    throw new Error(`POST /jobs/request: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return { status: response.status, job: response.status === 201 ? response.body : undefined, lastUpdate: response.headers.get('x-gitlab-last-update') };
}

describe('one queue, many runners', () => {
  it(`${RUNNERS} runners polling a queue of ${JOBS} jobs: every job is handed out exactly once`, { timeout: 120_000 }, async () => {
    // Prepare
    const project = await ownedProject('private');
    const token = await registrationToken(project);
    const [runners] = await Promise.all([Promise.all(Array.from({ length: RUNNERS }, () => TestRunner.register(token))), pushCi(project, parallelJobs(JOBS))]);
    const pipeline = await latestPipeline(project);
    const jobs = await pipelineJobs(project, pipeline.id);
    expect(jobs).toHaveLength(JOBS);
    expect(jobs.every((job) => job.status === 'pending')).toBe(true);

    // Act: every runner polls as gitlab-runner does (sending back X-GitLab-Last-Update after an
    // empty answer), reports each job it gets as a success, and stops once all jobs were handed out.
    const handedOut: number[] = [];
    const byRunner = new Map<number, number[]>(runners.map((runner) => [runner.id, []]));
    const updates: Array<{ job: number; status: number; jobStatus: string | null }> = [];
    const deadline = Date.now() + 60_000;
    await Promise.all(
      runners.map(async (runner) => {
        let lastUpdate: string | undefined;
        while (handedOut.length < JOBS && Date.now() < deadline) {
          const { job, lastUpdate: next } = await poll(runner, lastUpdate);
          lastUpdate = next ?? lastUpdate;
          if (!job) {
            await sleep(IDLE_POLL_MS);
            continue;
          }
          handedOut.push(job.id);
          byRunner.get(runner.id)!.push(job.id);
          const response = await runner.update(job, 'success');
          updates.push({ job: job.id, status: response.status, jobStatus: response.headers.get('job-status') });
        }
      }),
    );
    // The queue is now empty for everyone, also without `last_update` (no job comes twice).
    const after = await Promise.all(runners.map((runner) => poll(runner)));

    // Assess
    expect([...handedOut].sort((a, b) => a - b)).toEqual(jobs.map((job) => job.id).sort((a, b) => a - b));
    for (const [, got] of byRunner) expect(new Set(got).size).toBe(got.length);
    expect(updates).toHaveLength(JOBS);
    expect(updates.filter((update) => update.status !== 200 || update.jobStatus !== 'success')).toEqual([]);
    expect(after.map((reply) => reply.status)).toEqual(runners.map(() => 204));
    const finished = await pipelineJobs(project, pipeline.id);
    expect(finished.filter((job) => job.status !== 'success')).toEqual([]);
    expect(finished).toHaveLength(JOBS);
    expect(await latestPipeline(project)).toMatchObject({ id: pipeline.id, status: 'success' });
  });

  describe('two runners racing for a single job', () => {
    let project: OwnedProject;
    let runners: [TestRunner, TestRunner];

    beforeAll(async () => {
      project = await ownedProject('private');
      await pushCi(project, 'only-job:\n  script: echo one\n');
      const token = await registrationToken(project);
      runners = [await TestRunner.register(token), await TestRunner.register(token)];
    });

    it('one gets it (201), the other none (204, or the 409 GitLab answers for a lost claim), race after race', { timeout: 60_000 }, async () => {
      for (let round = 0; round < 5; round++) {
        // Prepare: a pipeline with one pending job (the first comes from the push).
        if (round > 0) {
          const created = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main' } });
          expect(created.status).toBe(201);
        }
        const pipeline = await latestPipeline(project);
        const [pending] = await pipelineJobs(project, pipeline.id);
        expect(pending).toMatchObject({ name: 'only-job', status: 'pending' });

        // Act
        const replies = await Promise.all(runners.map((runner) => poll(runner)));

        // Assess
        const winner = replies.findIndex((reply) => reply.status === 201);
        expect(winner).not.toBe(-1);
        const loser = replies[1 - winner];
        // 204 when its look at the queue came after the claim; GitLab answers 409 when it saw the
        // job pending and lost the claim. Either way no job, and the next poll finds none.
        expect(loser.job).toBeUndefined();
        expect([204, 409]).toContain(loser.status);
        expect(replies[winner].job!.id).toBe(pending.id);
        expect((await poll(runners[1 - winner])).status).toBe(204);
        const finished = await runners[winner].update(replies[winner].job, 'success');
        expect(finished.status).toBe(200);
        expect(await latestPipeline(project)).toMatchObject({ id: pipeline.id, status: 'success' });
      }
    });
  });
});
