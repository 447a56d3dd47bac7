/**
 * Reads of the files, tree and blobs APIs: a file at a revision (with the commit that last changed
 * it), a directory listing (`GET …/repository/tree`, GitLab's `Tree#sorted_entries`: directories,
 * then files, then submodules), and a blob by id.
 */
import type { Project } from '../../projects';
import { NotFoundError } from '../../platform/http/errors';
import { entryAtPath, pathSegments } from '../git/walk';
import { lastCommitForPath } from './commits';
import { isTreeEntry, modeOf, type CommitObject, type ObjectReader, type TreeEntry } from './objects';
import { resolveCommit, resolveRevision } from './revisions';

/** A file of a commit, as the files API shows it. */
export interface FileAtRef {
  commit: CommitObject;
  /** The path as asked for, and its last component. */
  path: string;
  name: string;
  blobId: string;
  mode: number;
  content: Buffer;
}

/** The file at a path of a revision: `404 Commit Not Found` for an unknown revision, `404 File Not Found` for no file there. */
export async function findFileOrNotFound(reader: ObjectReader, project: Project, revision: string, path: string): Promise<FileAtRef> {
  const commit = await resolveCommit(reader, project, revision);
  if (!commit) throw new NotFoundError('Commit');
  const segments = pathSegments(path);
  const entry = segments.length === 0 ? undefined : await entryAtPath(reader, commit.tree, segments);
  const content = entry && !isTreeEntry(entry) ? await reader.blob(entry.oid) : undefined;
  if (!entry || !content) throw new NotFoundError('File');
  return { commit, path, name: segments[segments.length - 1].toString('utf8'), blobId: entry.oid, mode: modeOf(entry), content };
}

/** The commit that last changed a file, from the commit it was read at. */
export async function lastCommitIdOf(reader: ObjectReader, file: FileAtRef): Promise<string | undefined> {
  return (await lastCommitForPath(reader, file.commit.id, file.path))?.id;
}

/** One entry of a tree listing (GitLab's `TreeObject`). */
export interface TreeItem {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  /** Octal, six digits (`040000`). */
  mode: string;
}

const kindOf = (entry: TreeEntry): TreeItem['type'] => (isTreeEntry(entry) ? 'tree' : entry.mode === '160000' ? 'commit' : 'blob');

/**
 * The entries of a directory of a revision (all of them below it when `recursive`, a directory
 * before its contents), directories first, then files, then submodules; `no_commit` for an unknown
 * revision, `no_path` when the path is no directory.
 */
export async function listTree(reader: ObjectReader, project: Project, revision: string, path: string | undefined, recursive: boolean): Promise<TreeItem[] | 'no_commit' | 'no_path'> {
  const commit = await resolveCommit(reader, project, revision);
  if (!commit) return 'no_commit';
  const segments = pathSegments(path ?? '');
  let tree = commit.tree;
  if (segments.length > 0) {
    const entry = await entryAtPath(reader, commit.tree, segments);
    if (!entry || !isTreeEntry(entry)) return 'no_path';
    tree = entry.oid;
  }
  const items: TreeItem[] = [];
  const walk = async (oid: string, prefix: string) => {
    for (const entry of (await reader.tree(oid)) ?? []) {
      const itemPath = `${prefix}${entry.path}`;
      items.push({ id: entry.oid, name: entry.path, type: kindOf(entry), path: itemPath, mode: entry.mode.padStart(6, '0') });
      if (recursive && isTreeEntry(entry)) await walk(entry.oid, `${itemPath}/`);
    }
  };
  await walk(tree, segments.length > 0 ? `${segments.map((segment) => segment.toString('utf8')).join('/')}/` : '');
  const order: TreeItem['type'][] = ['tree', 'blob', 'commit'];
  return order.flatMap((type) => items.filter((item) => item.type === type));
}

/** A blob by (full or abbreviated) id; `404 Blob Not Found` otherwise. */
export async function findBlobOrNotFound(reader: ObjectReader, project: Project, sha: string): Promise<{ id: string; content: Buffer }> {
  const id = /^[0-9a-fA-F]{4,40}$/.test(sha) ? await resolveRevision(reader, project, sha) : undefined;
  const content = id ? await reader.blob(id) : undefined;
  if (!id || !content) throw new NotFoundError('Blob');
  return { id, content };
}
