/**
 * Accepting a merge request (`PUT …/merge`, GitLab's `MergeRequests::MergeService`) and cancelling
 * a deferred merge. The route has found the merge request; the rules, in GitLab's order:
 * may the caller update the target branch (401), is the merge request in a mergeable state (406
 * `Method Not Allowed`: not open, being merged, work in progress, source branch gone), are its
 * discussions resolved and has its head pipeline succeeded when the project requires it (405
 * `405 Method Not Allowed`, GitLab's `not_allowed!`; a running head pipeline is enough with `merge_when_pipeline_succeeds`), does it
 * merge without conflicts (405 `Branch cannot be merged`), does `sha` name the source head (409).
 *
 * Two merges of one merge request make one merge commit: the merge takes a lock first (state
 * `locked` with a lease, a version-conditioned write that only one of them wins; a lease that ran
 * out — a crashed merge — may be taken over). The merge commit is made on the target's tip and the
 * branch moved by compare-and-swap; when the target moved meanwhile (a push), the merge is made
 * again on the new tip, so that push is never lost. Then the merge request is `merged` with its
 * `merge_commit_sha`, its closing issues are closed and its source branch removed when asked.
 */
import type { ProjectSubject } from '../../auth';
import { latestPipelineFor, pipelineActive } from '../../ci';
import { ApiError, ConflictError, NotFoundError, UnauthorizedError } from '../../platform/http/errors';
import { findProjectOrNotFound, getProject, projectFullPath } from '../../projects';
import { logger } from '../../platform/logger';
import type { User } from '../../users';
import { advanceBranch, branchHead, mergeInto, removeSourceBranch, repositoriesOf } from '../git';
import { closeIssueFromMergeRequest, statusNote } from '../issuables';
import { canMergeInto, canRemoveBranch } from '../policy';
import { findMergeRequestOrNotFound, isWorkInProgress } from '../queries/merge-requests';
import { writeMergeRequest, type MergeRequest } from '../store/merge-requests';
import { linkMergeCommit } from '../store/commit-links';
import { getVersion, versionContent } from '../store/versions';
import { discussionsAllowMerge, pipelineAllowsMerge, pipelineMatters } from '../mergeability';
import { closingIssues } from './closing';
import { lastCommitOf, mergeRequestEffects } from './effects';
import { AGAIN, failOrAgain, retried } from './shared';

/** How long a merge holds its lock before another may take it over. */
export const MERGE_LEASE_MS = 120_000;
/** Most attempts at merging onto a target branch that keeps moving. */
const MERGE_ATTEMPTS = 5;

/**
 * The merge's refusals. 405 is GitLab's `not_allowed!`, whose body is always
 * `{"message":"405 Method Not Allowed"}`; 406 (a merge request that is not open, being merged or a
 * draft, or no merge to cancel) keeps the contract's `{"message":"Method Not Allowed"}`.
 */
class MethodNotAllowed extends ApiError {
  constructor(status: 405 | 406) {
    super(status, { message: status === 405 ? '405 Method Not Allowed' : 'Method Not Allowed' });
  }
}

const branchCannotBeMerged = () => new ApiError(405, { message: 'Branch cannot be merged' });

export interface MergeInput {
  commitMessage?: string;
  shouldRemoveSourceBranch?: boolean;
  mergeWhenPipelineSucceeds?: boolean;
  sha?: string;
}

/** Whether a lock is held (not run out). */
const lockHeld = (mr: MergeRequest, now = Date.now()) => mr.state === 'locked' && mr.lockedUntil !== null && Date.parse(mr.lockedUntil) > now;

/** `!N` and `group/project!N`. */
export const fullReference = (target: ProjectSubject, mr: MergeRequest) => `${projectFullPath(target.namespace, target.project)}!${mr.iid}`;

