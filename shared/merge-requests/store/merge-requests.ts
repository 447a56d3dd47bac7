/**
 * Merge requests: items in their target project's partition (`PROJECT#<id>` / `MR#<iid>`), indexed
 * for the lists by creation (GSI1-3) and by last update (GSI4-6); see `mergeRequestIndexKeys.lists`
 * and ACCESS_PATTERNS.md.
 *
 * Every write is one transaction conditioned on the `version` read, which also checks the target
 * project is live, takes or releases the open-pair claim (GitLab's "one open merge request per
 * source → target") with the target-branch relation when the merge request becomes open or stops
 * being open (or changes its target branch), adds a diff version, rewrites the closing relations,
 * and carries the write's effects (feed event, system notes, webhook event, a new reviewer's todo). A soft-deleted merge
 * request keeps its item (its iid is never reused) with `deletedAt` and no index attributes.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import { getEntity, getItem, isId, queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { ConditionFailed, transact, versionedPut, type NamedTransactItems, type TransactItem } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { listState, mergeRequestCollections, mergeRequestIndexKeys, mergeRequestKeys } from './keys';
import { mentionEntries, type IssuableRef } from './related';

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';
export type MergeStatus = 'unchecked' | 'can_be_merged' | 'cannot_be_merged';

/** GitLab's `merge_request_reviewers.state`: where a reviewer's review stands. */
export type ReviewerState = 'unreviewed' | 'review_started' | 'reviewed' | 'requested_changes' | 'approved' | 'unapproved';

/** A merge request's reviewer (GitLab Free: at most one), with where their review stands. */
export interface Reviewer {
  userId: number;
  state: ReviewerState;
  /** When the review was requested. */
  createdAt: string;
}

/** A rebase asked for (`PUT …/rebase`), run by the jobs worker. */
export interface RebaseRequest {
  sha: string;
  userId: number;
  skipCi: boolean;
  requestedAt: string;
  /** Past this the request counts as lost (its worker never finished): no longer in progress. */
  until: string;
}

export interface MergeRequest {
  /** Global id (sequence `merge_requests`). */
  id: number;
  /** Id within the target project (sequence `merge_requests#<projectId>`). */
  iid: number;
  /** The target project. */
  projectId: number;
  sourceProjectId: number;
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string | null;
  state: MergeRequestState;
  authorId: number;
  assigneeId: number | null;
  /** Its reviewer; absent (items written before reviewers) or `null`: none. */
  reviewer?: Reviewer | null;
  milestoneId: number | null;
  labelIds: number[];
  /** `merge_status`, and the heads it was computed for (`null`: unchecked). */
  mergeStatus: MergeStatus;
  mergeStatusFor: { source: string; target: string } | null;
  /** The source branch's head when the latest version was recorded (`sha`). */
  sha: string;
  /** The target branch's head when the latest version was recorded. */
  targetSha: string;
  /** The latest diff version: its id, its base (merge base) and its file count (`changes_count`, `real_size`). */
  latestVersionId: number;
  baseSha: string;
  changesCount: string;
  mergeCommitSha: string | null;
  mergeWhenPipelineSucceeds: boolean;
  /** Who asked to merge (when the pipeline succeeds, or the merge in progress). */
  mergeUserId: number | null;
  /**
   * What a deferred merge was asked with (`null` when none: never an empty map, which the local
   * stream poller cannot read back).
   */
  mergeParams: { shouldRemoveSourceBranch?: boolean; commitMessage?: string; sha?: string } | null;
  /** `force_remove_source_branch`: `remove_source_branch` on create/edit. */
  forceRemoveSourceBranch: boolean;
  /** `should_remove_source_branch` given on merge (`null` until then). */
  shouldRemoveSourceBranch: boolean | null;
  /** While `locked`: until when the merge holds its lease (a crashed merge is taken over after it). */
  lockedUntil: string | null;
  /**
   * A rebase asked for and not yet done (`rebase_in_progress` until `until`); absent or `null`: none.
   * `sha` is the source head it replays, `userId` who asked (the committer).
   */
  rebase?: RebaseRequest | null;
  /** GitLab's `merge_error`: why the last rebase failed; absent or `null`: none. */
  mergeError?: string | null;
  mergedById: number | null;
  mergedAt: string | null;
  closedById: number | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** Its `thumbsup`/`thumbsdown` awards, counted by the award writes (`ADD`; absent: 0). */
  upvotes?: number;
  downvotes?: number;
  version: number;
  /** Kept by the issues feature's note and time-tracking writes on this item. */
  userNotesCount?: number;
  /**
   * How many of its discussions are unresolved (`blocking_discussions_resolved`), moved by the
   * issues feature's discussion writes (start, reply, resolve, unresolve, delete) in their transactions.
   */
  unresolvedDiscussionsCount?: number;
  timeEstimate?: number;
  totalTimeSpent?: number;
}

