/**
 * Bulk writes of a project's issues through the data layer: an import (what a migration or a
 * benchmark seeds), and the rebuild of the list and search entries and counts of issues written
 * before they existed. The import writes the issues, their list and search entries
 * (BatchWriteItem) and then moves every count once by the sum of what was written; not
 * transactional, so it is for a project nobody is writing issues to meanwhile. The rebuild is safe
 * beside issue writes (see {@link reindexProjectIssues}).
 */
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { putMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { setAttributes } from '../../platform/dynamo/items';
import { nextIds } from '../../platform/dynamo/counters';
import { getItem, queryCollection } from '../../platform/dynamo/query';
import { ConditionFailed, transact, type NamedTransactItems } from '../../platform/dynamo/transactions';
import { projectCounterUpdate, projectIsLive } from '../../projects';
import { addCounts, countChanges, countUpdate, entryChanges, type IssueCounts } from './issue-index';
import { ISSUE_COUNT_WRITES, issueFromItem, issueToItem, labelCountUpdate, type Issue, type IssueState } from './issues';
import { issueCollections, issueIndexKeys, issueKeys } from './keys';
import { listLabels, searchEntries as labelSearchEntries } from './labels';

export interface ImportedIssue {
  title: string;
  description?: string | null;
  state: IssueState;
  authorId: number;
  assigneeIds?: number[];
  labelIds?: number[];
  milestoneId?: number | null;
  confidential?: boolean;
  createdAt?: string;
  updatedAt?: string;
}

/**
 * Internal: bulk writes are not journaled (`putMany`): an import's issues and a rebuild's entries
 * are listed as the index shows them (at once locally, within a second on AWS), and each issue
 * item written costs one item, not two.
 */
const BULK = { journal: false } as const;

/** Issues written per round (ids taken, items and entries written, progress told). */
const CHUNK = 500;

/**
 * Imports `issues` into a project, in order (iids follow the project's sequence). `onProgress`
 * is told how many are written after each chunk.
 * @example await importIssues(project.id, [{ title: 'Imported', state: 'opened', authorId: 1 }]);
 */
export async function importIssues(projectId: number, issues: ImportedIssue[], options: { onProgress?: (written: number) => void } = {}): Promise<void> {
  const totals = new Map<string, IssueCounts>();
  let open = 0;
  for (let start = 0; start < issues.length; start += CHUNK) {
    const chunk = issues.slice(start, start + CHUNK);
    const [ids, iids] = await Promise.all([nextIds('issues', chunk.length), nextIds(`issues#${projectId}`, chunk.length)]);
    const written: Issue[] = chunk.map((input, i) => {
      const createdAt = input.createdAt ?? new Date().toISOString();
      return {
        id: ids[i],
        iid: iids[i],
        projectId,
        title: input.title,
        description: input.description ?? null,
        state: input.state,
        confidential: input.confidential ?? false,
        authorId: input.authorId,
        assigneeIds: input.assigneeIds ?? [],
        milestoneId: input.milestoneId ?? null,
        labelIds: input.labelIds ?? [],
        dueDate: null,
        createdAt,
        updatedAt: input.updatedAt ?? createdAt,
        closedAt: input.state === 'closed' ? (input.updatedAt ?? createdAt) : null,
        deletedAt: null,
        movedToId: null,
        version: 1,
      };
    });
    await putMany([...written.map(issueToItem), ...written.flatMap((issue) => entryChanges(undefined, issue).added)], BULK);
    for (const issue of written) {
      open += Number(issue.state === 'opened');
      for (const [dimension, delta] of countChanges(undefined, issue)) addCounts(totals, dimension, delta);
    }
    options.onProgress?.(Math.min(start + CHUNK, issues.length));
  }
  const updates = [...totals].map(([dimension, delta]) =>
    dimension.startsWith('label:') ? labelCountUpdate(projectId, Number(dimension.slice('label:'.length)), delta) : countUpdate(projectId, dimension, delta),
  );
  if (open > 0) updates.push(projectCounterUpdate(projectId, 'openIssuesCount', open));
  // Outside a transaction: each operation on its own.
  await Promise.all(updates.map(({ Update }) => db().send(new UpdateCommand(Update as UpdateCommandInput))));
}

/** Internal: how many times a rebuild counts again after issue writes raced it, before giving up. */
const REBUILD_ATTEMPTS = 8;

/** Internal: count items and label updates written per transaction, beside the guard. */
const REBUILD_CHUNK = 90;

/**
 * Rebuilds a project's issue list and search entries, its labels' search entries and its list
 * counts from its items (data migration for what was written before they existed): entries put
 * again (idempotent), counts set to what the issues add up to (a label's confidential counts; its
 * open and closed counts were always kept).
 *
 * Safe while issues are being written: the counts are set in transactions guarded by the
 * project's `issueCountWrites` (advanced by every issue write that moves a count, in its own
 * transaction) as read before counting. An issue write that lands while the rebuild counts makes
 * the next guarded transaction fail, and the rebuild counts again from a fresh read; what was set
 * before that write was exact, and the write moved it from there. Entries need no guard: they are
 * a superset of the truth that readers check (`isCurrentEntry`). An issue written before its
 * project's lists of every state existed (no `GSI7PK` or `GSI8PK`) is put into them, unless
 * written meanwhile.
 * @returns how many live issues it saw; throws when writes kept racing it `REBUILD_ATTEMPTS` times.
 */
export async function reindexProjectIssues(projectId: number): Promise<number> {
  await putMany((await listLabels(projectId)).flatMap(labelSearchEntries));
  for (let attempt = 1; ; attempt++) {
    const outcome = await rebuildOnce(projectId);
    if (outcome !== 'raced') return outcome;
    if (attempt >= REBUILD_ATTEMPTS) throw new Error(`issue counts of project ${projectId}: issue writes kept racing the rebuild`);
  }
}

/** Internal: one counting pass; `raced` when an issue write moved a count meanwhile. */
async function rebuildOnce(projectId: number): Promise<number | 'raced'> {
  const projectKey = projectIsLive(projectId).ConditionCheck.Key;
  const project = await getItem(projectKey);
  if (!project) return 0;
  const writesRead = project[ISSUE_COUNT_WRITES] as number | undefined;
  const totals = new Map<string, IssueCounts>();
  const entries = [];
  const unlisted: Issue[] = [];
  let seen = 0;
  for await (const item of queryCollection(issueCollections.projectIssueItems(projectId))) {
    const issue = issueFromItem(item);
    if (issue.deletedAt) continue;
    seen++;
    entries.push(...entryChanges(undefined, issue).added);
    if (!isInEveryStateList(item)) unlisted.push(issue);
    for (const [dimension, delta] of countChanges(undefined, issue)) addCounts(totals, dimension, delta);
    if (entries.length >= 1000) await putMany(entries.splice(0), BULK);
    if (unlisted.length >= 1000) await listInEveryState(unlisted.splice(0));
  }
  await Promise.all([putMany(entries, BULK), listInEveryState(unlisted)]);
  const guard = {
    ConditionCheck: {
      TableName: tableName(),
      Key: projectKey,
      ConditionExpression: writesRead === undefined ? 'attribute_not_exists(#writes)' : '#writes = :writes',
      ExpressionAttributeNames: { '#writes': ISSUE_COUNT_WRITES },
      ...(writesRead === undefined ? {} : { ExpressionAttributeValues: { ':writes': writesRead } }),
    },
  };
  let pending = [...totals];
  while (pending.length > 0) {
    const chunk = pending.slice(0, REBUILD_CHUNK);
    const named: NamedTransactItems = { guard };
    chunk.forEach(([dimension, counts], i) => {
      named[`count#${i}`] = dimension.startsWith('label:')
        ? labelConfidentialCounts(projectId, Number(dimension.slice('label:'.length)), counts)
        : { Put: { TableName: tableName(), Item: { ...issueKeys.counts(projectId, dimension), type: 'IssueCounts', ...counts } } };
    });
    try {
      await transact(named);
      pending = pending.slice(chunk.length);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      if (error.failedOn('guard')) return 'raced';
      // Labels deleted meanwhile: their counts went with them.
      const gone = new Set(chunk.filter((_, i) => error.failedOn(`count#${i}`)).map(([dimension]) => dimension));
      pending = pending.filter(([dimension]) => !gone.has(dimension));
    }
  }
  return seen;
}

/**
 * Puts a project's live issues written before its lists of every state existed (GSI7 by creation,
 * GSI8 by update) into them (data migration: `ISSUE_UPDATE_LIST_MIGRATION`); safe beside issue
 * writes, as {@link listInEveryState}.
 * @returns how many issues it put there.
 */
export async function listIssuesInEveryState(projectId: number): Promise<number> {
  let listed = 0;
  const unlisted: Issue[] = [];
  for await (const item of queryCollection(issueCollections.projectIssueItems(projectId))) {
    const issue = issueFromItem(item);
    if (issue.deletedAt || isInEveryStateList(item)) continue;
    unlisted.push(issue);
    if (unlisted.length >= 1000) listed += await listInEveryState(unlisted.splice(0));
  }
  return listed + (await listInEveryState(unlisted));
}

/** Internal: whether an issue item is in both lists of every state (an issue written before them is not). */
const isInEveryStateList = (item: Record<string, unknown>) => item.GSI7PK !== undefined && item.GSI8PK !== undefined;

/** Internal: updates made at once by {@link listInEveryState}. */
const UPDATES_IN_FLIGHT = 25;

/**
 * Internal: puts issues written before their project's lists of every state existed into them
 * (GSI7 and GSI8, `issueIndexKeys.everyStateList`), each only while it is still the version read:
 * a write meanwhile has put the item whole, with its lists (or, deleted, without any).
 * @returns how many it put there.
 */
async function listInEveryState(issues: Issue[]): Promise<number> {
  let listed = 0;
  for (let start = 0; start < issues.length; start += UPDATES_IN_FLIGHT) {
    await Promise.all(
      issues.slice(start, start + UPDATES_IN_FLIGHT).map(async (issue) => {
        const set = setAttributes(issueIndexKeys.everyStateList(issue));
        const written = await ifConditionHolds(
          db().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: issueKeys.issue(issue.projectId, issue.iid),
              UpdateExpression: set.UpdateExpression,
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':version': issue.version },
            }),
          ),
        );
        if (written) listed++;
      }),
    );
  }
  return listed;
}

/** Internal: sets a label's confidential counts (its open and closed counts were always kept), while it exists. */
const labelConfidentialCounts = (projectId: number, labelId: number, counts: IssueCounts) => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.label(projectId, labelId),
    UpdateExpression: 'SET confidentialOpenIssuesCount = :co, confidentialClosedIssuesCount = :cc',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':co': counts.confidentialOpened, ':cc': counts.confidentialClosed },
  },
});
