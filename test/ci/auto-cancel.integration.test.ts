/**
 * Auto-cancel of redundant pipelines (GitLab's "Auto-cancel redundant pipelines" project setting
 * and `workflow:auto_cancel`): a newer commit on a branch cancels the older pipeline of the branch
 * (`conservative`: unless a job that is not interruptible started; `interruptible`: only its
 * interruptible jobs); the project setting `disabled` keeps it; `on_job_failure: all` cancels a
 * pipeline's other jobs when one fails. Each scenario has its runner and job tag, so that one
 * scenario's pending jobs are not another's runner's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';
import { patchTrace, TestRunner } from './runner';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */

/** Two jobs in the first stage, one after; `interruptible` for `lint` (and `build` when asked), the scenario's tag. */
const ci = (tag: string, options: { buildInterruptible: boolean; workflow?: string }) => `
${options.workflow ?? ''}
default:
  tags: [${tag}]
stages: [build, test]
build:
  stage: build
  interruptible: ${options.buildInterruptible}
  script: echo build
lint:
  stage: build
  interruptible: true
  script: echo lint
test:
  stage: test
  interruptible: true
  script: echo test
`;

describe('auto-cancel of redundant pipelines', () => {
  let project: OwnedProject;
  let registration: string;

  const statuses = async (pipelineId: number) => {
    const [pipeline, jobs] = await Promise.all([
      api(`/projects/${project.id}/pipelines/${pipelineId}`, { token: project.owner.token }),
      api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token }),
    ]);
    return { pipeline: pipeline.body.status, ...Object.fromEntries((jobs.body as any[]).map((job) => [job.name, job.status])) };
  };

  const newestPipeline = async (branch: string) => (await api(`/projects/${project.id}/pipelines?ref=${branch}`, { token: project.owner.token })).body[0];

  /** Pushes a first commit to `branch`, has the scenario's runner take `build`; answers what the next pushes need. */
  async function started(branch: string, files: Record<string, string>) {
    const tag = branch;
    const work = await localRepository(files);
    const remote = cloneUrl(project.fullPath, project.owner.token);
    await gitOk(['push', '-q', remote, `HEAD:refs/heads/${branch}`], { cwd: work });
    const runner = await TestRunner.register(registration, { tag_list: [tag], run_untagged: false });
    const { job } = await runner.requestJob();
    expect(job.job_info).toMatchObject({ name: 'build', project_id: project.id });
    const pushAgain = async (message: string) => {
      await commitFiles(work, { 'README.md': `${message}\n` }, message);
      await gitOk(['push', '-q', remote, `HEAD:refs/heads/${branch}`], { cwd: work });
      return newestPipeline(branch);
    };
    return { runner, job, first: await newestPipeline(branch), pushAgain };
  }

  beforeAll(async () => {
    project = await ownedProject('private');
    registration = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
  });

  it('cancels the older pipeline of the branch whose started jobs are interruptible (running and pending jobs), not the new one; a disabled project setting keeps it', async () => {
    // Prepare: `build` running with the runner, `lint` pending, `test` waiting.
    const { job, first, pushAgain } = await started('s1', { '.gitlab-ci.yml': ci('s1', { buildInterruptible: true }) });
    expect(await statuses(first.id)).toEqual({ pipeline: 'running', build: 'running', lint: 'pending', test: 'created' });

    // Act
    const second = await pushAgain('second');

    // Assess: the first pipeline is canceled whole, the runner is told to stop; the second runs.
    expect(second.id).toBeGreaterThan(first.id);
    expect(await statuses(first.id)).toEqual({ pipeline: 'canceled', build: 'canceled', lint: 'canceled', test: 'canceled' });
    expect(await patchTrace(job, 0, 'late\n')).toMatchObject({ status: 403, jobStatus: 'canceled' });
    expect(await statuses(second.id)).toEqual({ pipeline: 'pending', build: 'pending', lint: 'pending', test: 'created' });

    // Act: with the project setting disabled, a third commit cancels nothing.
    const disabled = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { auto_cancel_pending_pipelines: 'disabled' } });
    expect(disabled.body.auto_cancel_pending_pipelines).toBe('disabled');
    const third = await pushAgain('third');

    // Assess
    expect(third.id).toBeGreaterThan(second.id);
    expect(await statuses(second.id)).toEqual({ pipeline: 'pending', build: 'pending', lint: 'pending', test: 'created' });
    await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { auto_cancel_pending_pipelines: 'enabled' } });
  });

  it('keeps a pipeline whose non-interruptible job started (conservative), cancels only interruptible jobs with `on_new_commit: interruptible`, and the other jobs on a failure with `on_job_failure: all`', async () => {
    // Prepare: on three branches, `build` (not interruptible) is running.
    const conservative = await started('s2', { '.gitlab-ci.yml': ci('s2', { buildInterruptible: false }) });
    const soft = await started('s3', { '.gitlab-ci.yml': ci('s3', { buildInterruptible: false, workflow: 'workflow:\n  auto_cancel:\n    on_new_commit: interruptible\n' }) });
    const failing = await started('s4', { '.gitlab-ci.yml': ci('s4', { buildInterruptible: false, workflow: 'workflow:\n  auto_cancel:\n    on_job_failure: all\n' }) });

    // Act
    await conservative.pushAgain('second');
    await soft.pushAgain('second');
    expect((await failing.runner.update(failing.job, 'failed', { failure_reason: 'script_failure', exit_code: 1 })).status).toBe(200);

    // Assess: conservative leaves it all; interruptible cancels the pending interruptible job and the waiting one, the running `build` goes on.
    expect(await statuses(conservative.first.id)).toEqual({ pipeline: 'running', build: 'running', lint: 'pending', test: 'created' });
    expect(await statuses(soft.first.id)).toEqual({ pipeline: 'running', build: 'running', lint: 'canceled', test: 'canceled' });
    expect((await soft.runner.update(soft.job, 'success')).status).toBe(200);
    expect(await statuses(soft.first.id)).toMatchObject({ pipeline: 'canceled', build: 'success' });
    // The failure cancels the pipeline's other jobs.
    expect(await statuses(failing.first.id)).toEqual({ pipeline: 'failed', build: 'failed', lint: 'canceled', test: 'canceled' });
  });
});
