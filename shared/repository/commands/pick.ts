/**
 * Cherry-picking a commit onto a branch and reverting a commit on a branch through the API
 * (GitLab's `Commits::CherryPickService` / `Commits::RevertService`, which call Gitaly's
 * `UserCherryPick` / `UserRevert`): a three-way merge of trees (`merge/trees.ts`) without a work
 * tree, one new commit on the branch's tip, the branch moved with a compare-and-swap.
 *
 * - Cherry-pick: the commit's parent is the base, the branch is ours, the commit is theirs. The new
 *   commit keeps the original's author; its committer is the user.
 * - Revert: the commit is the base, the branch is ours, the commit's parent is theirs. The user is
 *   author and committer.
 *
 * A merge commit is picked against its first parent (git's `-m 1`, as Gitaly does); a root commit
 * against the empty tree. A change that conflicts, or that leaves the branch's tree as it was (it
 * is already there), is refused with Gitaly's error code (`conflict`, `empty`) and nothing is
 * stored. A dry run stops before storing anything.
 *
 * Not as GitLab: picking the merge commit of a merged merge request does not list the merge
 * request's commits in the message (the repository does not know merge requests).
 */
import type { ProjectSubject } from '../../auth';
import type { User } from '../../users';
import { formatTimezone, serializeCommit } from '../git/objects/parse';
import { hashObject } from '../git/objects/types';
import { mergeTrees } from '../merge/trees';
import type { CommitObject, ObjectReader } from '../queries/objects';
import { BranchRules } from '../queries/protection';
import { BRANCH_PREFIX } from '../queries/revisions';
import { branchCheck, changeRef, refRaceMessage } from './refs';

export type CommitChange = 'cherry_pick' | 'revert';

export interface CommitChangeRequest {
  change: CommitChange;
  /** The commit picked or reverted. */
  commit: CommitObject;
  /** The branch changed, and the commit it is at. */
  branch: string;
  tip: string;
  /** The new commit's message (GitLab's default for the change when absent). */
  message?: string;
  dryRun?: boolean;
}

/**
 * The new commit (absent on a dry run), or why there is none: `conflict` and `empty` are Gitaly's
 * error codes; `refused` is a pre-receive check's message or a race with another write.
 */
export type CommitChangeOutcome = { commit?: CommitObject } | { error: 'conflict' | 'empty' } | { refused: string };

/** GitLab's default messages (`Commit#cherry_pick_message`, `Commit#revert_message`). */
export function commitChangeMessage(change: CommitChange, commit: CommitObject): string {
  if (change === 'cherry_pick') return `${commit.message.replace(/\n+$/, '')}\n\n(cherry-picked from commit ${commit.id})`;
  const title = commit.message.split('\n', 1)[0].trim();
  return `Revert "${title}"\n\nThis reverts commit ${commit.id}`;
}

/**
 * Applies a cherry-pick or a revert to a branch (see the module's comment); the caller checked
 * that the user may push to it.
 *
 * @example
 * const outcome = await changeCommit(subject, user, reader, { change: 'revert', commit, branch: 'main', tip });
 * if ('error' in outcome) throw new ApiError(400, { message, error_code: outcome.error });
 */
export async function changeCommit(subject: ProjectSubject, user: User, reader: ObjectReader, request: CommitChangeRequest): Promise<CommitChangeOutcome> {
  const { commit, change } = request;
  const tip = await reader.commit(request.tip);
  if (!tip) throw new Error(`branch ${request.branch} points at ${request.tip}, not a commit`);
  const parent = commit.parents[0] === undefined ? null : (await reader.commitLinks(commit.parents[0]))?.tree ?? null;
  const [base, theirs] = change === 'cherry_pick' ? [parent, commit.tree] : [commit.tree, parent];
  // A revert of a root commit merges in the empty tree: every file it added goes.
  const emptyTree = hashObject('tree', Buffer.alloc(0));
  const empty = { type: 'tree' as const, body: Buffer.alloc(0) };
  const read: typeof reader.read = async (oid) => (oid === emptyTree ? empty : reader.read(oid));
  const merged = await mergeTrees(read, base, tip.tree, theirs ?? emptyTree);
  if ('conflicts' in merged) return { error: 'conflict' };
  if (merged.tree === tip.tree) return { error: 'empty' };
  if (request.dryRun) return {};

  const now = { name: user.name, email: user.email, timestamp: Math.floor(Date.now() / 1000), timezone: formatTimezone(0) };
  const body = serializeCommit({
    tree: merged.tree,
    parents: [tip.id],
    author: change === 'cherry_pick' ? commit.author : now,
    committer: now,
    message: request.message ?? commitChangeMessage(change, commit),
  });
  const id = hashObject('commit', body);
  const writer = { subject, user, repository: reader.repository };
  await reader.repository.writeObjects([...merged.objects, { type: 'commit', body }]);
  const rules = await BranchRules.load(subject.project.id);
  const refused = await branchCheck(writer, reader, rules, request.branch, tip.id, id);
  if (refused) return { refused };
  const ref = `${BRANCH_PREFIX}${request.branch}`;
  if (!(await changeRef(writer, { name: ref, oldOid: tip.id, newOid: id }, rules))) return { refused: refRaceMessage(ref) };
  return { commit: (await reader.commit(id))! };
}
