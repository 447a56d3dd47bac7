/**
 * Project issues: items in their project's partition (`PROJECT#<id>` / `ISSUE#<iid>`), indexed
 * for the lists twice, by creation (GSI1-3, GSI7) and by last update (GSI4-6, GSI8); see
 * `issueIndexKeys.issueLists` and ACCESS_PATTERNS.md:
 *
 * - GSI1/GSI4 `PROJECT_ISSUES#<projectId>#<state>`: a project's issues of one state;
 * - GSI7/GSI8 `PROJECT_ISSUES#<projectId>#all`: a project's issues of every state;
 * - GSI2/GSI5 `USER_ISSUES#<authorId>`: the issues a user opened (`GET /issues`);
 * - GSI3/GSI6 `USER_ASSIGNED_ISSUES#<assigneeId>`: the issues assigned to a user.
 *
 * A soft-deleted issue keeps its item (its iid is never reused) with `deletedAt` set and no index
 * attributes, so no list sees it. Every write is one transaction that also checks the project is
 * live, moves the project's `openIssuesCount` and the labels' `openIssuesCount` /
 * `closedIssuesCount` by what the write changes, and carries the write's effects (feed event,
 * system notes, webhook event); edits and deletions are conditioned on the `version` read, so a
 * race changes every count once.
 */
import { byKey, getMany } from '../../platform/dynamo/batch';
import { removeEntriesUpTo } from '../../platform/dynamo/entries';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { isId, type Item, getEntity } from '../../platform/dynamo/query';
import { ConditionFailed, transact, versionedPut, type NamedTransactItems, type TransactItem } from '../../platform/dynamo/transactions';
import { projectCounterUpdate, projectIsLive } from '../../projects';
import { addEntries, countChanges, countUpdate, entryChanges, removeEntries, type IssueCounts } from './issue-index';
import { issueIndexKeys, issueKeys } from './keys';
import type { Noteable, WriteEffects } from './noteables';
import { issueTarget, resourceEventPuts, type ResourceEventActor } from './resource-events';
import { assignedIssuesCountUpdate } from './user-counts';

export type IssueState = 'opened' | 'closed';

