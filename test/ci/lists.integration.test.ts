/**
 * The CI lists filtered by status and ref over HTTP: `GET /projects/:id/jobs?scope[]=…` and
 * `GET /projects/:id/pipelines?status=|scope=|ref=` read the index partitions of those statuses
 * and refs (kept by the writes that change them), newest first, with GitLab's paging headers; a
 * merge request's head pipeline is its source branch's newest.
 *
 * The runner answers with its verdict without running the scripts: what matters is the statuses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { commit, mrs, openMergeRequest } from '../merge-requests/helpers';
import { TestRunner } from './runner';

/** One job of each outcome: `good` succeeds, `bad` fails, `gate` waits (manual), `later` is skipped after the failure. */
const CI = `
stages: [build, test]
good:
  stage: build
  script: [echo good]
bad:
  stage: build
  script: [exit 1]
gate:
  stage: build
  script: [echo gate]
  when: manual
later:
  stage: test
  script: [echo later]
`;

type Listed = { id: number; name?: string; status: string; ref?: string; pipeline?: { id: number } };

describe('CI lists by status and ref', () => {
  let project: OwnedProject;
  let runner: TestRunner;
  let token: string;
  /** Jobs of the first main pipeline, by name. */
  const jobs: Record<string, Listed> = {};
  let onMain: Listed;
  let onFeature: Listed;
  let featureJob: Listed;
  let pendingOnMain: Listed;

  const get = (path: string, query: Record<string, string | number | string[]> = {}) => api<Listed[]>(`/projects/${project.id}${path}`, { token, query });
  const ids = (list: Listed[]) => list.map((entry) => entry.id);

  /** Takes the pending jobs one by one, reporting `verdict(name)` for each, until none is left. */
  async function finishPendingJobs(verdict: (name: string) => 'success' | 'failed') {
    for (;;) {
      const { job } = await runner.requestJob();
      if (!job) return;
      const state = verdict(job.job_info.name);
      const response = await runner.update(job, state, state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : {});
      expect(response.status).toBe(200);
    }
  }

  beforeAll(async () => {
    project = await ownedProject('private');
    token = project.owner.token;
    runner = await TestRunner.register((await api(`/projects/${project.id}`, { token })).body.runners_token);

    await commit(project.id, token, 'main', { '.gitlab-ci.yml': CI });
    await finishPendingJobs((name) => (name === 'bad' ? 'failed' : 'success'));
    [onMain] = (await get('/pipelines')).body;
    for (const job of (await get(`/pipelines/${onMain.id}/jobs`)).body) jobs[job.name!] = job;

    await commit(project.id, token, 'feature', { '.gitlab-ci.yml': 'only:\n  script: [echo only]\n' }, { start: 'main', update: true });
    await finishPendingJobs(() => 'success');
    [onFeature] = (await get('/pipelines')).body;
    [featureJob] = (await get(`/pipelines/${onFeature.id}/jobs`)).body;

    pendingOnMain = (await api(`/projects/${project.id}/pipeline`, { method: 'POST', token, query: { ref: 'main' } })).body;
  });

  it('has the pipelines and jobs the lists are checked against', () => {
    expect(onMain).toMatchObject({ ref: 'main', status: 'failed' });
    expect(Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.status]))).toEqual({ good: 'success', bad: 'failed', gate: 'manual', later: 'skipped' });
    expect(onFeature).toMatchObject({ ref: 'feature', status: 'success' });
    expect(featureJob).toMatchObject({ name: 'only', status: 'success' });
    expect(pendingOnMain).toMatchObject({ ref: 'main', status: 'pending' });
  });

  it('lists the jobs of several scopes merged newest first, paged with their totals', async () => {
    // Prepare
    const expected = [featureJob.id, jobs.good.id, jobs.bad.id].sort((a, b) => b - a);
    const scope = ['failed', 'success'];

    // Act
    const first = await get('/jobs', { 'scope[]': scope, per_page: 2 });
    const second = await get('/jobs', { 'scope[]': scope, per_page: 2, page: 2 });

    // Assess
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(expected.slice(0, 2));
    expect(Object.fromEntries(['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page'].map((name) => [name, first.headers.get(name)]))).toEqual({
      'x-total': '3',
      'x-total-pages': '2',
      'x-page': '1',
      'x-next-page': '2',
      'x-prev-page': '',
    });
    expect(ids(second.body)).toEqual(expected.slice(2));
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
  });

  it('follows keyset cursors through a merged scope list', async () => {
    const expected = [featureJob.id, jobs.good.id, jobs.bad.id].sort((a, b) => b - a);
    const seen: number[] = [];
    let query: Record<string, string | number | string[]> = { 'scope[]': ['success', 'failed'], per_page: 2, pagination: 'keyset' };
    for (let pages = 0; pages < 3; pages++) {
      const page = await get('/jobs', query);
      expect(page.status).toBe(200);
      seen.push(...ids(page.body));
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '');
      if (!next) break;
      query = Object.fromEntries(new URL(next[1]).searchParams);
      query['scope[]'] = new URL(next[1]).searchParams.getAll('scope[]');
    }
    expect(seen).toEqual(expected);
  });

  it('lists one scope, a repeated one once, and moves a job to the list of its new status', async () => {
    const manual = (await get('/jobs', { 'scope[]': ['manual'] })).body;
    expect(manual.map((job) => [job.name, job.pipeline?.id])).toEqual([
      ['gate', pendingOnMain.id],
      ['gate', onMain.id],
    ]);
    expect(manual.at(-1)!.id).toBe(jobs.gate.id);
    expect(ids((await get('/jobs', { 'scope[]': ['skipped', 'skipped'] })).body)).toEqual([jobs.later.id]);
    const pending = (await get('/jobs', { scope: 'pending' })).body;
    expect(pending.map((job) => job.name).sort()).toEqual(['bad', 'good']);

    // A runner takes one pending job (claim: running), then reports it failed (update: failed).
    const { job } = await runner.requestJob();
    expect(ids((await get('/jobs', { scope: 'running' })).body)).toEqual([job.id]);
    expect(ids((await get('/jobs', { scope: 'pending' })).body)).not.toContain(job.id);
    await runner.update(job, 'failed', { failure_reason: 'script_failure', exit_code: 1 });
    expect((await get('/jobs', { scope: 'running' })).body).toEqual([]);
    expect(ids((await get('/jobs', { scope: 'failed' })).body)).toEqual([job.id, jobs.bad.id]);
  });

  it('lists pipelines by status, scope and ref, newest first', async () => {
    const list = async (query: Record<string, string | number>) => ids((await get('/pipelines', query)).body);
    expect(await list({ status: 'success' })).toEqual([onFeature.id]);
    expect(await list({ status: 'skipped' })).toEqual([]);
    expect(await list({ scope: 'finished' })).toEqual([onFeature.id, onMain.id]);
    expect(await list({ scope: 'running', status: 'failed' })).toEqual([]);
    // The last pipeline moved from pending to running when a runner took one of its jobs (above).
    expect(await list({ scope: 'running' })).toEqual([pendingOnMain.id]);
    expect(await list({ status: 'pending' })).toEqual([]);
    expect(await list({ ref: 'main' })).toEqual([pendingOnMain.id, onMain.id]);
    expect(await list({ ref: 'feature' })).toEqual([onFeature.id]);
    expect(await list({ ref: 'main', status: 'failed' })).toEqual([onMain.id]);
    expect(await list({ ref: 'mai' })).toEqual([]);
    expect(await list({ scope: 'branches', ref: 'feature' })).toEqual([onFeature.id]);
    expect(await list({ scope: 'tags', ref: 'feature' })).toEqual([]);
  });

  it('pages a merged pipeline scope with its totals', async () => {
    const first = await get('/pipelines', { scope: 'finished', per_page: 1 });
    expect(ids(first.body)).toEqual([onFeature.id]);
    expect([first.headers.get('x-total'), first.headers.get('x-next-page')]).toEqual(['2', '2']);
    const second = await get('/pipelines', { scope: 'finished', per_page: 1, page: 2 });
    expect(ids(second.body)).toEqual([onMain.id]);
    expect(second.headers.get('x-next-page')).toBe('');
  });

  it('shows the source branch’s newest pipeline as a merge request’s head pipeline, whatever ran on other refs since', async () => {
    const mr = await openMergeRequest(project.id, token, { source_branch: 'feature', title: 'Feature' });
    const single = await api(mrs(project.id, `/${mr.iid}`), { token });
    expect(single.body.head_pipeline).toMatchObject({ id: onFeature.id, ref: 'feature', status: 'success' });
  });
});