/** Open for the pair claim and the push relations: opened, or being merged. */
export const isOpen = (mr: Pick<MergeRequest, 'state' | 'deletedAt'> | undefined): boolean =>
  mr !== undefined && !mr.deletedAt && (mr.state === 'opened' || mr.state === 'locked');

export const mergeRequestFromItem = (item: Item): MergeRequest => entityFields(item) as MergeRequest;

/** Internal: the item of a merge request, with its list index attributes unless it is deleted. */
/** The stored item of a merge request (its index attributes included). */
export const toItem = (mr: MergeRequest): Item => ({
  ...mergeRequestKeys.mergeRequest(mr.projectId, mr.iid),
  ...(mr.deletedAt ? {} : mergeRequestIndexKeys.lists(mr)),
  type: 'MergeRequest',
  ...mr,
});

/** One merge request of a project by iid (consistent read), deleted ones included. */
export async function getMergeRequest(projectId: number, iid: number): Promise<MergeRequest | undefined> {
  if (!isId(iid)) return undefined;
  return getEntity(mergeRequestKeys.mergeRequest(projectId, iid), mergeRequestFromItem);
}

/** The `SET` attributes that stamp `updatedAt` on the item and re-sort it in the update-ordered lists. */
export const touchedAttributes = (id: number) => (updatedAt: string): Record<string, string> => mergeRequestIndexKeys.updated(updatedAt, id);

/** A diff version's metadata as stored (its commits and diffs are stored apart: `store/versions.ts`). */
export interface StoredVersion {
  id: number;
  mergeRequestId: number;
  projectId: number;
  iid: number;
  headCommitSha: string;
  baseCommitSha: string;
  startCommitSha: string;
  createdAt: string;
  state: 'collected' | 'overflow' | 'empty';
  realSize: string;
  overflow: boolean;
}

/** A closing relation: the merge request closes the issue `issueProjectId`/`issueIid`. */
export interface ClosingRef {
  projectId: number;
  iid: number;
}

/** Why a merge request write did not happen. */
export type MergeRequestWriteFailure = 'project_gone' | 'changed' | { pairTaken: number };

/** One merge request write: `previous` as read (absent when new), with what it carries. */
export interface MergeRequestChange {
  previous?: MergeRequest;
  next: MergeRequest;
  /** A diff version recorded with the change (its items: `versionItems`). */
  version?: TransactItem[];
  /** The issues it closes now, when they changed (`undefined`: unchanged). */
  closes?: { before: ClosingRef[]; after: ClosingRef[] };
  /** The issues its title and description mention now, when they changed (`undefined`: unchanged). */
  mentions?: { before: IssuableRef[]; after: IssuableRef[] };
  effects?: { hook?: TransactItem; event?: TransactItem; notes?: TransactItem[]; resourceEvents?: TransactItem[]; todos?: TransactItem[] };
  /** An approval put or deleted with the change (`store/approvals.ts`); its failed condition is `changed`. */
  approval?: TransactItem;
}

const claimKeyOf = (mr: MergeRequest) => mergeRequestKeys.claims.openPair(mr.sourceProjectId, mr.sourceBranch, mr.projectId, mr.targetBranch);
const targetKeyOf = (mr: MergeRequest) => mergeRequestKeys.targetBranch(mr.projectId, mr.targetBranch, mr.iid);
const pairOf = (mr: MergeRequest) => `${mr.sourceProjectId}\n${mr.sourceBranch}\n${mr.projectId}\n${mr.targetBranch}`;

/** Internal: the claim and relation changes of one write. */
function pairEntries(previous: MergeRequest | undefined, next: MergeRequest): NamedTransactItems {
  const wasOpen = isOpen(previous);
  const open = isOpen(next);
  const moved = wasOpen && open && pairOf(previous!) !== pairOf(next);
  const entries: NamedTransactItems = {};
  if ((wasOpen && !open) || moved) {
    entries.release = [
      { Delete: { TableName: tableName(), Key: claimKeyOf(previous!), ConditionExpression: 'iid = :iid', ExpressionAttributeValues: { ':iid': previous!.iid } } },
      { Delete: { TableName: tableName(), Key: targetKeyOf(previous!) } },
    ];
  }
  if ((!wasOpen && open) || moved) {
    entries.claim = putClaim(claimKeyOf(next), {
      iid: next.iid,
      projectId: next.projectId,
      sourceProjectId: next.sourceProjectId,
      sourceBranch: next.sourceBranch,
      targetBranch: next.targetBranch,
    });
    entries.target = { Put: { TableName: tableName(), Item: { ...targetKeyOf(next), type: 'MergeRequestTarget', iid: next.iid, projectId: next.projectId } } };
  }
  return entries;
}