export interface Issue {
  /** Global id (sequence `issues`). */
  id: number;
  /** Id within the project (sequence `issues#<projectId>`). */
  iid: number;
  projectId: number;
  title: string;
  description: string | null;
  state: IssueState;
  confidential: boolean;
  authorId: number;
  /** At most one (GitLab CE). */
  assigneeIds: number[];
  milestoneId: number | null;
  /** Label ids (names are read at presentation time, so a renamed label shows its new name). */
  labelIds: number[];
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Who closed it, while it is closed (GitLab's `closed_by`; absent on issues closed before it was recorded). */
  closedById?: number | null;
  /** Set when soft-deleted. */
  deletedAt: string | null;
  /** The issue this one was moved to (a moved issue cannot be moved again). */
  movedToId?: number | null;
  version: number;
}

/** Why a write did not happen. */
export type IssueWriteFailure = 'project_gone' | 'issue_changed';

/**
 * What an issue write carries in its transaction besides the issue and its counts: its webhook
 * event, its feed event, its system notes and mention todos (items built by their own stores), and who made it
 * (`actor`): with an actor, the write also records the resource events of what it changed
 * (labels, milestone, state: `store/resource-events.ts`) in its transaction.
 */
export type IssueEffects = WriteEffects & {
  actor?: ResourceEventActor;
  /**
   * The resource events of the write as its effects drew their ids (with the other effects' ids,
   * one counter write), used on the first attempt; a later attempt (labels found gone) derives
   * them again.
   */
  resourceEvents?: TransactItem[];
  /** The todos of the users a new or edited title or description mentions (`newTodoPuts`). */
  todos?: TransactItem[];
};

export const issueFromItem = (item: Item): Issue => entityFields(item) as Issue;

/** The item of an issue, with its list index attributes unless it is deleted. */
export const issueToItem = (issue: Issue): Item => ({
  ...issueKeys.issue(issue.projectId, issue.iid),
  ...(issue.deletedAt ? {} : issueIndexKeys.issueLists(issue)),
  type: 'Issue',
  ...issue,
});

const isOpen = (issue: Issue | undefined) => issue !== undefined && issue.state === 'opened' && !issue.deletedAt;

/** One issue of a project by iid (consistent read), deleted ones included; `undefined` when none. */
export async function getIssue(projectId: number, iid: number): Promise<Issue | undefined> {
  if (!isId(iid)) return undefined;
  return getEntity(issueKeys.issue(projectId, iid), issueFromItem);
}

/**
 * Several issues by project and iid, in one BatchGetItem (consistent), deleted ones included.
 * @returns a lookup: the issue of a project and iid, or `undefined` when there is none.
 */
export async function getIssues(refs: Array<{ projectId: number; iid: number }>): Promise<(projectId: number, iid: number) => Issue | undefined> {
  const itemOf = byKey(await getMany(refs.map(({ projectId, iid }) => issueKeys.issue(projectId, iid))));
  return (projectId, iid) => {
    const item = itemOf(issueKeys.issue(projectId, iid));
    return item && issueFromItem(item);
  };
}

/**
 * The issue as a noteable (its notes, subscriptions, todos and time tracking): its item is
 * `ISSUE#<iid>`, re-sorted in the update-ordered lists (GSI4-6, GSI8) when a note or time tracking
 * stamps its `updatedAt`.
 */
/** Internal: whether an issue as given is the whole issue (as read), not only the fields a noteable needs. */
const isWholeIssue = (issue: Partial<Issue>): issue is Issue => issue.state !== undefined && issue.labelIds !== undefined && issue.createdAt !== undefined;

export const issueNoteable = (issue: Pick<Issue, 'projectId' | 'iid' | 'id' | 'authorId' | 'assigneeIds'> & Partial<Issue>): Noteable => ({
  type: 'Issue',
  projectId: issue.projectId,
  iid: issue.iid,
  id: issue.id,
  authorId: issue.authorId,
  assigneeIds: issue.assigneeIds,
  item: {
    key: issueKeys.issue(issue.projectId, issue.iid),
    touched: (at) => issueIndexKeys.issueUpdated(at, issue.id),
    held: isWholeIssue(issue) ? () => issueToItem(issue) : undefined,
  },
});

/**
 * One issue write of a transaction: `previous` as read (absent for a new issue) becomes `next`,
 * with the write's effects.
 */
export interface IssueChange {
  previous?: Issue;
  next: Issue;
  effects?: IssueEffects;
}

/**
 * The project item's count of the issue writes that moved any list count
 * (`issueCountWrites`): the rebuild of the counts (`reindexProjectIssues`, `store/import.ts`) writes only
 * while it is still the number it read before counting, so a write racing the rebuild is never
 * lost nor counted twice.
 */
export const ISSUE_COUNT_WRITES = 'issueCountWrites';

/**
 * Internal: the project item's part (one operation per item, as DynamoDB requires): the project
 * is live, and its open-issue count moves by `delta` when not 0; a write that moves any list
 * count also advances {@link ISSUE_COUNT_WRITES}.
 */
function projectPart(projectId: number, delta: number, movesCounts: boolean): TransactItem {
  if (delta === 0 && !movesCounts) return projectIsLive(projectId);
  const { Update } = projectCounterUpdate(projectId, 'openIssuesCount', delta);
  return {
    Update: {
      ...Update,
      UpdateExpression: movesCounts ? `${Update.UpdateExpression}, #countWrites :one` : Update.UpdateExpression,
      ConditionExpression: `${Update.ConditionExpression} AND attribute_not_exists(deleting)`,
      ...(movesCounts
        ? {
            ExpressionAttributeNames: { ...Update.ExpressionAttributeNames, '#countWrites': ISSUE_COUNT_WRITES },
            ExpressionAttributeValues: { ...Update.ExpressionAttributeValues, ':one': 1 },
          }
        : {}),
    },
  };
}

/**
 * Moves a label's issue counts (its `openIssuesCount`/`closedIssuesCount` shown by the
 * labels API, and how many of them are confidential, for list totals); conditioned on the label
 * existing (an `ADD` would create a stub).
 */
export const labelCountUpdate = (projectId: number, labelId: number, delta: IssueCounts): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.label(projectId, labelId),
    UpdateExpression: 'ADD openIssuesCount :open, closedIssuesCount :closed, confidentialOpenIssuesCount :co, confidentialClosedIssuesCount :cc',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':open': delta.opened, ':closed': delta.closed, ':co': delta.confidentialOpened, ':cc': delta.confidentialClosed },
  },
});

