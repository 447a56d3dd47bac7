/**
 * Pipeline Hook and Job Hook end to end: a push with a `.gitlab-ci.yml`, a runner taking and
 * finishing the jobs, a cancel → the outbox → the table's stream → the delivery function → an
 * HTTP receiver started by this test. The runner answers with its verdict without running the
 * scripts (what is told here is the status changes, not what the jobs do).
 *
 * The receiver listens on 127.0.0.1, which only the local runtime may reach, so this file runs
 * against the local runtime only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { commit } from '../merge-requests/helpers';
import { WebhookReceiver, type Delivery } from '../support/webhooks';
import { TestRunner } from './runner';

const CI = `
stages: [build, test]
compile:
  stage: build
  script: [echo compile]
  environment: { name: build/$CI_COMMIT_REF_SLUG, action: prepare, deployment_tier: testing }
unit:
  stage: test
  script: [echo unit]
`;


describe.skipIf(!isLocalRuntime())('pipeline and job webhooks', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;
  let runner: TestRunner;

  const pipelineHooks = (pipelineId: number) => (delivery: Delivery) => delivery.body.object_kind === 'pipeline' && delivery.body.object_attributes.id === pipelineId;
  const jobHooks = (pipelineId: number, name?: string) => (delivery: Delivery) =>
    delivery.body.object_kind === 'build' && delivery.body.pipeline_id === pipelineId && (name === undefined || delivery.body.build_name === name);

  async function addHook(path: string, body: Record<string, unknown>) {
    const response = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url(path), ...body } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  async function newestPipeline(): Promise<{ id: number; sha: string; status: string }> {
    const response = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token });
    expect(response.status).toBe(200);
    return response.body[0];
  }

  /** Takes the next job (polling briefly) and reports `state` for it. */
  async function finishNext(state: 'success' | 'failed') {
    for (let attempt = 0; attempt < 50; attempt++) {
      const { job } = await runner.requestJob();
      if (job) {
        const response = await runner.update(job, state, state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : {});
        expect(response.status).toBe(200);
        return job;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no job came');
  }

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject('private');
    await addHook('/ci', { pipeline_events: true, job_events: true, push_events: false, token: 'ci-secret' });
    await addHook('/pushes', { push_events: true });
    await addHook('/pipelines-only', { pipeline_events: true, push_events: false });
    // The project's first commit creates its `main` branch, and the pipeline.
    await commit(project.id, project.owner.token, 'main', { '.gitlab-ci.yml': CI, 'README.md': '# ci hooks\n' });
    runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('tells every change of a pipeline\'s status and every job\'s created, pending, running and success, with GitLab\'s payloads', async () => {
    // Prepare
    const pipeline = await newestPipeline();

    // Act
    const compile = await finishNext('success');
    const unit = await finishNext('success');

    // Assess: the pipeline went pending → running → success, one hook each
    const pipelines = await receiver.received('/ci', pipelineHooks(pipeline.id), 3);
    expect(pipelines.map((delivery) => delivery.body.object_attributes.status)).toEqual(['pending', 'running', 'success']);
    const done = pipelines[2];
    expect(done.headers['x-gitlab-event']).toBe('Pipeline Hook');
    expect(done.headers['x-gitlab-token']).toBe('ci-secret');
    expect(done.body).toMatchObject({
      object_kind: 'pipeline',
      object_attributes: {
        id: pipeline.id,
        ref: 'main',
        tag: false,
        sha: pipeline.sha,
        source: 'push',
        status: 'success',
        detailed_status: 'passed',
        stages: ['build', 'test'],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
        finished_at: expect.stringMatching(/ UTC$/),
        variables: [],
        url: expect.stringMatching(new RegExp(`/${project.fullPath}/-/pipelines/${pipeline.id}$`)),
      },
      merge_request: null,
      user: { id: project.owner.id, username: project.owner.username },
      project: { id: project.id, path_with_namespace: project.fullPath },
      commit: { id: pipeline.sha, message: expect.any(String), author: { name: expect.any(String), email: expect.any(String) } },
    });
    // GitLab lists the pipeline's latest builds in no documented order.
    expect(done.body.builds).toHaveLength(2);
    expect(done.body.builds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: unit.id, name: 'unit', stage: 'test', status: 'success', runner: expect.objectContaining({ id: runner.id, runner_type: 'project_type', is_shared: false }) }),
        expect.objectContaining({
          id: compile.id,
          name: 'compile',
          stage: 'build',
          status: 'success',
          user: expect.objectContaining({ id: project.owner.id }),
          environment: { name: 'build/main', action: 'prepare', deployment_tier: 'testing' },
        }),
      ]),
    );

    // Assess: each job was told created, pending, running, success — in that order
    for (const [name, job] of [['compile', compile], ['unit', unit]] as const) {
      const jobs = await receiver.received('/ci', jobHooks(pipeline.id, name), 4);
      expect(jobs.map((delivery) => delivery.body.build_status)).toEqual(['created', 'pending', 'running', 'success']);
      expect(jobs.every((delivery) => delivery.headers['x-gitlab-event'] === 'Job Hook' && delivery.body.build_id === job.id)).toBe(true);
    }
    const finished = (await receiver.received('/ci', jobHooks(pipeline.id, 'unit'), 4))[3];
    expect(finished.body).toMatchObject({
      object_kind: 'build',
      ref: 'main',
      tag: false,
      sha: pipeline.sha,
      build_id: unit.id,
      build_name: 'unit',
      build_stage: 'test',
      build_status: 'success',
      build_allow_failure: false,
      build_failure_reason: null,
      retries_count: 0,
      pipeline_id: pipeline.id,
      project_id: project.id,
      user: { id: project.owner.id },
      commit: { id: pipeline.id, sha: pipeline.sha, status: expect.any(String) },
      runner: { id: runner.id, active: true, is_shared: false, runner_type: 'project_type' },
      project: { path_with_namespace: project.fullPath },
      repository: { git_http_url: expect.stringMatching(/\.git$/) },
      environment: null,
    });
    expect(finished.body.build_started_at).toMatch(/ UTC$/);
    expect(finished.body.build_duration).toBeGreaterThanOrEqual(0);
  });

  it('sends pipeline hooks only to hooks with pipeline_events, and job hooks only to hooks with job_events', async () => {
    const pipeline = await newestPipeline();
    const pipelinesOnly = await receiver.received('/pipelines-only', pipelineHooks(pipeline.id), 3);
    expect(pipelinesOnly).toHaveLength(3);
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/pipelines-only' && delivery.body.object_kind === 'build')).toEqual([]);
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/pushes' && ['pipeline', 'build'].includes(delivery.body.object_kind))).toEqual([]);
  });

  it('tells a failed job with its failure reason, and a canceled pipeline with its canceled jobs', async () => {
    // Prepare: a second pipeline on the same commit
    const createdPipeline = await api(`/projects/${project.id}/pipeline`, { token: project.owner.token, body: { ref: 'main' } });
    expect(createdPipeline.status).toBe(201);
    const id = createdPipeline.body.id as number;

    // Act: its first job fails (the next stage is skipped: no hook for that), and a third pipeline is canceled
    const compile = await finishNext('failed');
    const third = await api(`/projects/${project.id}/pipeline`, { token: project.owner.token, body: { ref: 'main', variables: [{ key: 'HOOKED', value: 'told to hooks' }] } });
    const canceled = await api(`/projects/${project.id}/pipelines/${third.body.id}/cancel`, { method: 'POST', token: project.owner.token });
    expect(canceled.body.status).toBe('canceled');

    // Assess
    const failedJob = await receiver.received('/ci', (delivery) => jobHooks(id, 'compile')(delivery) && delivery.body.build_status === 'failed');
    expect(failedJob[0]?.body).toMatchObject({ build_id: compile.id, build_status: 'failed', build_failure_reason: 'script_failure' });
    const failedPipeline = await receiver.received('/ci', (delivery) => pipelineHooks(id)(delivery) && delivery.body.object_attributes.status === 'failed');
    expect(failedPipeline[0]?.body.builds).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'compile', status: 'failed', failure_reason: 'script_failure' }), expect.objectContaining({ name: 'unit', status: 'skipped' })]),
    );
    const canceledPipeline = await receiver.received('/ci', (delivery) => pipelineHooks(third.body.id)(delivery) && delivery.body.object_attributes.status === 'canceled');
    expect(canceledPipeline).toHaveLength(1);
    // The variables it was created with (kept sealed) are opened for the payload.
    expect(canceledPipeline[0].body.object_attributes.variables).toEqual([{ key: 'HOOKED', value: 'told to hooks' }]);
    const canceledJobs = await receiver.received('/ci', (delivery) => jobHooks(third.body.id)(delivery) && delivery.body.build_status === 'canceled', 2);
    expect(canceledJobs.map((delivery) => delivery.body.build_name).sort()).toEqual(['compile', 'unit']);
    // Skipped jobs send no Job Hook (GitLab's), and no status is told twice.
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/ci' && jobHooks(id, 'unit')(delivery)).map((delivery) => delivery.body.build_status)).toEqual(['created']);
  });
});

