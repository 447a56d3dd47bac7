/**
 * A team's review flow through a real GitLab client (@gitbeaker/rest) and the real `git` CLI:
 * push a branch, open a merge request that fixes an issue, read its diffs, comment, push a fix
 * (a new version, its changes), merge, and find the issue closed.
 */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api';
import { createUser, unique } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';

describe('gitbeaker: merge requests', () => {
  it('opens, comments, pushes a fix, merges and closes the issue', async () => {
    const lead = await createUser();
    const gitlab = new Gitlab({ host: baseUrl(), token: lead.token });
    const project = await gitlab.Projects.create({ name: unique('review-'), visibility: 'private' });
    const issue = await gitlab.Issues.create(project.id, 'Typo in the README');
    const remote = cloneUrl(project.path_with_namespace, lead.token);
    const work = await localRepository({ 'README.md': '# Helo\n' }, 'initial');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['checkout', '-q', '-b', 'fix-typo'], { cwd: work });
    await commitFiles(work, { 'README.md': '# Hello\n' }, `Fix the typo\n\nCloses #${issue.iid}`);
    await gitOk(['push', '-q', remote, 'fix-typo'], { cwd: work });

    const mr = await gitlab.MergeRequests.create(project.id, 'fix-typo', 'main', 'Fix the README typo', { description: 'Small fix' });
    expect(mr).toMatchObject({ iid: 1, state: 'opened', source_branch: 'fix-typo', target_branch: 'main' });
    // `allDiffs` is what gitbeaker offers since GitLab 15.7 deprecated `changes`; both answer.
    const diffs = await gitlab.MergeRequests.allDiffs(project.id, mr.iid);
    expect(diffs).toEqual([expect.objectContaining({ old_path: 'README.md', new_path: 'README.md', diff: '@@ -1 +1 @@\n-# Helo\n+# Hello\n' })]);
    expect((await gitlab.MergeRequests.allIssuesClosed(project.id, mr.iid)).map((i) => i.iid)).toEqual([issue.iid]);
    await gitlab.MergeRequestNotes.create(project.id, mr.iid, 'Please add a newline at the end');

    const fix = await commitFiles(work, { 'README.md': '# Hello\n\nWelcome.\n' }, 'Address the review');
    await gitOk(['push', '-q', remote, 'fix-typo'], { cwd: work });
    const versions = await gitlab.MergeRequests.allDiffVersions(project.id, mr.iid);
    expect(versions.map((v) => v.head_commit_sha)[0]).toBe(fix);
    expect(versions).toHaveLength(2);
    const changes = await gitlab.MergeRequests.showChanges(project.id, mr.iid);
    expect(changes.changes).toEqual([expect.objectContaining({ old_path: 'README.md', new_path: 'README.md', diff: expect.stringContaining('+Welcome.') })]);

    const merged = await gitlab.MergeRequests.accept(project.id, mr.iid, { sha: fix });
    expect(merged).toMatchObject({ state: 'merged', merge_commit_sha: expect.any(String) });
    expect((await gitlab.Issues.show(issue.iid, { projectId: project.id })).state).toBe('closed');
    const notes = await gitlab.MergeRequestNotes.all(project.id, mr.iid);
    expect(notes.map((n) => n.body)).toEqual(expect.arrayContaining(['Please add a newline at the end', 'merged']));
  });
});