/**
 * Internal: the named entries of the changes' transaction: for change `i`, `project#i`, `issue#i`,
 * `label#i#<labelId>` (a label's counts) and `count#i#<dimension>` (the other lists' counts);
 * then the effects of each change, `hook#i`, `event#i`, `notes#i`.
 */
function changeEntries(changes: IssueChange[], gone: Set<number>): { entries: NamedTransactItems; labels: Array<[string, number]> } {
  const entries: NamedTransactItems = {};
  const labels: Array<[string, number]> = [];
  changes.forEach((change, i) => {
    const delta = Number(isOpen(change.next)) - Number(isOpen(change.previous));
    const counted = countChanges(change.previous, change.next);
    entries[`project#${i}`] = projectPart(change.next.projectId, delta, counted.size > 0);
    entries[`issue#${i}`] = versionedPut(tableName(), issueToItem(change.next), change.previous?.version, change.previous && issueToItem(change.previous));
    for (const [dimension, counts] of counted) {
      const labelId = dimension.startsWith('label:') ? Number(dimension.slice('label:'.length)) : undefined;
      if (labelId === undefined) {
        entries[`count#${i}#${dimension}`] = countUpdate(change.next.projectId, dimension, counts);
      } else if (!gone.has(labelId)) {
        entries[`label#${i}#${labelId}`] = labelCountUpdate(change.next.projectId, labelId, counts);
        labels.push([`label#${i}#${labelId}`, labelId]);
      }
    }
  });
  // The users' counts of assigned open issues (one operation per user, whatever the changes).
  for (const [userId, delta] of assignedOpenDeltas(changes)) entries[`assigned#${userId}`] = assignedIssuesCountUpdate(userId, delta);
  changes.forEach(({ effects = {} }, i) => {
    entries[`hook#${i}`] = effects.hook;
    entries[`event#${i}`] = effects.event;
    entries[`notes#${i}`] = effects.notes;
    entries[`todos#${i}`] = effects.todos;
  });
  return { entries, labels };
}

/**
 * How the changes move each user's count of assigned open issues (GitLab's
 * `assigned_open_issues_count`): an open, undeleted issue counts for each of its assignees; only
 * the users whose count moves are named (a move's copy and closed original cancel out).
 */
export function assignedOpenDeltas(changes: ReadonlyArray<Pick<IssueChange, 'previous' | 'next'>>): Map<number, number> {
  const deltas = new Map<number, number>();
  const add = (issue: Issue | undefined, sign: number) => {
    if (!isOpen(issue)) return;
    for (const userId of new Set(issue!.assigneeIds)) deltas.set(userId, (deltas.get(userId) ?? 0) + sign);
  };
  for (const { previous, next } of changes) {
    add(previous, -1);
    add(next, 1);
  }
  for (const [userId, delta] of deltas) if (delta === 0) deltas.delete(userId);
  return deltas;
}

/** DynamoDB's cap on the operations of one transaction. */
const MAX_TRANSACTION_OPERATIONS = 100;

/** Internal: how many operations named entries hold. */
const operationCount = (entries: NamedTransactItems): number =>
  Object.values(entries).reduce<number>((count, entry) => count + (Array.isArray(entry) ? entry.length : entry ? 1 : 0), 0);

/** Most attempts at a write whose labels keep disappearing under it. */
const MAX_LABEL_RETRIES = 3;

/**
 * Writes issue changes in one transaction with their effects (events, system notes): every
 * change checks its project is live and moves the open-issue and label counts. A label deleted
 * since it was read is dropped from the issue and the write retried. Each written issue has its
 * `version` advanced past the one read.
 *
 * @returns the issues as written, or why nothing was written.
 * @example
 * const written = await writeIssues([{ previous: issue, next: { ...issue, state: 'closed' } }]);
 */
