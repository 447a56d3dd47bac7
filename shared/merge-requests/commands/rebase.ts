/**
 * Rebasing a merge request's source branch onto its target branch (`PUT …/rebase`, GitLab's
 * `MergeRequest#rebase_async` → `RebaseWorker` → `MergeRequests::RebaseService`).
 *
 * The request checks GitLab's rules (`RebaseService#validate`, 403 with its reasons: the source
 * branch exists, the caller may push to it, a protected source branch allows force pushes), then
 * records the rebase on the merge request — a version-conditioned write that only one of two
 * racing requests wins; a merge request that is not open or whose rebase is in progress answers
 * GitLab's `409 Conflict: Resource lock` — and queues a background job (`shared/platform/jobs.ts`,
 * run by `functions/jobs`): the rebase may outlast API Gateway's 29 s, as GitLab's runs in Sidekiq.
 * The route answers 202 `{"rebase_in_progress": true}` at once.
 *
 * The job replays the source head recorded by the request onto the target branch's tip
 * (`rebaseSource`: a three-way tree merge per commit, authors and messages kept, the requester as
 * committer) and moves the source branch by compare-and-swap from that head, reported as a push by
 * the requester (new diff version, push event and hook, pipelines unless `skip_ci`). A push to the
 * source branch since the rebase was asked wins: the compare-and-swap fails and the rebase with it.
 * A conflict, a push that won, or more commits than `MAX_REBASE_COMMITS` leave the branch as it
 * was and set GitLab's `merge_error`; a rebase that succeeds (or finds the branch up to date)
 * clears it. Either way the rebase is no longer in progress.
 */
import type { ProjectSubject } from '../../auth';
import { enqueueJob } from '../../platform/jobs';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { logger } from '../../platform/logger';
import { findProjectOrNotFound, getProject } from '../../projects';
import { getUser, type User } from '../../users';
import { advanceBranch, branchHead, rebaseSource, repositoriesOf } from '../git';
import { rebaseRefusal } from '../policy';
import { getMergeRequest, isOpen, writeMergeRequest, type MergeRequest, type RebaseRequest } from '../store/merge-requests';
import { failOrAgain, retried } from './shared';

/** The kind of the background job that rebases a merge request (its target: the merge request's global id). */
export const MERGE_REQUEST_REBASE = 'merge_request_rebase';

/** GitLab's `RebaseService::REBASE_ERROR`, its `merge_error` when a rebase fails. */
export const REBASE_ERROR = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.';

/**
 * How long a rebase counts as in progress at most: past a running job's lease (16 minutes), so a
 * request whose job was lost (a crash between the write and the queueing) stops blocking new ones.
 */
export const REBASE_LEASE_MS = 20 * 60_000;

/** GitLab's answer when a rebase is in progress or the merge request is not open (`ActiveRecord::StaleObjectError`). */
const resourceLock = () => new ConflictError('409 Conflict: Resource lock');

/** Whether a rebase asked for is still under way (`rebase_in_progress`). */
export const rebaseInProgress = (mr: Pick<MergeRequest, 'rebase'>, now = Date.now()): boolean => !!mr.rebase && Date.parse(mr.rebase.until) > now;

/** What the job carries to find its merge request. */
interface RebaseJobOptions {
  projectId: number;
  iid: number;
}

/**
 * `PUT …/rebase`: checks, records the rebase and queues its job (see the module's comment);
 * answers the merge request as written (its rebase in progress).
 */
