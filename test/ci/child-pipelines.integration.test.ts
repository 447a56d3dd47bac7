/**
 * Child pipelines beyond the plain ones (downstream.integration.test.ts). Dynamic child pipelines (`trigger: include: - artifact: <file> job: <job>`): a job of the parent
 * generates a configuration and uploads it as an artifact; the trigger job's child pipeline runs
 * the jobs of that file, read from the archive, its own `local:` includes from the commit. An
 * include of a job that has no artifacts fails the trigger job, as GitLab's creation of a child
 * whose configuration is invalid. And a manual trigger job: played through the jobs API
 * (`POST /projects/:id/jobs/:job_id/play`, GitLab's processables), it starts its child.
 */
import { zipSync, strToU8 } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = `
stages: [build, trigger]
generate:
  stage: build
  script: [./generate > generated.yml]
  artifacts: { paths: [generated.yml] }
dynamic:
  stage: trigger
  needs: [generate]
  trigger:
    include: [{ artifact: generated.yml, job: generate }]
    strategy: depend
no-artifacts:
  stage: trigger
  allow_failure: true
  trigger:
    include: [{ artifact: generated.yml, job: dynamic }]
`;

const GENERATED = `
include: common.yml
generated-a: { extends: .common, script: [echo a] }
generated-b: { extends: .common, script: [echo b] }
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- job payloads are read field by field */
describe('include: artifact: in a child pipeline', () => {
  let project: OwnedProject;
  let runner: TestRunner;
  const get = (path: string) => api(`/projects/${project.id}${path}`, { token: project.owner.token });

  beforeAll(async () => {
    project = await ownedProject('private');
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI, 'common.yml': '.common:\n  variables: { FROM_COMMON: "yes" }\n' });
    runner = await TestRunner.register((await get('')).body.runners_token);
  });

  it('runs the jobs of the generated file; a job without artifacts fails its trigger job', async () => {
    const [parent] = (await get('/pipelines')).body;
    const generate = await runner.pickNext();
    expect(generate.job_info.name).toBe('generate');
    const form = new FormData();
    form.append('file', new Blob([zipSync({ 'generated.yml': strToU8(GENERATED) })]), 'artifacts.zip');
    const upload = await api(`/jobs/${generate.id}/artifacts`, { method: 'POST', headers: { 'JOB-TOKEN': generate.token }, form, query: { artifact_format: 'zip', artifact_type: 'archive' } });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    await runner.update(generate, 'success');

    const jobs = [await runner.pickNext(), await runner.pickNext()];
    expect(jobs.map((job) => job.job_info.name).sort()).toEqual(['generated-a', 'generated-b']);
    for (const job of jobs) expect(job.variables.find((v: any) => v.key === 'FROM_COMMON')?.value).toBe('yes');

    const bridges = Object.fromEntries((await get(`/pipelines/${parent.id}/bridges`)).body.map((bridge: any) => [bridge.name, bridge]));
    expect(bridges.dynamic).toMatchObject({ status: 'running', downstream_pipeline: { source: 'parent_pipeline', status: 'running' } });
    expect(bridges['no-artifacts']).toMatchObject({ status: 'failed', failure_reason: 'downstream_pipeline_creation_failed', downstream_pipeline: { status: 'failed' } });
    const failedChild = (await get(`/pipelines/${bridges['no-artifacts'].downstream_pipeline.id}`)).body;
    expect(failedChild.yaml_errors).toBe('Job `dynamic` not found in parent pipeline or does not have artifacts!');

    for (const job of jobs) await runner.update(job, 'success');
    expect((await get(`/pipelines/${parent.id}`)).body.status).toBe('success');
  });

  it('plays a manual trigger job through the jobs API, which starts its child with the include’s inputs; other job routes do not find it', async () => {
    const manual = await ownedProject('private');
    await pushNewRepository(manual.fullPath, manual.owner.token, {
      '.gitlab-ci.yml': 'build: { script: [make] }\ndeploy:\n  when: manual\n  trigger: { include: [{ local: child.yml, inputs: { env: prod } }] }\n',
      'child.yml': 'spec:\n  inputs:\n    env:\n---\nchild-$[[ inputs.env ]]: { script: [deploy] }\n',
    });
    const at = (path: string, method: 'GET' | 'POST' = 'GET') => api(`/projects/${manual.id}${path}`, { method, token: manual.owner.token });
    const [pipeline] = (await at('/pipelines')).body;
    const [bridge] = (await at(`/pipelines/${pipeline.id}/bridges`)).body;
    expect(bridge).toMatchObject({ name: 'deploy', status: 'manual', downstream_pipeline: null });
    expect((await at(`/jobs/${bridge.id}`)).status).toBe(404);

    const played = await at(`/jobs/${bridge.id}/play`, 'POST');
    expect(played.status, JSON.stringify(played.body)).toBe(200);
    expect(played.body).toMatchObject({ id: bridge.id, name: 'deploy', pipeline: { id: pipeline.id } });
    expect(played.body).not.toHaveProperty('artifacts');
    const [after] = (await at(`/pipelines/${pipeline.id}/bridges`)).body;
    expect(after).toMatchObject({ status: 'success', downstream_pipeline: { source: 'parent_pipeline' } });
    expect((await at(`/pipelines/${after.downstream_pipeline.id}/jobs`)).body.map((job: any) => job.name)).toEqual(['child-prod']);
    expect((await at(`/jobs/${bridge.id}/play`, 'POST')).body).toEqual({ message: '400 Bad request - Unplayable Job' });
  });
});
