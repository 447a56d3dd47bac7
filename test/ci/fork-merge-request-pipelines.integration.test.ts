/**
 * Merge request pipelines of a merge request from a fork (GitLab's "run pipelines in the parent
 * project"): opened or pushed by a contributor who has no rights in the target, they run in the
 * fork on its source branch, with the fork's variables, and are the merge request's head pipeline
 * and pipelines; `POST …/merge_requests/:iid/pipelines` by a member of the target runs the fork's
 * head in the target on `refs/merge-requests/<iid>/head` (fetched by a runner with git), 403 for
 * the contributor; each gets `CI_MERGE_REQUEST_SOURCE_PROJECT_*` (the fork) and
 * `CI_MERGE_REQUEST_PROJECT_*` (the target); the merge request ref's latest successful pipeline
 * (artifacts by ref) falls back to the older one when the latest is retried or deleted; "merge
 * when pipeline succeeds" waits for the fork's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = `
mr-job:
  script: ['echo "mr $CI_MERGE_REQUEST_IID in $CI_PROJECT_PATH from $CI_MERGE_REQUEST_SOURCE_PROJECT_PATH"', 'echo "$CI_PIPELINE_ID" > out.txt']
  artifacts:
    paths: [out.txt]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
plain:
  script: [echo plain]
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
const variablesOf = (job: any): Record<string, string> => Object.fromEntries(job.variables.map((v: any) => [v.key, v.value]));

/** Runs the runner's jobs, oldest first, until one that `is` has run (at most `max`). */
async function runUntil(runner: TestRunner, is: (job: any) => boolean, max = 6): Promise<{ job: any; state: string }> {
  for (let i = 0; i < max; i++) {
    const ran = await runner.runNext();
    if (!ran) break;
    if (is(ran.job)) return ran;
  }
  throw new Error('the job never came');
}