/** Internal: `a`, `a and b`, `a, b, and c` (Rails' `to_sentence`). */
function toSentence(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/**
 * Whether the head pipeline of the merge request (the newest pipeline of its source branch at its
 * head commit, in the source project) has yet to finish: a merge asked with
 * `merge_when_pipeline_succeeds` then waits for it (GitLab's `head_pipeline_active?`); without one
 * the merge happens now. When it finishes, `mergeWhenPipelineSucceeded` (`commands/pipelines.ts`)
 * hears of it from CI and calls {@link onPipelineSucceeded}.
 */
export async function headPipelineActive(mr: MergeRequest): Promise<boolean> {
  const pipeline = await latestPipelineFor(mr.sourceProjectId, mr.sourceBranch, mr.sha, false, mr);
  return pipeline !== undefined && pipelineActive(pipeline);
}

/**
 * Accepts a merge request (see the module's comment); answers it as written. With
 * `merge_when_pipeline_succeeds` and an active head pipeline, the merge is deferred instead
 * (`merge_when_pipeline_succeeds: true`, state unchanged).
 */
export async function acceptMergeRequest(target: ProjectSubject, user: User, mr: MergeRequest, input: MergeInput): Promise<MergeRequest> {
  if (!(await canMergeInto(user, target, mr.targetBranch))) throw new UnauthorizedError();
  const now = Date.now();
  if (mr.deletedAt || (mr.state !== 'opened' && !(mr.state === 'locked' && !lockHeld(mr, now))) || isWorkInProgress(mr.title)) throw new MethodNotAllowed(406);
  // GitLab's `mergeable_discussions_state?`: a project that requires resolved discussions refuses while one is not.
  if (!discussionsAllowMerge(mr, target.project)) throw new MethodNotAllowed(405);
  // GitLab's `mergeable_ci_state?`: a project that requires a successful pipeline refuses without
  // one, unless the merge is to wait for the running head pipeline (`merge_when_pipeline_succeeds`).
  if (pipelineMatters(target.project)) {
    const pipeline = await latestPipelineFor(mr.sourceProjectId, mr.sourceBranch, mr.sha, false, mr);
    const waits = input.mergeWhenPipelineSucceeds === true && pipeline !== undefined && pipelineActive(pipeline);
    if (!waits && !pipelineAllowsMerge(target.project, pipeline)) throw new MethodNotAllowed(405);
  }
  const source = mr.sourceProjectId === target.project.id ? target.project : await getProject(mr.sourceProjectId);
  if (!source) throw new MethodNotAllowed(406);
  const repositories = await repositoriesOf(target.project, source);
  const sourceHead = await branchHead(repositories.source, mr.sourceBranch);
  if (!sourceHead) throw new MethodNotAllowed(406);
  if (input.sha !== undefined && input.sha !== sourceHead) throw new ConflictError('SHA does not match HEAD of source branch');
  if (input.mergeWhenPipelineSucceeds && (await headPipelineActive(mr))) {
    const deferred = await mergeWhenPipelineSucceeds(target, user, mr, input);
    // The pipeline may have succeeded between the check and the write, before this merge request
    // waited for it (its listener then passed it by): merge now.
    const pipeline = await latestPipelineFor(deferred.sourceProjectId, deferred.sourceBranch, deferred.sha, false, deferred);
    if (pipeline?.status === 'success') return (await onPipelineSucceeded(target, deferred, user)) ?? deferred;
    return deferred;
  }
  return mergeNow(target, user, mr, input);
}

/**
 * Defers the merge until the head pipeline succeeds (`merge_when_pipeline_succeeds: true`, the
 * merge's parameters and user kept on the merge request), as GitLab's
 * `MergeRequests::MergeWhenPipelineSucceedsService#execute`.
 */
export async function mergeWhenPipelineSucceeds(target: ProjectSubject, user: User, mr: MergeRequest, input: MergeInput): Promise<MergeRequest> {
  const reread = () => findMergeRequestOrNotFound(target, user, mr.iid);
  return retried(mr, reread, async (current) => {
    if (current.state !== 'opened') throw new MethodNotAllowed(406);
    const next: MergeRequest = {
      ...current,
      mergeWhenPipelineSucceeds: true,
      mergeUserId: user.id,
      mergeParams: {
        shouldRemoveSourceBranch: input.shouldRemoveSourceBranch ?? false,
        ...(input.commitMessage !== undefined ? { commitMessage: input.commitMessage } : {}),
        ...(input.sha !== undefined ? { sha: input.sha } : {}),
      },
      updatedAt: new Date().toISOString(),
    };
    const effects = await mergeRequestEffects(next, user, target.project, { notes: [`enabled an automatic merge when the pipeline for ${current.sha} succeeds`] });
    const result = await writeMergeRequest({ previous: current, next, effects });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  });
}

/**
 * The CI feature's call when the head pipeline of a project's branch succeeds: the merge requests
 * of that source branch waiting for it are merged, as the user who asked (GitLab's
 * `MergeWhenPipelineSucceedsService#trigger`). Failures are the merge's own (logged by the caller).
 */
export async function onPipelineSucceeded(target: ProjectSubject, mr: MergeRequest, mergeUser: User): Promise<MergeRequest | undefined> {
  if (!mr.mergeWhenPipelineSucceeds || mr.state !== 'opened') return undefined;
  const { commitMessage, shouldRemoveSourceBranch, sha } = mr.mergeParams ?? {};
  return acceptMergeRequest(target, mergeUser, mr, { commitMessage, shouldRemoveSourceBranch, sha });
}

/**
 * `PUT …/cancel_merge_when_pipeline_succeeds`: 405 on a merged or closed merge request, 406 when no
 * merge is deferred, 401 unless the caller may merge it (checked first by the route's rule).
 */
export async function cancelMergeWhenPipelineSucceeds(target: ProjectSubject, user: User, mr: MergeRequest): Promise<MergeRequest> {
  if (!(await canMergeInto(user, target, mr.targetBranch))) throw new UnauthorizedError();
  if (mr.state === 'merged' || mr.state === 'closed') throw new MethodNotAllowed(405);
  if (!mr.mergeWhenPipelineSucceeds) throw new MethodNotAllowed(406);
  const reread = () => findMergeRequestOrNotFound(target, user, mr.iid);
  return retried(mr, reread, async (current) => {
    if (!current.mergeWhenPipelineSucceeds) return current;
    const next: MergeRequest = { ...current, mergeWhenPipelineSucceeds: false, mergeUserId: null, mergeParams: null, updatedAt: new Date().toISOString() };
    const effects = await mergeRequestEffects(next, user, target.project, { notes: ['canceled the automatic merge'] });
    const result = await writeMergeRequest({ previous: current, next, effects });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  });
}

/** Internal: the default merge commit message (`MergeRequest#merge_commit_message`). */
async function defaultMessage(target: ProjectSubject, user: User, mr: MergeRequest): Promise<string> {
  const version = await getVersion(mr.projectId, mr.iid, mr.latestVersionId);
  const messages = version ? (await versionContent(version)).commits.map((commit) => commit.message) : [];
  const closes = await closingIssues(mr, target, user, [mr.title, mr.description ?? '', ...messages]);
  const references = closes.map(({ issue, subject }) =>
    issue.projectId === target.project.id ? `#${issue.iid}` : `${projectFullPath(subject.namespace, subject.project)}#${issue.iid}`,
  );
  const parts = [`Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`, mr.title];
  if (references.length > 0) parts.push(`Closes ${toSentence(references)}`);
  parts.push(`See merge request ${fullReference(target, mr)}`);
  return parts.join('\n\n');
}

/** Internal: takes the merge lock (state `locked` with a lease); 406 when another merge holds it or the merge request is no longer open. */
async function lock(target: ProjectSubject, user: User, mr: MergeRequest): Promise<MergeRequest> {
  const reread = () => findMergeRequestOrNotFound(target, user, mr.iid);
  return retried(mr, reread, async (current) => {
    if (current.state !== 'opened' && !(current.state === 'locked' && !lockHeld(current))) throw new MethodNotAllowed(406);
    const next: MergeRequest = { ...current, state: 'locked', lockedUntil: new Date(Date.now() + MERGE_LEASE_MS).toISOString(), mergeUserId: user.id };
    const result = await writeMergeRequest({ previous: current, next });
    if (result === 'changed') {
      const fresh = await reread();
      if (lockHeld(fresh) || fresh.state !== 'opened') throw new MethodNotAllowed(406);
      return AGAIN;
    }
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  });
}

/** Internal: gives the lock back (the merge did not happen), with what was learnt about the merge status. */
async function unlock(locked: MergeRequest, status: MergeRequest['mergeStatus'], heads: { source: string; target: string } | null): Promise<void> {
  await writeMergeRequest({
    previous: locked,
    next: { ...locked, state: 'opened', lockedUntil: null, mergeUserId: null, mergeStatus: status, mergeStatusFor: heads },
  });
}

/** Internal: merges now, under the lock. */
async function mergeNow(target: ProjectSubject, user: User, mr: MergeRequest, input: MergeInput): Promise<MergeRequest> {
  const source = mr.sourceProjectId === target.project.id ? target.project : await getProject(mr.sourceProjectId);
  if (!source) throw new NotFoundError('Source project');
  const message = input.commitMessage?.trim() ? input.commitMessage : await defaultMessage(target, user, mr);
  let locked = await lock(target, user, mr);
  const repositories = await repositoriesOf(target.project, source);
  let mergeCommit: string | undefined;
  let merged: { source: string; target: string } | undefined;
  try {
    for (let attempt = 1; attempt <= MERGE_ATTEMPTS && mergeCommit === undefined; attempt++) {
      const [sourceHead, targetHead] = await Promise.all([branchHead(repositories.source, locked.sourceBranch), branchHead(repositories.target, locked.targetBranch)]);
      if (!sourceHead || !targetHead) {
        await unlock(locked, 'cannot_be_merged', null);
        throw new MethodNotAllowed(406);
      }
      if (input.sha !== undefined && input.sha !== sourceHead) {
        await unlock(locked, locked.mergeStatus, locked.mergeStatusFor);
        throw new ConflictError('SHA does not match HEAD of source branch');
      }
      const outcome = await mergeInto(repositories.target, targetHead, sourceHead, message, user);
      if ('conflicts' in outcome) {
        await unlock(locked, 'cannot_be_merged', { source: sourceHead, target: targetHead });
        throw branchCannotBeMerged();
      }
      // Compare-and-swap: a push to the target since `targetHead` makes this stale; merge again on the new tip.
      if ((await advanceBranch(repositories.target, user, locked.targetBranch, targetHead, outcome.commit)) === 'moved') {
        mergeCommit = outcome.commit;
        merged = { source: sourceHead, target: targetHead };
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    await unlock(locked, locked.mergeStatus, locked.mergeStatusFor).catch(() => undefined);
    throw error;
  }
  if (mergeCommit === undefined) {
    await unlock(locked, 'unchecked', null);
    throw new ConflictError('The target branch kept moving; try again');
  }
  locked = await findMergeRequestOrNotFound(target, user, mr.iid);
  const now = new Date().toISOString();
  const shouldRemove = input.shouldRemoveSourceBranch ?? null;
  const done: MergeRequest = {
    ...locked,
    state: 'merged',
    lockedUntil: null,
    mergeCommitSha: mergeCommit,
    mergedById: user.id,
    mergedAt: now,
    mergeStatus: 'can_be_merged',
    mergeStatusFor: merged!,
    mergeWhenPipelineSucceeds: false,
    shouldRemoveSourceBranch: shouldRemove,
    updatedAt: now,
  };
  const version = await getVersion(done.projectId, done.iid, done.latestVersionId);
  const commits = version ? (await versionContent(version)).commits : [];
  await linkMergeCommit(done.projectId, done.iid, mergeCommit);
  const effects = await mergeRequestEffects(done, user, target.project, { event: 'accepted', notes: [statusNote('merged')], hook: { action: 'merge', previous: locked, lastCommit: lastCommitOf(commits) } });
  // The merge commit is on the target: this write must land (only this merge holds the lock).
  // `previous` is the merge request as read (locked), so the write sees what it changes: its
  // open pair released, its assignee's and reviewer's open counts moved.
  const written = await retried(locked, () => findMergeRequestOrNotFound(target, user, mr.iid), async (current) => {
    const result = await writeMergeRequest({ previous: current, next: { ...current, ...pickMerged(done) }, effects });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  }, 8);
  await afterMerge(target, user, written, [written.title, written.description ?? '', ...commits.map((commit) => commit.message)]);
  return written;
}

/** Internal: the fields a merge sets, re-applied on a fresh read. */
const pickMerged = (done: MergeRequest): Partial<MergeRequest> => ({
  state: done.state,
  lockedUntil: null,
  mergeCommitSha: done.mergeCommitSha,
  mergedById: done.mergedById,
  mergedAt: done.mergedAt,
  mergeStatus: done.mergeStatus,
  mergeStatusFor: done.mergeStatusFor,
  mergeWhenPipelineSucceeds: false,
  shouldRemoveSourceBranch: done.shouldRemoveSourceBranch,
  updatedAt: done.updatedAt,
});

/**
 * Internal: what follows a merge (`MergeRequests::PostMergeService`): the issues it closes are
 * closed (those the user may update: the issues feature checks), and the source branch is
 * removed when asked (`should_remove_source_branch`, else `force_remove_source_branch`) and the
 * user may delete it.
 */
async function afterMerge(target: ProjectSubject, user: User, mr: MergeRequest, texts: string[]): Promise<void> {
  const reference = fullReference(target, mr);
  for (const { issue } of await closingIssues(mr, target, user, texts)) {
    await closeIssueFromMergeRequest(issue, user, mr, reference);
  }
  const remove = mr.shouldRemoveSourceBranch ?? mr.forceRemoveSourceBranch;
  if (!remove) return;
  const source = mr.sourceProjectId === target.project.id ? target : await findProjectOrNotFound(mr.sourceProjectId, user).catch(() => undefined);
  if (!source || !(await canRemoveBranch(user, source, mr.sourceBranch))) return;
  // The branch as merged; a push since then keeps it (the delete's compare-and-swap fails).
  await removeSourceBranch(source, user, mr.sourceBranch, mr.sha).catch((error: unknown) => {
    logger.warn('source branch not removed after merge', { projectId: source.project.id, branch: mr.sourceBranch, error: String(error) });
  });
}
