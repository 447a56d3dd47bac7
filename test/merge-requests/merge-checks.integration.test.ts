/**
 * The merge checks a project's settings add (GitLab's `mergeable_discussions_state?` and
 * `mergeable_ci_state?`): `blocking_discussions_resolved` and `detailed_merge_status` follow
 * `only_allow_merge_if_all_discussions_are_resolved` and `only_allow_merge_if_pipeline_succeeds`,
 * and `PUT …/merge` refuses (405) while a required check fails, changing nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { TestRunner } from '../ci/runner';
import { commit, DEVELOPER, mrs, openMergeRequest, REPORTER } from './helpers';

let branches = 0;

async function projectWith(settings: Record<string, boolean>): Promise<OwnedProject> {
  const project = await ownedProject('private');
  const updated = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: settings });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  await commit(project.id, project.owner.token, 'main', { 'README.md': '# checks\n' });
  return project;
}

async function newMergeRequest(project: OwnedProject, files?: Record<string, string>) {
  const branch = `checks-${++branches}`;
  await commit(project.id, project.owner.token, branch, files ?? { [`${branch}.txt`]: `${branch}\n` }, { start: 'main' });
  return openMergeRequest(project.id, project.owner.token, { source_branch: branch, title: `Change ${branch}` });
}

async function startDiscussion(project: OwnedProject, iid: number, token: string) {
  const response = await api(mrs(project.id, `/${iid}/discussions`), { token, body: { body: 'Why?' } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string };
}

const single = async (project: OwnedProject, iid: number) => (await api(mrs(project.id, `/${iid}`), { token: project.owner.token })).body;

describe('only_allow_merge_if_all_discussions_are_resolved', () => {
  let reporter: TestUser;
  let developer: TestUser;

  it('off: an unresolved discussion does not block: blocking_discussions_resolved is true and the merge happens', async () => {
    // Arrange
    const project = await projectWith({ only_allow_merge_if_all_discussions_are_resolved: false });
    reporter = await newMember(project, REPORTER);
    const mr = await newMergeRequest(project);
    await startDiscussion(project, mr.iid, reporter.token);

    // Act
    const shown = await single(project, mr.iid);
    const listed = (await api(mrs(project.id), { token: project.owner.token })).body;
    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

    // Assert
    expect(shown).toMatchObject({ blocking_discussions_resolved: true, detailed_merge_status: 'mergeable', merge_status: 'can_be_merged' });
    expect(listed.find((item: { iid: number }) => item.iid === mr.iid)).toMatchObject({ blocking_discussions_resolved: true });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ state: 'merged', detailed_merge_status: 'not_open' });
  });

  it('on: an unresolved discussion blocks (false, discussions_not_resolved, merge 405 with nothing changed) until resolved', async () => {
    // Arrange
    const project = await projectWith({ only_allow_merge_if_all_discussions_are_resolved: true });
    [reporter, developer] = await Promise.all([newMember(project, REPORTER), newMember(project, DEVELOPER)]);
    const mr = await newMergeRequest(project);
    expect(mr.blocking_discussions_resolved).toBe(true);
    const started = await startDiscussion(project, mr.iid, reporter.token);

    // Act
    const blocked = await single(project, mr.iid);
    const listed = (await api(mrs(project.id), { token: project.owner.token })).body;
    const refused = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

    // Assert
    expect(blocked).toMatchObject({ blocking_discussions_resolved: false, detailed_merge_status: 'discussions_not_resolved' });
    expect(listed.find((item: { iid: number }) => item.iid === mr.iid)).toMatchObject({ blocking_discussions_resolved: false, detailed_merge_status: 'discussions_not_resolved' });
    expect(refused.status).toBe(405);
    expect(refused.body).toEqual({ message: '405 Method Not Allowed' });
    expect(await single(project, mr.iid)).toMatchObject({ state: 'opened', merge_commit_sha: null });

    // Act: resolve it
    const resolved = await api(mrs(project.id, `/${mr.iid}/discussions/${started.id}`), { method: 'PUT', token: developer.token, body: { resolved: true } });
    const after = await single(project, mr.iid);
    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

    // Assert
    expect(resolved.status).toBe(200);
    expect(after).toMatchObject({ blocking_discussions_resolved: true, detailed_merge_status: 'mergeable' });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.state).toBe('merged');
  });

  it('shows draft_status before the discussions, as GitLab orders its checks', async () => {
    // Arrange
    const project = await projectWith({ only_allow_merge_if_all_discussions_are_resolved: true });
    const branch = `checks-${++branches}`;
    await commit(project.id, project.owner.token, branch, { 'draft.txt': 'draft\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, project.owner.token, { source_branch: branch, title: 'WIP: not yet' });
    await startDiscussion(project, mr.iid, project.owner.token);

    // Act
    const shown = await single(project, mr.iid);

    // Assert
    expect(shown).toMatchObject({ blocking_discussions_resolved: false, detailed_merge_status: 'draft_status' });
  });
});

describe('only_allow_merge_if_pipeline_succeeds', () => {
  let project: OwnedProject;
  let runner: TestRunner;
  beforeAll(async () => {
    project = await projectWith({ only_allow_merge_if_pipeline_succeeds: true });
    runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
  });

  it('refuses a merge request without a pipeline (ci_must_pass, 405, nothing changed)', async () => {
    // Arrange
    const mr = await newMergeRequest(project);

    // Act
    const shown = await single(project, mr.iid);
    const refused = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

    // Assert
    expect(shown).toMatchObject({ detailed_merge_status: 'ci_must_pass', blocking_discussions_resolved: true });
    expect(refused.status).toBe(405);
    expect(await single(project, mr.iid)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
  });

  it('waits for a running head pipeline (ci_still_running; a plain merge is refused) and merges once it succeeded', async () => {
    // Arrange
    const mr = await newMergeRequest(project, { '.gitlab-ci.yml': 'check:\n  script: [echo check]\n' });
    const running = await single(project, mr.iid);
    const refused = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

    // Act: the runner reports success
    let job: { id: number } | undefined;
    for (let attempt = 0; attempt < 100 && !job; attempt++) {
      job = (await runner.requestJob()).job;
      if (!job) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job).toBeDefined();
    expect((await runner.update(job!, 'success')).status).toBe(200);
    const passed = await single(project, mr.iid);
    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

    // Assert
    expect(running.detailed_merge_status).toBe('ci_still_running');
    expect(refused.status).toBe(405);
    expect(passed.detailed_merge_status).toBe('mergeable');
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.state).toBe('merged');
  });
});