export async function requestRebase(target: ProjectSubject, user: User, mr: MergeRequest, input: { skipCi: boolean }): Promise<MergeRequest> {
  const source = mr.sourceProjectId === target.project.id ? target : await findProjectOrNotFound(mr.sourceProjectId, user).catch(() => undefined);
  if (!source) throw new ForbiddenError('Cannot push to source branch');
  const repositories = await repositoriesOf(target.project, source.project);
  const head = await branchHead(repositories.source, mr.sourceBranch);
  if (!head) throw new ForbiddenError('Source branch does not exist');
  const refusal = await rebaseRefusal(user, source, mr.sourceBranch);
  if (refusal) throw new ForbiddenError(refusal);
  const reread = async () => (await getMergeRequest(mr.projectId, mr.iid)) ?? mr;
  const written = await retried(mr, reread, async (current) => {
    if (current.state !== 'opened' || !isOpen(current) || rebaseInProgress(current)) throw resourceLock();
    const now = Date.now();
    const rebase: RebaseRequest = { sha: head, userId: user.id, skipCi: input.skipCi, requestedAt: new Date(now).toISOString(), until: new Date(now + REBASE_LEASE_MS).toISOString() };
    const result = await writeMergeRequest({ previous: current, next: { ...current, rebase } });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  });
  // Already queued: a job of this merge request is finishing another rebase and takes this one next
  // (`runRebaseJob` reads the merge request again once done). Should it have recorded its own
  // rebase already, this one waits for its lease to run out, as a lost job's would.
  await enqueueJob(MERGE_REQUEST_REBASE, mr.id, { projectId: mr.projectId, iid: mr.iid } satisfies RebaseJobOptions);
  return written;
}

/** Internal: the rebase itself; answers the `merge_error` it leaves (`null`: done, or nothing to do). */
async function rebase(mr: MergeRequest, request: RebaseRequest): Promise<string | null> {
  const [target, source, user] = await Promise.all([getProject(mr.projectId), getProject(mr.sourceProjectId), getUser(request.userId)]);
  if (!target || !source || !user || !isOpen(mr)) return null;
  const repositories = await repositoriesOf(target, source);
  const start = await branchHead(repositories.target, mr.targetBranch);
  if (!start) return REBASE_ERROR;
  // The head the rebase was asked for, whatever was pushed since: the compare-and-swap decides.
  const head = request.sha;
  const outcome = await rebaseSource(repositories, start, head, user);
  const log = { projectId: mr.projectId, iid: mr.iid };
  if ('conflicts' in outcome || 'tooMany' in outcome) {
    logger.info('merge request rebase failed', { ...log, ...('conflicts' in outcome ? { conflicts: outcome.conflicts.slice(0, 10), commit: outcome.commit } : { tooMany: outcome.tooMany }) });
    return REBASE_ERROR;
  }
  if (outcome.upToDate) return null;
  // Compare-and-swap from the head replayed: a push since the rebase was asked (or a deleted
  // branch) is never lost; the rebase fails instead.
  const moved = await advanceBranch(repositories.source, user, mr.sourceBranch, head, outcome.commit, { skipCi: request.skipCi });
  if (moved === 'stale') {
    logger.info('merge request rebase lost to a push', log);
    return REBASE_ERROR;
  }
  return null;
}

/** Internal: the rebase `request` is done, leaving `mergeError`; `again` when another was asked meanwhile. */
async function finish(mr: MergeRequest, request: RebaseRequest, mergeError: string | null): Promise<'done' | 'again'> {
  const reread = async () => (await getMergeRequest(mr.projectId, mr.iid)) ?? mr;
  try {
    return await retried(await reread(), reread, async (current) => {
      const same = current.rebase?.requestedAt === request.requestedAt;
      const result = await writeMergeRequest({ previous: current, next: { ...current, rebase: same ? null : current.rebase, mergeError } });
      if (typeof result === 'string' || 'pairTaken' in result) return failOrAgain(result);
      return same ? 'done' : 'again';
    }, 8);
  } catch (error) {
    // The project is gone: so is what there was to record.
    if (error instanceof NotFoundError) return 'done';
    throw error;
  }
}

/**
 * The jobs worker's work for {@link MERGE_REQUEST_REBASE}: runs the rebase the merge request
 * records, then any asked for while it ran. A run that failed is run again by the worker; one that
 * died after moving the branch and before recording it finds the branch moved on its next run, and
 * records the rebase as failed (the branch is rebased all the same).
 */
export async function runRebaseJob(options: Record<string, unknown>): Promise<void> {
  const { projectId, iid } = options as unknown as RebaseJobOptions;
  for (let round = 0; round < 3; round++) {
    const mr = await getMergeRequest(Number(projectId), Number(iid));
    const request = mr?.rebase;
    if (!mr || !request) return;
    if ((await finish(mr, request, await rebase(mr, request))) === 'done') return;
  }
}
