/**
 * CI end to end: a push with a `.gitlab-ci.yml` creates a pipeline; a runner speaking the runner
 * protocol (test/ci/runner.ts) registers with the project's runners token, runs the jobs stage by
 * stage with live traces and artifacts; the Pipelines and Jobs APIs show them.
 */
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { patchTrace, TestRunner } from './runner';

const CI = `
stages: [build, test]
build:
  stage: build
  script:
    - mkdir -p out && echo built > out/result.txt
    - echo building
  artifacts:
    paths: [out/]
    expire_in: 1 week
test:
  stage: test
  script: [cat out/result.txt, echo "tested $CI_JOB_NAME"]
deploy:
  stage: test
  script: echo deploy
  when: manual
`;

async function pipelinesOf(project: OwnedProject) {
  return (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token })).body as Array<{ id: number; status: string; ref: string }>;
}

async function jobsOf(project: OwnedProject, pipelineId: number) {
  return (await api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token })).body as Array<{ id: number; name: string; status: string }>;
}

async function push(project: OwnedProject, files: Record<string, string>, branch = 'main'): Promise<string> {
  const work = await localRepository(files);
  if (branch !== 'main') await gitOk(['checkout', '-q', '-b', branch], { cwd: work });
  await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), branch], { cwd: work });
  return work;
}

