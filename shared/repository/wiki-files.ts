/**
 * A project's wiki repository as the wikis feature reads and writes it: the files of its branch
 * (`WIKI_BRANCH`) at its tip or at a commit, their bytes, and new commits on it. A commit moves the
 * branch with a compare-and-swap from the tip it was made on, so of two concurrent writes exactly
 * one lands and the other learns it is `stale` (and starts again from the new tip): no commit is
 * lost. No push event, hook or pipeline follows a wiki commit (they are the project repository's);
 * the wikis feature writes its own records (feed and webhook events) in the commit's transaction.
 */
import type { Project } from '../projects';
import { formatTimezone, serializeCommit } from './git/objects/parse';
import { hashObject } from './git/objects/types';
import { applyActions, type CommitAction } from './commands/commits';
import { FULL_OID, isTreeEntry, ObjectReader, type CommitObject } from './queries/objects';
import { BRANCH_PREFIX } from './queries/revisions';
import { openWikiRepository, WIKI_BRANCH, type Repository } from './repository';
import { updateRef, updateRefWith } from './store/refs';
import type { TransactItem } from '../platform/dynamo/transactions';

/** A file of the wiki's tree: its full path and blob id. */
export interface WikiFile {
  path: string;
  oid: string;
}

/** The wiki at one commit (none: an empty wiki), with its files (blobs only, every directory walked). */
export interface WikiTree {
  repository: Repository;
  reader: ObjectReader;
  commit?: CommitObject;
  files: WikiFile[];
}

/** One change of a wiki commit: a file created, updated (and moved from `previousPath`) or deleted. */
export type WikiChange =
  | { action: 'create'; path: string; content: Buffer }
  | { action: 'update'; path: string; content: Buffer }
  | { action: 'move'; path: string; previousPath: string; content: Buffer }
  | { action: 'delete'; path: string };

async function filesOf(reader: ObjectReader, tree: string, prefix = ''): Promise<WikiFile[]> {
  const entries = (await reader.tree(tree)) ?? [];
  const nested = await Promise.all(
    entries.map(async (entry): Promise<WikiFile[]> => {
      const path = `${prefix}${entry.name.toString('utf8')}`;
      if (isTreeEntry(entry)) return filesOf(reader, entry.oid, `${path}/`);
      return entry.mode === '100644' || entry.mode === '100755' ? [{ path, oid: entry.oid }] : [];
    }),
  );
  return nested.flat();
}

/**
 * The wiki's files at the branch's tip, or at `version` (a full or abbreviated commit id, as
 * GitLab's `version` parameter): undefined when `version` names no commit.
 */
export async function readWikiTree(project: Project, version?: string): Promise<WikiTree | undefined> {
  const repository = await openWikiRepository(project);
  const reader = new ObjectReader(repository);
  let id: string | undefined;
  if (version) {
    if (FULL_OID.test(version)) id = version.toLowerCase();
    else if (/^[0-9a-fA-F]{4,39}$/.test(version)) {
      const ids = await reader.idsStartingWith(version.toLowerCase());
      if (ids.length === 1) id = ids[0];
    }
    if (!id) return undefined;
  } else {
    id = (await repository.ref(`${BRANCH_PREFIX}${WIKI_BRANCH}`))?.oid;
  }
  const commit = id ? await reader.commit(id) : undefined;
  if (version && !commit) return undefined;
  return { repository, reader, commit, files: commit ? await filesOf(reader, commit.tree) : [] };
}

/** A blob's text as stored (UTF-8). */
export async function readWikiBlob(tree: WikiTree, oid: string): Promise<Buffer> {
  return (await tree.reader.blob(oid)) ?? Buffer.alloc(0);
}

/** What a wiki commit writes besides the ref (the change's feed and webhook events), by name, made once its id is known. */
export type WikiCommitExtras = (commit: { id: string }) => Promise<Record<string, TransactItem | undefined>>;

/**
 * Commits `changes` onto the tree read (`tree.commit`, none for an empty wiki) as `author`, and
 * moves the wiki's branch to it if it still points where it did; answers the new commit's id. `stale` when another write moved
 * it first (nothing changed; read again and retry); a change that does not fit the tree (a file
 * that exists already or is missing) throws GitLab's 400 with Gitaly's index error. `extras`, when
 * given, are written in the branch move's transaction, conditioned on the project being live
 * (`project_gone` otherwise, nothing moved).
 */
export async function commitWikiChanges(
  tree: WikiTree,
  author: { name: string; email: string },
  message: string,
  changes: WikiChange[],
  extras?: WikiCommitExtras,
): Promise<{ status: 'committed'; id: string } | { status: 'stale' } | { status: 'project_gone' }> {
  const actions: CommitAction[] = changes.map((change) => ({
    action: change.action,
    filePath: change.path,
    previousPath: change.action === 'move' ? change.previousPath : undefined,
    content: change.action === 'delete' ? undefined : change.content.toString('base64'),
    encoding: 'base64',
  }));
  const { tree: treeId, objects } = await applyActions(tree.reader, tree.commit?.tree ?? null, actions);
  const person = { name: author.name, email: author.email, timestamp: Math.floor(Date.now() / 1000), timezone: formatTimezone(0) };
  const body = serializeCommit({ tree: treeId, parents: tree.commit ? [tree.commit.id] : [], author: person, committer: person, message });
  const id = hashObject('commit', body);
  await tree.repository.writeObjects([...objects, { type: 'commit', body }]);
  const update = { name: `${BRANCH_PREFIX}${WIKI_BRANCH}`, oldOid: tree.commit?.id ?? null, newOid: id };
  const projectId = tree.repository.project.id;
  if (extras) {
    const outcome = await updateRefWith(projectId, update, 'wiki', await extras({ id }));
    if (outcome !== 'updated') return { status: outcome };
  } else if (!(await updateRef(projectId, update, 'wiki'))) {
    return { status: 'stale' };
  }
  // The commit's id, not the commit read back: the writer knows what it wrote.
  return { status: 'committed', id };
}
