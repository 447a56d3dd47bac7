/**
 * Merge request writes: open (same project or from a fork), edit (including close, reopen and a
 * new target branch), soft delete. GitLab's `MergeRequests::CreateService` / `UpdateService`
 * rules: source and target branches must exist and differ; one open merge request per source →
 * target pair; labels, milestone, assignee and reviewer only from those who may `admin_merge_request` on the
 * target; a diff version recorded at creation and whenever the target branch changes. The route
 * has authorized the caller (`create_merge_request_from`/`_in`, `destroy_merge_request`); the
 * per-merge-request rule `update_merge_request` needs it loaded, so it is checked here.
 */
import { can, projectAccessFor, type ProjectSubject } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { getProject, projectFullPath, webUrlOf } from '../../projects';
import { getUser, type User } from '../../users';
import { branchHead, computeVersion, keepHead, repositoriesOf } from '../git';
import { ensureLabels, pendingTodoRemovals, resolveProjectMilestoneId, summarizeChanges, systemNotesFor, targetBranchNote } from '../issuables';
import { canUpdateMergeRequest } from '../policy';
import { findMergeRequestOrNotFound } from '../queries/merge-requests';
import { mentionedIssues } from '../queries/related';
import { mergeRequestSequences } from '../store/keys';
import { closingRefs, openPairHolder, writeMergeRequest, type MergeRequest, type Reviewer } from '../store/merge-requests';
import { mentionRefs } from '../store/related';
import { getVersion, versionContent } from '../store/versions';
import { closingIssues, refsOf } from './closing';
import { lastCommitOf, mergeRequestEffects } from './effects';
import { startMergeRequestPipeline } from './merge-request-pipelines';
import { failOrAgain, MergeRequestError, pairTaken, recordVersion, retried, sameBranch, validateText } from './shared';

/** What a client sends on create and edit; `undefined` keeps (or defaults) a field. */
export interface MergeRequestInput {
  title?: string;
  description?: string | null;
  targetBranch?: string;
  /** `0` or `null` removes the assignee. */
  assigneeId?: number | null;
  /** Reviewers: the first is the one (GitLab Free); `[]` or `[0]` removes it. */
  reviewerIds?: number[];
  /** Label names; `[]` removes every label. */
  labels?: string[];
  /** `0` or `null` removes the milestone. */
  milestoneId?: number | null;
  removeSourceBranch?: boolean;
  stateEvent?: 'close' | 'reopen';
}

/** Internal: the relations an `admin_merge_request` caller sets, resolved (`undefined`: unchanged). */
interface Relations {
  labelIds?: number[];
  milestoneId?: number | null;
  assigneeId?: number | null;
  reviewerId?: number | null;
}

async function resolveRelations(subject: ProjectSubject, input: MergeRequestInput): Promise<Relations> {
  const relations: Relations = {};
  if (input.labels !== undefined) {
    // Names of labels the project lacks create them, as on issues (GitLab's `find_or_create_by`).
    relations.labelIds = (await ensureLabels(subject.project, input.labels)).map((label) => label.id);
  }
  if (input.milestoneId === null || input.milestoneId === 0) relations.milestoneId = null;
  else if (input.milestoneId !== undefined) {
    // The project's own milestone, or one of its group's or an ancestor group's, as on issues
    // (GitLab's `milestone_id`): the project then holds an alias of the group milestone.
    relations.milestoneId = await resolveProjectMilestoneId(subject, input.milestoneId);
  }
  if (input.assigneeId === null || input.assigneeId === 0) relations.assigneeId = null;
  else if (input.assigneeId !== undefined && (await canBeAssigned(input.assigneeId, subject))) relations.assigneeId = input.assigneeId;
  // GitLab Free allows one reviewer (`allows_multiple_reviewers?` false): the first id given.
  const reviewerId = input.reviewerIds?.[0];
  if (input.reviewerIds !== undefined && !reviewerId) relations.reviewerId = null;
  else if (reviewerId !== undefined && (await canBeAssigned(reviewerId, subject))) relations.reviewerId = reviewerId;
  return relations;
}

/** The reviewer after a change of `relations` (a new one's review is requested at `now`; the same one keeps theirs). */
function reviewerAfter(current: Reviewer | null, relations: Relations, now: string): Reviewer | null {
  if (relations.reviewerId === undefined) return current;
  if (relations.reviewerId === null) return null;
  return current?.userId === relations.reviewerId ? current : { userId: relations.reviewerId, state: 'unreviewed', createdAt: now };
}