describe('merge request pipelines of a fork', () => {
  let upstream: OwnedProject;
  let contributor: TestUser;
  let fork: { id: number; path: string };
  let work: string;
  let forkRemote: string;
  let mr: any;
  let forkRunner: TestRunner;
  let targetRunner: TestRunner;
  let targetPipeline: number;
  const ref = () => `refs/merge-requests/${mr.iid}/head`;
  const mrPath = (suffix = '') => `/projects/${upstream.id}/merge_requests/${mr.iid}${suffix}`;
  const mrPipelinesOf = async (projectId: number, token: string): Promise<any[]> =>
    (await api(`/projects/${projectId}/pipelines`, { token, query: { source: 'merge_request_event' } })).body;

  beforeAll(async () => {
    upstream = await ownedProject('public');
    contributor = await createUser();
    work = await localRepository({ '.gitlab-ci.yml': CI, 'README.md': '# upstream\n' });
    await gitOk(['push', '-q', cloneUrl(upstream.fullPath, upstream.owner.token), 'main'], { cwd: work });
    const forked = await api(`/projects/${upstream.id}/fork`, { method: 'POST', token: contributor.token, body: { namespace: contributor.username } });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    fork = { id: forked.body.id, path: forked.body.path_with_namespace };
    // One variable, a value per project: each pipeline shows which project's it got.
    for (const [projectId, token, value] of [[upstream.id, upstream.owner.token, 'upstream'], [fork.id, contributor.token, 'fork']] as const) {
      expect((await api(`/projects/${projectId}/variables`, { method: 'POST', token, body: { key: 'WHERE', value } })).status).toBe(201);
    }
    forkRemote = cloneUrl(fork.path, contributor.token);
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: work });
    await commitFiles(work, { 'contrib.txt': 'one\n' }, 'Contribute');
    await gitOk(['push', '-q', forkRemote, 'feature'], { cwd: work });
    const opened = await api(`/projects/${fork.id}/merge_requests`, {
      method: 'POST',
      token: contributor.token,
      body: { source_branch: 'feature', target_branch: 'main', target_project_id: upstream.id, title: 'Contribution' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    mr = opened.body;
    forkRunner = await TestRunner.register((await api(`/projects/${fork.id}`, { token: contributor.token })).body.runners_token);
  });

  it('opening and pushing run them in the fork, as the merge request head pipeline and pipelines', async () => {
    // Opened: a merge request pipeline in the fork, on the source branch; none in the target.
    const [opened] = await mrPipelinesOf(fork.id, contributor.token);
    expect(opened).toMatchObject({ project_id: fork.id, ref: 'feature', sha: mr.sha, source: 'merge_request_event' });
    expect((await api(`/projects/${fork.id}/pipelines/${opened.id}/jobs`, { token: contributor.token })).body.map((j: any) => j.name)).toEqual(['mr-job']);
    expect(await mrPipelinesOf(upstream.id, upstream.owner.token)).toEqual([]);
    const single = await api(mrPath(), { token: upstream.owner.token });
    expect(single.body.head_pipeline).toMatchObject({ id: opened.id, project_id: fork.id, ref: 'feature', source: 'merge_request_event' });
    expect(single.body.pipeline.web_url).toContain(`/${fork.path}/-/pipelines/${opened.id}`);
    // Listed by the target's merge request, with the fork's URL (the source branch's pushes have no jobs).
    const listed = (await api(mrPath('/pipelines'), { token: upstream.owner.token })).body;
    expect(listed.map((p: any) => [p.id, p.project_id])).toEqual([[opened.id, fork.id]]);
    expect(listed[0].web_url).toContain(`/${fork.path}/`);

    // The fork's runner: the source branch, the fork's variables, both projects' merge request variables.
    const ran = await runUntil(forkRunner, (job) => job.job_info.name === 'mr-job');
    expect(ran.state).toBe('success');
    expect(ran.job.git_info).toMatchObject({ ref: 'feature', sha: mr.sha, refspecs: ['+refs/heads/feature:refs/remotes/origin/feature'] });
    const variables = variablesOf(ran.job);
    expect(variables).toMatchObject({
      WHERE: 'fork',
      CI_PROJECT_ID: String(fork.id),
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_COMMIT_REF_NAME: 'feature',
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_IID: String(mr.iid),
      CI_MERGE_REQUEST_REF_PATH: ref(),
      CI_MERGE_REQUEST_PROJECT_ID: String(upstream.id),
      CI_MERGE_REQUEST_PROJECT_PATH: upstream.fullPath,
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(fork.id),
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: fork.path,
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
    });
    expect(variables.CI_MERGE_REQUEST_PROJECT_URL).toMatch(new RegExp(`/${upstream.fullPath}$`));
    expect(variables.CI_MERGE_REQUEST_SOURCE_PROJECT_URL).toMatch(new RegExp(`/${fork.path}$`));
    expect(variables.CI_COMMIT_BRANCH).toBeUndefined();

    // A push to the source branch: another, at the new head, now the head pipeline.
    const next = await commitFiles(work, { 'contrib.txt': 'two\n' }, 'More');
    await gitOk(['push', '-q', forkRemote, 'feature'], { cwd: work });
    const [pushed] = await mrPipelinesOf(fork.id, contributor.token);
    expect(pushed).toMatchObject({ ref: 'feature', sha: next });
    expect(pushed.id).toBeGreaterThan(opened.id);
    expect((await api(mrPath(), { token: upstream.owner.token })).body.head_pipeline).toMatchObject({ id: pushed.id, sha: next });
  });

  it('POST …/pipelines by a member of the target runs the fork head in the target (403 for the contributor)', async () => {
    const head = (await api(mrPath(), { token: upstream.owner.token })).body.sha;
    expect(await api(mrPath('/pipelines'), { method: 'POST', token: contributor.token })).toMatchObject({ status: 403 });
    const posted = await api(mrPath('/pipelines'), { method: 'POST', token: upstream.owner.token });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body).toMatchObject({ project_id: upstream.id, ref: ref(), sha: head, source: 'merge_request_event', user: { id: upstream.owner.id } });
    expect(posted.body.web_url).toContain(`/${upstream.fullPath}/-/pipelines/`);
    // The target lists it under the merge request's ref; the merge request shows it, with the fork's.
    const byRef = (await api(`/projects/${upstream.id}/pipelines`, { token: upstream.owner.token, query: { ref: ref() } })).body;
    expect(byRef.map((p: any) => p.id)).toEqual([posted.body.id]);
    expect((await api(mrPath(), { token: upstream.owner.token })).body.head_pipeline).toMatchObject({ id: posted.body.id, project_id: upstream.id });
    const listed = (await api(mrPath('/pipelines'), { token: upstream.owner.token })).body;
    expect(listed[0]).toMatchObject({ id: posted.body.id, project_id: upstream.id });
    expect(listed[0].web_url).toContain(`/${upstream.fullPath}/`);
    expect(listed.filter((p: any) => p.project_id === fork.id && p.source === 'merge_request_event')).toHaveLength(2);

    // The target's runner fetches the merge request's head ref (the fork's commits are in the target) with the target's variables.
    targetRunner = await TestRunner.register((await api(`/projects/${upstream.id}`, { token: upstream.owner.token })).body.runners_token);
    const ran = await runUntil(targetRunner, (job) => job.job_info.name === 'mr-job');
    targetPipeline = posted.body.id;
    expect(ran.state).toBe('success');
    expect(ran.job.git_info).toMatchObject({ ref: ref(), sha: head, refspecs: [`+${ref()}:${ref()}`] });
    expect(variablesOf(ran.job)).toMatchObject({
      WHERE: 'upstream',
      CI_PROJECT_ID: String(upstream.id),
      CI_COMMIT_REF_NAME: 'feature',
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_PROJECT_ID: String(upstream.id),
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(fork.id),
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: fork.path,
    });
    const trace = await api(`/projects/${upstream.id}/jobs/${ran.job.id}/trace`, { token: upstream.owner.token });
    expect(String(trace.body)).toContain(`mr ${mr.iid} in ${upstream.fullPath} from ${fork.path}`);
  });

  it("the merge request ref's latest successful pipeline falls back to the older one when it is retried or deleted", async () => {
    const byRef = async () => {
      const raw = await api(`/projects/${upstream.id}/jobs/artifacts/${encodeURIComponent(ref())}/raw/out.txt`, { token: upstream.owner.token, query: { job: 'mr-job' } });
      expect(raw.status).toBe(200);
      return Number(String(raw.body).trim());
    };
    expect(await byRef()).toBe(targetPipeline);
    const posted = await api(mrPath('/pipelines'), { method: 'POST', token: upstream.owner.token });
    const first = await runUntil(targetRunner, (job) => job.job_info.name === 'mr-job');
    expect(first.state).toBe('success');
    expect(await byRef()).toBe(posted.body.id);
    // Retried, the newer one is no longer successful: the older one's artifacts again.
    expect((await api(`/projects/${upstream.id}/jobs/${first.job.id}/retry`, { method: 'POST', token: upstream.owner.token })).status).toBe(201);
    expect(await byRef()).toBe(targetPipeline);
    expect((await runUntil(targetRunner, (job) => job.job_info.name === 'mr-job')).state).toBe('success');
    expect(await byRef()).toBe(posted.body.id);
    // Deleted: the older one again.
    expect((await api(`/projects/${upstream.id}/pipelines/${posted.body.id}`, { method: 'DELETE', token: upstream.owner.token })).status).toBe(204);
    expect(await byRef()).toBe(targetPipeline);
  });

  it('merge when pipeline succeeds waits for the fork pipeline, and merges when it succeeds', async () => {
    const last = await commitFiles(work, { 'contrib.txt': 'three\n' }, 'Last');
    await gitOk(['push', '-q', forkRemote, 'feature'], { cwd: work });
    const accepted = await api(mrPath('/merge'), { method: 'PUT', token: upstream.owner.token, body: { merge_when_pipeline_succeeds: true } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, head_pipeline: { project_id: fork.id, sha: last, status: 'pending' } });

    const ran = await runUntil(forkRunner, (job) => job.job_info.name === 'mr-job' && job.git_info.sha === last);
    expect(ran.state).toBe('success');
    const merged = await api(mrPath(), { token: upstream.owner.token });
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { id: upstream.owner.id }, head_pipeline: { id: accepted.body.head_pipeline.id, status: 'success' } });
  });
});
