/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests` (python-gitlab's
 * `commit.merge_requests()`, semantic-release's release comments): the merge requests whose latest
 * version holds a commit, and the one whose merge commit it is; a commit rewritten away by a force
 * push no longer lists its merge request; and the migration that indexes merge requests recorded before.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkProjectMergeRequestCommits } from '../../shared/merge-requests';
import { mergeRequestCollections } from '../../shared/merge-requests/store/keys';
import { deleteMany } from '../../shared/platform/dynamo/batch';
import { queryAll } from '../../shared/platform/dynamo/query';
import { api, isLocalRuntime } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, commitFiles, gitOk, scratch } from '../support/git';
import { commit, head, mrs, openMergeRequest } from './helpers';

describe('GET /projects/:id/repository/commits/:sha/merge_requests', () => {
  let project: OwnedProject;
  let feature: { id: string };
  let other: { id: string };
  let first: { iid: number };
  let second: { iid: number };
  const mergeRequestsOf = (sha: string, query?: Record<string, string>) =>
    api(`/projects/${project.id}/repository/commits/${sha}/merge_requests`, { token: project.owner.token, query });
  const iidsOf = async (sha: string, query?: Record<string, string>) => ((await mergeRequestsOf(sha, query)).body as Array<{ iid: number }>).map((mr) => mr.iid);

  beforeAll(async () => {
    // Prepare: two merge requests into main, each with a commit of its own.
    project = await ownedProject();
    await commit(project.id, project.owner.token, 'main', { 'README.md': '# hi\n' });
    feature = await commit(project.id, project.owner.token, 'feature', { 'a.txt': 'a\n' }, { start: 'main' });
    other = await commit(project.id, project.owner.token, 'other', { 'b.txt': 'b\n' }, { start: 'main' });
    first = await openMergeRequest(project.id, project.owner.token, { source_branch: 'feature', title: 'Feature' });
    second = await openMergeRequest(project.id, project.owner.token, { source_branch: 'other', title: 'Other' });
  });

  it("lists the merge requests holding a commit, by id, branch name or tag, as the list's entity", async () => {
    // Act
    const byId = await mergeRequestsOf(feature.id);
    const byBranch = await mergeRequestsOf('other');

    // Assess
    expect(byId.status).toBe(200);
    expect(byId.body).toHaveLength(1);
    expect(byId.body[0]).toMatchObject({ iid: first.iid, project_id: project.id, title: 'Feature', state: 'opened', source_branch: 'feature', sha: feature.id });
    expect((byBranch.body as Array<{ iid: number }>).map((mr) => mr.iid)).toEqual([second.iid]);
    expect(await iidsOf(feature.id, { state: 'merged' })).toEqual([]);
    expect((await mergeRequestsOf('0'.repeat(40))).body).toEqual({ message: '404 Commit Not Found' });
  });

  it('forgets a commit a force push took out of the merge request, and finds the new one', async () => {
    // Prepare: `feature` rewritten from main with another commit, force-pushed.
    const work = join(scratch('force-'), 'clone');
    await gitOk(['clone', '-q', cloneUrl(project.fullPath, project.owner.token), work]);
    await gitOk(['checkout', '-q', '-b', 'feature', 'origin/main'], { cwd: work });
    const rewritten = await commitFiles(work, { 'c.txt': 'c\n' }, 'rewritten');
    await gitOk(['push', '-q', '--force', 'origin', 'feature'], { cwd: work });

    // Act: the merge request takes the push as a new version.
    await eventually(async () => expect((await api(mrs(project.id, `/${first.iid}`), { token: project.owner.token })).body.sha).toBe(rewritten));

    // Assess
    expect(await iidsOf(feature.id)).toEqual([]);
    expect(await iidsOf(rewritten)).toEqual([first.iid]);
  });

  it('lists a merged merge request by its merge commit, with the state filter', async () => {
    // Act
    const merged = await api(mrs(project.id, `/${second.iid}/merge`), { method: 'PUT', token: project.owner.token });
    const mergeCommit = await head(project.id, project.owner.token, 'main');

    // Assess
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.merge_commit_sha).toBe(mergeCommit);
    expect(await iidsOf(mergeCommit)).toEqual([second.iid]);
    expect(await iidsOf(other.id, { state: 'merged' })).toEqual([second.iid]);
    expect(await iidsOf(other.id, { state: 'opened' })).toEqual([]);
  });

  it.runIf(isLocalRuntime())('finds merge requests recorded before commits were indexed once the migration ran', async () => {
    // Prepare: the entries of the feature's commit taken away, as for a merge request recorded before.
    const sha = await head(project.id, project.owner.token, 'feature');
    await deleteMany(await queryAll(mergeRequestCollections.commitLinks(project.id, sha)).then((items) => items.map((item) => ({ PK: String(item.PK), SK: String(item.SK) }))));
    expect(await iidsOf(sha)).toEqual([]);

    // Act
    const indexed = await linkProjectMergeRequestCommits(project.id);

    // Assess
    expect(indexed).toBeGreaterThanOrEqual(2);
    expect(await iidsOf(sha)).toEqual([first.iid]);
  });
});
