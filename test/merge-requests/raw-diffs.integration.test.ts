/**
 * `GET …/merge_requests/:iid/raw_diffs` (GitLab 17.9): the merge request's changes as the plain
 * text `git diff --full-index <merge base> <head>` prints, compared byte for byte with the real git
 * CLI's output over edits, additions (an empty file too), a deletion, an exact rename, a mode
 * change and a binary file; the target branch moved on after the source branched.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, localRepository } from '../support/git';
import { mrs, openMergeRequest } from './helpers';

describe('merge request raw diffs', () => {
  let project: OwnedProject;
  let work: string;
  beforeAll(async () => {
    project = await ownedProject('public');
    const remote = cloneUrl(project.fullPath, project.owner.token);
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`);
    work = await localRepository(
      { 'README.md': '# readme\n', 'src/a.txt': lines.join(''), 'gone.txt': 'bye\n', 'old-name.txt': 'moved content\nsecond\n', 'run.sh': 'echo hi\n', 'blob.bin': Buffer.from([0, 1, 2, 3]) },
      'initial',
    );
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await gitOk(['rm', '-q', 'gone.txt'], { cwd: work });
    await gitOk(['mv', 'old-name.txt', 'new-name.txt'], { cwd: work });
    const edited = [...lines];
    edited[4] = 'line five, edited\n';
    edited.splice(20, 1);
    await commitFiles(work, { 'src/a.txt': `${edited.join('')}no newline at the end`, 'new.txt': 'new file\n', 'empty.txt': '', 'blob.bin': Buffer.from([0, 9, 9]) }, 'Topic');
    chmodSync(join(work, 'run.sh'), 0o755);
    await commitFiles(work, {}, 'Executable');
    await gitOk(['push', '-q', remote, 'topic'], { cwd: work });
    // The target moves on: the diff starts at the merge base, not at main's tip.
    await gitOk(['checkout', '-q', 'main'], { cwd: work });
    await commitFiles(work, { 'main-only.txt': 'main\n' }, 'On main');
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
  });

  it('answers the changes as git diff prints them, in text/plain', async () => {
    // Prepare
    const mr = await openMergeRequest(project.id, project.owner.token, { source_branch: 'topic', title: 'Topic' });
    const base = (await gitOk(['merge-base', 'main', 'topic'], { cwd: work })).trim();
    const expected = execFileSync('git', ['-c', 'diff.renames=true', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', 'diff', '--full-index', base, 'topic'], { cwd: work });

    // Act
    const raw = await api(mrs(project.id, `/${mr.iid}/raw_diffs`));
    const compare = await api(`/projects/${project.id}/repository/compare`, { query: { from: base, to: 'topic', unidiff: true } });
    const missing = await api(mrs(project.id, '/999999/raw_diffs'));

    // Assess
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(raw.body).toBe(expected.toString('utf8'));
    expect(raw.body).toContain('rename from old-name.txt\nrename to new-name.txt\n');
    expect(raw.body).toContain('old mode 100644\nnew mode 100755\n');
    expect(raw.body).toContain('Binary files a/blob.bin and b/blob.bin differ\n');
    const a = compare.body.diffs.find((diff: { new_path: string }) => diff.new_path === 'src/a.txt');
    expect(raw.body).toContain(a.diff);
    expect(missing.status).toBe(404);
  });
});
