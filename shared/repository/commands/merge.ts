/**
 * Merging one commit into another for merge requests (Gitaly's `UserMergeBranch`: `git merge-tree
 * --write-tree ours theirs`, then a commit with parents [ours, theirs]), and the mergeability
 * check (`UserMergeToRef` / `MergeRequests::MergeabilityCheckService` ask the same question).
 *
 * GitLab's merge method "merge" always makes a merge commit, even when `ours` could be
 * fast-forwarded to `theirs` (`--no-ff`), and so does this. When `theirs` is already in `ours`'s
 * history there is nothing to merge: the commit is still made (its tree is `ours`'s, as Gitaly's
 * would be) and the result says `alreadyMerged`, so a caller can tell (GitLab marks such merge
 * requests merged on the push that contained them rather than merging them).
 *
 * Nothing here moves a ref: the caller moves the branch (`moveBranch`, compare-and-swap from
 * `ours`).
 */
import type { User } from '../../users';
import { formatTimezone, parseCommitLinks, serializeCommit } from '../git/objects/parse';
import { hashObject, type GitObject } from '../git/objects/types';
import { cachingReader, mergeBases, MissingObjectError, type ObjectReader } from '../git/walk';
import { mergeBaseTree, mergeTrees, type TreeMergeResult } from '../merge/trees';
import type { Repository } from '../repository';

export interface MergeCommitsInput {
  /** The commit merged into (the target branch's tip): the first parent. */
  ours: string;
  /** The commit merged (the source branch's tip): the second parent. */
  theirs: string;
  message: string;
  /** Author and committer of the merge commit. */
  author: Pick<User, 'name' | 'email'>;
  /** The commit's time; now by default. */
  committedAt?: Date;
}

/**
 * A merge commit (stored, no ref moved; `alreadyMerged` when `theirs` was in `ours`'s history),
 * or the paths that conflict (sorted; nothing stored).
 */
export type MergeOutcome = { commit: string; alreadyMerged?: boolean } | { conflicts: string[] };

async function treeOf(read: ObjectReader, commit: string): Promise<string> {
  const object = await read(commit);
  if (!object || object.type !== 'commit') throw new MissingObjectError(commit);
  return parseCommitLinks(object.body).tree;
}

/** Internal: the merged tree of two commits, `already` when `theirs` is an ancestor of `ours`. */
async function mergedTree(repository: Repository, ours: string, theirs: string, stopAtFirstConflict: boolean): Promise<TreeMergeResult & { already?: boolean }> {
  const read = cachingReader((oid) => repository.read(oid));
  const [oursTree, theirsTree] = await Promise.all([treeOf(read, ours), treeOf(read, theirs)]);
  const bases = await mergeBases(read, ours, theirs);
  if (bases.includes(theirs)) return { tree: oursTree, objects: [], already: true };
  // Fast-forward possible: the merge's tree is theirs (the commit still has both parents).
  if (bases.includes(ours)) return { tree: theirsTree, objects: [] };
  const virtual = new Map<string, GitObject>();
  const base = await mergeBaseTree(read, ours, theirs, virtual);
  const withVirtual: ObjectReader = async (oid) => virtual.get(oid) ?? read(oid);
  return mergeTrees(withVirtual, base, oursTree, theirsTree, { stopAtFirstConflict });
}

/**
 * Merges `theirs` into `ours`: a real three-way merge of their trees from their merge base; the
 * merged blobs and trees and the merge commit are stored as one pack.
 *
 * @example
 * const outcome = await mergeCommits(repository, { ours: targetSha, theirs: sourceSha, message, author: user });
 * if ('conflicts' in outcome) throw new NotAcceptableError('Branch cannot be merged');
 * if ((await moveBranch(repository, user, 'main', targetSha, outcome.commit)) === 'stale') // retry from the new tip
 */
export async function mergeCommits(repository: Repository, input: MergeCommitsInput): Promise<MergeOutcome> {
  const merged = await mergedTree(repository, input.ours, input.theirs, false);
  if ('conflicts' in merged) return { conflicts: merged.conflicts };
  const when = input.committedAt ?? new Date();
  const signature = { name: input.author.name, email: input.author.email, timestamp: Math.floor(when.getTime() / 1000), timezone: formatTimezone(0) };
  const body = serializeCommit({ tree: merged.tree, parents: [input.ours, input.theirs], author: signature, committer: signature, message: input.message });
  await repository.writeObjects([...merged.objects, { type: 'commit', body }]);
  return { commit: hashObject('commit', body), ...(merged.already ? { alreadyMerged: true } : {}) };
}

/** Whether `theirs` merges into `ours` without conflicts (the same merge, stopped at the first conflict; nothing stored). */
export async function canMergeCleanly(repository: Repository, ours: string, theirs: string): Promise<boolean> {
  return !('conflicts' in (await mergedTree(repository, ours, theirs, true)));
}
