/**
 * The files a commit changed against its first parent (against nothing for a root commit), as
 * GitLab's `Commit#repo_changes` lists them for push payloads: `added` (new files, and the new
 * path of a renamed one), `modified` (content, mode or type changed), `removed` (deleted files),
 * each in git's path order (`git diff-tree -r`).
 *
 * Only subtrees whose ids differ are read, so a small change in a large tree reads a few trees.
 * Renames are detected when the content is unchanged (the same blob under a new path, git's exact
 * renames); a file renamed and edited in the same commit is listed as removed and added (GitLab,
 * through Gitaly's similarity-based detection, would list only its new path as added).
 */
import { entryKind, parseTree, type TreeEntry } from '../git/objects/parse';
import type { ReadObject } from './walk';

export interface ChangedPaths {
  added: string[];
  modified: string[];
  removed: string[];
}

interface Change {
  status: 'A' | 'M' | 'D';
  path: string;
  /** The blob (or submodule commit) at the path: the new one, or the deleted one. */
  oid: string;
  mode: string;
}

const isTree = (mode: string) => entryKind(mode) === 'tree';

/** Internal: a tree's entries (an unreadable tree reads as empty). */
async function entriesOf(read: ReadObject, oid: string | null): Promise<TreeEntry[]> {
  if (oid === null) return [];
  const object = await read(oid);
  return object?.type === 'tree' ? parseTree(object.body) : [];
}

/** git's tree order: names as bytes, a tree's as if followed by `/`. */
const orderKey = (entry: TreeEntry) => (isTree(entry.mode) ? Buffer.concat([entry.name, Buffer.from('/')]) : entry.name);

/** Internal: every file under a tree, as changes of one status. */
async function allFiles(read: ReadObject, oid: string, prefix: string, status: 'A' | 'D', out: Change[]): Promise<void> {
  for (const entry of await entriesOf(read, oid)) {
    const path = prefix + entry.path;
    if (isTree(entry.mode)) await allFiles(read, entry.oid, `${path}/`, status, out);
    else out.push({ status, path, oid: entry.oid, mode: entry.mode });
  }
}

/** Internal: `git diff-tree -r` of two trees (null: the empty tree), in path order. */
async function diffTrees(read: ReadObject, before: string | null, after: string | null, prefix: string, out: Change[]): Promise<void> {
  if (before === after) return;
  const [old, next] = await Promise.all([entriesOf(read, before), entriesOf(read, after)]);
  const byKey = new Map<string, { key: Buffer; old?: TreeEntry; next?: TreeEntry }>();
  for (const entry of old) byKey.set(orderKey(entry).toString('latin1'), { key: orderKey(entry), old: entry });
  for (const entry of next) {
    const id = orderKey(entry).toString('latin1');
    byKey.set(id, { key: orderKey(entry), ...byKey.get(id), next: entry });
  }
  const slots = [...byKey.values()].sort((a, b) => Buffer.compare(a.key, b.key));
  for (const { old: a, next: b } of slots) {
    const path = prefix + (a ?? b)!.path;
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue;
    if ((a && isTree(a.mode)) || (b && isTree(b.mode))) {
      // Same key, so both are trees (a file and a tree of one name sort apart).
      if (a && b) await diffTrees(read, a.oid, b.oid, `${path}/`, out);
      else if (a) await allFiles(read, a.oid, `${path}/`, 'D', out);
      else await allFiles(read, b!.oid, `${path}/`, 'A', out);
      continue;
    }
    if (a && b) out.push({ status: 'M', path, oid: b.oid, mode: b.mode });
    else if (a) out.push({ status: 'D', path, oid: a.oid, mode: a.mode });
    else out.push({ status: 'A', path, oid: b!.oid, mode: b!.mode });
  }
}

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Internal: drops the deletions that are the sources of exact renames (a file deleted and the same
 * blob added elsewhere), preferring a source with the same base name, as git does.
 */
function withoutRenameSources(changes: Change[]): Change[] {
  const deleted = new Map<string, Change[]>();
  for (const change of changes) {
    if (change.status !== 'D' || entryKind(change.mode) !== 'blob') continue;
    deleted.set(change.oid, [...(deleted.get(change.oid) ?? []), change]);
  }
  if (deleted.size === 0) return changes;
  const sources = new Set<Change>();
  for (const change of changes) {
    if (change.status !== 'A' || entryKind(change.mode) !== 'blob') continue;
    const candidates = deleted.get(change.oid)?.filter((source) => !sources.has(source));
    if (!candidates?.length) continue;
    sources.add(candidates.find((source) => basename(source.path) === basename(change.path)) ?? candidates[0]);
  }
  return changes.filter((change) => !sources.has(change));
}

/**
 * The paths a commit (tree `tree`) changed against its first parent's tree (`null` for a root commit).
 *
 * @example
 * const { added, modified, removed } = await changedPaths(read, commit.tree, parent?.tree ?? null);
 */
export async function changedPaths(read: ReadObject, tree: string, parentTree: string | null): Promise<ChangedPaths> {
  const changes: Change[] = [];
  await diffTrees(read, parentTree, tree, '', changes);
  const result: ChangedPaths = { added: [], modified: [], removed: [] };
  for (const change of withoutRenameSources(changes)) {
    if (change.status === 'A') result.added.push(change.path);
    else if (change.status === 'M') result.modified.push(change.path);
    else result.removed.push(change.path);
  }
  return result;
}
