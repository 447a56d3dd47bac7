/**
 * `GET …/repository/compare` and `…/merge_base` (GitLab's `CompareService`, `Gitlab::Git::Compare`,
 * `Gitlab::Git::MergeBase`): the commits of `to` not in `from` (oldest first), and the diff from
 * `from` to `to` (`straight`) or from their merge base to `to` (the default, `from...to`).
 */
import type { Project } from '../../projects';
import { mergeBasesOf, revList } from '../git/walk';
import { diffTrees, type FileChange } from './diff';
import type { CommitObject, ObjectReader } from './objects';
import { resolveCommit } from './revisions';

/** How many commits a comparison lists at most. */
export const MAX_COMPARE_COMMITS = 10_000;

export interface Comparison {
  from: CommitObject;
  to: CommitObject;
  /** Oldest first. */
  commits: CommitObject[];
  changes: FileChange[];
  /** The commit the diff starts from (the merge base, or `from` when straight). */
  start: string | null;
  same: boolean;
}

/** Compares two revisions; `undefined` when either names no commit. */
export async function compareRevisions(reader: ObjectReader, project: Project, from: string, to: string, straight: boolean): Promise<Comparison | undefined> {
  const [base, head] = [await resolveCommit(reader, project, from.trim()), await resolveCommit(reader, project, to.trim())];
  if (!base || !head) return undefined;
  const same = base.id === head.id;
  const commits: CommitObject[] = [];
  if (!same) for await (const oid of revList(reader.read, { include: [head.id], exclude: [base.id], limit: MAX_COMPARE_COMMITS })) commits.push((await reader.commit(oid))!);
  commits.reverse();
  const start = straight ? base.id : ((await mergeBasesOf(reader.read, base.id, [head.id]))[0] ?? null);
  const startTree = start ? (await reader.commitLinks(start))?.tree ?? null : null;
  const changes = await diffTrees(reader, startTree, head.tree);
  return { from: base, to: head, commits, changes, start, same };
}

/**
 * The merge base of some revisions (`git merge-base`): `unknown` lists those naming no commit;
 * `base` is undefined when they share no history.
 */
export async function findMergeBase(reader: ObjectReader, project: Project, revisions: string[]): Promise<{ unknown: string[]; base?: CommitObject }> {
  const commits: CommitObject[] = [];
  const unknown: string[] = [];
  for (const revision of revisions) {
    const commit = await resolveCommit(reader, project, revision);
    if (commit) commits.push(commit);
    else unknown.push(revision);
  }
  if (unknown.length > 0) return { unknown };
  const [first, ...others] = commits;
  const [base] = await mergeBasesOf(reader.read, first.id, others.map((commit) => commit.id));
  return { unknown, base: base ? await reader.commit(base) : undefined };
}
