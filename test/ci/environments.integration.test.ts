/**
 * Environments and deployments, as CI makes them and as users and deployment tools drive them
 * through GitLab's Environments and Deployments APIs (python-gitlab's `project.environments`,
 * `project.deployments`): a job with `environment:` creates its environment and a deployment that
 * follows the job; a successful one gives the environment its URL and last deployment; stopping
 * runs the `on_stop` job, whose success stops it; deleting needs it stopped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { indexStoppingEnvironments, settleDueEnvironment, stopStaleEnvironments } from '../../shared/ci/commands/environments';
import { CI_SCHEDULE_SHARDS, ciKeys } from '../../shared/ci/store/keys';
import { dueEnvironments, getEnvironment, saveEnvironment } from '../../shared/ci/store/environments';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { api, isLocalRuntime } from '../support/api';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository, pushNewRepository } from '../support/git';
import { commit, openMergeRequest } from '../merge-requests/helpers';
import { patchTrace, TestRunner } from './runner';

const CI = `
stages: [deploy, cleanup]
deploy_review:
  stage: deploy
  script: [echo deploy]
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.review.example.com
    on_stop: stop_review
    auto_stop_in: 1 week
deploy_prod:
  stage: deploy
  script: [echo deploy]
  environment: production
  allow_failure: true
stop_review:
  stage: cleanup
  script: [echo stop]
  when: manual
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    action: stop
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
describe('environments and deployments', () => {
  let project: OwnedProject;
  let head: string;
  let runner: TestRunner;
  let reporter: TestUser;
  const get = (path: string, query?: Record<string, string>, token = project.owner.token) => api(`/projects/${project.id}${path}`, { token, query });
  const send = (method: 'POST' | 'PUT' | 'DELETE', path: string, body: Record<string, unknown> = {}, token = project.owner.token) => api(`/projects/${project.id}${path}`, { method, token, body });
  const environmentNamed = async (name: string) => (await get('/environments', { name })).body[0];

  beforeAll(async () => {
    project = await ownedProject('private');
    const work = await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI });
    head = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    runner = await TestRunner.register((await get('')).body.runners_token);
    reporter = await newMember(project, 20);
  });

  it('a deploy job creates its environment and a deployment that follows the job', async () => {
    const environments = (await get('/environments')).body;
    expect(environments.map((e: any) => [e.name, e.tier, e.state, e.external_url, e.project.id])).toEqual([
      ['review/main', 'development', 'available', null, project.id],
      ['production', 'production', 'available', null, project.id],
    ]);
    expect(environments[0].slug).toMatch(/^review-main-[a-z0-9]{6}$/);
    // The manual stop job has an environment but no deployment: it does not start one.
    const created = (await get('/deployments')).body;
    expect(created.map((d: any) => [d.environment.name, d.deployable.name, d.status, d.ref, d.sha, d.user.id])).toEqual([
      ['review/main', 'deploy_review', 'created', 'main', head, project.owner.id],
      ['production', 'deploy_prod', 'created', 'main', head, project.owner.id],
    ]);
    expect(created[0].iid).toBe(created[1].iid - 1);

    const first = await runner.pickNext();
    const second = await runner.pickNext();
    const [review, prod] = first.job_info.name === 'deploy_review' ? [first, second] : [second, first];
    const tierOf = (job: any) => job.variables.find((v: any) => v.key === 'CI_ENVIRONMENT_TIER')?.value;
    expect([tierOf(review), tierOf(prod)]).toEqual(['development', 'production']);
    expect((await get('/deployments', { status: 'running' })).body).toHaveLength(2);

    expect((await runner.update(review, 'success')).status).toBe(200);
    expect((await runner.update(prod, 'failed', { failure_reason: 'script_failure' })).status).toBe(200);

    const reviewEnvironment = await get(`/environments/${environments[0].id}`);
    expect(reviewEnvironment.body).toMatchObject({ name: 'review/main', external_url: 'https://main.review.example.com', state: 'available' });
    expect(reviewEnvironment.body.project).toBeUndefined();
    expect(reviewEnvironment.body.last_deployment).toMatchObject({ id: created[0].id, status: 'success', deployable: { id: review.id, status: 'success', pipeline: { sha: head } } });
    expect(reviewEnvironment.body.last_deployment.environment).toBeUndefined();
    const stopIn = Date.parse(reviewEnvironment.body.auto_stop_at) - Date.now();
    expect(stopIn).toBeGreaterThan(6.9 * 86_400_000);
    expect(stopIn).toBeLessThan(7.1 * 86_400_000);
    expect((await get(`/environments/${environments[1].id}`)).body.last_deployment).toBeNull();

    // GitLab's filters and orders, each read from its own index.
    const ids = async (query: Record<string, string>) => (await get('/deployments', query)).body.map((d: any) => d.id);
    expect(await ids({ status: 'success' })).toEqual([created[0].id]);
    expect(await ids({ environment: 'production' })).toEqual([created[1].id]);
    expect(await ids({ environment: 'production', status: 'success' })).toEqual([]);
    expect(await ids({ environment: 'nowhere' })).toEqual([]);
    expect(await ids({ order_by: 'updated_at', sort: 'desc' })).toHaveLength(2);
    expect(await ids({ updated_after: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await ids({ order_by: 'finished_at', status: 'success', finished_after: '2020-01-01T00:00:00Z' })).toEqual([created[0].id]);
    expect(await ids({ sort: 'desc' })).toEqual([created[1].id, created[0].id]);
    const unpaired = await get('/deployments', { finished_after: '2020-01-01T00:00:00Z', order_by: 'finished_at' });
    expect(unpaired).toMatchObject({ status: 400, body: { message: '400 Bad request - `finished_at` filter must be combined with `success` status filter.' } });
    expect((await get(`/deployments/${created[0].id}`)).body).toMatchObject({ id: created[0].id, status: 'success', environment: { name: 'review/main' } });

    // A deployment made by CI is not the API's to change; the environment's last one stays.
    const edit = await send('PUT', `/deployments/${created[1].id}`, { status: 'success' });
    expect(edit).toMatchObject({ status: 403, body: { message: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API' } });
    expect((await send('DELETE', `/deployments/${created[0].id}`)).body).toEqual({ message: 'Deployment currently deployed to environment' });
    expect((await send('DELETE', `/deployments/${created[1].id}`)).status).toBe(204);
    expect((await get(`/deployments/${created[1].id}`)).status).toBe(404);
  });

  it('stopping an environment plays its on_stop job, whose success stops it; only then can it be deleted', async () => {
    const environment = await environmentNamed('review/main');
    expect((await send('DELETE', `/environments/${environment.id}`)).status).toBe(403);
    // A reporter may read, but stopping needs a developer: GitLab answers the environment unchanged.
    expect((await send('POST', `/environments/${environment.id}/stop`, {}, reporter.token)).body.state).toBe('available');

    const stopping = await send('POST', `/environments/${environment.id}/stop`);
    expect(stopping).toMatchObject({ status: 200, body: { state: 'stopping', project: { id: project.id } } });
    // A stop job that fails leaves the environment available again (GitLab's `recover_stuck_stopping`); run again, it stops it.
    const failing = await runner.pickNext();
    expect(failing.job_info.name).toBe('stop_review');
    expect(failing.variables.find((v: any) => v.key === 'CI_ENVIRONMENT_ACTION').value).toBe('stop');
    await runner.update(failing, 'failed', { failure_reason: 'script_failure' });
    expect((await environmentNamed('review/main')).state).toBe('available');
    // A retried manual job is queued at once (GitLab's `set_enqueue_immediately!`), not played again.
    const again = await send('POST', `/jobs/${failing.id}/retry`);
    expect(again.body).toMatchObject({ name: 'stop_review', status: 'pending' });
    const stopJob = await runner.pickNext();
    await runner.update(stopJob, 'success');
    expect((await environmentNamed('review/main')).state).toBe('stopped');
    expect((await get('/environments', { states: 'stopped' })).body.map((e: any) => e.name)).toEqual(['review/main']);
    expect((await get('/environments', { states: 'available' })).body.map((e: any) => e.name)).toEqual(['production']);

    expect((await send('DELETE', `/environments/${environment.id}`)).status).toBe(204);
    expect((await get(`/environments/${environment.id}`)).body).toEqual({ message: '404 Not found' });
    expect((await get('/deployments', { status: 'success' })).body).toEqual([]);
  });

  // The scheduler's step, called in the test process at a clock past `auto_stop_at` (as the sweep tests do): only on the local runtime.
  it.skipIf(!isLocalRuntime())('stops an environment once its auto_stop_in passed, unless it waits for a stop action it lacks', async () => {
    const other = await ownedProject('private');
    const ci =
      ['temp', 'kept'].map((name) => `deploy_${name}:\n  script: [echo]\n  environment: { name: ${name}, auto_stop_in: 1 day${name === 'temp' ? ', on_stop: stop_temp' : ''} }\n`).join('') +
      'stop_temp:\n  stage: test\n  script: [echo]\n  when: manual\n  environment: { name: temp, action: stop }\n';
    await pushNewRepository(other.fullPath, other.owner.token, { '.gitlab-ci.yml': ci });
    const own = await TestRunner.register((await api(`/projects/${other.id}`, { token: other.owner.token })).body.runners_token);
    for (let i = 0; i < 2; i++) await own.update(await own.pickNext(), 'success');
    const listed = (await api(`/projects/${other.id}/environments`, { token: other.owner.token })).body;
    const [temp, kept] = ['temp', 'kept'].map((name) => listed.find((e: any) => e.name === name));
    expect(Date.parse(temp.auto_stop_at)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    await api(`/projects/${other.id}/environments/${kept.id}`, { method: 'PUT', token: other.owner.token, body: { auto_stop_setting: 'with_action' } });

    const now = new Date(Date.now() + 2 * 86_400_000);
    const due = async (id: number) => (await dueEnvironments(id % CI_SCHEDULE_SHARDS, now.toISOString(), 10_000)).find((found) => found.environment.id === id);
    expect(await due(temp.id)).toBeDefined();
    expect(await settleDueEnvironment((await due(temp.id))!, now)).toBe('stopped');
    expect(await settleDueEnvironment((await due(kept.id))!, now)).toBe('kept');
    const after = (await api(`/projects/${other.id}/environments`, { token: other.owner.token })).body;
    expect(after.map((e: any) => [e.name, e.state])).toEqual([
      ['temp', 'stopping'],
      ['kept', 'available'],
    ]);
    expect(after[1].auto_stop_at).toBeNull();
    // `kept` is not due any more (its auto-stop cleared); `temp` waits for its stop job, which is canceled: stuck stopping.
    expect(await due(kept.id)).toBeUndefined();
    const stopJob = (await api(`/projects/${other.id}/jobs`, { token: other.owner.token, query: { scope: 'pending' } })).body[0];
    expect(stopJob.name).toBe('stop_temp');
    await api(`/projects/${other.id}/jobs/${stopJob.id}/cancel`, { method: 'POST', token: other.owner.token });
    expect(await due(temp.id)).toBeUndefined();
    // A week on, an environment stuck stopping whose stop jobs all finished is available again (GitLab's `AutoRecoverWorker`).
    const weekOn = new Date(Date.now() + 8 * 86_400_000);
    const stuck = (await dueEnvironments(temp.id % CI_SCHEDULE_SHARDS, weekOn.toISOString(), 10_000)).find((found) => found.environment.id === temp.id);
    expect(await settleDueEnvironment(stuck!, weekOn)).toBe('recovered');
    expect((await api(`/projects/${other.id}/environments/${temp.id}`, { token: other.owner.token })).body.state).toBe('available');
  });

  it('schedules stopped review apps for deletion (the scheduler deletes them a week later) and stops stale environments', async () => {
    const ids: Record<string, number> = {};
    for (const name of ['review/app-1', 'review/app-2', 'other/app-3']) {
      ids[name] = (await send('POST', '/environments', { name })).body.id;
      expect((await send('POST', `/environments/${ids[name]}/stop`, { force: true })).body.state).toBe('stopped');
    }
    const soon = new Date(Date.now() + 60_000).toISOString();
    const reviewApps = (query: string, token = project.owner.token) => api(`/projects/${project.id}/environments/review_apps?${query}`, { method: 'DELETE', token });
    const dryRun = await reviewApps(`before=${soon}`);
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.scheduled_entries.map((e: any) => e.name)).toEqual(['review/app-1', 'review/app-2']);
    expect(dryRun.body.unprocessable_entries).toEqual([]);
    expect((await reviewApps(`before=${soon}`, reporter.token)).body).toEqual({ scheduled_entries: [], unprocessable_entries: [], message: 'You do not have permission to destroy environments in this project' });
    expect((await reviewApps('limit=0')).body).toEqual({ error: 'limit does not have a valid value' });
    expect((await reviewApps(`before=${soon}&dry_run=false&limit=1`)).body.scheduled_entries.map((e: any) => e.name)).toEqual(['review/app-1']);
    expect((await reviewApps(`before=${soon}&dry_run=false`)).body.scheduled_entries.map((e: any) => e.name)).toEqual(['review/app-2']);
    expect((await reviewApps(`before=${soon}&dry_run=false`)).status).toBe(400);
    expect((await get(`/environments/${ids['review/app-1']}`)).status).toBe(200);

    expect((await send('POST', '/environments/stop_stale', { before: new Date().toISOString() })).body).toEqual({ message: '400 Bad request - Invalid Date' });
    const weekAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    expect((await send('POST', '/environments/stop_stale', { before: weekAgo }, reporter.token)).status).toBe(403);
    expect((await send('POST', '/environments/stop_stale', { before: weekAgo })).body).toEqual({ message: 'Successfully requested stop for all stale environments' });
    expect((await environmentNamed('production')).state).toBe('available');

    if (!isLocalRuntime()) return;
    // The scheduler's steps, in the test process at a later clock (as the sweep tests do).
    const later = new Date(Date.now() + 8 * 86_400_000);
    const settle = async (id: number, now: Date) => {
      const found = (await dueEnvironments(id % CI_SCHEDULE_SHARDS, now.toISOString(), 10_000)).find((entry) => entry.environment.id === id);
      return found ? settleDueEnvironment(found, now) : 'not listed';
    };
    expect(await settle(ids['review/app-1'], later)).toBe('deleted');
    expect((await get(`/environments/${ids['review/app-1']}`)).status).toBe(404);
    expect(await settle(ids['other/app-3'], later)).toBe('not listed');
    // Stale: everything available and untouched since `before` (here, a moment from now) is due to stop at once.
    const production = await environmentNamed('production');
    await stopStaleEnvironments(project.id, new Date(Date.now() + 1000).toISOString());
    expect(await settle(production.id, new Date(Date.now() + 5000))).toBe('stopped');
    expect((await environmentNamed('production')).state).toBe('stopped');
  });

  it.runIf(isLocalRuntime())('recovers an environment left stopping before the due index once the migration gave it its entry', async () => {
    const id = (await send('POST', '/environments', { name: 'legacy-stopping' })).body.id;
    const environment = (await getEnvironment(project.id, id))!;
    expect(await saveEnvironment(environment, { ...environment, state: 'stopping', updatedAt: new Date(Date.now() - 8 * 86_400_000).toISOString() })).toBe(true);
    // As an item written before the scheduler's due index: no entry in it.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: ciKeys.environment(project.id, id), UpdateExpression: 'REMOVE GSI3PK, GSI3SK' }));
    const due = async () => (await dueEnvironments(id % CI_SCHEDULE_SHARDS, new Date().toISOString(), 10_000)).find((entry) => entry.environment.id === id);
    expect(await due()).toBeUndefined();
    expect(await indexStoppingEnvironments(project.id)).toBeGreaterThanOrEqual(1);
    expect(await settleDueEnvironment((await due())!, new Date())).toBe('recovered');
    expect((await get(`/environments/${id}`)).body.state).toBe('available');
  });

  // Three pipelines, four deploy runs and git pushes: longer than most tests under load.
  it('prevents outdated deployment jobs: dropped when queued or when a newer one starts running; a finished one may be retried to roll back', async () => {
    const other = await ownedProject('private');
    const at = (path: string, query?: Record<string, string>) => api(`/projects/${other.id}${path}`, { token: other.owner.token, query });
    const post = (path: string, body: Record<string, unknown> = {}) => api(`/projects/${other.id}${path}`, { method: 'POST', token: other.owner.token, body });
    const ci = 'stages: [build, deploy]\nbuild:\n  stage: build\n  script: [echo]\ndeploy:\n  stage: deploy\n  script: [echo]\n  environment: production\n';
    // Both pipelines of `main` run here: the newer one must not auto-cancel the older.
    expect((await api(`/projects/${other.id}`, { method: 'PUT', token: other.owner.token, body: { auto_cancel_pending_pipelines: 'disabled' } })).status).toBe(200);
    const work = await pushNewRepository(other.fullPath, other.owner.token, { '.gitlab-ci.yml': ci });
    const push = async (n: number) => {
      await commitFiles(work, { [`file-${n}.txt`]: `${n}\n` }, `change ${n}`);
      await gitOk(['push', '-q', cloneUrl(other.fullPath, other.owner.token), 'HEAD:main'], { cwd: work });
      return (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    };
    const shaB = await push(1);
    const [p2, p1] = (await at('/pipelines')).body;
    const own = await TestRunner.register((await at('')).body.runners_token);
    const deployOf = async (pipeline: { id: number }) => (await at(`/pipelines/${pipeline.id}/jobs`)).body.find((job: any) => job.name === 'deploy');

    // A deployment tool reports commit B deployed: pipeline 1's deploy job (commit A) is older, pipeline 2's deploys the same commit.
    expect((await post('/deployments', { environment: 'production', sha: shaB, ref: 'main', tag: false, status: 'success' })).status).toBe(201);
    for (let i = 0; i < 2; i++) await own.update(await own.pickNext(), 'success');
    expect(await deployOf(p1)).toMatchObject({ status: 'failed', failure_reason: 'failed_outdated_deployment_job' });
    expect((await at(`/pipelines/${p1.id}`)).body.status).toBe('failed');
    expect((await deployOf(p2)).status).toBe('pending');

    // Pipeline 3's deploy starts running while pipeline 2's (older) runs: pipeline 2's is dropped.
    await push(2);
    const [p3] = (await at('/pipelines')).body;
    const older = await own.pickNext();
    expect((await patchTrace(older, 0, 'deploying B\n')).status).toBe(202);
    await own.update(await own.pickNext(), 'success');
    const newer = await own.pickNext();
    expect([older.id, newer.id]).toEqual([(await deployOf(p2)).id, (await deployOf(p3)).id]);
    // Ended as a runner's failure ends a job: finished, its token revoked, its trace archived and readable.
    expect(await deployOf(p2)).toMatchObject({ status: 'failed', failure_reason: 'forward_deployment_failure', finished_at: expect.any(String) });
    const trace = await at(`/jobs/${older.id}/trace`);
    expect([trace.status, trace.body]).toEqual([200, 'deploying B\n']);
    expect((await api('/job', { headers: { 'JOB-TOKEN': older.token } })).status).toBe(401);
    expect((await own.update(older, 'success')).status).not.toBe(200);
    await own.update(newer, 'success');
    const deployments = async () => (await at('/deployments', { environment: 'production' })).body.map((d: any) => [d.sha.slice(0, 8), d.status]);
    expect((await deployments()).map(([, status]: string[]) => status)).toEqual(['failed', 'failed', 'success', 'success']);

    // Rolling back: the finished deploy job of pipeline 2 may be retried, and deploys anew (a newer deployment).
    const retried = await post(`/jobs/${(await deployOf(p2)).id}/retry`);
    expect(retried.status).toBe(201);
    await own.update(await own.pickNext(), 'success');
    const production = (await at('/environments', { name: 'production' })).body[0];
    expect((await at(`/environments/${production.id}`)).body.last_deployment).toMatchObject({ sha: shaB, status: 'success', deployable: { id: retried.body.id } });
  }, 60_000);

  it('refuses to play or cancel an outdated deployment job (403); without ci_forward_deployment_enabled an older deploy job runs', async () => {
    const other = await ownedProject('private');
    const at = (path: string) => api(`/projects/${other.id}${path}`, { token: other.owner.token });
    const post = (path: string, body: Record<string, unknown> = {}) => api(`/projects/${other.id}${path}`, { method: 'POST', token: other.owner.token, body });
    const work = await pushNewRepository(other.fullPath, other.owner.token, { '.gitlab-ci.yml': 'deploy:\n  script: [echo]\n  when: manual\n  environment: production\n' });
    await commitFiles(work, { 'b.txt': 'b\n' }, 'b');
    await gitOk(['push', '-q', cloneUrl(other.fullPath, other.owner.token), 'HEAD:main'], { cwd: work });
    const [p2, p1] = (await at('/pipelines')).body;
    const deployOf = async (pipeline: { id: number }) => (await at(`/pipelines/${pipeline.id}/jobs`)).body[0];
    const own = await TestRunner.register((await at('')).body.runners_token);
    expect((await post(`/jobs/${(await deployOf(p2)).id}/play`)).status).toBe(200);
    await own.update(await own.pickNext(), 'success');

    // Pipeline 1's manual deploy (an older commit) is outdated: GitLab's `DeployablePolicy` withholds play and cancel.
    const outdated = await deployOf(p1);
    expect(outdated.status).toBe('manual');
    for (const action of ['play', 'cancel']) expect(await post(`/jobs/${outdated.id}/${action}`)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await deployOf(p1)).status).toBe('manual');

    // Without the setting, the older deploy job plays and runs, and nothing newer drops it.
    expect((await api(`/projects/${other.id}`, { method: 'PUT', token: other.owner.token, body: { ci_forward_deployment_enabled: false } })).body.ci_forward_deployment_enabled).toBe(false);
    expect((await post(`/jobs/${outdated.id}/play`)).status).toBe(200);
    const job = await own.pickNext();
    expect(job.id).toBe(outdated.id);
    expect((await own.update(job, 'success')).status).toBe(200);
    expect(await deployOf(p1)).toMatchObject({ status: 'success' });
    const production = (await at('/environments?name=production')).body[0];
    expect((await at(`/environments/${production.id}`)).body.last_deployment).toMatchObject({ sha: p1.sha, status: 'success', deployable: { id: outdated.id } });
  });

  it('lists the merge requests a deployment shipped: merged since its environment\'s previous successful deployment', async () => {
    const other = await ownedProject('private');
    const token = other.owner.token;
    const at = (path: string, query?: Record<string, string>, as = token) => api(`/projects/${other.id}${path}`, { token: as, query });
    await commit(other.id, token, 'main', { '.gitlab-ci.yml': 'deploy:\n  script: [echo]\n  environment: production\n  only: [main]\n' });
    const own = await TestRunner.register((await at('')).body.runners_token);
    await own.update(await own.pickNext(), 'success');
    await commit(other.id, token, 'fix', { 'a.txt': 'a\n' }, { start: 'main' });
    const mr = await openMergeRequest(other.id, token, { source_branch: 'fix', target_branch: 'main', title: 'Fix a' });
    const merged = await api(`/projects/${other.id}/merge_requests/${mr.iid}/merge`, { method: 'PUT', token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    await own.update(await own.pickNext(), 'success');

    const [second, first] = (await at('/deployments', { sort: 'desc' })).body;
    const shipped = await at(`/deployments/${second.id}/merge_requests`);
    expect(shipped.body).toEqual([expect.objectContaining({ id: mr.id, iid: mr.iid, state: 'merged', merge_commit_sha: second.sha })]);
    expect(shipped.headers.get('x-total')).toBe('1');
    expect((await at(`/deployments/${second.id}/merge_requests`, { state: 'opened' })).body).toEqual([]);
    // The first deployment came before the merge; an unknown deployment lists nothing (GitLab's finder); guests may not ask.
    expect((await at(`/deployments/${first.id}/merge_requests`)).body).toEqual([]);
    expect((await at('/deployments/999999999/merge_requests')).body).toEqual([]);
    const guest = await newMember(other, 10);
    expect((await at(`/deployments/${second.id}/merge_requests`, {}, guest.token)).status).toBe(403);
  });

  it('fails a job whose expanded environment name GitLab refuses (environment_creation_failure), creating nothing', async () => {
    const before = (await get('/environments')).body.length;
    const work = await localRepository({ '.gitlab-ci.yml': 'deploy:\n  script: [echo]\n  environment: "bad:name/$CI_COMMIT_REF_SLUG"\nlater:\n  stage: deploy\n  script: [echo]\n' });
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'HEAD:refs/heads/bad-env'], { cwd: work });
    const [pipeline] = (await get('/pipelines', { ref: 'bad-env' })).body;
    const jobs = (await get(`/pipelines/${pipeline.id}/jobs`)).body;
    expect(jobs.find((job: any) => job.name === 'deploy')).toMatchObject({ status: 'failed', failure_reason: 'environment_creation_failure' });
    expect((await get(`/pipelines/${pipeline.id}`)).body.status).toBe('failed');
    expect((await get('/environments')).body).toHaveLength(before);
  });

  it('creates, searches, changes and force-stops environments, refusing what GitLab refuses', async () => {
    const staging = await send('POST', '/environments', { name: 'Staging EU', external_url: 'https://staging.example.com' });
    expect(staging).toMatchObject({ status: 201, body: { name: 'Staging EU', tier: 'staging', state: 'available', slug: expect.stringMatching(/^staging-eu/), project: { id: project.id } } });
    expect((await send('POST', '/environments', { name: 'Staging EU' })).body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await send('POST', '/environments', { name: '/leading' })).body).toEqual({
      message: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"] },
    });
    expect((await send('POST', '/environments', { name: 'x', slug: 'mine' })).body).toEqual({ error: 'slug is automatically generated and cannot be changed' });
    expect((await send('POST', '/environments', { name: 'x', tier: 'moon' })).body).toEqual({ error: 'tier does not have a valid value' });
    expect((await send('POST', '/environments', { name: 'x', external_url: 'javascript:alert(1)' })).body).toEqual({ message: { external_url: ['javascript scheme is not allowed'] } });
    expect((await send('POST', '/environments', { name: 'x' }, reporter.token)).status).toBe(403);

    expect((await get('/environments', { search: 'st' })).body).toEqual({ message: '400 Bad request - Search query is less than 3 characters' });
    expect((await get('/environments', { search: 'STA' })).body.map((e: any) => e.name)).toEqual(['Staging EU']);
    expect((await get('/environments', { search: 'sta', name: 'Staging EU' })).status).toBe(400);
    expect((await get('/environments', {}, reporter.token)).status).toBe(200);

    const changed = await send('PUT', `/environments/${staging.body.id}`, { tier: 'other', external_url: 'https://eu.example.com', description: 'EU staging' });
    expect(changed.body).toMatchObject({ name: 'Staging EU', tier: 'other', external_url: 'https://eu.example.com', description: 'EU staging' });
    expect((await send('PUT', `/environments/${staging.body.id}`, { external_url: 'data:text/html,x' })).status).toBe(400);

    const forced = await send('POST', `/environments/${staging.body.id}/stop`, { force: true });
    expect(forced.body.state).toBe('stopped');
    expect((await send('DELETE', `/environments/${staging.body.id}`, {}, reporter.token)).status).toBe(403);
    expect((await send('DELETE', `/environments/${staging.body.id}`)).status).toBe(204);
    expect((await send('POST', '/environments/999999999/stop')).status).toBe(404);
  });

  it('records deployments a deployment tool reports, once per name under concurrency', async () => {
    const report = (body: Record<string, unknown>) => send('POST', '/deployments', { environment: 'canary', sha: head, ref: 'main', tag: false, ...body });
    const running = await report({ status: 'running' });
    expect(running).toMatchObject({ status: 201, body: { status: 'running', ref: 'main', sha: head, deployable: null, environment: { name: 'canary' }, user: { id: project.owner.id } } });
    expect((await send('DELETE', `/deployments/${running.body.id}`)).body).toEqual({ message: 'Cannot destroy running deployment' });
    expect((await send('PUT', `/deployments/${running.body.id}`, { status: 'success' })).body.status).toBe('success');
    expect((await send('PUT', `/deployments/${running.body.id}`, { status: 'running' })).status).toBe(400);
    const canary = await environmentNamed('canary');
    expect(canary.tier).toBe('other');
    expect((await get(`/environments/${canary.id}`)).body.last_deployment.id).toBe(running.body.id);
    // The same report as the environment's last deployment answers that one.
    expect((await report({ status: 'success' })).body.id).toBe(running.body.id);

    expect((await report({ sha: 'f'.repeat(40), ref: 'nope', status: 'success' })).body).toEqual({
      message: { sha: ['The commit does not exist'], ref: ['The branch or tag does not exist'] },
    });
    expect((await report({ status: 'created' })).body).toEqual({ error: 'status does not have a valid value' });
    expect((await send('POST', '/deployments', { environment: 'canary', sha: head, ref: 'main', tag: false, status: 'success' }, reporter.token)).status).toBe(403);

    // Parallel creations of one name make one environment; a pipeline's and the API's included.
    const attempts = await Promise.all(Array.from({ length: 6 }, () => send('POST', '/environments', { name: 'race' })));
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    const reports = await Promise.all(Array.from({ length: 4 }, () => send('POST', '/deployments', { environment: 'race-2', sha: head, ref: 'main', tag: false, status: 'running' })));
    expect(reports.every((r) => r.status === 201)).toBe(true);
    expect(new Set(reports.map((r) => r.body.environment.id)).size).toBe(1);
    expect((await get('/deployments', { environment: 'race-2' })).body).toHaveLength(4);

    // `order_by=ref`: by ref, read from the deployments' ref entries (written and deleted with them).
    expect((await send('POST', '/repository/branches', { branch: 'alpha', ref: 'main' })).status).toBe(201);
    const alpha = await send('POST', '/deployments', { environment: 'race-2', sha: head, ref: 'alpha', tag: false, status: 'failed' });
    const byRef = async (query: Record<string, string>) => (await get('/deployments', { environment: 'race-2', order_by: 'ref', ...query })).body.map((d: any) => d.ref);
    expect(await byRef({})).toEqual(['alpha', 'main', 'main', 'main', 'main']);
    expect(await byRef({ sort: 'desc', per_page: '2' })).toEqual(['main', 'main']);
    expect(await byRef({ status: 'failed' })).toEqual(['alpha']);
    expect((await send('DELETE', `/deployments/${alpha.body.id}`)).status).toBe(204);
    expect(await byRef({})).toEqual(['main', 'main', 'main', 'main']);

    // Concurrent moves of one deployment's status: each PUT a version-conditioned write; the
    // deployment ends in the status of one of them, its status lists agree, and the success
    // among them made it its environment's last deployment.
    const moving = (await send('POST', '/deployments', { environment: 'race-3', sha: head, ref: 'main', tag: false, status: 'running' })).body;
    const moves = await Promise.all(['success', 'failed', 'canceled', 'success', 'failed', 'canceled'].map((status) => send('PUT', `/deployments/${moving.id}`, { status })));
    expect(moves.map((move) => move.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const final = (await get(`/deployments/${moving.id}`)).body.status;
    expect(moves.map((move) => move.body.status)).toContain(final);
    for (const status of ['running', 'success', 'failed', 'canceled']) {
      expect((await get('/deployments', { environment: 'race-3', status })).body.map((d: any) => d.id)).toEqual(status === final ? [moving.id] : []);
    }
    expect((await get(`/environments/${(await environmentNamed('race-3')).id}`)).body.last_deployment.id).toBe(moving.id);

    // The environments list pages (offset pagination: X-Page, X-Next-Page, Link), in id order.
    const all = (await get('/environments')).body.map((e: any) => e.id);
    expect(all.length).toBeGreaterThan(3);
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    const first = await get('/environments', { per_page: '2' });
    expect(first.body.map((e: any) => e.id)).toEqual(all.slice(0, 2));
    expect([first.headers.get('x-page'), first.headers.get('x-per-page'), first.headers.get('x-next-page')]).toEqual(['1', '2', '2']);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1];
    expect(new URL(next).searchParams.get('page')).toBe('2');
    const second = await get('/environments', { per_page: '2', page: '2' });
    expect(second.body.map((e: any) => e.id)).toEqual(all.slice(2, 4));
    expect(second.headers.get('x-prev-page')).toBe('1');
  });
});
