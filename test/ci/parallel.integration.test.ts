/**
 * `parallel:` through a pipeline: the expanded jobs are queued side by side, each handed to a
 * runner with its place (`CI_NODE_INDEX`, `CI_NODE_TOTAL`, and a matrix job's variables), and a
 * job that `needs:` the parallel job waits for every one of them.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject } from '../support/fixtures';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = `
stages: [build, test]
build:
  stage: build
  parallel: 2
  script: make
lint:
  stage: build
  parallel:
    matrix:
      - NODE: ["20", "22"]
  script: lint
test:
  stage: test
  needs: [build]
  script: test
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- runner and API bodies are read field by field */
const variable = (job: any, key: string) => job.variables.filter((v: any) => v.key === key).map((v: any) => v.value);

describe('a parallel job', () => {
  it('runs as N jobs, each told its index, and what needs it waits for all of them', async () => {
    // Prepare
    const project = await ownedProject('private');
    const runnersToken = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
    const runner = await TestRunner.register(runnersToken);
    const work = await localRepository({ '.gitlab-ci.yml': CI });
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main:refs/heads/parallel'], { cwd: work });
    const jobs = (await api(`/projects/${project.id}/jobs`, { token: project.owner.token })).body as any[];
    expect(jobs.map((job) => [job.name, job.status]).sort()).toEqual([
      ['build 1/2', 'pending'],
      ['build 2/2', 'pending'],
      ['lint: [20]', 'pending'],
      ['lint: [22]', 'pending'],
      ['test', 'created'],
    ]);

    // Act: the runner takes the four jobs of the first stage.
    const taken: any[] = [];
    for (let i = 0; i < 4; i++) taken.push((await runner.requestJob()).job);
    const byName = new Map(taken.map((job) => [job.job_info.name, job]));

    // Assess: each knows its place, once (a predefined variable, not repeated).
    expect(variable(byName.get('build 2/2'), 'CI_NODE_INDEX')).toEqual(['2']);
    expect(variable(byName.get('build 2/2'), 'CI_NODE_TOTAL')).toEqual(['2']);
    expect(variable(byName.get('lint: [22]'), 'NODE')).toEqual(['22']);
    expect(variable(byName.get('lint: [22]'), 'CI_NODE_INDEX')).toEqual(['2']);
    // `test` waits for both builds (it needs `build`), not for lint.
    await runner.update(byName.get('build 1/2'), 'success');
    expect((await runner.requestJob()).job).toBeUndefined();
    await runner.update(byName.get('build 2/2'), 'success');
    const test = (await runner.requestJob()).job;
    expect(test).toMatchObject({ job_info: { name: 'test' } });
    expect(variable(test, 'CI_NODE_TOTAL')).toEqual(['1']);
    expect(variable(test, 'CI_NODE_INDEX')).toEqual([]);
  });
});
