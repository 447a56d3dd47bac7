/**
 * `include:` end to end: a pushed `.gitlab-ci.yml` that includes a file of its own repository
 * (read at the pushed commit) and a file of another project its pusher may read gets their jobs;
 * an include that cannot be resolved fails the pipeline with GitLab's error in `yaml_errors`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository, pushNewRepository } from '../support/git';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
async function latestPipeline(project: OwnedProject): Promise<any> {
  const list = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token });
  expect(list.status).toBe(200);
  const single = await api(`/projects/${project.id}/pipelines/${list.body[0].id}`, { token: project.owner.token });
  return single.body;
}

async function jobsOf(project: OwnedProject, pipelineId: number): Promise<Array<{ name: string; stage: string }>> {
  const jobs = await api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token });
  return jobs.body.map((job: any) => ({ name: job.name, stage: job.stage })).sort((a: any, b: any) => a.name.localeCompare(b.name));
}

describe('include: in .gitlab-ci.yml', () => {
  let project: OwnedProject;
  let shared: OwnedProject;
  let work: string;
  let remote: string;

  beforeAll(async () => {
    [project, shared] = await Promise.all([ownedProject('private'), ownedProject('private')]);
    // The shared project's templates, readable by the first project's owner as a reporter.
    await pushNewRepository(shared.fullPath, shared.owner.token, {
      'templates/lint.yml': 'lint:\n  stage: test\n  script: [echo lint]\n',
      // A CI/CD component, released as v1.0.0: `include: component:` reads it at the tag.
      'templates/scan/template.yml': 'spec:\n  inputs:\n    target:\n---\nscan-$[[ inputs.target ]]:\n  stage: test\n  script: [echo scan]\n',
    });
    expect((await api(`/projects/${shared.id}/repository/tags`, { method: 'POST', token: shared.owner.token, body: { tag_name: 'v1.0.0', ref: 'main' } })).status).toBe(201);
    await addMember('projects', shared.id, project.owner.id, 20);
    remote = cloneUrl(project.fullPath, project.owner.token);
    work = await localRepository({
      '.gitlab-ci.yml': `include:
  - local: ci/build.yml
  - project: ${shared.fullPath}
    file: templates/lint.yml
test:
  extends: .base
  script: [echo test]
`,
      'ci/build.yml': 'stages: [build, test]\n.base:\n  tags: []\nbuild:\n  stage: build\n  script: [echo build]\n',
    });
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
  });

  it('the pipeline has the jobs of the included files', async () => {
    const pipeline = await latestPipeline(project);
    expect(pipeline).toMatchObject({ ref: 'main', yaml_errors: null, status: 'pending' });
    expect(await jobsOf(project, pipeline.id)).toEqual([
      { name: 'build', stage: 'build' },
      { name: 'lint', stage: 'test' },
      { name: 'test', stage: 'test' },
    ]);
  });

  it('a CI/CD component of another project, addressed by $CI_SERVER_FQDN at a tag, adds its jobs; one at ~latest fails the pipeline', async () => {
    const component = `$CI_SERVER_FQDN/${shared.fullPath}/scan`;
    await commitFiles(work, { '.gitlab-ci.yml': `include:\n  - component: ${component}@v1.0.0\n    inputs:\n      target: api\ntest:\n  script: [echo test]\n` }, 'component include');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    const pipeline = await latestPipeline(project);
    expect(pipeline).toMatchObject({ yaml_errors: null, status: 'pending' });
    expect(await jobsOf(project, pipeline.id)).toEqual([
      { name: 'scan-api', stage: 'test' },
      { name: 'test', stage: 'test' },
    ]);

    await commitFiles(work, { '.gitlab-ci.yml': `include:\n  - component: ${component}@~latest\ntest:\n  script: [echo test]\n` }, 'latest component');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    const failed = await latestPipeline(project);
    // The server's FQDN as it names itself (its external URL), which `$CI_SERVER_FQDN` holds.
    const fqdn = new URL((await api(`/projects/${shared.id}`, { token: shared.owner.token })).body.web_url).host;
    expect(failed).toMatchObject({
      status: 'failed',
      yaml_errors: `Component '${fqdn}/${shared.fullPath}/scan@~latest' - The ~latest version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.`,
    });
  });

  it('a missing local include gives a failed pipeline with the error', async () => {
    await commitFiles(work, { '.gitlab-ci.yml': 'include: ci/missing.yml\ntest:\n  script: [echo test]\n' }, 'missing include');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    const pipeline = await latestPipeline(project);
    expect(pipeline).toMatchObject({ status: 'failed', yaml_errors: 'Local file `ci/missing.yml` does not exist!' });
    expect(await jobsOf(project, pipeline.id)).toEqual([]);
  });

  it('a project the pusher may not read is not found', async () => {
    const hidden = await ownedProject('private');
    await commitFiles(work, { '.gitlab-ci.yml': `include:\n  project: ${hidden.fullPath}\n  file: ci.yml\ntest:\n  script: [echo test]\n` }, 'hidden include');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    const pipeline = await latestPipeline(project);
    expect(pipeline).toMatchObject({
      status: 'failed',
      yaml_errors: `Project \`${hidden.fullPath.toLowerCase()}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`,
    });
  });
});
