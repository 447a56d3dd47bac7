/**
 * What merge requests ask of the git repositories, through the repository feature's public API:
 * branch heads, the diff version of a source against a target (objects of a fork's source made
 * readable in the target first), mergeability, merging and moving the target branch, rebasing the
 * source branch (the target's objects made readable in a fork's source first) and how far it is behind.
 */
import type { ProjectSubject } from '../auth';
import type { Project } from '../projects';
import {
  canMergeCleanly,
  countCommitsBetween,
  deleteBranch,
  diffVersion,
  fetchCommits,
  findCommitOrNotFound,
  keepMergeRequestHead,
  mergeBaseOf,
  mergeCommits,
  moveBranch,
  ObjectReader,
  openRepository,
  presentCommit,
  rebaseCommits,
  type MergeOutcome,
  type RebaseOutcome,
  type Repository,
} from '../repository';
import type { User } from '../users';
import type { VersionContent } from './store/versions';

export type { Repository };

const BRANCH_PREFIX = 'refs/heads/';

/** The full id of the commit a revision (an id, a branch or a tag) names; `404 Commit Not Found` otherwise. */
export async function commitIdOf(project: Project, revision: string): Promise<string> {
  return (await findCommitOrNotFound(new ObjectReader(await openRepository(project)), project, revision)).id;
}

/** The commit a branch points at, or `undefined` when there is no such branch. */
export async function branchHead(repository: Repository, branch: string): Promise<string | undefined> {
  if (branch === '') return undefined;
  return (await repository.ref(`${BRANCH_PREFIX}${branch}`))?.oid;
}

/** The repositories of a merge request: the target's, and the source's (the same one unless a fork). */
export async function repositoriesOf(target: Project, source: Project): Promise<{ target: Repository; source: Repository }> {
  const targetRepository = await openRepository(target);
  return { target: targetRepository, source: source.id === target.id ? targetRepository : await openRepository(source) };
}

/** A computed diff version: its shas and its content. */
export interface ComputedVersion {
  headCommitSha: string;
  baseCommitSha: string;
  startCommitSha: string;
  overflow: boolean;
  realSize: string;
  content: VersionContent;
}

/**
 * The diff version of `head` (the source branch's tip, in `source`) against `start` (the target
 * branch's tip, in `target`): the source's commits are made readable in the target (a fork with
 * its own pool), the diff starts at their merge base (the target tip for unrelated histories).
 */
export async function computeVersion(
  repositories: { target: Repository; source: Repository },
  start: string,
  head: string,
  targetWebUrl: string,
): Promise<ComputedVersion> {
  if (repositories.source !== repositories.target) await fetchCommits(repositories.target, repositories.source, head);
  const base = (await mergeBaseOf(repositories.target, start, head)) ?? start;
  const version = await diffVersion(repositories.target, { base, head });
  const commits = version.commits.map((commit) => {
    const { trailers: _trailers, extended_trailers: _extended, ...presented } = presentCommit(commit, { projectWebUrl: targetWebUrl });
    return presented;
  });
  return {
    headCommitSha: head,
    baseCommitSha: base,
    startCommitSha: start,
    overflow: version.overflow,
    realSize: version.realSize,
    content: { commits, diffs: version.diffs },
  };
}

/** Whether `head` merges into `start` without conflicts (the source's commits fetched into the target first). */
export async function mergesCleanly(repositories: { target: Repository; source: Repository }, start: string, head: string): Promise<boolean> {
  if (repositories.source !== repositories.target) await fetchCommits(repositories.target, repositories.source, head);
  return canMergeCleanly(repositories.target, start, head);
}

/** A merge commit of `head` into `ours` (stored, no ref moved), or the conflicting paths. */
export async function mergeInto(target: Repository, ours: string, head: string, message: string, author: User): Promise<MergeOutcome> {
  return mergeCommits(target, { ours, theirs: head, message, author });
}

/**
 * Compare-and-swap of a branch from `from` to `to` (the target's after a merge, the source's after a
 * rebase), reported as a push by `user`; `skipCi`: git's push option `ci.skip`.
 */
export async function advanceBranch(repository: Repository, user: User, branch: string, from: string, to: string, options: { skipCi?: boolean } = {}): Promise<'moved' | 'stale'> {
  return moveBranch(repository, user, branch, from, to, options);
}

/**
 * The source's commits since `start` replayed onto `start` (the target branch's tip) in the source
 * repository (the target's commits made readable there first, for a fork with its own pool), as
 * `user`; nothing moved.
 */
export async function rebaseSource(repositories: { target: Repository; source: Repository }, start: string, head: string, user: User): Promise<RebaseOutcome> {
  if (repositories.source !== repositories.target) await fetchCommits(repositories.source, repositories.target, start);
  return rebaseCommits(repositories.source, { onto: start, head, committer: user });
}

/** How many commits of the target (`start`) the source (`head`) lacks (`diverged_commits_count`). */
export async function commitsBehind(repositories: { target: Repository; source: Repository }, start: string, head: string): Promise<number> {
  if (repositories.source !== repositories.target) await fetchCommits(repositories.target, repositories.source, head);
  return countCommitsBetween(repositories.target, head, start);
}

/**
 * Points the merge request's `refs/merge-requests/<iid>/head` at the head of its latest version,
 * so every version's commits stay reachable (housekeeping) when the source branch or fork goes.
 */
export async function keepHead(target: Repository, iid: number, head: string): Promise<void> {
  await keepMergeRequestHead(target, iid, head);
}

/** Deletes the source branch after a merge, as the merging user would (protection checks, push effects). */
export async function removeSourceBranch(source: ProjectSubject, user: User, branch: string, head: string): Promise<void> {
  await deleteBranch(source, user, branch, head);
}
