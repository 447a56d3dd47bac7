/**
 * Rebasing merge requests over HTTP (`PUT …/rebase`, GitLab's `RebaseService`): 202 at once, the
 * rebase in the background jobs worker (polled with `include_rebase_in_progress`, as clients do);
 * the branches are made and checked with the git CLI. A clean rebase replays the commits onto the
 * target (authors kept, the requester as committer, contents merged) and is a push (new diff
 * version, pipeline unless `skip_ci`); a conflict or a push since the rebase was asked leaves the
 * branch as it is with `merge_error` (the push kept); reporters and protected branches without
 * force push get 403, a rebase in progress or a closed merge request 409; a fork's merge request
 * is rebased in the fork.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { eventually } from '../support/eventually';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository, pushNewRepository, scratch } from '../support/git';
import { holdJob, releaseJob } from '../support/held-jobs';
import { MERGE_REQUEST_REBASE } from '../../shared/merge-requests';
import { commit, DEVELOPER, head, mrs, openMergeRequest, REPORTER } from './helpers';

const REBASE_ERROR = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.';
const ANN = { GIT_AUTHOR_NAME: 'Ann Author', GIT_AUTHOR_EMAIL: 'ann@example.com' };
const CI = 'job:\n  script: echo hi\n';

/** The merge request once its rebase is no longer in progress (with the commits it is behind). */
async function rebased(projectId: number, token: string, iid: number) {
  return eventually(async () => {
    const response = await api(mrs(projectId, `/${iid}`), { token, query: { include_rebase_in_progress: 'true', include_diverged_commits_count: 'true' } });
    expect(response.body.rebase_in_progress).toBe(false);
    return response.body;
  });
}

const rebase = (projectId: number, token: string, iid: number, body: Record<string, unknown> = {}) => api(mrs(projectId, `/${iid}/rebase`), { method: 'PUT', token, body });

