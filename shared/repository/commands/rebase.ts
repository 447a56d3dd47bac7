/**
 * Rebasing a branch's commits onto another commit for merge requests (Gitaly's `UserRebaseToRef`
 * / `UserRebaseConfirmable`, which GitLab's `MergeRequests::RebaseService` calls): `git rebase
 * onto` without a work tree. The commits of `head` that `onto` does not have are replayed oldest
 * first (`git rev-list --reverse --topo-order --no-merges onto..head`), each by a three-way merge
 * of trees (`merge/trees.ts`): the commit's parent is the base, the rebased branch so far is ours,
 * the commit is theirs — a cherry-pick. Each new commit keeps the original's author, message and
 * extra headers (not its signature, which no longer matches); its committer is the user, now.
 *
 * As `git rebase` does by default, merge commits are left out (their changes come in with the
 * commits they merged), a commit whose changes are already in `onto` (it becomes empty) is dropped,
 * and a commit that already sits where it would be replayed (its parent is the rebased branch so
 * far) is kept as it is. When `onto` is already in `head`'s history there is nothing to do: the
 * outcome is `head` itself, `upToDate`.
 *
 * The first conflict stops the rebase and nothing is stored; otherwise every new object (merged
 * blobs and trees, the commits) is stored as one pack. Nothing here moves a ref: the caller moves
 * the branch (`moveBranch`, compare-and-swap from `head`).
 */
import type { User } from '../../users';
import { formatTimezone, parseCommit, serializeCommit, type Commit } from '../git/objects/parse';
import { hashObject, type GitObject } from '../git/objects/types';
import { cachingReader, isAncestor, MissingObjectError, revList, type ObjectReader } from '../git/walk';
import { mergeTrees } from '../merge/trees';
import type { Repository } from '../repository';

/**
 * Most commits one rebase replays. GitLab sets none; each replayed commit is a tree merge held in
 * memory until the pack is written, so a bound keeps a rebase within a worker's memory and time.
 */
export const MAX_REBASE_COMMITS = 1_000;

export interface RebaseCommitsInput {
  /** The commit to rebase onto (the target branch's tip). */
  onto: string;
  /** The tip of the branch rebased (the source branch's). */
  head: string;
  /** The committer of the new commits. */
  committer: Pick<User, 'name' | 'email'>;
  /** The commits' committer time; now by default. */
  committedAt?: Date;
  /** Most commits replayed ({@link MAX_REBASE_COMMITS} by default). */
  limit?: number;
}

/**
 * The rebased tip (stored; `rebased`: how many commits were written, `upToDate` when `onto` was
 * already in `head`'s history and nothing was written), the paths of the first commit that does
 * not apply (nothing stored), or `tooMany` when more than the limit would be replayed.
 */
export type RebaseOutcome =
  | { commit: string; rebased: number; upToDate?: true }
  | { conflicts: string[]; commit: string }
  | { tooMany: number };

/** Internal: a commit read and parsed. */
async function commitOf(read: ObjectReader, oid: string): Promise<Commit> {
  const object = await read(oid);
  if (!object || object.type !== 'commit') throw new MissingObjectError(oid);
  return parseCommit(object.body);
}

/** Internal: `git rev-list --reverse --topo-order --no-merges onto..head`, or undefined past `limit`. */
async function commitsToReplay(read: ObjectReader, onto: string, head: string, limit: number): Promise<Array<{ oid: string; commit: Commit }> | undefined> {
  const listed: string[] = [];
  for await (const oid of revList(read, { include: [head], exclude: [onto], order: 'topo' })) {
    listed.push(oid);
  }
  const commits = await Promise.all(listed.reverse().map(async (oid) => ({ oid, commit: await commitOf(read, oid) })));
  const replayed = commits.filter(({ commit }) => commit.parents.length <= 1);
  return replayed.length > limit ? undefined : replayed;
}

/**
 * Rebases `head` onto `onto` (see the module's comment).
 *
 * @example
 * const outcome = await rebaseCommits(repository, { onto: targetSha, head: sourceSha, committer: user });
 * if ('conflicts' in outcome) mergeError = REBASE_ERROR;
 * else if ('commit' in outcome && !outcome.upToDate) await moveBranch(repository, user, branch, sourceSha, outcome.commit);
 */
export async function rebaseCommits(repository: Repository, input: RebaseCommitsInput): Promise<RebaseOutcome> {
  const stored = cachingReader((oid) => repository.read(oid));
  if (await isAncestor(stored, input.onto, input.head)) return { commit: input.head, rebased: 0, upToDate: true };
  const limit = input.limit ?? MAX_REBASE_COMMITS;
  const commits = await commitsToReplay(stored, input.onto, input.head, limit);
  if (!commits) return { tooMany: limit };
  // What this rebase made, readable by the next step before it is stored.
  const made = new Map<string, GitObject>();
  const read: ObjectReader = async (oid) => made.get(oid) ?? stored(oid);
  const when = Math.floor((input.committedAt ?? new Date()).getTime() / 1000);
  const committer = { name: input.committer.name, email: input.committer.email, timestamp: when, timezone: formatTimezone(0) };
  let tip = input.onto;
  let tipTree = (await commitOf(read, tip)).tree;
  let rebased = 0;
  for (const { oid, commit } of commits) {
    const parent = commit.parents[0];
    if (parent === tip) {
      // Already in place: kept as it is (git rebase fast-forwards over it).
      tip = oid;
      tipTree = commit.tree;
      continue;
    }
    const base = parent === undefined ? null : (await commitOf(read, parent)).tree;
    const merged = await mergeTrees(read, base, tipTree, commit.tree);
    if ('conflicts' in merged) return { conflicts: merged.conflicts, commit: oid };
    // Its changes are already there: dropped, as git rebase drops a commit that becomes empty.
    if (merged.tree === tipTree && base !== commit.tree) continue;
    for (const object of merged.objects) made.set(hashObject(object.type, object.body), object);
    const body = serializeCommit({
      tree: merged.tree,
      parents: [tip],
      author: commit.author,
      committer,
      extraHeaders: commit.extraHeaders,
      message: commit.message,
    });
    tip = hashObject('commit', body);
    made.set(tip, { type: 'commit', body });
    tipTree = merged.tree;
    rebased++;
  }
  await repository.writeObjects([...made.values()]);
  return { commit: tip, rebased };
}