/** An active user who can read the project's merge requests (an assignee, a reviewer). */
async function canBeAssigned(userId: number, subject: ProjectSubject): Promise<boolean> {
  const user = await getUser(userId);
  if (!user || user.state !== 'active') return false;
  const access = await projectAccessFor(user, subject.project, subject.namespace);
  return can(user, 'read_merge_request', { ...subject, access });
}

/** Internal: 400 for branches that do not exist (GitLab's `MergeRequests::BuildService` messages). */
function missingBranches(source: { branch: string; head?: string }, target: { branch: string; head?: string }): void {
  const messages: string[] = [];
  if (!source.head) messages.push(`Source branch "${source.branch}" does not exist`);
  if (!target.head) messages.push(`Target branch "${target.branch}" does not exist`);
  if (messages.length > 0) throw new MergeRequestError(400, messages);
}

/** Internal: the texts whose closing references count (title, description, commit messages). */
const closingTexts = (mr: Pick<MergeRequest, 'title' | 'description'>, commitMessages: string[]) => [mr.title, mr.description ?? '', ...commitMessages];

/**
 * Opens a merge request of `sourceBranch` of `source` into `targetBranch` of `target` (the same
 * project, or the upstream of the fork `source`), authored by `user`, with its first diff version,
 * the issues it closes, the `opened` event and the Merge Request Hook `open`, in one transaction.
 *
 * @throws MergeRequestError 422 same branch, 400 a branch that does not exist, 409 an open merge
 *   request of the same pair; ValidationError on a bad title or description.
 */
export async function createMergeRequest(
  source: ProjectSubject,
  target: ProjectSubject,
  user: User,
  input: MergeRequestInput & { title: string; sourceBranch: string; targetBranch: string },
): Promise<MergeRequest> {
  const title = input.title.trim();
  const description = input.description ?? null;
  validateText({ title, description });
  if (source.project.id === target.project.id && input.sourceBranch === input.targetBranch) throw sameBranch();
  const repositories = await repositoriesOf(target.project, source.project);
  const [sourceHead, targetHead] = await Promise.all([branchHead(repositories.source, input.sourceBranch), branchHead(repositories.target, input.targetBranch)]);
  missingBranches({ branch: input.sourceBranch, head: sourceHead }, { branch: input.targetBranch, head: targetHead });
  const holder = await openPairHolder(source.project.id, input.sourceBranch, target.project.id, input.targetBranch);
  if (holder !== undefined) throw pairTaken(holder);
  const relations: Relations = can(user, 'admin_merge_request', target) ? await resolveRelations(target, input) : {};

  const targetPath = projectFullPath(target.namespace, target.project);
  const computed = await computeVersion(repositories, targetHead!, sourceHead!, webUrlOf(targetPath));
  const [id, iid] = await Promise.all([nextId(mergeRequestSequences.mergeRequests), nextId(mergeRequestSequences.iids(target.project.id))]);
  await keepHead(repositories.target, iid, sourceHead!);
  const now = new Date().toISOString();
  const draft = { id, projectId: target.project.id, iid };
  const { version, items } = await recordVersion(draft, computed);
  const mr: MergeRequest = {
    ...draft,
    sourceProjectId: source.project.id,
    sourceBranch: input.sourceBranch,
    targetBranch: input.targetBranch,
    title,
    description,
    state: 'opened',
    authorId: user.id,
    assigneeId: relations.assigneeId ?? null,
    reviewer: reviewerAfter(null, relations, now),
    milestoneId: relations.milestoneId ?? null,
    labelIds: relations.labelIds ?? [],
    mergeStatus: 'unchecked',
    mergeStatusFor: null,
    sha: sourceHead!,
    targetSha: targetHead!,
    latestVersionId: version.id,
    baseSha: version.baseCommitSha,
    changesCount: version.realSize,
    mergeCommitSha: null,
    mergeWhenPipelineSucceeds: false,
    mergeUserId: null,
    mergeParams: null,
    forceRemoveSourceBranch: input.removeSourceBranch ?? false,
    shouldRemoveSourceBranch: null,
    lockedUntil: null,
    mergedById: null,
    mergedAt: null,
    closedById: null,
    closedAt: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    version: 0,
  };
  const closes = await closingIssues(mr, target, user, closingTexts(mr, computed.content.commits.map((commit) => commit.message)));
  const effects = await mergeRequestEffects(mr, user, target.project, { event: 'opened', hook: { action: 'open', previous: null, lastCommit: lastCommitOf(computed.content.commits) } });
  const mentions = { before: [], after: await mentionedIssues(target, user, [mr.title, mr.description ?? '']) };
  const result = await writeMergeRequest({ next: mr, version: items, closes: { before: [], after: refsOf(closes) }, mentions, effects });
  if (typeof result !== 'string' && !('pairTaken' in result)) {
    // Its merge request pipeline, when the configuration has jobs for it (never failing the creation).
    await startMergeRequestPipeline(target, user, result);
    return result;
  }
  if (result === 'changed') throw new MergeRequestError(409, ['Merge request iid already in use; try again']);
  failOrAgain(result);
  throw new Error('unreachable');
}