export async function writeIssues(changes: IssueChange[]): Promise<Issue[] | IssueWriteFailure> {
  const gone = new Set<number>();
  let written = changes.map((change) => ({ ...change, next: { ...change.next, version: (change.previous?.version ?? 0) + 1 } }));
  for (let attempt = 0; ; attempt++) {
    const { entries, labels } = changeEntries(written, gone);
    // Derived from the issue as read and as it will be written (labels dropped above included).
    const events = await Promise.all(
      written.map(({ previous, next, effects }) =>
        attempt === 0 && effects?.resourceEvents ? effects.resourceEvents : effects?.actor ? resourceEventPuts(previous && issueTarget(previous), issueTarget(next), effects.actor) : [],
      ),
    );
    // Within DynamoDB's 100 operations: the events of edits first, then those of new issues (a
    // move's copy), each change's whole or not at all (a write is never refused for its events).
    let room = MAX_TRANSACTION_OPERATIONS - operationCount(entries);
    for (const i of written.map((_, i) => i).sort((a, b) => Number(!written[a].previous) - Number(!written[b].previous))) {
      if (events[i].length === 0 || events[i].length > room) continue;
      entries[`resourceEvents#${i}`] = events[i];
      room -= events[i].length;
    }
    const indexChanges = written.map((change) => entryChanges(change.previous, change.next));
    // A new issue's entries go in its transaction when they fit (one round trip less); the
    // others, and an edit's, are put before it, so the entries stay a superset of the truth.
    const separate = indexChanges.filter((change, i) => {
      if (written[i].previous || change.added.length === 0 || change.added.length > room) return true;
      entries[`entries#${i}`] = change.added.map((item) => ({ Put: { TableName: tableName(), Item: item } }));
      room -= change.added.length;
      return false;
    });
    await addEntries(separate);
    try {
      await transact(entries);
      await removeEntries(indexChanges);
      return written.map((change) => change.next);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      if (written.some((_, i) => error.failedOn(`project#${i}`))) {
        // A project deleted meanwhile may have been swept already: the entries put ahead are
        // taken back (unless a newer write of their issue put them again), so none is orphaned.
        await Promise.all(
          indexChanges.map((change, i) =>
            separate.includes(change) ? removeEntriesUpTo(change.added.map(({ PK, SK }) => ({ PK: String(PK), SK: String(SK) })), written[i].next.version) : undefined,
          ),
        );
        return 'project_gone';
      }
      // A todo put since its pending key was read (a racing mention or assignment): the write is
      // made again from a fresh read, which finds that todo and leaves the user out.
      if (written.some((_, i) => error.failedOn(`issue#${i}`) || error.failedOn(`todos#${i}`))) return 'issue_changed';
      const deleted = labels.filter(([name]) => error.failedOn(name)).map(([, labelId]) => labelId);
      if (deleted.length === 0 || attempt >= MAX_LABEL_RETRIES) throw error;
      for (const id of deleted) gone.add(id);
      written = written.map((change) => ({ ...change, next: { ...change.next, labelIds: change.next.labelIds.filter((id) => !gone.has(id)) } }));
    }
  }
}

/** Adds an issue (`version` 1), counted open on the project, atomically while the project is live. */
export async function insertIssue(issue: Issue, effects?: IssueEffects): Promise<Issue | IssueWriteFailure> {
  const result = await writeIssues([{ next: issue, effects }]);
  return typeof result === 'string' ? result : result[0];
}

/**
 * Replaces `previous` with `next` (version + 1), conditioned on the version of `previous`. A
 * change of openness (close, reopen, soft delete) or of labels moves the counts in the same
 * transaction, so two racing closes change them once.
 */
export async function replaceIssue(previous: Issue, next: Issue, effects?: IssueEffects): Promise<Issue | IssueWriteFailure> {
  const result = await writeIssues([{ previous, next, effects }]);
  return typeof result === 'string' ? result : result[0];
}
