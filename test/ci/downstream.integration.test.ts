/**
 * Parent-child pipelines (GitLab's trigger jobs, `trigger:include`): a trigger job is never handed
 * to a runner; it creates a child pipeline of the same project, ref and commit (source
 * `parent_pipeline`) and succeeds at once, or with `strategy: depend` takes the child's final
 * status. `…/pipelines/:pipeline_id/bridges` lists trigger jobs with their downstream pipelines;
 * child pipelines are in no pipelines list; canceling the parent cancels its children.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, ownedProject, type OwnedProject, type TestProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = (downstreamProject: string, ownPath: string) => `
variables: { GLOBAL_VAR: from-parent }
stages: [build, trigger, after]
build: { stage: build, script: echo build }
child-depend:
  stage: trigger
  variables: { BRIDGE_VAR: bridged }
  trigger:
    include: child.yml
    strategy: depend
child-plain:
  stage: trigger
  variables: { BRIDGE_VAR: not-forwarded }
  trigger:
    include: [{ local: child.yml }]
    forward: { yaml_variables: false }
child-refused:
  stage: trigger
  trigger: { include: refused.yml }
  allow_failure: true
after: { stage: after, script: echo after }
multi:
  stage: build
  rules: [{ if: '$MULTI == "1"' }]
  variables: { FROM_UPSTREAM: hello }
  trigger: { project: ${downstreamProject}, strategy: depend }
multi-missing:
  stage: build
  rules: [{ if: '$MULTI == "2"' }]
  trigger: { project: no-such-group/no-such-project }
multi-loop:
  stage: build
  rules: [{ if: '$MULTI == "2"' }]
  trigger: { project: ${ownPath} }
`;
const CHILD = `
child-job:
  script: echo "$BRIDGE_VAR"
  rules:
    - if: $CI_PIPELINE_SOURCE == "parent_pipeline"
`;
const REFUSED = `
workflow: { rules: [{ when: never }] }
never: { script: echo }
`;

describe('parent-child pipelines', () => {
  let project: OwnedProject;
  let downstreamProject: TestProject;
  let runner: TestRunner;
  const get = (path: string, query?: Record<string, string>) => api(`/projects/${project.id}${path}`, { token: project.owner.token, query });
  const variable = (job: { variables: Array<{ key: string; value: string }> }, key: string) => job.variables.find((v) => v.key === key)?.value;

  beforeAll(async () => {
    project = await ownedProject('private');
    downstreamProject = await createProject(project.owner.token);
    await pushNewRepository(downstreamProject.fullPath, project.owner.token, { '.gitlab-ci.yml': 'downstream-job: { script: echo }\n' });
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI(downstreamProject.fullPath, project.fullPath), 'child.yml': CHILD, 'refused.yml': REFUSED });
    runner = await TestRunner.register((await get('')).body.runners_token);
  });

  it('runs trigger jobs as child pipelines: forwarded variables, depend, bridges API, hidden children', async () => {
    const [parent] = (await get('/pipelines')).body;
    const build = await runner.pickNext();
    expect(build.job_info.name).toBe('build');
    // Reports racing each other process the parent more than once: each trigger job still starts one child.
    await Promise.all([runner.update(build, 'success'), runner.update(build, 'success'), runner.update(build, 'success')]);

    // Two children, each with one job for runners; the trigger jobs themselves are never handed out.
    const first = await runner.pickNext();
    const second = await runner.pickNext();
    const pipelineOf = (job: { variables: Array<{ key: string; value: string }> }) => Number(variable(job, 'CI_PIPELINE_ID'));
    const children = [first, second].sort((a, b) => pipelineOf(a) - pipelineOf(b));
    expect((await runner.requestJob()).job).toBeFalsy();
    expect(children.map((job) => job.job_info.name)).toEqual(['child-job', 'child-job']);
    for (const job of children) {
      expect(variable(job, 'CI_PIPELINE_SOURCE')).toBe('parent_pipeline');
      expect(job.git_info).toMatchObject({ sha: build.git_info.sha, ref: 'main' });
    }
    expect(children.map((job) => variable(job, 'BRIDGE_VAR'))).toEqual(['bridged', undefined]);
    expect(variable(children[0], 'GLOBAL_VAR')).toBe('from-parent');

    const bridges = await get(`/pipelines/${parent.id}/bridges`);
    expect(bridges.status).toBe(200);
    const byName = Object.fromEntries(bridges.body.map((bridge: { name: string }) => [bridge.name, bridge]));
    expect(byName['child-depend']).toMatchObject({
      status: 'running',
      stage: 'trigger',
      pipeline: { id: parent.id },
      downstream_pipeline: { id: pipelineOf(children[0]), source: 'parent_pipeline', sha: build.git_info.sha, ref: 'main', status: 'running' },
    });
    expect(byName['child-plain']).toMatchObject({ status: 'success', downstream_pipeline: { id: pipelineOf(children[1]) } });
    expect(byName['child-plain']).not.toHaveProperty('failure_reason');
    expect(byName['child-refused']).toMatchObject({ status: 'failed', failure_reason: 'downstream_pipeline_creation_failed', downstream_pipeline: null });
    expect((await get(`/pipelines/${parent.id}/bridges`, { scope: 'success' })).body.map((bridge: { name: string }) => bridge.name)).toEqual(['child-plain']);
    const paged = await get(`/pipelines/${parent.id}/bridges`, { per_page: '1', page: '2' });
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-total')).toBe('3');
    // Builds only in the jobs API; children in no pipelines list.
    expect((await get(`/pipelines/${parent.id}/jobs`)).body.map((job: { name: string }) => job.name)).toEqual(['build', 'after']);
    expect((await get('/pipelines')).body.map((pipeline: { id: number }) => pipeline.id)).toEqual([parent.id]);
    expect((await get('/pipelines', { source: 'parent_pipeline' })).body).toEqual([]);
    expect((await get(`/pipelines/${pipelineOf(children[0])}`)).body).toMatchObject({ source: 'parent_pipeline', status: 'running' });

    // The depend trigger job follows its child; the parent moves on when it succeeds.
    await runner.update(children[1], 'success');
    await runner.update(children[0], 'success');
    const after = await runner.pickNext();
    expect(after.job_info.name).toBe('after');
    await runner.update(after, 'success');
    expect((await get(`/pipelines/${parent.id}`)).body.status).toBe('success');
    expect((await get(`/pipelines/${parent.id}/bridges`, { scope: 'success' })).body.map((bridge: { name: string }) => bridge.name)).toEqual(['child-depend', 'child-plain']);
  });

  it('cancels the children with their parent; a retry starts new children', async () => {
    const created = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main' } });
    const build = await runner.pickNext();
    await runner.update(build, 'success');
    const bridges = (await get(`/pipelines/${created.body.id}/bridges`)).body;
    const childIds = bridges.flatMap((bridge: { downstream_pipeline: { id: number } | null }) => (bridge.downstream_pipeline ? [bridge.downstream_pipeline.id] : []));
    expect(childIds).toHaveLength(2);
    const canceled = await api(`/projects/${project.id}/pipelines/${created.body.id}/cancel`, { method: 'POST', token: project.owner.token });
    expect(canceled.body.status).toBe('canceled');
    for (const id of childIds) expect((await get(`/pipelines/${id}`)).body.status).toBe('canceled');
    // No child job is left for a runner.
    expect((await runner.requestJob()).job).toBeFalsy();

    const retried = await api(`/projects/${project.id}/pipelines/${created.body.id}/retry`, { method: 'POST', token: project.owner.token });
    expect(retried.status).toBe(201);
    const again = (await get(`/pipelines/${created.body.id}/bridges`)).body;
    const newIds = again.flatMap((bridge: { downstream_pipeline: { id: number } | null }) => (bridge.downstream_pipeline ? [bridge.downstream_pipeline.id] : []));
    // The canceled depend trigger job is retried (a new child); the one that succeeded keeps its child, as GitLab's retry leaves successful jobs.
    expect(newIds).toHaveLength(2);
    expect(newIds.filter((id: number) => !childIds.includes(id))).toHaveLength(1);
    expect((await runner.pickNext()).job_info.name).toBe('child-job');
    // Its children go with a deleted parent (nothing else lists them).
    expect((await api(`/projects/${project.id}/pipelines/${created.body.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    for (const id of newIds) expect((await get(`/pipelines/${id}`)).status).toBe(404);
  });

  it('triggers a multi-project pipeline (trigger:project) and follows it with strategy: depend', async () => {
    const token = project.owner.token;
    const [before] = (await api(`/projects/${downstreamProject.id}/pipelines`, { token })).body;
    const upstream = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token, body: { ref: 'main', variables: [{ key: 'MULTI', value: '1' }] } });
    const [multi] = (await get(`/pipelines/${upstream.body.id}/bridges`)).body.filter((bridge: { name: string }) => bridge.name === 'multi');
    expect(multi).toMatchObject({ status: 'running', downstream_pipeline: { project_id: downstreamProject.id, source: 'pipeline', ref: 'main', status: 'pending' } });
    // Listed in its project, as any pipeline, with the forwarded variables as its own.
    const [listed] = (await api(`/projects/${downstreamProject.id}/pipelines`, { token })).body;
    expect(listed.id).toBe(multi.downstream_pipeline.id);
    expect(listed.id).not.toBe(before.id);
    const variables = (await api(`/projects/${downstreamProject.id}/pipelines/${listed.id}/variables`, { token })).body;
    expect(variables).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'FROM_UPSTREAM', value: 'hello' })]));
    await api(`/projects/${downstreamProject.id}/pipelines/${listed.id}/cancel`, { method: 'POST', token });
    const [followed] = (await get(`/pipelines/${upstream.body.id}/bridges`)).body.filter((bridge: { name: string }) => bridge.name === 'multi');
    expect(followed.status).toBe('canceled');
  });

  it('fails a multi-project trigger job whose project is not there, or that triggers its own ref again', async () => {
    const upstream = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main', variables: [{ key: 'MULTI', value: '2' }] } });
    const bridges = (await get(`/pipelines/${upstream.body.id}/bridges`)).body as Array<{ name: string }>;
    const byName = Object.fromEntries(bridges.map((bridge) => [bridge.name, bridge]));
    expect(byName['multi-missing']).toMatchObject({ status: 'failed', failure_reason: 'downstream_bridge_project_not_found', downstream_pipeline: null });
    expect(byName['multi-loop']).toMatchObject({ status: 'failed', failure_reason: 'pipeline_loop_detected', downstream_pipeline: null });
  });
});
