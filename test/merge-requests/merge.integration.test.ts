/**
 * Accepting merge requests over HTTP: GitLab's default merge commit message and closing issues
 * (also across projects), permissions on protected and unprotected targets, 406 for closed
 * ones, 405 on conflicts, 409 on a stale `sha`, merge when pipeline succeeds (no pipelines: at
 * once) and its cancel rules; two racing merges make one merge commit, a merge racing a push to
 * the target keeps the push.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { newMember, openIssue, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, DEVELOPER, head, MAINTAINER, mrs, openMergeRequest } from './helpers';

describe('merging merge requests', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let maintainer: TestUser;
  let token: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n', 'app.txt': 'one\ntwo\nthree\n' });
    [developer, maintainer] = await Promise.all([newMember(project, DEVELOPER), newMember(project, MAINTAINER)]);
  });

  it('merges with GitLab’s default message, closes the issues it references and records who merged', async () => {
    const issue = await openIssue(project.id, token);
    const other = await ownedProject('public');
    const foreign = await openIssue(other.id, other.owner.token);
    await api(`/projects/${other.id}/members`, { token: other.owner.token, body: { user_id: maintainer.id, access_level: DEVELOPER } });
    await commit(project.id, token, 'fix', { 'fix.txt': 'fixed\n' }, { start: 'main', message: `Fix it\n\nCloses ${other.fullPath}#${foreign.iid}` });
    const mr = await openMergeRequest(project.id, developer.token, { source_branch: 'fix', title: 'Fix the bug', description: `Fixes #${issue.iid}` });
    const closes = await api(mrs(project.id, `/${mr.iid}/closes_issues`), { token: maintainer.token });
    expect(closes.body.map((i: { id: number }) => i.id).sort()).toEqual([issue.id, foreign.id].sort());
    const mainBefore = await head(project.id, token, 'main');

    // `main` is protected (GitLab's default for the first branch): developers may not merge into it.
    expect(await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: developer.token })).toMatchObject({ status: 401 });
    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: maintainer.token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { id: maintainer.id }, merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    // Lists show who merged it too (current GitLab's `merged_by`, `merge_user`, `merged_at` are basic fields).
    const listed = (await api(mrs(project.id), { token: maintainer.token, query: { state: 'merged' } })).body.find((m: { iid: number }) => m.iid === mr.iid);
    expect(listed).toMatchObject({ merged_by: { id: maintainer.id }, merge_user: { id: maintainer.id }, merged_at: merged.body.merged_at, closed_by: null });
    // The issues it closes, referenced from its project: the other project's by its full path.
    expect(closes.body.find((i: { id: number }) => i.id === foreign.id).references.relative).toBe(`${other.fullPath}#${foreign.iid}`);
    expect(closes.body.find((i: { id: number }) => i.id === issue.id).references.relative).toBe(`#${issue.iid}`);
    const mainAfter = await head(project.id, token, 'main');
    expect(mainAfter).toBe(merged.body.merge_commit_sha);
    const mergeCommit = (await api(`/projects/${project.id}/repository/commits/${mainAfter}`, { token })).body;
    expect(mergeCommit.parent_ids).toEqual([mainBefore, mr.sha]);
    expect(mergeCommit.message).toBe(
      `Merge branch 'fix' into 'main'\n\nFix the bug\n\nCloses #${issue.iid} and ${other.fullPath}#${foreign.iid}\n\nSee merge request ${project.fullPath}!${mr.iid}`,
    );
    expect((await api(`/projects/${project.id}/issues/${issue.iid}`, { token })).body).toMatchObject({ state: 'closed', closed_by: { id: maintainer.id } });
    expect((await api(`/projects/${other.id}/issues/${foreign.iid}`, { token: other.owner.token })).body.state).toBe('closed');
    const closedBy = await api(`/projects/${project.id}/issues/${issue.iid}/closed_by`, { token });
    expect(closedBy.body.map((m: { iid: number }) => m.iid)).toEqual([mr.iid]);
    const notes = await api(mrs(project.id, `/${mr.iid}/notes`), { token });
    expect(notes.body.map((n: { body: string }) => n.body)).toContain('merged');
    // Merged: 406, and cancel answers 405.
    expect(await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: maintainer.token })).toMatchObject({ status: 406, body: { message: 'Method Not Allowed' } });
    expect(await api(mrs(project.id, `/${mr.iid}/cancel_merge_when_pipeline_succeeds`), { method: 'PUT', token: maintainer.token })).toMatchObject({ status: 405 });
  });

  it('answers 405 on conflicts, 409 on a stale sha, 406 when closed, nothing merged', async () => {
    await commit(project.id, token, 'clash', { 'app.txt': 'one\nTWO from branch\nthree\n' }, { start: 'main', update: true });
    await commit(project.id, token, 'main', { 'app.txt': 'one\ntwo on main\nthree\n' }, { update: true });
    const conflicting = await openMergeRequest(project.id, token, { source_branch: 'clash', title: 'Clash' });
    const mainBefore = await head(project.id, token, 'main');
    expect((await api(mrs(project.id, `/${conflicting.iid}`), { token })).body.merge_status).toBe('cannot_be_merged');
    expect(await api(mrs(project.id, `/${conflicting.iid}/merge`), { method: 'PUT', token })).toMatchObject({ status: 405, body: { message: 'Branch cannot be merged' } });

    await commit(project.id, token, 'clean', { 'clean.txt': 'clean\n' }, { start: 'main' });
    const clean = await openMergeRequest(project.id, token, { source_branch: 'clean', title: 'Clean' });
    expect(await api(mrs(project.id, `/${clean.iid}/merge`), { method: 'PUT', token, body: { sha: 'a'.repeat(40) } })).toMatchObject({
      status: 409,
      body: { message: 'SHA does not match HEAD of source branch' },
    });
    await api(mrs(project.id, `/${clean.iid}`), { method: 'PUT', token, body: { state_event: 'close' } });
    expect(await api(mrs(project.id, `/${clean.iid}/merge`), { method: 'PUT', token })).toMatchObject({ status: 406, body: { message: 'Method Not Allowed' } });
    expect(await api(mrs(project.id, `/${clean.iid}/cancel_merge_when_pipeline_succeeds`), { method: 'PUT', token })).toMatchObject({ status: 405 });
    expect(await head(project.id, token, 'main')).toBe(mainBefore);
    expect((await api(mrs(project.id, `/${conflicting.iid}`), { token })).body.state).toBe('opened');
  });

  it('merges at once with merge_when_pipeline_succeeds (no pipeline); cancel on an open one without it is 406', async () => {
    await commit(project.id, token, 'auto', { 'auto.txt': 'auto\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'auto', title: 'Auto' });
    expect(await api(mrs(project.id, `/${mr.iid}/cancel_merge_when_pipeline_succeeds`), { method: 'PUT', token })).toMatchObject({ status: 406 });
    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token, body: { merge_when_pipeline_succeeds: true, sha: mr.sha } });
    expect(merged.body).toMatchObject({ state: 'merged', merge_when_pipeline_succeeds: false });
  });

  it('removes the source branch after the merge when asked, and keeps it otherwise; labels named on create are created', async () => {
    await commit(project.id, token, 'doomed', { 'doomed.txt': 'd\n' }, { start: 'main' });
    await commit(project.id, token, 'kept', { 'kept.txt': 'k\n' }, { start: 'main' });
    const doomed = await openMergeRequest(project.id, token, { source_branch: 'doomed', title: 'Doomed', labels: 'brand-new,Other' });
    expect(doomed.labels.sort()).toEqual(['Other', 'brand-new']);
    const kept = await openMergeRequest(project.id, token, { source_branch: 'kept', title: 'Kept' });

    expect((await api(mrs(project.id, `/${doomed.iid}/merge`), { method: 'PUT', token, body: { should_remove_source_branch: true } })).body.state).toBe('merged');
    expect((await api(mrs(project.id, `/${kept.iid}/merge`), { method: 'PUT', token })).body.state).toBe('merged');

    expect((await api(`/projects/${project.id}/repository/branches/doomed`, { token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/repository/branches/kept`, { token })).status).toBe(200);
    const labels = (await api(`/projects/${project.id}/labels`, { token })).body.map((label: { name: string }) => label.name);
    expect(labels).toEqual(expect.arrayContaining(['brand-new', 'Other']));
    // The merged merge request stays readable with its commits although its branch is gone.
    expect((await api(mrs(project.id, `/${doomed.iid}/commits`), { token })).body).toHaveLength(1);
  });

  it('lets developers merge into an unprotected branch; a work in progress is 406', async () => {
    await commit(project.id, token, 'base', { 'base.txt': 'base\n' }, { start: 'main' });
    await commit(project.id, token, 'topic', { 'topic.txt': 'topic\n' }, { start: 'base' });
    const wip = await openMergeRequest(project.id, developer.token, { source_branch: 'topic', target_branch: 'base', title: 'WIP: topic' });
    expect(await api(mrs(project.id, `/${wip.iid}/merge`), { method: 'PUT', token: developer.token })).toMatchObject({ status: 406 });
    await api(mrs(project.id, `/${wip.iid}`), { method: 'PUT', token: developer.token, body: { title: 'Topic' } });
    const merged = await api(mrs(project.id, `/${wip.iid}/merge`), { method: 'PUT', token: developer.token, body: { should_remove_source_branch: true } });
    expect(merged.body).toMatchObject({ state: 'merged', should_remove_source_branch: true });
  });

  it('lets developers merge into a protected branch with developers_can_merge', async () => {
    await commit(project.id, token, 'release', { 'release.txt': 'r\n' }, { start: 'main' });
    await commit(project.id, token, 'for-release', { 'for-release.txt': 'f\n' }, { start: 'release' });
    const protect = await api(`/projects/${project.id}/repository/branches/release/protect`, { method: 'PUT', token, body: { developers_can_merge: false } });
    expect(protect.status, JSON.stringify(protect.body)).toBe(200);
    const mr = await openMergeRequest(project.id, developer.token, { source_branch: 'for-release', target_branch: 'release', title: 'For release' });
    expect((await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: developer.token })).status).toBe(401);
    await api(`/projects/${project.id}/repository/branches/release/protect`, { method: 'PUT', token, body: { developers_can_merge: true } });
    expect((await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: developer.token })).body.state).toBe('merged');
  });

  it('two racing merges of one merge request make one merge commit', async () => {
    await commit(project.id, token, 'race', { 'race.txt': 'race\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'race', title: 'Race' });
    const before = await head(project.id, token, 'main');
    const answers = await Promise.all([1, 2, 3].map(() => api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 406)).toBe(true);
    const after = await head(project.id, token, 'main');
    const mergeCommit = (await api(`/projects/${project.id}/repository/commits/${after}`, { token })).body;
    expect(mergeCommit.parent_ids[0]).toBe(before);
  });

  it('a merge racing pushes to the target keeps every push', async () => {
    await commit(project.id, token, 'racer', { 'racer.txt': 'racer\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'racer', title: 'Racer' });
    const [merge, ...pushes] = await Promise.all([
      api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token }),
      ...[1, 2, 3].map((n) => api(`/projects/${project.id}/repository/commits`, {
        token,
        body: { branch: 'main', commit_message: `push ${n}`, actions: [{ action: 'create', file_path: `push-${n}.txt`, content: `${n}\n` }] },
      })),
    ]);
    expect(merge.status, JSON.stringify(merge.body)).toBe(200);
    const tree = await api(`/projects/${project.id}/repository/tree`, { token, query: { per_page: 100 } });
    const names = tree.body.map((e: { name: string }) => e.name);
    expect(names).toContain('racer.txt');
    for (const [i, push] of pushes.entries()) if (push.status === 201) expect(names).toContain(`push-${i + 1}.txt`);
  });
});
