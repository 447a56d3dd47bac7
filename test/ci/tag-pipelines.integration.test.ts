/**
 * Tag pipelines, as GitLab's `Git::TagPushService` creates them: a pushed tag whose commit has a
 * `.gitlab-ci.yml` gets a pipeline on the tag (ref = the tag's name, `tag: true`, source `push`,
 * on the commit an annotated tag points at), its jobs selected for a tag (`rules: if:
 * $CI_COMMIT_TAG`, `except: [tags]`) and run with `CI_COMMIT_TAG`; by `git push` and by the Tags
 * API alike. A deleted tag, or a tag on a commit without the file, gets none.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = `
build:
  script: [echo "branch build"]
  except: [tags]
release:
  script: ['echo "releasing $CI_COMMIT_TAG on \${CI_COMMIT_BRANCH:-no branch}"']
  rules:
    - if: $CI_COMMIT_TAG
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
async function pipelinesOf(project: OwnedProject): Promise<any[]> {
  const response = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token });
  expect(response.status).toBe(200);
  return response.body;
}

async function jobNames(project: OwnedProject, pipelineId: number): Promise<string[]> {
  return (await api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token })).body.map((job: any) => job.name).sort();
}

describe('pipelines for tags', () => {
  let project: OwnedProject;
  let remote: string;
  let work: string;
  let head: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    remote = cloneUrl(project.fullPath, project.owner.token);
    work = await localRepository({ '.gitlab-ci.yml': CI, 'README.md': '# tags\n' });
    head = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
  });

  it('a branch push gets its branch pipeline only', async () => {
    const pipelines = await pipelinesOf(project);
    expect(pipelines.map((p) => ({ ref: p.ref, source: p.source }))).toEqual([{ ref: 'main', source: 'push' }]);
    expect(await jobNames(project, pipelines[0].id)).toEqual(['build']);
  });

  it('`git push origin v1.0` creates a tag pipeline that the runner runs with CI_COMMIT_TAG', async () => {
    await gitOk(['tag', 'v1.0'], { cwd: work });
    await gitOk(['push', '-q', remote, 'v1.0'], { cwd: work });

    const [pipeline] = await pipelinesOf(project);
    expect(pipeline).toMatchObject({ ref: 'v1.0', sha: head, source: 'push', status: 'pending' });
    const single = await api(`/projects/${project.id}/pipelines/${pipeline.id}`, { token: project.owner.token });
    expect(single.body).toMatchObject({ ref: 'v1.0', tag: true, sha: head, before_sha: '0'.repeat(40), yaml_errors: null });
    expect(await jobNames(project, pipeline.id)).toEqual(['release']);
    const tagsScope = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token, query: { scope: 'tags' } });
    expect(tagsScope.body.map((p: any) => p.id)).toEqual([pipeline.id]);

    const token = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
    const runner = await TestRunner.register(token);
    // The branch pipeline's job is older: the runner takes it first.
    const branchJob = await runner.runNext();
    expect(branchJob?.job.git_info).toMatchObject({ ref: 'main', ref_type: 'branch' });
    const ran = await runner.runNext();
    expect(ran?.state).toBe('success');
    const job = ran!.job;
    expect(job.git_info).toMatchObject({ ref: 'v1.0', sha: head, ref_type: 'tag', refspecs: ['+refs/tags/v1.0:refs/tags/v1.0'] });
    const variables = Object.fromEntries(job.variables.map((v: any) => [v.key, v.value]));
    expect(variables).toMatchObject({ CI_COMMIT_TAG: 'v1.0', CI_COMMIT_REF_NAME: 'v1.0', CI_COMMIT_SHA: head });
    expect(variables.CI_COMMIT_BRANCH).toBeUndefined();
    const trace = await api(`/projects/${project.id}/jobs/${job.id}/trace`, { token: project.owner.token });
    expect(String(trace.body)).toContain('releasing v1.0 on no branch');
    expect((await api(`/projects/${project.id}/jobs/${job.id}`, { token: project.owner.token })).body).toMatchObject({ ref: 'v1.0', tag: true, status: 'success' });
  });

  it('an annotated tag’s pipeline runs on the commit it points at', async () => {
    await gitOk(['tag', '-a', 'v1.1', '-m', 'Release 1.1'], { cwd: work });
    const tagObject = (await gitOk(['rev-parse', 'v1.1'], { cwd: work })).trim();
    expect(tagObject).not.toBe(head);
    await gitOk(['push', '-q', remote, 'v1.1'], { cwd: work });
    const [pipeline] = await pipelinesOf(project);
    expect(pipeline).toMatchObject({ ref: 'v1.1', sha: head, source: 'push' });
  });

  it('deleting a tag creates no pipeline', async () => {
    const before = (await pipelinesOf(project)).length;
    await gitOk(['push', '-q', remote, ':refs/tags/v1.0'], { cwd: work });
    expect((await api(`/projects/${project.id}/repository/tags/v1.0`, { token: project.owner.token })).status).toBe(404);
    expect((await pipelinesOf(project)).length).toBe(before);
  });

  it('a tag created through the Tags API gets a pipeline too; deleting it there creates none', async () => {
    const created = await api(`/projects/${project.id}/repository/tags`, { method: 'POST', token: project.owner.token, body: { tag_name: 'v2.0', ref: 'main' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [pipeline] = await pipelinesOf(project);
    expect(pipeline).toMatchObject({ ref: 'v2.0', sha: head, source: 'push' });
    expect((await api(`/projects/${project.id}/pipelines/${pipeline.id}`, { token: project.owner.token })).body.tag).toBe(true);
    expect(await jobNames(project, pipeline.id)).toEqual(['release']);

    const count = (await pipelinesOf(project)).length;
    expect((await api(`/projects/${project.id}/repository/tags/v2.0`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    expect((await pipelinesOf(project)).length).toBe(count);
  });

  it('a tag on a commit without .gitlab-ci.yml gets no pipeline', async () => {
    const plain = await ownedProject('private');
    const plainWork = await localRepository({ 'README.md': '# no ci\n' });
    await gitOk(['tag', 'v0.1'], { cwd: plainWork });
    await gitOk(['push', '-q', cloneUrl(plain.fullPath, plain.owner.token), 'main', 'v0.1'], { cwd: plainWork });
    expect((await api(`/projects/${plain.id}/repository/tags/v0.1`, { token: plain.owner.token })).status).toBe(200);
    expect(await pipelinesOf(plain)).toEqual([]);
  });
});