async function registrationToken(project: OwnedProject): Promise<string> {
  return (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
}

describe('pipelines from .gitlab-ci.yml, run by a runner', () => {
  let project: OwnedProject;
  let runner: TestRunner;

  beforeAll(async () => {
    project = await ownedProject('private');
    await push(project, { '.gitlab-ci.yml': CI, 'README.md': '# ci\n' });
    runner = await TestRunner.register(await registrationToken(project));
  });

  it('creates a pipeline on push with the first stage pending', async () => {
    const [pipeline] = await pipelinesOf(project);
    expect(pipeline).toMatchObject({ ref: 'main', status: 'pending' });
    const jobs = await jobsOf(project, pipeline.id);
    expect(Object.fromEntries(jobs.map((job) => [job.name, job.status]))).toEqual({ build: 'pending', test: 'created', deploy: 'created' });
    // Ids follow the stages, then the file's order (GitLab's numbering), one after another.
    const byId = [...jobs].sort((a, b) => a.id - b.id);
    expect(byId.map((job) => job.name)).toEqual(['build', 'test', 'deploy']);
    expect(byId.map((job) => job.id - byId[0].id)).toEqual([0, 1, 2]);
    const single = await api(`/projects/${project.id}/pipelines/${pipeline.id}`, { token: project.owner.token });
    expect(single.body).toMatchObject({ id: pipeline.id, sha: expect.stringMatching(/^[0-9a-f]{40}$/), yaml_errors: null, source: 'push' });
  });

  it('runs the stages in order with traces and artifacts; manual jobs wait', async () => {
    const first = await runner.runNext();
    expect(first).toMatchObject({ job: { job_info: { name: 'build' } }, state: 'success' });
    expect(first!.job.git_info).toMatchObject({ ref: 'main', repo_url: expect.stringContaining('gitlab-ci-token:') });
    expect(first!.job.variables).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'CI_COMMIT_BRANCH', value: 'main' })]));
    const second = await runner.runNext();
    expect(second).toMatchObject({ job: { job_info: { name: 'test' } }, state: 'success' });
    expect(second!.job.dependencies).toEqual([expect.objectContaining({ name: 'build', artifacts_file: expect.objectContaining({ filename: 'artifacts.zip' }) })]);

    const [pipeline] = await pipelinesOf(project);
    expect(pipeline.status).toBe('success');
    const jobs = await jobsOf(project, pipeline.id);
    expect(Object.fromEntries(jobs.map((job) => [job.name, job.status]))).toEqual({ build: 'success', test: 'success', deploy: 'manual' });

    const build = jobs.find((job) => job.name === 'build')!;
    const trace = await api(`/projects/${project.id}/jobs/${build.id}/trace`, { token: project.owner.token });
    expect(trace.status).toBe(200);
    expect(trace.body).toContain('$ echo building\nbuilding\n');
    const artifacts = await fetch(`${baseUrl()}/api/v4/projects/${project.id}/jobs/${build.id}/artifacts`, { headers: { 'PRIVATE-TOKEN': project.owner.token } });
    expect(artifacts.status).toBe(200);
    expect(Buffer.from(unzipSync(new Uint8Array(await artifacts.arrayBuffer()))['out/result.txt']).toString()).toBe('built\n');
    const byRef = await api(`/projects/${project.id}/jobs/artifacts/main/download`, { token: project.owner.token, query: { job: 'build' } });
    expect(byRef.status).toBe(200);
  });

  it('plays a manual job; refuses to play others; retries; erases; keeps', async () => {
    const [pipeline] = await pipelinesOf(project);
    const jobs = await jobsOf(project, pipeline.id);
    const deploy = jobs.find((job) => job.name === 'deploy')!;
    const build = jobs.find((job) => job.name === 'build')!;
    const refused = await api(`/projects/${project.id}/jobs/${build.id}/play`, { method: 'POST', token: project.owner.token });
    expect(refused).toMatchObject({ status: 400, body: { message: '400 Bad request - Unplayable Job' } });
    const played = await api(`/projects/${project.id}/jobs/${deploy.id}/play`, { method: 'POST', token: project.owner.token });
    expect(played).toMatchObject({ status: 200, body: { id: deploy.id, status: 'started', finished_at: null } });
    expect(played.body.pipeline).toBeUndefined();
    expect((await api(`/projects/${project.id}/jobs/${deploy.id}`, { token: project.owner.token })).body.status).toBe('pending');
    expect((await runner.runNext())?.state).toBe('success');
    // Retrying the manual job that ran queues its copy at once: it is not a manual action again.
    const rerun = await api(`/projects/${project.id}/jobs/${deploy.id}/retry`, { method: 'POST', token: project.owner.token });
    expect(rerun).toMatchObject({ status: 201, body: { name: 'deploy', status: 'pending' } });
    expect((await runner.runNext())?.state).toBe('success');

    const kept = await api(`/projects/${project.id}/jobs/${build.id}/artifacts/keep`, { method: 'POST', token: project.owner.token });
    expect(kept).toMatchObject({ status: 200, body: { id: build.id, download_url: null, artifacts_expire_at: null } });

    const retried = await api(`/projects/${project.id}/jobs/${build.id}/retry`, { method: 'POST', token: project.owner.token });
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ name: 'build', status: 'pending' });
    expect(retried.body.id).not.toBe(build.id);
    expect((await runner.runNext())?.state).toBe('success');

    const erased = await api(`/projects/${project.id}/jobs/${build.id}/erase`, { method: 'POST', token: project.owner.token });
    expect(erased).toMatchObject({ status: 201, body: { id: build.id, download_url: null } });
    expect((await api(`/projects/${project.id}/jobs/${build.id}/trace`, { token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/${build.id}/artifacts`, { token: project.owner.token })).status).toBe(404);
  });

  it('lists jobs by scope; an unknown scope is a 400; non-members of a private project get 404', async () => {
    const success = await api(`/projects/${project.id}/jobs`, { token: project.owner.token, query: { 'scope[]': ['success'] } });
    expect(success.status).toBe(200);
    expect(success.body.length).toBeGreaterThan(0);
    expect(success.body.every((job: { status: string }) => job.status === 'success')).toBe(true);
    expect((await api(`/projects/${project.id}/jobs`, { token: project.owner.token, query: { scope: 'bogus' } })).status).toBe(400);
    const stranger = await createUser();
    expect((await api(`/projects/${project.id}/jobs`, { token: stranger.token })).status).toBe(404);
  });

  it('a failing job fails the pipeline; the next stage is skipped', async () => {
    const work = await push(project, { '.gitlab-ci.yml': 'a:\n  stage: build\n  script: exit 3\nb:\n  stage: test\n  script: echo never\n' }, 'failing');
    void work;
    const pipeline = (await pipelinesOf(project)).find((p) => p.ref === 'failing')!;
    expect((await runner.runNext())?.state).toBe('failed');
    const after = await api(`/projects/${project.id}/pipelines/${pipeline.id}`, { token: project.owner.token });
    expect(after.body.status).toBe('failed');
    const jobs = await jobsOf(project, pipeline.id);
    expect(Object.fromEntries(jobs.map((job) => [job.name, job.status]))).toEqual({ a: 'failed', b: 'skipped' });
  });

  it('an invalid file gives a failed pipeline with the yaml error; POST /pipeline with a bad ref is a 400', async () => {
    const work = await push(project, { '.gitlab-ci.yml': 'build: [unclosed\n' }, 'broken');
    void work;
    const pipeline = (await pipelinesOf(project)).find((p) => p.ref === 'broken')!;
    const single = await api(`/projects/${project.id}/pipelines/${pipeline.id}`, { token: project.owner.token });
    expect(single.body).toMatchObject({ status: 'failed', yaml_errors: expect.stringMatching(/^\(<unknown>\): /) });
    expect((await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, query: { ref: 'nope' } })).status).toBe(400);
  });

  it('cancels a running job; the runner is told to stop (403 with Job-Status: canceled)', async () => {
    const created = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, query: { ref: 'main' } });
    expect(created.status).toBe(201);
    const { job } = await runner.requestJob();
    expect(job.job_info.name).toBe('build');
    expect((await patchTrace(job, 0, 'first\n')).status).toBe(202);
    const gap = await patchTrace(job, 100, 'gap\n');
    expect(gap).toMatchObject({ status: 416, range: '0-6' });
    const canceled = await api(`/projects/${project.id}/jobs/${job.id}/cancel`, { method: 'POST', token: project.owner.token });
    expect(canceled).toMatchObject({ status: 201, body: { status: 'canceled' } });
    expect(await patchTrace(job, 6, 'more\n')).toMatchObject({ status: 403, jobStatus: 'canceled' });
    const pipeline = await api(`/projects/${project.id}/pipelines/${created.body.id}`, { token: project.owner.token });
    expect(pipeline.body.status).toBe('canceled');
  });

  it('hands each job to exactly one of several runners polling at once', async () => {
    const many = Array.from({ length: 12 }, (_, i) => `j${i}:\n  script: echo ${i}\n`).join('');
    const concurrent = await ownedProject('private');
    await push(concurrent, { '.gitlab-ci.yml': many });
    const token = await registrationToken(concurrent);
    const runners = await Promise.all(Array.from({ length: 5 }, () => TestRunner.register(token)));
    const taken: number[] = [];
    await Promise.all(
      runners.map(async (r) => {
        for (let idle = 0; idle < 3; ) {
          const { job } = await r.requestJob();
          if (!job) {
            idle++;
            continue;
          }
          taken.push(job.id);
          await r.update(job, 'success');
        }
      }),
    );
    expect(taken).toHaveLength(12);
    expect(new Set(taken).size).toBe(12);
  });
});

describe('a public project’s pipelines', () => {
  it('are read by anyone (public jobs); their variables answer 403 to everyone but maintainers and the user who ran them, as GitLab’s pipelines API authenticates writes only', async () => {
    // Arrange
    const project = await ownedProject('public');
    await push(project, { '.gitlab-ci.yml': 'build:\n  script: [echo public]\n' });
    const stranger = await createUser();
    const [pipeline] = await pipelinesOf(project);

    // Act
    const listed = await api(`/projects/${project.id}/pipelines`);
    const anonymous = await api(`/projects/${project.id}/pipelines/${pipeline.id}/variables`);
    const asStranger = await api(`/projects/${project.id}/pipelines/${pipeline.id}/variables`, { token: stranger.token });
    const asOwner = await api(`/projects/${project.id}/pipelines/${pipeline.id}/variables`, { token: project.owner.token });
    const anonymousWrite = await api(`/projects/${project.id}/pipelines/${pipeline.id}/retry`, { method: 'POST' });

    // Assert
    expect(listed.status).toBe(200);
    expect(listed.body.map((listedPipeline: { id: number }) => listedPipeline.id)).toEqual([pipeline.id]);
    expect(anonymous).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(asStranger.status).toBe(403);
    expect(asOwner).toMatchObject({ status: 200, body: [] });
    expect(anonymousWrite.status).toBe(401);
  });
});

describe('a protected branch’s pipelines', () => {
  it('are run, retried, canceled and played only by those who may push or merge to it; a developer keeps them on other branches', async () => {
    // Arrange: the first push protects the default branch for maintainers (GitLab's default branch protection).
    const project = await ownedProject('private');
    const developer = await newMember(project, 30);
    await push(project, { '.gitlab-ci.yml': 'build:\n  script: [echo]\ndeploy:\n  script: [echo]\n  when: manual\n' });
    await push(project, { '.gitlab-ci.yml': 'build:\n  script: [echo]\n' }, 'feature');
    const pipelines = await pipelinesOf(project);
    const onMain = pipelines.find((pipeline) => pipeline.ref === 'main')!;
    const onFeature = pipelines.find((pipeline) => pipeline.ref === 'feature')!;
    const deploy = (await jobsOf(project, onMain.id)).find((job) => job.name === 'deploy')!;
    const asDeveloper = { token: developer.token, method: 'POST' } as const;

    // Act
    const run = await api(`/projects/${project.id}/pipeline`, { ...asDeveloper, body: { ref: 'main' } });
    const runFeature = await api(`/projects/${project.id}/pipeline`, { ...asDeveloper, body: { ref: 'feature' } });
    const retry = await api(`/projects/${project.id}/pipelines/${onMain.id}/retry`, asDeveloper);
    const cancel = await api(`/projects/${project.id}/pipelines/${onMain.id}/cancel`, asDeveloper);
    const play = await api(`/projects/${project.id}/jobs/${deploy.id}/play`, asDeveloper);
    const cancelFeature = await api(`/projects/${project.id}/pipelines/${onFeature.id}/cancel`, asDeveloper);
    const playAsOwner = await api(`/projects/${project.id}/jobs/${deploy.id}/play`, { token: project.owner.token, method: 'POST' });

    // Assert
    expect(run).toMatchObject({
      status: 400,
      body: { message: { base: ["You do not have sufficient permission to run a pipeline on 'main'. Please select a different branch or contact your administrator for assistance."] } },
    });
    expect(runFeature.status).toBe(201);
    expect(retry.status).toBe(403);
    expect(cancel.status).toBe(403);
    expect(play.status).toBe(403);
    expect((await pipelinesOf(project)).find((pipeline) => pipeline.id === onMain.id)?.status).not.toBe('canceled');
    expect(cancelFeature).toMatchObject({ status: 201, body: { status: 'canceled' } });
    expect(playAsOwner).toMatchObject({ status: 200, body: { name: 'deploy', status: 'started' } });
  });
});
