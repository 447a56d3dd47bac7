/**
 * Merge request pipelines (GitLab's detached pipelines, `CI_PIPELINE_SOURCE=merge_request_event`):
 * created when a merge request is opened, when its source branch is pushed and by
 * `POST …/merge_requests/:iid/pipelines`, on `refs/merge-requests/<iid>/head` with only the jobs
 * selected for that event; a runner gets the `CI_MERGE_REQUEST_*` variables and a refspec it can
 * fetch; the merge request's head pipeline and pipelines list include them; a project hook's
 * Pipeline Hook carries the merge request; `async=true` answers 202; a configuration without jobs
 * for merge requests gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';
import { WebhookReceiver } from '../support/webhooks';
import { TestRunner } from './runner';

const CI = `
mr-only:
  script: ['echo "mr $CI_MERGE_REQUEST_IID from $CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"']
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
plain:
  script: [echo plain]
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
const jobNames = async (project: OwnedProject, pipelineId: number): Promise<string[]> =>
  (await api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token })).body.map((job: any) => job.name).sort();

const pipelinesOf = async (project: OwnedProject, query: Record<string, string> = {}): Promise<any[]> =>
  (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token, query })).body;

describe('merge request pipelines', () => {
  let project: OwnedProject;
  let remote: string;
  let work: string;
  let mr: any;
  let opened: any;
  // The receiver listens on 127.0.0.1, which only the local runtime reaches.
  let receiver: WebhookReceiver | undefined;

  beforeAll(async () => {
    project = await ownedProject('private');
    if (isLocalRuntime()) {
      receiver = await WebhookReceiver.start();
      const hook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url('/ci'), pipeline_events: true, push_events: false } });
      expect(hook.status).toBe(201);
    }
    remote = cloneUrl(project.fullPath, project.owner.token);
    work = await localRepository({ '.gitlab-ci.yml': CI, 'README.md': '# mr pipelines\n' });
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: work });
    await commitFiles(work, { 'a.txt': 'a\n' }, 'feature work');
    await gitOk(['push', '-q', remote, 'feature'], { cwd: work });
    const label = await api(`/projects/${project.id}/labels`, { method: 'POST', token: project.owner.token, body: { name: 'ci', color: '#ff0000' } });
    expect(label.status).toBe(201);
    const created = await api(`/projects/${project.id}/merge_requests`, {
      method: 'POST',
      token: project.owner.token,
      body: { source_branch: 'feature', target_branch: 'main', title: 'Draft: Feature', description: 'Does things', labels: 'ci', assignee_id: project.owner.id },
    });
    expect(created.status).toBe(201);
    mr = created.body;
    [opened] = await pipelinesOf(project, { source: 'merge_request_event' });
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('opening the merge request creates a merge request pipeline with only the jobs for merge requests', async () => {
    expect(opened).toMatchObject({ ref: `refs/merge-requests/${mr.iid}/head`, sha: mr.sha, source: 'merge_request_event', status: 'pending' });
    expect(await jobNames(project, opened.id)).toEqual(['mr-only']);
    // The branch pipelines (pushes) have the plain job only.
    const branch = await pipelinesOf(project, { ref: 'feature' });
    expect(branch.map((p) => p.source)).toEqual(['push']);
    expect(await jobNames(project, branch[0].id)).toEqual(['plain']);
    // `ref=` finds it by its merge request ref; `scope=branches` leaves it out.
    expect((await pipelinesOf(project, { ref: `refs/merge-requests/${mr.iid}/head` })).map((p) => p.id)).toEqual([opened.id]);
    expect((await pipelinesOf(project, { scope: 'branches' })).map((p) => p.id)).not.toContain(opened.id);
    // The merge request's head pipeline and pipelines list.
    const single = await api(`/projects/${project.id}/merge_requests/${mr.iid}`, { token: project.owner.token });
    expect(single.body.head_pipeline).toMatchObject({ id: opened.id, ref: `refs/merge-requests/${mr.iid}/head`, source: 'merge_request_event' });
    const listed = await api(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`, { token: project.owner.token });
    expect(listed.body.map((p: any) => p.id)).toEqual([opened.id, branch[0].id]);
  });

  it.skipIf(!isLocalRuntime())('its Pipeline Hook carries the merge request', async () => {
    const [pending] = await receiver!.received('/ci', (d) => d.body.object_kind === 'pipeline' && d.body.object_attributes.id === opened.id);
    expect(pending.headers['x-gitlab-event']).toBe('Pipeline Hook');
    expect(pending.body).toMatchObject({
      // GitLab's `source_ref`: the merge request's source branch.
      object_attributes: { id: opened.id, ref: 'feature', sha: mr.sha, source: 'merge_request_event', status: 'pending', stages: ['test'] },
      merge_request: {
        id: mr.id,
        iid: mr.iid,
        title: 'Draft: Feature',
        source_branch: 'feature',
        source_project_id: project.id,
        target_branch: 'main',
        target_project_id: project.id,
        state: 'opened',
        merge_status: expect.any(String),
        detailed_merge_status: expect.any(String),
        url: mr.web_url,
      },
    });
    expect(pending.body.builds.map((b: any) => b.name)).toEqual(['mr-only']);
    // A branch pipeline's is null.
    const [branch] = await pipelinesOf(project, { ref: 'feature' });
    const [pushed] = await receiver!.received('/ci', (d) => d.body.object_kind === 'pipeline' && d.body.object_attributes.id === branch.id);
    expect(pushed.body).toMatchObject({ object_attributes: { ref: 'feature', source: 'push' }, merge_request: null });
  });

  it('a runner gets the merge request variables and a refspec it fetches with git', async () => {
    const token = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
    const runner = await TestRunner.register(token);
    // The branch pipelines' jobs are older: taken (and run) first.
    for (let i = 0; i < 2; i++) expect((await runner.runNext())?.job.git_info.ref).not.toContain('merge-requests');
    const ran = await runner.runNext();
    expect(ran?.state).toBe('success');
    const job = ran!.job;
    const ref = `refs/merge-requests/${mr.iid}/head`;
    expect(job.git_info).toMatchObject({ ref, sha: mr.sha, ref_type: 'branch', refspecs: [`+${ref}:${ref}`] });
    const variables = Object.fromEntries(job.variables.map((v: any) => [v.key, v.value]));
    expect(variables).toMatchObject({
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_COMMIT_REF_NAME: 'feature',
      CI_COMMIT_REF_SLUG: 'feature',
      CI_MERGE_REQUEST_IID: String(mr.iid),
      CI_MERGE_REQUEST_ID: String(mr.id),
      CI_MERGE_REQUEST_PROJECT_ID: String(project.id),
      CI_MERGE_REQUEST_PROJECT_PATH: project.fullPath,
      CI_MERGE_REQUEST_REF_PATH: ref,
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(project.id),
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: project.fullPath,
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      CI_MERGE_REQUEST_TITLE: 'Draft: Feature',
      CI_MERGE_REQUEST_DESCRIPTION: 'Does things',
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: mr.diff_refs.base_sha,
      CI_MERGE_REQUEST_LABELS: 'ci',
      CI_MERGE_REQUEST_ASSIGNEES: project.owner.username,
    });
    expect(variables.CI_MERGE_REQUEST_PROJECT_URL).toMatch(new RegExp(`/${project.fullPath}$`));
    expect(variables.CI_MERGE_REQUEST_DIFF_ID).toMatch(/^\d+$/);
    expect(variables.CI_COMMIT_BRANCH).toBeUndefined();
    const trace = await api(`/projects/${project.id}/jobs/${job.id}/trace`, { token: project.owner.token });
    expect(String(trace.body)).toContain(`mr ${mr.iid} from feature`);
  });

  it('pushing the source branch creates another; POST creates one, or answers 403, 404', async () => {
    const head = await commitFiles(work, { 'b.txt': 'b\n' }, 'more work');
    await gitOk(['push', '-q', remote, 'feature'], { cwd: work });
    const [pushed] = await pipelinesOf(project, { source: 'merge_request_event' });
    expect(pushed).toMatchObject({ sha: head, ref: `refs/merge-requests/${mr.iid}/head` });
    expect(pushed.id).not.toBe(opened.id);
    expect(await jobNames(project, pushed.id)).toEqual(['mr-only']);

    const posted = await api(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`, { method: 'POST', token: project.owner.token });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ ref: `refs/merge-requests/${mr.iid}/head`, sha: head, source: 'merge_request_event', user: { id: project.owner.id } });
    const single = await api(`/projects/${project.id}/merge_requests/${mr.iid}`, { token: project.owner.token });
    expect(single.body.head_pipeline.id).toBe(posted.body.id);
    // `async`: 202 with Grape's rendering of `status :accepted` (202), the pipeline made.
    const queued = await api(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`, { method: 'POST', token: project.owner.token, body: { async: true } });
    expect(queued.status).toBe(202);
    expect(queued.body).toBe(202);
    const [newest] = await pipelinesOf(project, { source: 'merge_request_event' });
    expect(newest.id).toBeGreaterThan(posted.body.id);
    expect(newest).toMatchObject({ sha: head, ref: `refs/merge-requests/${mr.iid}/head` });

    const missing = await api(`/projects/${project.id}/merge_requests/999999/pipelines`, { method: 'POST', token: project.owner.token });
    expect(missing.status).toBe(404);
    const reporter = await newMember(project, 20);
    const refused = await api(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`, { method: 'POST', token: reporter.token });
    expect(refused.status).toBe(403);
  });

  it('a configuration without jobs for merge requests gets no merge request pipeline (POST: 400)', async () => {
    const other = await ownedProject('private');
    const otherRemote = cloneUrl(other.fullPath, other.owner.token);
    const dir = await localRepository({ '.gitlab-ci.yml': 'plain:\n  script: [echo plain]\n' });
    await gitOk(['push', '-q', otherRemote, 'main'], { cwd: dir });
    await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: dir });
    await commitFiles(dir, { 'c.txt': 'c\n' }, 'topic');
    await gitOk(['push', '-q', otherRemote, 'topic'], { cwd: dir });
    const created = await api(`/projects/${other.id}/merge_requests`, { method: 'POST', token: other.owner.token, body: { source_branch: 'topic', target_branch: 'main', title: 'Topic' } });
    expect(created.status).toBe(201);
    expect(await pipelinesOf(other, { source: 'merge_request_event' })).toEqual([]);
    const posted = await api(`/projects/${other.id}/merge_requests/${created.body.iid}/pipelines`, { method: 'POST', token: other.owner.token });
    expect(posted.status).toBe(400);
    expect(posted.body.message.base[0]).toMatch(/Pipeline will not run|No stages/);
    // With `async` the caller is not told: 202, and still none.
    const queued = await api(`/projects/${other.id}/merge_requests/${created.body.iid}/pipelines?async=true`, { method: 'POST', token: other.owner.token });
    expect(queued.status).toBe(202);
    expect(await pipelinesOf(other, { source: 'merge_request_event' })).toEqual([]);
    // Its head pipeline is the branch's.
    const single = await api(`/projects/${other.id}/merge_requests/${created.body.iid}`, { token: other.owner.token });
    expect(single.body.head_pipeline).toMatchObject({ ref: 'topic', source: 'push' });
  });
});
