/**
 * The files a commit changed against its first parent (against nothing for a root commit), as
 * GitLab's `Commit#repo_changes` lists them for push payloads: `added` (new files, and the new
 * path of a renamed one), `modified` (content, mode or type changed), `removed` (deleted files),
 * each in git's path order (`git diff-tree -r`).
 *
 * The tree diff is the repository API's (`queries/diff.ts`, exact renames only): only subtrees whose
 * ids differ are read, so a small change in a large tree reads a few trees, and no blob is read.
 * Renames are detected when the content is unchanged (the same blob under a new path, git's exact
 * renames); a file renamed and edited in the same commit is listed as removed and added (GitLab,
 * through Gitaly's similarity-based detection, would list only its new path as added).
 */
import { ObjectGraph, type ObjectReader } from '../git/walk';
import { diffTrees } from '../queries/diff';

export interface ChangedPaths {
  added: string[];
  modified: string[];
  removed: string[];
}

/**
 * The paths a commit (tree `tree`) changed against its first parent's tree (`null` for a root commit).
 *
 * @example
 * const { added, modified, removed } = await changedPaths(read, commit.tree, parent?.tree ?? null);
 */
export async function changedPaths(read: ObjectReader, tree: string, parentTree: string | null): Promise<ChangedPaths> {
  const graph = new ObjectGraph(read);
  const trees = { tree: (oid: string) => graph.tree(oid), blob: async (oid: string) => (await graph.read(oid))?.body };
  const result: ChangedPaths = { added: [], modified: [], removed: [] };
  for (const change of await diffTrees(trees, parentTree, tree, { renames: 'exact' })) {
    if (change.deletedFile) result.removed.push(change.oldPath);
    else if (change.newFile || change.renamedFile) result.added.push(change.newPath);
    else result.modified.push(change.newPath);
  }
  return result;
}
