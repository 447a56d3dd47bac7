/**
 * Bulk writes of a project's issues through the data layer: an import (what a migration or a
 * benchmark seeds), and the rebuild of the list and search entries and counts of issues written
 * before they existed. Writes the issues, their list and search entries (BatchWriteItem) and then moves every
 * count once by the sum of what was written; not transactional, so it is for a project nobody
 * is writing issues to meanwhile.
 */
import { PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { putMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { nextIds } from '../../platform/dynamo/counters';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { queryCollection } from '../../platform/dynamo/query';
import { projectCounterUpdate } from '../../projects';
import { addCounts, countChanges, countUpdate, entryChanges, type IssueCounts } from './issue-index';
import { issueFromItem, issueToItem, labelCountUpdate, type Issue, type IssueState } from './issues';
import { issueCollections, issueKeys } from './keys';
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
    await putMany([...written.map(issueToItem), ...written.flatMap((issue) => entryChanges(undefined, issue).added)]);
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

/**
 * Rebuilds a project's issue list and search entries, its labels' search entries and its list
 * counts from its items (data migration for what was written before they existed): entries put again (idempotent),
 * counts set to what the issues add up to (a label's confidential counts; its open and closed
 * counts were always kept). An issue write racing the rebuild may be counted twice or not at all
 * in the counts it changes: run it when the project's issues are not being written.
 * @returns how many live issues it saw.
 */
export async function reindexProjectIssues(projectId: number): Promise<number> {
  const totals = new Map<string, IssueCounts>();
  const entries = [];
  let seen = 0;
  for await (const item of queryCollection(issueCollections.projectIssueItems(projectId))) {
    const issue = issueFromItem(item);
    if (issue.deletedAt) continue;
    seen++;
    entries.push(...entryChanges(undefined, issue).added);
    for (const [dimension, delta] of countChanges(undefined, issue)) addCounts(totals, dimension, delta);
    if (entries.length >= 1000) await putMany(entries.splice(0));
  }
  await putMany(entries);
  await putMany((await listLabels(projectId)).flatMap(labelSearchEntries));
  await Promise.all(
    [...totals].map(([dimension, counts]) => {
      if (!dimension.startsWith('label:')) {
        return db().send(new PutCommand({ TableName: tableName(), Item: { ...issueKeys.counts(projectId, dimension), type: 'IssueCounts', ...counts } }));
      }
      return ifConditionHolds(
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: issueKeys.label(projectId, Number(dimension.slice('label:'.length))),
            UpdateExpression: 'SET confidentialOpenIssuesCount = :co, confidentialClosedIssuesCount = :cc',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':co': counts.confidentialOpened, ':cc': counts.confidentialClosed },
          }),
        ),
      );
    }),
  );
  return seen;
}
