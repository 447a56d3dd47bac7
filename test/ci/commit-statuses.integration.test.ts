/**
 * The commit status API as external CI systems call it (python-gitlab's
 * `commit.statuses.create({...})` and `commit.statuses.list()`, Jenkins' GitLab plugin): a status
 * is a job of stage `external` in a pipeline of the commit (a new `external` one, or the newest of
 * the commit), moves as GitLab's state machine allows, sets the pipeline's status and the merge
 * request's head pipeline; the list shows a commit's statuses with GitLab's filters; GitLab's
 * errors and rights.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { indexProjectPipelineShas } from '../../shared/ci/commands/refs';
import { ciKeys } from '../../shared/ci/store/keys';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { api, isLocalRuntime } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';

const REPORTER = 20;
const DEVELOPER = 30;
const FIELDS = ['id', 'sha', 'ref', 'status', 'name', 'target_url', 'description', 'created_at', 'started_at', 'finished_at', 'allow_failure', 'coverage', 'pipeline_id', 'author'];

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
describe('commit statuses', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let reporter: TestUser;
  let main: string;
  let feature: string;
  const post = (sha: string, body: Record<string, unknown>, token = project.owner.token) => api(`/projects/${project.id}/statuses/${sha}`, { token, body });
  const list = (sha: string, query: Record<string, string | number | boolean> = {}, token = project.owner.token) =>
    api(`/projects/${project.id}/repository/commits/${sha}/statuses`, { token, query });
  const pipeline = async (id: number) => (await api(`/projects/${project.id}/pipelines/${id}`, { token: project.owner.token })).body;

  beforeAll(async () => {
    project = await ownedProject('private');
    [developer, reporter] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER)]);
    const commit = async (branch: string, extra: Record<string, unknown> = {}) => {
      const response = await api(`/projects/${project.id}/repository/commits`, {
        token: project.owner.token,
        body: { branch, commit_message: `on ${branch}`, actions: [{ action: 'create', file_path: `${branch}.md`, content: branch }], ...extra },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.id as string;
    };
    main = await commit('main');
    feature = await commit('feature', { start_branch: 'main' });
  });

  it('creates a status in a new external pipeline, moves it as GitLab allows and sets the pipeline status', async () => {
    // Act
    const pending = await post(main, { state: 'pending', ref: 'main' });

    // Assess
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    expect(Object.keys(pending.body)).toEqual(FIELDS);
    expect(pending.body).toMatchObject({ sha: main, ref: 'main', status: 'pending', name: 'default', target_url: null, description: null, started_at: null, finished_at: null, allow_failure: false, coverage: null });
    expect(pending.body.author).toMatchObject({ id: project.owner.id, username: project.owner.username });
    const created = await pipeline(pending.body.pipeline_id);
    expect(created).toMatchObject({ source: 'external', ref: 'main', sha: main, status: 'pending' });

    // The same state again, and running twice: GitLab's state machine refuses.
    const again = await post(main, { state: 'pending', ref: 'main' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")' });
    const running = await post(main, { state: 'running', ref: 'main' });
    expect(running.body).toMatchObject({ id: pending.body.id, status: 'running', started_at: expect.any(String) });
    expect((await pipeline(created.id)).status).toBe('running');
    const twice = await post(main, { state: 'running', ref: 'main' });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/^Cannot transition status via :run from :running/);

    // A success with details, the context as name; then a second status failing fails the pipeline.
    const success = await post(main, { state: 'success', ref: 'main', context: 'default', target_url: 'https://ci.example.com/1', description: 'all green', coverage: '98.5' });
    expect(success.body).toMatchObject({ id: pending.body.id, status: 'success', target_url: 'https://ci.example.com/1', description: 'all green', coverage: 98.5, finished_at: expect.any(String) });
    expect(await pipeline(created.id)).toMatchObject({ status: 'success', finished_at: expect.any(String) });
    const lint = await post(main, { state: 'failed', name: 'lint' });
    expect(lint.body).toMatchObject({ status: 'failed', name: 'lint', ref: 'main', pipeline_id: created.id });
    expect(lint.body.id).not.toBe(pending.body.id);
    expect((await pipeline(created.id)).status).toBe('failed');

    // A finished status is not reopened: a new report of its name is a new status in the same pipeline.
    const rerun = await post(main, { state: 'running', name: 'lint', pipeline_id: created.id });
    expect(rerun.body).toMatchObject({ status: 'running', pipeline_id: created.id });
    expect(rerun.body.id).not.toBe(lint.body.id);
    expect((await pipeline(created.id)).status).toBe('running');

    // Generic statuses are no builds: not in the pipeline's jobs, not found by id.
    const jobs = await api(`/projects/${project.id}/pipelines/${created.id}/jobs`, { token: project.owner.token });
    expect(jobs.body).toEqual([]);
    expect((await api(`/projects/${project.id}/jobs/${lint.body.id}`, { token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs`, { token: project.owner.token })).body).toEqual([]);
  });

  it("lists a commit's statuses with GitLab's filters, and a branch's status is its merge request's head pipeline", async () => {
    // Prepare: a status on the feature branch's commit (its own pipeline), and a merge request of it.
    const onFeature = await post(feature, { state: 'success', ref: 'feature', name: 'build' }, developer.token);
    expect(onFeature.status, JSON.stringify(onFeature.body)).toBe(201);
    const mr = await api(`/projects/${project.id}/merge_requests`, { token: project.owner.token, body: { source_branch: 'feature', target_branch: 'main', title: 'Feature' } });
    expect(mr.status).toBe(201);

    // Act
    const all = await list(main);
    const byName = await list(main, { name: 'lint' });
    const desc = await list(main, { order_by: 'id', sort: 'desc', per_page: 1 });

    // Assess
    expect(all.status).toBe(200);
    expect(all.body.map((s: any) => [s.name, s.status])).toEqual([['default', 'success'], ['lint', 'failed'], ['lint', 'running']]);
    expect(all.body.every((s: any) => s.sha === main && s.ref === 'main')).toBe(true);
    expect(byName.body.map((s: any) => s.status)).toEqual(['failed', 'running']);
    expect(desc.body.map((s: any) => s.status)).toEqual(['running']);
    expect(desc.headers.get('x-total')).toBe('3');
    expect((await list(main, { stage: 'external', ref: 'feature' })).body).toEqual([]);
    expect((await list(main, { pipeline_id: all.body[0].pipeline_id, stage: 'external' })).body).toHaveLength(3);
    expect((await list(feature, {}, reporter.token)).body).toMatchObject([{ id: onFeature.body.id, name: 'build', ref: 'feature', status: 'success', author: { id: developer.id } }]);
    const head = (await api(`/projects/${project.id}/merge_requests/${mr.body.iid}`, { token: project.owner.token })).body.head_pipeline;
    expect(head).toMatchObject({ id: onFeature.body.pipeline_id, sha: feature, ref: 'feature', status: 'success', source: 'external' });
  });

  it('makes one pipeline and one status of a name out of concurrent first reports', async () => {
    // Prepare: a commit of its own.
    const made = await api(`/projects/${project.id}/repository/commits`, {
      token: project.owner.token,
      body: { branch: 'race', start_branch: 'main', commit_message: 'race', actions: [{ action: 'create', file_path: 'race.md', content: 'race' }] },
    });

    // Act: each name reported pending twice at once.
    const names = ['a', 'b', 'c', 'a', 'b', 'c'];
    const answers = await Promise.all(names.map((name) => post(made.body.id, { state: 'pending', ref: 'race', name })));

    // Assess
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 400, 400, 400]);
    const statuses = (await list(made.body.id)).body;
    expect(statuses.map((status: any) => status.name).sort()).toEqual(['a', 'b', 'c']);
    expect(new Set(statuses.map((status: any) => status.pipeline_id)).size).toBe(1);
    const pipelines = await api(`/projects/${project.id}/pipelines`, { token: project.owner.token, query: { sha: made.body.id } });
    expect(pipelines.body).toMatchObject([{ status: 'pending', source: 'external' }]);
  });

  it.skipIf(!isLocalRuntime())('lists the pipelines written before the index by commit once the migration gave them their entry', async () => {
    // Prepare: the feature commit's pipeline as written before the index existed.
    const [before] = (await list(feature)).body;
    await db().send(new UpdateCommand({ TableName: tableName(), Key: ciKeys.pipeline(before.pipeline_id), UpdateExpression: 'REMOVE GSI5PK, GSI5SK' }));
    expect((await list(feature)).body).toEqual([]);

    // Act
    const indexed = await indexProjectPipelineShas(project.id);

    // Assess
    expect(indexed).toBe(1);
    expect((await list(feature)).body.map((status: any) => status.id)).toEqual([before.id]);
    expect(await indexProjectPipelineShas(project.id)).toBe(0);
  });

  it("answers GitLab's errors and rights", async () => {
    const unknown = 'f'.repeat(40);
    expect(await post(unknown, { state: 'success' })).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await list(unknown)).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await post(main, {})).toMatchObject({ status: 400, body: { error: 'state is missing' } });
    expect((await post(main, { state: 'done' })).status).toBe(400);
    expect(await post(main, { state: 'success', pipeline_id: 999_999_999 })).toMatchObject({ status: 404, body: { message: '404 Pipeline for pipeline_id, sha and ref Not Found' } });
    // Reporters read but may not report; main is protected from developers; strangers see nothing.
    expect((await post(feature, { state: 'success' }, reporter.token)).status).toBe(403);
    expect((await post(main, { state: 'success', ref: 'main', name: 'dev' }, developer.token)).status).toBe(403);
    const stranger = await createUser();
    expect((await post(main, { state: 'success' }, stranger.token)).status).toBe(404);
    expect((await list(main, {}, stranger.token)).status).toBe(404);
    expect((await api(`/projects/${project.id}/repository/commits/${main}/statuses`)).status).toBe(401);
    expect((await api(`/projects/${project.id}/statuses/${main}`, { method: 'POST', body: { state: 'success' } })).status).toBe(401);
    // Nothing of these changed the commit's statuses.
    expect((await list(main)).body).toHaveLength(3);
  });
});