const STATE_AFTER = { close: 'closed', reopen: 'opened' } as const;

/**
 * Edits a merge request (as found by the caller), re-reading and applying again when another write
 * wins the race: title, description, labels, milestone, assignee, reviewer, `remove_source_branch`, the
 * target branch (a new diff version, `merge_status` unchecked, the system note), `state_event`
 * (`close` releases the pair, `reopen` takes it again: 409 when another open merge request holds
 * it). A merged merge request keeps its state and target branch.
 *
 * @throws ForbiddenError unless the caller is the author, the assignee, or a developer and above.
 */
export async function updateMergeRequest(target: ProjectSubject, user: User, mr: MergeRequest, input: MergeRequestInput): Promise<MergeRequest> {
  if (!canUpdateMergeRequest(user, target, mr)) throw new ForbiddenError();
  validateText({
    title: input.title === undefined ? mr.title : input.title.trim(),
    description: input.description === undefined ? mr.description : input.description,
  });
  const relations: Relations = can(user, 'admin_merge_request', target) ? await resolveRelations(target, input) : {};
  const reread = () => findMergeRequestOrNotFound(target, user, mr.iid);
  return retried(mr, reread, async (current) => {
    if (!canUpdateMergeRequest(user, target, current)) throw new ForbiddenError();
    const now = new Date().toISOString();
    const settled = current.state === 'merged' || current.state === 'locked';
    let state = current.state;
    if (input.stateEvent === 'close' && current.state === 'opened') state = 'closed';
    if (input.stateEvent === 'reopen' && current.state === 'closed') state = STATE_AFTER.reopen;
    const newTarget = !settled && input.targetBranch !== undefined && input.targetBranch !== current.targetBranch ? input.targetBranch : undefined;
    let next: MergeRequest = {
      ...current,
      title: input.title === undefined ? current.title : input.title.trim(),
      description: input.description === undefined ? current.description : input.description,
      labelIds: relations.labelIds ?? current.labelIds,
      milestoneId: relations.milestoneId === undefined ? current.milestoneId : relations.milestoneId,
      assigneeId: relations.assigneeId === undefined ? current.assigneeId : relations.assigneeId,
      reviewer: reviewerAfter(current.reviewer ?? null, relations, now),
      forceRemoveSourceBranch: input.removeSourceBranch ?? current.forceRemoveSourceBranch,
      state,
      closedAt: state === 'closed' && current.state !== 'closed' ? now : state === 'closed' ? current.closedAt : null,
      closedById: state === 'closed' && current.state !== 'closed' ? user.id : state === 'closed' ? current.closedById : null,
      updatedAt: now,
    };
    let versionItemsOf: Awaited<ReturnType<typeof recordVersion>>['items'] | undefined;
    let commitMessages: string[] | undefined;
    const sourceSubject = current.sourceProjectId === target.project.id ? target.project : undefined;
    if (newTarget !== undefined || (state === 'opened' && current.state === 'closed')) {
      const repositories = await repositoriesOf(target.project, sourceSubject ?? (await sourceProjectOf(current)));
      const targetBranch = newTarget ?? current.targetBranch;
      if (current.sourceProjectId === target.project.id && targetBranch === current.sourceBranch) throw sameBranch();
      const [sourceHead, targetHead] = await Promise.all([branchHead(repositories.source, current.sourceBranch), branchHead(repositories.target, targetBranch)]);
      if (newTarget !== undefined && !targetHead) throw new MergeRequestError(400, [`Target branch "${targetBranch}" does not exist`]);
      // GitLab's `reopenable?`: a merge request whose source branch is gone stays closed.
      if (!sourceHead || !targetHead) next = { ...next, state: current.state, closedAt: current.closedAt, closedById: current.closedById };
      else if (newTarget !== undefined || sourceHead !== current.sha || targetHead !== current.targetSha) {
        const computed = await computeVersion(repositories, targetHead, sourceHead, webUrlOf(projectFullPath(target.namespace, target.project)));
        await keepHead(repositories.target, current.iid, sourceHead);
        const recorded = await recordVersion(current, computed);
        versionItemsOf = recorded.items;
        commitMessages = computed.content.commits.map((commit) => commit.message);
        next = {
          ...next,
          targetBranch,
          sha: sourceHead,
          targetSha: targetHead,
          latestVersionId: recorded.version.id,
          baseSha: recorded.version.baseCommitSha,
          changesCount: recorded.version.realSize,
          mergeStatus: 'unchecked',
          mergeStatusFor: null,
        };
      }
    }
    const notes = systemNotesFor(await summarize(current, next));
    if (next.targetBranch !== current.targetBranch) notes.unshift(targetBranchNote(current.targetBranch, next.targetBranch));
    const reviewers = await reviewersNote(current, next);
    if (reviewers) notes.push(reviewers);
    const stateEvent = next.state === current.state ? undefined : next.state === 'closed' ? 'closed' : 'reopened';
    let closes: { before: ReturnType<typeof refsOf>; after: ReturnType<typeof refsOf> } | undefined;
    if (next.title !== current.title || next.description !== current.description || next.targetBranch !== current.targetBranch || commitMessages) {
      const messages = commitMessages ?? (await latestCommitMessages(current));
      closes = { before: await closingRefs(current.projectId, current.iid), after: refsOf(await closingIssues(next, target, user, closingTexts(next, messages))) };
    }
    const mentions =
      next.title !== current.title || next.description !== current.description
        ? { before: await mentionRefs(current.projectId, current.iid), after: await mentionedIssues(target, user, [next.title, next.description ?? '']) }
        : undefined;
    const effects = await mergeRequestEffects(next, user, target.project, {
      event: stateEvent,
      notes,
      hook: { action: stateEvent === 'closed' ? 'close' : stateEvent === 'reopened' ? 'reopen' : 'update', previous: current, lastCommit: null },
    });
    const result = await writeMergeRequest({ previous: current, next, version: versionItemsOf, closes, mentions, effects });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : result;
  });
}