const DEPLOY_CI = `
deploy:
  script: [echo deploy]
  environment: { name: staging, url: https://staging.example.com }
`;

/** GitLab's Deployment Hook fields (`Gitlab::DataBuilder::Deployment`). */
const DEPLOYMENT_HOOK_FIELDS = [
  'object_kind', 'status', 'status_changed_at', 'deployment_id', 'deployable_id', 'deployable_url', 'environment', 'environment_tier', 'environment_slug',
  'environment_external_url', 'project', 'short_sha', 'user', 'user_url', 'commit_url', 'commit_title', 'ref',
].sort();

describe.skipIf(!isLocalRuntime())('deployment webhooks', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;
  let sha: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    project = await ownedProject('private');
    for (const [path, flags] of [['/deployments', { deployment_events: true, push_events: false }], ['/others', { pipeline_events: true, job_events: true }]] as const) {
      const response = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url(path), ...flags } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    sha = (await commit(project.id, project.owner.token, 'main', { '.gitlab-ci.yml': DEPLOY_CI }, { message: 'Ship the staging build\n\nWith notes.' })).id;
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('tells a deploy job\'s deployment running then success, and a deployment reported through the API, only to hooks with deployment_events', async () => {
    // Act: a runner takes the deploy job (its deployment runs) and reports its success
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    const job = await runner.pickNext();
    expect((await runner.update(job, 'success')).status).toBe(200);

    // Assess
    const told = await receiver.received('/deployments', (delivery) => delivery.body.deployable_id === job.id, 2);
    expect(told.map((delivery) => [delivery.event, delivery.body.status, delivery.body.environment_external_url])).toEqual([
      ['Deployment Hook', 'running', null],
      // Its success gave the environment the job's URL first.
      ['Deployment Hook', 'success', 'https://staging.example.com'],
    ]);
    const [deployment] = (await api(`/projects/${project.id}/deployments`, { token: project.owner.token })).body;
    const success = told[1].body;
    expect(Object.keys(success).sort()).toEqual(DEPLOYMENT_HOOK_FIELDS);
    expect(success).toEqual({
      object_kind: 'deployment',
      status: 'success',
      status_changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/),
      deployment_id: deployment.id,
      deployable_id: job.id,
      deployable_url: expect.stringMatching(new RegExp(`/${project.fullPath}/-/jobs/${job.id}$`)),
      environment: 'staging',
      environment_tier: 'staging',
      environment_slug: 'staging',
      environment_external_url: 'https://staging.example.com',
      project: expect.objectContaining({ id: project.id, path_with_namespace: project.fullPath, web_url: expect.stringMatching(new RegExp(`/${project.fullPath}$`)) }),
      short_sha: sha.slice(0, 8),
      user: { id: project.owner.id, name: expect.any(String), username: project.owner.username, avatar_url: null, email: '[REDACTED]' },
      user_url: expect.stringMatching(new RegExp(`^https?://[^/]+/${project.owner.username}$`)),
      commit_url: expect.stringMatching(new RegExp(`/${project.fullPath}/-/commit/${sha}$`)),
      commit_title: 'Ship the staging build',
      ref: 'main',
    });
    expect(Date.parse(told[0].body.status_changed_at.replace(' +0000', 'Z').replace(' ', 'T'))).toBeLessThanOrEqual(Date.parse(success.status_changed_at.replace(' +0000', 'Z').replace(' ', 'T')));

    // Act: a deployment tool reports a finished deployment
    const reported = await api(`/projects/${project.id}/deployments`, { token: project.owner.token, body: { environment: 'canary', sha, ref: 'main', tag: false, status: 'failed' } });
    expect(reported.status).toBe(201);

    // Assess: one hook, without a job
    const [byApi] = await receiver.received('/deployments', (delivery) => delivery.body.deployment_id === reported.body.id);
    expect(byApi?.body).toMatchObject({
      status: 'failed',
      deployable_id: null,
      deployable_url: null,
      environment: 'canary',
      environment_tier: 'other',
      environment_external_url: null,
      user: { id: project.owner.id },
      commit_title: 'Ship the staging build',
      ref: 'main',
    });
    // Each status told once; the created one (and a hook without deployment_events) told nothing.
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/deployments').map((delivery) => delivery.body.status)).toEqual(['running', 'success', 'failed']);
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/others' && delivery.event === 'Deployment Hook')).toEqual([]);
  });
});
