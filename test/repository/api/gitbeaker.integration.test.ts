/**
 * The repository API driven by a real GitLab client (@gitbeaker/rest): commits made of actions,
 * files, branches and their protection, trees, compare and tags, as a script would use them.
 */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../../support/api';
import { createUser } from '../../support/fixtures';

describe('gitbeaker: commits, branches and files', () => {
  it('fills a repository, branches, edits files, compares, protects and tags', async () => {
    // Prepare: a user with their own project
    const owner = await createUser();
    const gitlab = new Gitlab({ host: baseUrl(), token: owner.token });
    const project = await gitlab.Projects.create({ name: 'Library', visibility: 'private', defaultBranch: 'main' });

    // A first commit of several files into the empty repository
    const first = await gitlab.Commits.create(project.id, 'main', 'Initial import', [
      { action: 'create', filePath: 'README.md', content: '# Library\n' },
      { action: 'create', filePath: 'src/index.js', content: 'export const answer = 42;\n' },
    ]);
    expect(first).toMatchObject({ title: 'Initial import', parent_ids: [], stats: { additions: 2, deletions: 0, total: 2 } });

    // A branch from it, a file edited there through the files API
    const branch = await gitlab.Branches.create(project.id, 'feature/docs', 'main');
    expect(branch).toMatchObject({ name: 'feature/docs', merged: false, protected: false, can_push: true, default: false });
    await gitlab.RepositoryFiles.create(project.id, 'docs/guide.md', 'feature/docs', '# Guide\n', 'Add the guide');
    const readme = await gitlab.RepositoryFiles.show(project.id, 'README.md', 'feature/docs');
    await gitlab.RepositoryFiles.edit(project.id, 'README.md', 'feature/docs', '# Library\n\nSee docs/guide.md\n', 'Point to the guide', {
      lastCommitId: readme.last_commit_id,
    });
    const raw = await gitlab.RepositoryFiles.showRaw(project.id, 'README.md', 'feature/docs');
    expect(String(raw)).toBe('# Library\n\nSee docs/guide.md\n');

    // History, tree and comparison as the client reads them
    const commits = await gitlab.Commits.all(project.id, { refName: 'feature/docs' });
    expect(commits.map((c) => c.title)).toEqual(['Point to the guide', 'Add the guide', 'Initial import']);
    const shown = await gitlab.Commits.show(project.id, commits[0].id);
    expect(shown.stats).toEqual({ additions: 2, deletions: 0, total: 2 });
    const diff = await gitlab.Commits.showDiff(project.id, commits[0].id);
    expect(diff[0]).toMatchObject({ new_path: 'README.md', diff: '@@ -1 +1,3 @@\n # Library\n+\n+See docs/guide.md\n' });
    const tree = await gitlab.Repositories.allRepositoryTrees(project.id, { ref: 'feature/docs', recursive: true });
    expect(tree.map((entry) => entry.path)).toEqual(['docs', 'src', 'README.md', 'docs/guide.md', 'src/index.js']);
    const comparison = await gitlab.Repositories.compare(project.id, 'main', 'feature/docs');
    expect(comparison.commits?.map((c) => c.title)).toEqual(['Add the guide', 'Point to the guide']);
    expect(comparison.diffs?.map((d) => d.new_path)).toEqual(['README.md', 'docs/guide.md']);

    // Protect feature branches (main is protected by its first commit, as GitLab's default), list branches,
    // tag a release, delete the merged branch after a fast-forward commit
    expect((await gitlab.ProtectedBranches.all(project.id)).map((p) => p.name)).toEqual(['main']);
    await gitlab.ProtectedBranches.protect(project.id, 'feature/*', { pushAccessLevel: 30, mergeAccessLevel: 40 });
    const branches = await gitlab.Branches.all(project.id);
    expect(branches.map((b) => [b.name, b.protected, b.default])).toEqual([
      ['feature/docs', true, false],
      ['main', true, true],
    ]);
    const tag = await gitlab.Tags.create(project.id, 'v1.0.0', 'main', { message: 'First release' });
    expect(tag).toMatchObject({ name: 'v1.0.0', message: 'First release', commit: { id: first.id } });
    expect((await gitlab.Tags.all(project.id)).map((t) => t.name)).toEqual(['v1.0.0']);
    await gitlab.Branches.remove(project.id, 'feature/docs');
    await expect(gitlab.Branches.show(project.id, 'feature/docs')).rejects.toThrow();
  });
});