/**
 * How a write moves users' counts of open merge requests (GitLab's
 * `assigned_open_merge_requests_count` and `review_requested_open_merge_requests_count`): an open
 * (or locked), undeleted merge request counts for its assignee and for its reviewer.
 */
export function userCountDeltas(previous: MergeRequest | undefined, next: MergeRequest): Map<number, { assigned: number; reviewing: number }> {
  const deltas = new Map<number, { assigned: number; reviewing: number }>();
  const add = (mr: MergeRequest | undefined, sign: number) => {
    if (!isOpen(mr)) return;
    const bump = (userId: number, field: 'assigned' | 'reviewing') => {
      const delta = deltas.get(userId) ?? { assigned: 0, reviewing: 0 };
      delta[field] += sign;
      deltas.set(userId, delta);
    };
    if (mr!.assigneeId) bump(mr!.assigneeId, 'assigned');
    if (mr!.reviewer) bump(mr!.reviewer.userId, 'reviewing');
  };
  add(previous, -1);
  add(next, 1);
  for (const [userId, delta] of deltas) if (delta.assigned === 0 && delta.reviewing === 0) deltas.delete(userId);
  return deltas;
}

/** Internal: the `ADD` of one user's counts (#256): one operation per user, both counts at once. */
const userCountUpdate = (userId: number, delta: { assigned: number; reviewing: number }): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: mergeRequestKeys.userCounts(userId),
    UpdateExpression: 'ADD assignedOpen :assigned, reviewRequestedOpen :reviewing',
    ExpressionAttributeValues: { ':assigned': delta.assigned, ':reviewing': delta.reviewing },
  },
});

/** A user's counts of open merge requests (one point read, shared with the turn's others); 0 where never written. */
export async function getMergeRequestUserCounts(userId: number): Promise<{ assignedOpen: number; reviewRequestedOpen: number }> {
  const item = await getItem(mergeRequestKeys.userCounts(userId));
  return { assignedOpen: Math.max(0, Number(item?.assignedOpen ?? 0)), reviewRequestedOpen: Math.max(0, Number(item?.reviewRequestedOpen ?? 0)) };
}

/** Internal: the closing relation changes (both directions). */
function closingEntries(mr: MergeRequest, closes: MergeRequestChange['closes']): TransactItem[] {
  if (!closes) return [];
  const key = (ref: ClosingRef) => `${ref.projectId}#${ref.iid}`;
  const before = new Set(closes.before.map(key));
  const after = new Set(closes.after.map(key));
  const items: TransactItem[] = [];
  for (const ref of closes.before.filter((r) => !after.has(key(r)))) {
    items.push({ Delete: { TableName: tableName(), Key: mergeRequestKeys.closes(mr.projectId, mr.iid, ref.projectId, ref.iid) } });
    items.push({ Delete: { TableName: tableName(), Key: mergeRequestKeys.closedBy(ref.projectId, ref.iid, mr.projectId, mr.iid) } });
  }
  for (const ref of closes.after.filter((r) => !before.has(key(r)))) {
    const data = { issueProjectId: ref.projectId, issueIid: ref.iid, projectId: mr.projectId, iid: mr.iid };
    items.push({ Put: { TableName: tableName(), Item: { ...mergeRequestKeys.closes(mr.projectId, mr.iid, ref.projectId, ref.iid), type: 'MergeRequestCloses', ...data } } });
    items.push({ Put: { TableName: tableName(), Item: { ...mergeRequestKeys.closedBy(ref.projectId, ref.iid, mr.projectId, mr.iid), type: 'MergeRequestCloses', ...data } } });
  }
  return items;
}

/**
 * Writes a merge request change in one transaction (see the module's comment); the written
 * merge request has its `version` advanced past the one read.
 *
 * @returns the merge request as written, or why nothing was written: `project_gone`, `changed`
 *   (the version read is stale, or the approval carried was written or deleted meanwhile), `{ pairTaken: iid }` (another open merge request holds the pair).
 */
export async function writeMergeRequest(change: MergeRequestChange): Promise<MergeRequest | MergeRequestWriteFailure> {
  const next = { ...change.next, version: (change.previous?.version ?? 0) + 1 };
  const effects = change.effects ?? {};
  const closing = closingEntries(next, change.closes);
  const mentions = mentionEntries(next, change.mentions);
  try {
    await transact({
      project: projectIsLive(next.projectId),
      mr: versionedPut(tableName(), toItem(next), change.previous?.version, change.previous && toItem(change.previous)),
      ...pairEntries(change.previous, next),
      version: change.version,
      closing: closing.length > 0 && closing,
      mentions: mentions.length > 0 && mentions,
      hook: effects.hook,
      event: effects.event,
      notes: effects.notes,
      resource_events: effects.resourceEvents,
      todos: effects.todos,
      approval: change.approval,
      users: [...userCountDeltas(change.previous, next)].map(([userId, delta]) => userCountUpdate(userId, delta)),
    });
    return next;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('project')) return 'project_gone';
    // `todos`: a new assignee's or reviewer's pending todo was put since it was read.
    if (error.failedOn('mr', 'release', 'approval', 'todos')) return 'changed';
    if (error.failedOn('claim')) {
      const holder = await getItem(claimKeyOf(next));
      return holder ? { pairTaken: Number(holder.iid) } : 'changed';
    }
    throw error;
  }
}