describe('rebasing merge requests', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let work: string;

  /** Pushes the work tree's `refs` to the project as the owner. */
  const push = (...refs: string[]) => gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), ...refs], { cwd: work });

  beforeAll(async () => {
    project = await ownedProject('private');
    developer = await newMember(project, DEVELOPER);
    work = await localRepository({ 'app.txt': 'one\ntwo\nthree\nfour\n', '.gitlab-ci.yml': CI }, 'Start');
    await push('main');
  });

  it('replays the commits onto the target head, as a push by the requester; up to date after; reporters 403', async () => {
    // Prepare: `feature` (two commits by Ann: line four, a new file) and `quiet` branch off; `main` then changes line one.
    await gitOk(['checkout', '-q', '-b', 'feature', 'main'], { cwd: work });
    await commitFiles(work, { 'app.txt': 'one\ntwo\nthree\nFOUR\n' }, 'Shout four');
    await gitOk(['commit', '-q', '--allow-empty', '-m', 'Note'], { cwd: work, env: ANN });
    await commitFiles(work, { 'new.txt': 'new\n' }, 'Add new');
    await gitOk(['commit', '-q', '--amend', '--no-edit', '--reset-author'], { cwd: work, env: ANN });
    await gitOk(['checkout', '-q', '-b', 'quiet', 'main'], { cwd: work });
    await commitFiles(work, { 'quiet.txt': 'quiet\n' }, 'Quiet');
    await gitOk(['checkout', '-q', 'main'], { cwd: work });
    await commitFiles(work, { 'app.txt': 'ONE\ntwo\nthree\nfour\n' }, 'Shout one');
    await push('main', 'feature', 'quiet');
    const mainHead = await head(project.id, project.owner.token, 'main');
    const mr = await openMergeRequest(project.id, developer.token, { source_branch: 'feature', title: 'Feature' });
    const quiet = await openMergeRequest(project.id, developer.token, { source_branch: 'quiet', title: 'Quiet' });
    const before = await api(mrs(project.id, `/${mr.iid}`), { token: developer.token, query: { include_diverged_commits_count: 'true', include_rebase_in_progress: 'true' } });
    expect(before.body).toMatchObject({ diverged_commits_count: 1, rebase_in_progress: false, merge_error: null });
    const reporter = await newMember(project, REPORTER);

    // Act
    expect(await rebase(project.id, reporter.token, mr.iid)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Cannot push to source branch' } });
    expect(await rebase(project.id, developer.token, mr.iid)).toMatchObject({ status: 202, body: { rebase_in_progress: true } });
    expect(await rebase(project.id, developer.token, quiet.iid, { skip_ci: true })).toMatchObject({ status: 202, body: { rebase_in_progress: true } });

    // Assess: the branch sits on main's head, Ann's commits kept (the empty one too), the developer as committer, contents merged.
    const after = await rebased(project.id, developer.token, mr.iid);
    expect(after).toMatchObject({ merge_error: null, diverged_commits_count: 0, diff_refs: { start_sha: mainHead } });
    const clone = scratch('rebased-');
    await gitOk(['clone', '-q', cloneUrl(project.fullPath, developer.token), clone]);
    expect((await gitOk(['rev-parse', 'origin/feature'], { cwd: clone })).trim()).toBe(after.sha);
    const log = await gitOk(['log', '--format=%s|%an|%ae|%ce', 'origin/main..origin/feature'], { cwd: clone });
    expect(log.trim().split('\n')).toEqual([`Add new|Ann Author|ann@example.com|${developer.email}`, `Note|Ann Author|ann@example.com|${developer.email}`, `Shout four|Test Author|author@example.com|${developer.email}`]);
    expect((await gitOk(['rev-parse', 'origin/feature~3'], { cwd: clone })).trim()).toBe(mainHead);
    expect(await gitOk(['show', 'origin/feature:app.txt'], { cwd: clone })).toBe('ONE\ntwo\nthree\nFOUR\n');
    // A push by the developer: a new diff version, a pipeline for the new head; `skip_ci` makes none.
    expect((await api(mrs(project.id, `/${mr.iid}/versions`), { token: developer.token })).body).toHaveLength(2);
    const pipelines = (sha: string) => api(`/projects/${project.id}/pipelines`, { token: project.owner.token, query: { sha } });
    expect((await pipelines(after.sha)).body).toHaveLength(1);
    const quietAfter = await rebased(project.id, developer.token, quiet.iid);
    expect(quietAfter.sha).not.toBe(quiet.sha);
    expect((await pipelines(quietAfter.sha)).body).toHaveLength(0);

    // Again: up to date, still 202, nothing new.
    expect(await rebase(project.id, developer.token, mr.iid)).toMatchObject({ status: 202 });
    expect((await rebased(project.id, developer.token, mr.iid)).sha).toBe(after.sha);
    expect(await head(project.id, developer.token, 'feature')).toBe(after.sha);
  });

  it('leaves the branch as it is with merge_error on a conflict; 409 when closed, 403 on a protected branch', async () => {
    const token = project.owner.token;
    await commit(project.id, token, 'clash', { 'app.txt': 'ONE\nTWO from the branch\nthree\nfour\n' }, { start: 'main', update: true });
    await commit(project.id, token, 'main', { 'app.txt': 'ONE\ntwo on main\nthree\nfour\n' }, { update: true });
    const clash = await openMergeRequest(project.id, token, { source_branch: 'clash', title: 'Clash' });

    // A conflict: nothing changes, merge_error says why.
    expect(await rebase(project.id, developer.token, clash.iid)).toMatchObject({ status: 202 });
    expect(await rebased(project.id, developer.token, clash.iid)).toMatchObject({ merge_error: REBASE_ERROR, sha: clash.sha, diverged_commits_count: 1 });
    expect(await head(project.id, token, 'clash')).toBe(clash.sha);

    await api(mrs(project.id, `/${clash.iid}`), { method: 'PUT', token, body: { state_event: 'close' } });
    expect(await rebase(project.id, developer.token, clash.iid)).toMatchObject({ status: 409, body: { message: '409 Conflict: Resource lock' } });
    // A protected source branch that allows no force push refuses first, even to those who may push to it.
    const protect = await api(`/projects/${project.id}/protected_branches`, { token, body: { name: 'clash', push_access_level: DEVELOPER } });
    expect(protect.status, JSON.stringify(protect.body)).toBe(201);
    expect(await rebase(project.id, developer.token, clash.iid)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Source branch is protected from force push' } });
  });

  // The job is held back by writing to the local runtime's table.
  it.skipIf(!isLocalRuntime())('keeps a push made after the rebase was asked, failing the rebase; 409 while in progress', async () => {
    const token = project.owner.token;
    await commit(project.id, token, 'racer', { 'racer.txt': 'racer\n' }, { start: 'main' });
    await commit(project.id, token, 'main', { 'main.txt': 'main moves on\n' });
    const racer = await openMergeRequest(project.id, token, { source_branch: 'racer', title: 'Racer' });

    // A push between the request and the worker: the worker replays the head it was asked for, and its
    // compare-and-swap of the branch loses to the push, which stays; the rebase fails.
    await holdJob(MERGE_REQUEST_REBASE, racer.id, { projectId: project.id, iid: racer.iid });
    expect(await rebase(project.id, developer.token, racer.iid)).toMatchObject({ status: 202, body: { rebase_in_progress: true } });
    expect(await rebase(project.id, developer.token, racer.iid)).toMatchObject({ status: 409, body: { message: '409 Conflict: Resource lock' } });
    const pushed = await commit(project.id, developer.token, 'racer', { 'late.txt': 'late\n' });
    await releaseJob(MERGE_REQUEST_REBASE, racer.id);
    expect(await rebased(project.id, developer.token, racer.iid)).toMatchObject({ merge_error: REBASE_ERROR, sha: pushed.id });
    expect(await head(project.id, token, 'racer')).toBe(pushed.id);

    // Asked again, it rebases the pushed head and clears merge_error.
    expect(await rebase(project.id, developer.token, racer.iid)).toMatchObject({ status: 202 });
    expect(await rebased(project.id, developer.token, racer.iid)).toMatchObject({ merge_error: null, diverged_commits_count: 0 });
  });

  it('rebases a fork’s merge request in the fork', async () => {
    const upstream = await ownedProject('public');
    const contributor = await createUser();
    const upstreamWork = await pushNewRepository(upstream.fullPath, upstream.owner.token, { 'README.md': '# upstream\n' }, 'initial');
    const fork = await api(`/projects/${upstream.id}/fork`, { token: contributor.token, body: { namespace: contributor.username } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: upstreamWork });
    await commitFiles(upstreamWork, { 'contrib.txt': 'from the fork\n' }, 'Contribute');
    await gitOk(['push', '-q', cloneUrl(fork.body.path_with_namespace, contributor.token), 'feature'], { cwd: upstreamWork });
    await gitOk(['checkout', '-q', 'main'], { cwd: upstreamWork });
    await commitFiles(upstreamWork, { 'README.md': '# upstream, moved on\n' }, 'Upstream moves');
    await gitOk(['push', '-q', cloneUrl(upstream.fullPath, upstream.owner.token), 'main'], { cwd: upstreamWork });
    const mainHead = await head(upstream.id, upstream.owner.token, 'main');
    const mr = await openMergeRequest(fork.body.id, contributor.token, { source_branch: 'feature', title: 'Contribution', target_project_id: upstream.id });

    expect(await rebase(upstream.id, contributor.token, mr.iid)).toMatchObject({ status: 202, body: { rebase_in_progress: true } });

    const after = await rebased(upstream.id, contributor.token, mr.iid);
    expect(after).toMatchObject({ merge_error: null, diverged_commits_count: 0, source_project_id: fork.body.id });
    const commitInFork = await api(`/projects/${fork.body.id}/repository/commits/${after.sha}`, { token: contributor.token });
    expect(commitInFork.body).toMatchObject({ title: 'Contribute', parent_ids: [mainHead], committer_email: contributor.email });
    expect(await head(fork.body.id, contributor.token, 'feature')).toBe(after.sha);
    expect(await head(upstream.id, upstream.owner.token, 'main')).toBe(mainHead);
  });
});
