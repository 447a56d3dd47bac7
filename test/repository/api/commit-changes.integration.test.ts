/**
 * Cherry-picking and reverting commits through the commits API (python-gitlab's
 * `commit.cherry_pick(branch)` and `commit.revert(branch)`, backport bots), and a commit's
 * sequence number: the new commit on the branch, its author and message, dry runs, GitLab's
 * error codes for a change that conflicts or is already there, and who may do it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/api';
import { createUser, newMember, ownedProject, type OwnedProject } from '../../support/fixtures';
import { commit, createFiles, enc, repo } from './helpers';

const REPORTER = 20;
const DEVELOPER = 30;

/** The raw content of a file on a branch, or the status when it is not there. */
async function fileOn(project: OwnedProject, branch: string, path: string): Promise<string | number> {
  const response = await api(repo(project.id, `/files/${enc(path)}/raw`), { token: project.owner.token, query: { ref: branch } });
  return response.status === 200 ? (response.body as string) : response.status;
}

const tipOf = async (project: OwnedProject, branch: string) =>
  (await api(repo(project.id, `/branches/${branch}`), { token: project.owner.token })).body.commit.id as string;

describe('POST /projects/:id/repository/commits/:sha/cherry_pick and /revert', () => {
  let project: OwnedProject;
  let fix: { id: string };
  let base: { id: string };

  beforeAll(async () => {
    // Prepare: main with two files; a stable branch from it; a fix on main to carry over.
    project = await ownedProject();
    base = await createFiles(project.id, project.owner.token, { 'app.txt': 'one\ntwo\nthree\n', 'notes.txt': 'notes\n' });
    const branch = await api(repo(project.id, '/branches'), { token: project.owner.token, body: { branch: 'stable', ref: 'main' } });
    expect(branch.status).toBe(201);
    fix = await commit(project.id, project.owner.token, [{ action: 'update', file_path: 'app.txt', content: 'one\nTWO\nthree\n' }], { commit_message: 'Fix two\n\nBecause it was wrong.', author_name: 'Ada', author_email: 'ada@example.com' });
  });

  it('cherry-picks a commit onto another branch, keeping its author, with a dry run first', async () => {
    // Prepare
    const before = await tipOf(project, 'stable');

    // Act
    const dry = await api(repo(project.id, `/commits/${fix.id}/cherry_pick`), { token: project.owner.token, body: { branch: 'stable', dry_run: true } });
    const unchanged = await tipOf(project, 'stable');
    const picked = await api(repo(project.id, `/commits/${fix.id}/cherry_pick`), { token: project.owner.token, body: { branch: 'stable' } });

    // Assess
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ dry_run: 'success' });
    expect(unchanged).toBe(before);
    expect(picked.status, JSON.stringify(picked.body)).toBe(201);
    expect(picked.body).toMatchObject({
      parent_ids: [before],
      title: 'Fix two',
      message: `Fix two\n\nBecause it was wrong.\n\n(cherry-picked from commit ${fix.id})`,
      author_name: 'Ada',
      author_email: 'ada@example.com',
      committer_email: project.owner.email,
    });
    expect(picked.body.id).not.toBe(fix.id);
    expect(await tipOf(project, 'stable')).toBe(picked.body.id);
    expect(await fileOn(project, 'stable', 'app.txt')).toBe('one\nTWO\nthree\n');
  });

  it("answers GitLab's error code when the change is already there or conflicts, and changes nothing", async () => {
    // Prepare: main changes the fixed line again, so reverting the base's content conflicts with it.
    await commit(project.id, project.owner.token, [{ action: 'update', file_path: 'app.txt', content: 'one\nDOS\nthree\n' }]);
    const stable = await tipOf(project, 'stable');
    const main = await tipOf(project, 'main');

    // Act
    const again = await api(repo(project.id, `/commits/${fix.id}/cherry_pick`), { token: project.owner.token, body: { branch: 'stable' } });
    const conflict = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: project.owner.token, body: { branch: 'main', dry_run: true } });

    // Assess
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: expect.stringMatching(/^Commit cherry-pick failed: Can't perform this action automatically/), error_code: 'empty' });
    expect(conflict.status).toBe(400);
    expect(conflict.body).toEqual({ message: expect.stringMatching(/^Commit revert failed: /), error_code: 'conflict', dry_run: 'error' });
    expect([await tipOf(project, 'stable'), await tipOf(project, 'main')]).toEqual([stable, main]);
  });

  it('reverts a commit by its author and committer, the user, with a custom cherry-pick message kept apart', async () => {
    // Prepare: a commit adding a file, then reverted on main.
    const added = await commit(project.id, project.owner.token, [{ action: 'create', file_path: 'extra.txt', content: 'extra\n' }], { commit_message: 'Add extra  ' });

    // Act
    const reverted = await api(repo(project.id, `/commits/${added.id}/revert`), { token: project.owner.token, body: { branch: 'main' } });
    const custom = await api(repo(project.id, `/commits/${added.id}/cherry_pick`), { token: project.owner.token, body: { branch: 'stable', message: 'Backport extra' } });

    // Assess
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(201);
    expect(reverted.body).toMatchObject({
      parent_ids: [added.id],
      message: `Revert "Add extra"\n\nThis reverts commit ${added.id}`,
      author_email: project.owner.email,
      committer_email: project.owner.email,
    });
    expect(await fileOn(project, 'main', 'extra.txt')).toBe(404);
    expect(custom.status).toBe(201);
    expect(custom.body.message).toBe('Backport extra');
    expect(await fileOn(project, 'stable', 'extra.txt')).toBe('extra\n');
  });

  it('answers 404 for an unknown commit or branch, 400 for a missing or blank branch', async () => {
    // Act
    const noCommit = await api(repo(project.id, `/commits/${'0'.repeat(40)}/cherry_pick`), { token: project.owner.token, body: { branch: 'stable' } });
    const noBranch = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: project.owner.token, body: { branch: 'nope' } });
    const missing = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: project.owner.token, body: {} });
    const blank = await api(repo(project.id, `/commits/${fix.id}/cherry_pick`), { token: project.owner.token, body: { branch: '' } });

    // Assess
    expect([noCommit.status, noCommit.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    expect([noBranch.status, noBranch.body]).toEqual([404, { message: '404 Branch Not Found' }]);
    expect([missing.status, missing.body]).toEqual([400, { error: 'branch is missing' }]);
    expect([blank.status, blank.body]).toEqual([400, { error: 'branch is empty' }]);
  });

  it('lets a developer change an unprotected branch only: 403 on the protected default branch, and for a reporter', async () => {
    // Prepare
    const developer = await newMember(project, DEVELOPER);
    const reporter = await newMember(project, REPORTER);
    const stranger = await createUser();
    const main = await tipOf(project, 'main');

    // Act
    const onMain = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: developer.token, body: { branch: 'main' } });
    const byReporter = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: reporter.token, body: { branch: 'stable' } });
    const byStranger = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: stranger.token, body: { branch: 'stable' } });
    const onStable = await api(repo(project.id, `/commits/${fix.id}/revert`), { token: developer.token, body: { branch: 'stable' } });

    // Assess
    expect([onMain.status, onMain.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to push into this branch' }]);
    expect(byReporter.status).toBe(403);
    expect(byStranger.status).toBe(404);
    expect(onStable.status, JSON.stringify(onStable.body)).toBe(201);
    expect(await fileOn(project, 'stable', 'app.txt')).toBe('one\ntwo\nthree\n');
    expect(await tipOf(project, 'main')).toBe(main);
  });

  it('lists the contributors of a ref by email with their commit counts, ordered and paged as GitLab', async () => {
    // Act
    const main = await api(repo(project.id, '/contributors'), { token: project.owner.token });
    const stable = await api(repo(project.id, '/contributors'), { token: project.owner.token, query: { ref: 'stable', order_by: 'email', sort: 'desc', per_page: 2 } });
    const unknown = await api(repo(project.id, '/contributors'), { token: project.owner.token, query: { ref: 'nope' } });
    const badOrder = await api(repo(project.id, '/contributors'), { token: project.owner.token, query: { order_by: 'size' } });

    // Assess: main has the owner's four commits and Ada's fix; stable also the developer's revert.
    expect(main.status).toBe(200);
    expect(main.body).toEqual([
      { name: 'Ada', email: 'ada@example.com', commits: 1, additions: 0, deletions: 0 },
      { name: `Test ${project.owner.username}`, email: project.owner.email, commits: 4, additions: 0, deletions: 0 },
    ]);
    const stableEmails = (stable.body as Array<{ email: string }>).map((contributor) => contributor.email);
    expect(stableEmails).toHaveLength(2);
    expect(stableEmails).toEqual([...stableEmails].sort().reverse());
    expect([stable.headers.get('x-total'), stable.headers.get('x-next-page')]).toEqual(['3', '2']);
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Not Found' }]);
    expect([badOrder.status, badOrder.body]).toEqual([400, { error: 'order_by does not have a valid value' }]);
  });

  it("counts a commit's history, all of it or along first parents", async () => {
    // Act
    const ofBase = await api(repo(project.id, `/commits/${base.id}/sequence`), { token: project.owner.token });
    const ofStable = await api(repo(project.id, '/commits/stable/sequence'), { token: project.owner.token, query: { first_parent: true } });
    const unknown = await api(repo(project.id, '/commits/nope/sequence'), { token: project.owner.token });

    // Assess
    expect(ofBase.body).toEqual({ count: 1 });
    expect(ofStable.body).toEqual({ count: 4 });
    expect(unknown.status).toBe(404);
  });
});