/** The open merge request holding a source → target pair, if any (its iid). */
export async function openPairHolder(sourceProjectId: number, sourceBranch: string, projectId: number, targetBranch: string): Promise<number | undefined> {
  const item = await getItem(mergeRequestKeys.claims.openPair(sourceProjectId, sourceBranch, projectId, targetBranch));
  return item ? Number(item.iid) : undefined;
}

/**
 * Stores a computed `merge_status` if the merge request is still open and still at the heads it
 * was computed for (and was not changed meanwhile): a stale result is simply not stored.
 * Not a version change (a merge status is derived data).
 */
export async function storeMergeStatus(mr: MergeRequest, status: MergeStatus, heads: { source: string; target: string }): Promise<boolean> {
  const written = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mergeRequestKeys.mergeRequest(mr.projectId, mr.iid),
        UpdateExpression: 'SET mergeStatus = :status, mergeStatusFor = :heads',
        ConditionExpression: '#version = :version AND #state = :opened',
        ExpressionAttributeNames: { '#version': 'version', '#state': 'state' },
        ExpressionAttributeValues: { ':status': status, ':heads': heads, ':version': mr.version, ':opened': 'opened' },
      }),
    ),
  );
  return written !== undefined;
}

/** Marks an open merge request `unchecked` (a branch moved); nothing when it is gone or not open. */
export async function markUnchecked(projectId: number, iid: number): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mergeRequestKeys.mergeRequest(projectId, iid),
        UpdateExpression: 'SET mergeStatus = :unchecked, mergeStatusFor = :null',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':unchecked': 'unchecked', ':null': null },
      }),
    ),
  );
}

/** The open merge requests whose source is `branch` of `sourceProjectId` (target project and iid of each). */
export async function openFromBranch(sourceProjectId: number, branch: string): Promise<Array<{ projectId: number; iid: number }>> {
  const items = await queryAll(mergeRequestCollections.fromBranch(sourceProjectId, branch));
  return items.filter((item) => item.sourceBranch === branch).map((item) => ({ projectId: Number(item.projectId), iid: Number(item.iid) }));
}

/** The iids of the open merge requests targeting `branch` of `projectId` (hash-collision safe: checked on read). */
export async function openIntoBranch(projectId: number, branch: string): Promise<number[]> {
  return (await queryAll(mergeRequestCollections.intoBranch(projectId, branch))).map((item) => Number(item.iid));
}

/** The issues a merge request closes, as recorded. */
export async function closingRefs(projectId: number, iid: number): Promise<ClosingRef[]> {
  return (await queryAll(mergeRequestCollections.closes(projectId, iid))).map((item) => ({ projectId: Number(item.issueProjectId), iid: Number(item.issueIid) }));
}

/** The merge requests recorded as closing an issue (project and iid of each). */
export async function closedByRefs(issueProjectId: number, issueIid: number): Promise<Array<{ projectId: number; iid: number }>> {
  return (await queryAll(mergeRequestCollections.closedBy(issueProjectId, issueIid))).map((item) => ({ projectId: Number(item.projectId), iid: Number(item.iid) }));
}

/** Lists of a state as stored: `locked` is read from the opened partition. */
export { listState };

/**
 * Takes a deleted project's open merge requests out of their assignees' and reviewers' counts
 * (#258), before its partition is swept: per open merge request with an assignee or reviewer, one
 * transaction marks it `userCountsReleased` (conditioned on not being marked: a rerun of the
 * deletion job skips it) and moves the users' counts back. The project is marked `deleting` by
 * then, so no merge request write (each checks the project is live) moves them any more.
 */
export async function releaseProjectMergeRequestCounts(projectId: number): Promise<void> {
  for await (const item of queryCollection(mergeRequestCollections.projectMergeRequestItems(projectId))) {
    if (item.userCountsReleased) continue;
    const deltas = userCountDeltas(mergeRequestFromItem(item), { ...mergeRequestFromItem(item), deletedAt: 'deleted' });
    if (deltas.size === 0) continue;
    try {
      await transact({
        mr: {
          Update: {
            TableName: tableName(),
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET userCountsReleased = :yes',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(userCountsReleased)',
            ExpressionAttributeValues: { ':yes': true },
          },
        },
        users: [...deltas].map(([userId, delta]) => userCountUpdate(userId, delta)),
      });
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
}
