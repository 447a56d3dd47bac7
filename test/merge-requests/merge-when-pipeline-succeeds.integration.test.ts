/**
 * Merge requests and their pipelines over HTTP: a branch with a `.gitlab-ci.yml` gets a pipeline,
 * its merge request shows it (`head_pipeline`, `pipeline`, `GET …/pipelines`); a merge asked with
 * `merge_when_pipeline_succeeds` while it runs waits for it, and happens when a runner reports
 * success (as the user who asked); a failed pipeline leaves it waiting; the cancel routes (GitLab's
 * POST, and the PUT older clients send) stop the wait.
 *
 * The runner answers with its verdict without running the scripts: what matters here is the
 * pipeline's outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { WebhookReceiver } from '../support/webhooks';
import { TestRunner } from '../ci/runner';
import { commit, head, MAINTAINER, mrs, openMergeRequest, REPORTER } from './helpers';

const CI = `
check:
  script: [echo check]
`;


describe('merge requests and their pipelines', () => {
  let project: OwnedProject;
  let maintainer: TestUser;
  let runner: TestRunner;
  let receiver: WebhookReceiver | undefined;

  /** Takes jobs until one of `ref` comes, reporting `state` for it (and success for others). */
  async function finishJobOf(ref: string, state: 'success' | 'failed') {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { job } = await runner.requestJob();
      if (!job) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const mine = job.git_info.ref === ref;
      const response = await runner.update(job, mine ? state : 'success', mine && state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : {});
      expect(response.status).toBe(200);
      if (mine) return job;
    }
    throw new Error(`no job of ${ref} came`);
  }

  /** A branch from main with the CI file (added, or changed once main has it from a merge): its pipeline starts. */
  async function branchWithPipeline(branch: string) {
    const onMain = await api(`/projects/${project.id}/repository/files/.gitlab-ci.yml?ref=main`, { token: project.owner.token });
    await commit(project.id, project.owner.token, branch, { '.gitlab-ci.yml': `${CI}# ${branch}\n` }, { start: 'main', update: onMain.status === 200 });
    return openMergeRequest(project.id, project.owner.token, { source_branch: branch, title: `Add ${branch}` });
  }

  beforeAll(async () => {
    project = await ownedProject('private');
    await commit(project.id, project.owner.token, 'main', { 'README.md': '# mwps\n' });
    maintainer = await newMember(project, MAINTAINER);
    runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    if (isLocalRuntime()) {
      receiver = await WebhookReceiver.start();
      const url = receiver.url('/mr');
      const hook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url, merge_requests_events: true, push_events: false } });
      expect(hook.status).toBe(201);
    }
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('shows the head pipeline of a merge request and lists its pipelines; a reporter sees them, an outsider of a private project does not', async () => {
    // Prepare
    const mr = await branchWithPipeline('shown');
    const reporter = await newMember(project, REPORTER);

    // Act
    const single = await api(mrs(project.id, `/${mr.iid}`), { token: reporter.token });
    const pipelines = await api(mrs(project.id, `/${mr.iid}/pipelines`), { token: reporter.token });

    // Assess
    expect(single.status).toBe(200);
    expect(single.body.head_pipeline).toMatchObject({ ref: 'shown', sha: mr.sha, status: 'pending', source: 'push', project_id: project.id, detailed_status: { text: 'Pending' } });
    expect(single.body.pipeline).toEqual({
      id: single.body.head_pipeline.id,
      iid: single.body.head_pipeline.iid,
      project_id: project.id,
      sha: mr.sha,
      ref: 'shown',
      status: 'pending',
      source: 'push',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      web_url: expect.stringMatching(new RegExp(`/${project.fullPath}/-/pipelines/${single.body.head_pipeline.id}$`)),
    });
    expect(pipelines.status).toBe(200);
    expect(pipelines.body).toEqual([single.body.pipeline]);
    expect((await api(mrs(project.id, `/${mr.iid}/pipelines`), { token: (await createUser()).token })).status).toBe(404);
    await finishJobOf('shown', 'success');
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: reporter.token })).body.head_pipeline).toMatchObject({ status: 'success' });
  });

  it('defers a merge while the head pipeline runs, and merges when a runner reports success', async () => {
    // Prepare
    const mr = await branchWithPipeline('feature');
    const mainBefore = await head(project.id, project.owner.token, 'main');

    // Act: accept with merge_when_pipeline_succeeds while the pipeline is pending
    const accepted = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: maintainer.token, body: { merge_when_pipeline_succeeds: true, should_remove_source_branch: true } });

    // Assess: nothing merged yet
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_commit_sha: null, head_pipeline: { status: 'pending' } });
    expect(await head(project.id, project.owner.token, 'main')).toBe(mainBefore);

    // Act: the runner takes the job and succeeds
    await finishJobOf('feature', 'success');

    // Assess: merged by the user who asked, with the parameters given then
    const merged = await api(mrs(project.id, `/${mr.iid}`), { token: project.owner.token });
    expect(merged.body).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false, merged_by: { id: maintainer.id }, merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(await head(project.id, project.owner.token, 'main')).toBe(merged.body.merge_commit_sha);
    expect((await api(`/projects/${project.id}/repository/branches/feature`, { token: project.owner.token })).status).toBe(404);
    if (receiver) {
      // The Merge Request Hook of the merge names the pipeline it waited for.
      const merge = await receiver.first(({ body }) => body.object_attributes?.iid === mr.iid && body.object_attributes.action === 'merge');
      expect(merge?.body.object_attributes.head_pipeline_id).toBe(accepted.body.head_pipeline.id);
    }
  });

  it('leaves the merge waiting when the pipeline fails; the cancel routes stop the wait', async () => {
    // Prepare
    const mr = await branchWithPipeline('broken');
    const accepted = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: maintainer.token, body: { merge_when_pipeline_succeeds: true } });
    expect(accepted.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });

    // Act
    await finishJobOf('broken', 'failed');

    // Assess: still open and still waiting (GitLab keeps it set: a retried job that succeeds merges it)
    const after = await api(mrs(project.id, `/${mr.iid}`), { token: project.owner.token });
    expect(after.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, head_pipeline: { status: 'failed' } });

    // Act: cancel (GitLab's POST)
    const canceled = await api(mrs(project.id, `/${mr.iid}/cancel_merge_when_pipeline_succeeds`), { method: 'POST', token: maintainer.token });

    // Assess
    expect(canceled.status).toBe(201);
    expect(canceled.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
    expect(await api(mrs(project.id, `/${mr.iid}/cancel_merge_when_pipeline_succeeds`), { method: 'POST', token: maintainer.token })).toMatchObject({ status: 406 });
  });

  it('merges at once when asked to wait but the head pipeline already finished', async () => {
    // Prepare: the branch's pipeline succeeded before anyone asked
    const mr = await branchWithPipeline('ready');
    await finishJobOf('ready', 'success');

    // Act
    const accepted = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: maintainer.token, body: { merge_when_pipeline_succeeds: true } });

    // Assess
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false });
  });
});