/**
 * Soft-deletes a merge request (as found by the caller, authorized for `destroy_merge_request`):
 * it leaves every read and list, keeps its iid, releases its pair and its closing relations.
 */
export async function deleteMergeRequest(target: ProjectSubject, user: User, mr: MergeRequest): Promise<void> {
  const reread = () => findMergeRequestOrNotFound(target, user, mr.iid);
  await retried(mr, reread, async (current) => {
    const now = new Date().toISOString();
    // Its pending todos go with it, in its transaction (`GET /user_counts` counts them no more).
    const [before, mentioned, todos] = await Promise.all([
      closingRefs(current.projectId, current.iid),
      mentionRefs(current.projectId, current.iid),
      pendingTodoRemovals({ type: 'MergeRequest', projectId: current.projectId, iid: current.iid }),
    ]);
    const result = await writeMergeRequest({
      previous: current,
      next: { ...current, deletedAt: now, updatedAt: now },
      closes: { before, after: [] },
      mentions: { before: mentioned, after: [] },
      effects: todos.length > 0 ? { todos } : undefined,
    });
    return typeof result === 'string' || 'pairTaken' in result ? failOrAgain(result) : undefined;
  });
}

/** The source project of a fork merge request (404 when it went). */
export async function sourceProjectOf(mr: MergeRequest) {
  const project = await getProject(mr.sourceProjectId);
  if (!project) throw new NotFoundError('Source project');
  return project;
}

/** Internal: the commit messages of the latest version. */
async function latestCommitMessages(mr: MergeRequest): Promise<string[]> {
  const version = await getVersion(mr.projectId, mr.iid, mr.latestVersionId);
  return version ? (await versionContent(version)).commits.map((commit) => commit.message) : [];
}

/**
 * Internal: the system note of a change of reviewer (GitLab's `change_issuable_reviewers`):
 * `requested review from @a`, `removed review request for @b`, or both joined by `and`.
 */
async function reviewersNote(before: MergeRequest, after: MergeRequest): Promise<string | undefined> {
  const [was, is] = [before.reviewer?.userId, after.reviewer?.userId];
  if (was === is) return undefined;
  const [added, removed] = await Promise.all([is === undefined ? undefined : getUser(is), was === undefined ? undefined : getUser(was)]);
  const parts = [...(added ? [`requested review from @${added.username}`] : []), ...(removed ? [`removed review request for @${removed.username}`] : [])];
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/** Internal: what an edit changed that system notes tell (the issues feature's summary; one assignee). */
const summarize = (before: MergeRequest, after: MergeRequest) =>
  summarizeChanges({ ...before, assigneeIds: before.assigneeId === null ? [] : [before.assigneeId] }, { ...after, assigneeIds: after.assigneeId === null ? [] : [after.assigneeId] });

