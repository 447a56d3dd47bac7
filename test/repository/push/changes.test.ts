/**
 * The paths a commit changed (`shared/repository/push/changes.ts`), against `git diff-tree -r`
 * with exact rename detection (`-M100%`), mapped as GitLab's `Commit#repo_changes` maps deltas:
 * deleted → removed, new or renamed → added (the new path), anything else → modified.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { changedPaths } from '../../../shared/repository/push/changes';
import { describeCommits } from '../../../shared/repository/push/commits';
import { peelToCommit } from '../../../shared/repository/push/summary';
import { TestRepo } from './repo';

const repo = new TestRepo();
afterAll(() => repo.remove());

/** What git says the commit changed against its first parent, in GitLab's three lists. */
function gitChanges(commit: string) {
  const parents = repo.git(['rev-list', '--parents', '-n', '1', commit]).trim().split(' ').slice(1);
  const against = parents[0] ?? '4b825dc642cb6eb9a060e54bf8d69288fbee4904'; // the empty tree
  const raw = repo.git(['diff-tree', '-r', '-z', '-M100%', '--no-commit-id', against, commit]);
  const fields = raw.split('\0').filter((field, i, all) => field !== '' || i < all.length - 1);
  const result = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
  for (let i = 0; i < fields.length; ) {
    const status = fields[i].split(' ')[4];
    if (!status) break;
    if (status.startsWith('R') || status.startsWith('C')) {
      result.added.push(fields[i + 2]);
      i += 3;
    } else {
      const path = fields[i + 1];
      if (status === 'A') result.added.push(path);
      else if (status === 'D') result.removed.push(path);
      else result.modified.push(path);
      i += 2;
    }
  }
  return result;
}

async function ours(commit: string) {
  const reader = repo.reader();
  const walked = (await peelToCommit(reader.read, commit))!;
  const parent = walked.commit.parents[0] ? (await peelToCommit(reader.read, walked.commit.parents[0]))! : undefined;
  return changedPaths(reader.read, walked.commit.tree, parent?.commit.tree ?? null);
}

describe('changedPaths', () => {
  const commits: Record<string, string> = {};

  it('lists every file of a root commit as added, in git order', async () => {
    commits.root = repo.commit('root', {
      'README.md': 'hello\n',
      'src/a.ts': 'a\n',
      'src/b/c.ts': 'c\n',
      'src-x': 'x\n',
      'src.ts': 'dot\n',
      'z/deep/er/file': 'deep\n',
    });
    const changes = await ours(commits.root);
    expect(changes).toEqual(gitChanges(commits.root));
    expect(changes.added).toEqual(['README.md', 'src-x', 'src.ts', 'src/a.ts', 'src/b/c.ts', 'z/deep/er/file']);
  });

  it('tells added, modified and removed files apart, in nested directories', async () => {
    commits.mixed = repo.commit('mixed', { 'src/a.ts': 'a changed\n', 'src/b/c.ts': null, 'src/b/d.ts': 'd\n', 'new/file.txt': 'n\n' });
    expect(await ours(commits.mixed)).toEqual(gitChanges(commits.mixed));
    expect(await ours(commits.mixed)).toEqual({ added: ['new/file.txt', 'src/b/d.ts'], modified: ['src/a.ts'], removed: ['src/b/c.ts'] });
  });

  it('lists an exact rename once, as added, and a rename with edits as removed and added', async () => {
    commits.rename = repo.commit('rename', { 'README.md': null, 'docs/README.md': 'hello\n', 'src/a.ts': null, 'src/a2.ts': 'a changed, and edited\n' });
    expect(await ours(commits.rename)).toEqual({ added: ['docs/README.md', 'src/a2.ts'], modified: [], removed: ['src/a.ts'] });
    expect((await ours(commits.rename)).added).toEqual(gitChanges(commits.rename).added);
  });

  it('treats mode and type changes as modifications', async () => {
    commits.modes = repo.commit('modes', { 'src-x': { executable: 'x\n' }, 'src.ts': { symlink: 'src/a2.ts' } });
    expect(await ours(commits.modes)).toEqual(gitChanges(commits.modes));
    expect(await ours(commits.modes)).toEqual({ added: [], modified: ['src-x', 'src.ts'], removed: [] });
  });

  it('lists a directory replaced by a file as its files removed and the file added', async () => {
    commits.dirToFile = repo.commit('dir to file', { z: 'now a file\n' });
    expect(await ours(commits.dirToFile)).toEqual(gitChanges(commits.dirToFile));
    expect(await ours(commits.dirToFile)).toEqual({ added: ['z'], modified: [], removed: ['z/deep/er/file'] });
  });

  it('lists nothing for an empty commit, and reads only the two root trees', async () => {
    commits.empty = repo.commit('empty');
    const reader = repo.reader();
    const walked = (await peelToCommit(reader.read, commits.empty))!;
    const parent = (await peelToCommit(reader.read, walked.commit.parents[0]))!;
    reader.reset();
    expect(await changedPaths(reader.read, walked.commit.tree, parent.commit.tree)).toEqual({ added: [], modified: [], removed: [] });
    expect(reader.log).toHaveLength(0);
  });

  it('reads only the subtrees on the path of a change', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`dir${i}/sub/file.txt`] = `${i}\n`;
    repo.commit('wide', files);
    const commit = repo.commit('one change', { 'dir7/sub/file.txt': 'changed\n' });
    const reader = repo.reader();
    const walked = (await peelToCommit(reader.read, commit))!;
    const parent = (await peelToCommit(reader.read, walked.commit.parents[0]))!;
    reader.reset();
    expect(await changedPaths(reader.read, walked.commit.tree, parent.commit.tree)).toEqual({ added: [], modified: ['dir7/sub/file.txt'], removed: [] });
    // Two root trees, two `dir7` trees, two `dir7/sub` trees.
    expect(reader.log).toHaveLength(6);
  });

  it('describes commits with GitLab hook attributes (title, zoned timestamp, author, changes)', async () => {
    const long = `${'word '.repeat(30)}end`;
    const commit = repo.commit(`${long}\n\nbody`, { 'src/a2.ts': 'again\n' }, { time: 1_323_692_851, zone: '-0530', author: { name: 'Jordi', email: 'jordi@example.org' } });
    const reader = repo.reader();
    const [described] = await describeCommits(reader.read, [(await peelToCommit(reader.read, commit))!]);
    expect(described).toEqual({
      id: commit,
      message: `${long}\n\nbody\n`,
      // 100 characters or more: cut at the last space at or before index 78 (74 here), then "...".
      title: `${'word '.repeat(14)}word...`,
      timestamp: '2011-12-12T06:57:31-05:30',
      author: { name: 'Jordi', email: 'jordi@example.org' },
      added: [],
      modified: ['src/a2.ts'],
      removed: [],
    });
  });
});
