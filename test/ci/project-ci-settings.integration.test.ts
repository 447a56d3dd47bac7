/**
 * A project's CI/CD settings as CI honours them (GitLab's `ci_config_path`, `build_timeout`,
 * `ci_default_git_depth`, `build_git_strategy`): pipelines read the configured file (in the
 * repository, or `file@group/project` with the pipeline user's rights), and a runner's payload
 * carries the timeout, clone depth, fetch strategy and `CI_CONFIG_PATH` they give.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
const CONFIG = `
build:
  script: [echo build]
  rules:
    - if: $CI_CONFIG_PATH == "ci/main.yml"
capped:
  timeout: 3h
  variables: { GIT_DEPTH: "5" }
  script: [echo capped]
`;

async function configure(project: OwnedProject, settings: Record<string, unknown>) {
  const response = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: settings });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

const runPipeline = (project: OwnedProject) => api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main' } });

const variable = (job: any, key: string) => job.variables.find((v: any) => v.key === key)?.value;

describe('project CI/CD settings', () => {
  let project: OwnedProject;

  beforeAll(async () => {
    project = await ownedProject('private');
    await configure(project, { ci_config_path: 'ci/main.yml', build_timeout: 7200, ci_default_git_depth: 0, build_git_strategy: 'clone' });
    await pushNewRepository(project.fullPath, project.owner.token, { 'ci/main.yml': CONFIG, '.gitlab-ci.yml': 'ignored:\n  script: [exit 1]\n' });
  });

  it('a push reads ci_config_path; the runner gets its timeout, depth, strategy and CI_CONFIG_PATH', async () => {
    const pipelines = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token });
    const jobs = await api(`/projects/${project.id}/pipelines/${pipelines.body[0].id}/jobs`, { token: project.owner.token });
    expect(jobs.body.map((job: any) => job.name).sort()).toEqual(['build', 'capped']);

    const registration = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
    const runner = await TestRunner.register(registration, { maximum_timeout: 9000 });
    const picked = [await runner.pickNext(), await runner.pickNext()];
    const byName = Object.fromEntries(picked.map((job) => [job.job_info.name, job]));
    // The project's build_timeout; a depth of 0 is a full clone of every branch and tag; clone, not fetch.
    expect(byName.build).toMatchObject({
      allow_git_fetch: false,
      runner_info: { timeout: 7200 },
      git_info: { depth: 0, refspecs: ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'] },
      steps: [expect.objectContaining({ name: 'script', timeout: 7200 })],
    });
    expect(variable(byName.build, 'CI_CONFIG_PATH')).toBe('ci/main.yml');
    expect(variable(byName.build, 'GIT_DEPTH')).toBeUndefined();
    expect(variable(byName.build, 'GIT_STRATEGY')).toBeUndefined();
    // The job's timeout: (3 h) wins over the project's, the runner's maximum_timeout (2.5 h) caps it; its GIT_DEPTH wins.
    expect(byName.capped).toMatchObject({ runner_info: { timeout: 9000 }, git_info: { depth: 5, refspecs: ['+refs/heads/main:refs/remotes/origin/main'] } });
    // The full clone's refspecs fetch: the job runs.
    expect(await runner.run(byName.build)).toBe('success');
  });

  it('a missing file, another project’s file read with the user’s rights', async () => {
    await configure(project, { ci_config_path: 'ci/missing.yml' });
    expect(await runPipeline(project)).toMatchObject({ status: 400, body: { message: { base: ['Missing CI config file'] } } });

    const templates = await createProject(project.owner.token);
    await pushNewRepository(templates.fullPath, project.owner.token, { 'ci/shared.yml': 'shared:\n  script: [echo shared]\n' });
    await configure(project, { ci_config_path: `ci/shared.yml@${templates.fullPath}:main` });
    const created = await runPipeline(project);
    expect(created).toMatchObject({ status: 201, body: { status: 'pending', yaml_errors: null } });
    const jobs = await api(`/projects/${project.id}/pipelines/${created.body.id}/jobs`, { token: project.owner.token });
    expect(jobs.body.map((job: any) => job.name)).toEqual(['shared']);

    const hidden = await ownedProject('private');
    await configure(project, { ci_config_path: `ci.yml@${hidden.fullPath}` });
    expect(await runPipeline(project)).toMatchObject({
      status: 201,
      body: { status: 'failed', yaml_errors: `Project \`${hidden.fullPath.toLowerCase()}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.` },
    });
  });
});
