/**
 * Ancestry questions a merge request asks of its branches (GitLab's `MergeRequest#diff_start_sha`,
 * "merged manually" on a push, `diverged_commits_count`): the merge base of the target and source
 * tips, whether one commit is in another's history, and how many commits one has that the other lacks.
 */
import { isAncestor, mergeBase, revList } from '../git/walk';
import type { Repository } from '../repository';

/** Whether `ancestor` is `descendant` or in its history (`git merge-base --is-ancestor`); false when either is missing. */
export async function isAncestorCommit(repository: Repository, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  const read = (oid: string) => repository.read(oid);
  const [a, d] = await Promise.all([read(ancestor), read(descendant)]);
  if (a?.type !== 'commit' || d?.type !== 'commit') return false;
  return isAncestor(read, ancestor, descendant);
}

/** The best common ancestor of two commits (`git merge-base a b`), undefined for unrelated histories. */
export async function mergeBaseOf(repository: Repository, a: string, b: string): Promise<string | undefined> {
  return mergeBase((oid) => repository.read(oid), a, b);
}

/**
 * How many commits `to` has that `from` lacks (`git rev-list --count from..to`, GitLab's
 * `Repository#count_commits_between`); counting stops at `limit`.
 */
export async function countCommitsBetween(repository: Repository, from: string, to: string, limit = 10_000): Promise<number> {
  return (await commitsBetween(repository, from, to, limit)).length;
}

/**
 * The commits `to` has that `from` lacks, newest first (`git rev-list from..to`, GitLab's
 * `Repository#commits_between`), at most `limit`.
 */
export async function commitsBetween(repository: Repository, from: string, to: string, limit: number): Promise<string[]> {
  const shas: string[] = [];
  for await (const oid of revList((oid) => repository.read(oid), { include: [to], exclude: [from], limit })) shas.push(oid);
  return shas;
}
