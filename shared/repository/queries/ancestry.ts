/**
 * Ancestry questions a merge request asks of its branches (GitLab's `MergeRequest#diff_start_sha`,
 * "merged manually" on a push): the merge base of the target and source tips, and whether one
 * commit is in another's history.
 */
import { isAncestor, mergeBase } from '../git/walk';
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
