/**
 * Contributions (GitLab's `User#contributed_projects`): that a user contributed to a project in
 * the last year, one item per user and project (`CONTRIBUTOR#<userId>` in the project's
 * partition, GSI1 `USER_CONTRIBUTED#<userId>` by project id) with the time of the latest
 * contribution. A list of the projects a user contributed to reads these items, never the events,
 * so a page costs what it returns, however many events there are.
 *
 * The item is put by {@link prepareEvent} (`events.ts`) for every contribution event, in the
 * transaction that writes the event: an entry exists exactly when a contribution was recorded
 * (the latest one's time stays). GitLab's contributions (`Event.contributions`): pushes, comments, and issues or merge
 * requests opened (`created`), closed, merged (`accepted`) or approved.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { queryCollection, type Item } from '../../platform/dynamo/query';
import { changeEveryItem } from '../../platform/dynamo/walks';
import type { TransactItem } from '../../platform/dynamo/transactions';
import type { ContributionEvent } from './events';
import { projectCollections, projectIndexKeys, projectKeys } from './keys';

/** How far back a contribution counts (GitLab: events created in the last year). */
export const CONTRIBUTION_WINDOW_MS = 365 * 24 * 60 * 60 * 1000;

const PUSHES: ReadonlySet<string> = new Set(['pushed new', 'deleted', 'pushed to']);
const TARGET_ACTIONS: ReadonlySet<string> = new Set(['opened', 'closed', 'accepted', 'approved']);
const TARGET_TYPES: ReadonlySet<string> = new Set(['Issue', 'MergeRequest', 'WorkItem']);

/** Whether an event counts as a contribution (GitLab's `Event.contributions` scope). */
export function isContribution(event: Pick<ContributionEvent, 'actionName'> & Partial<Pick<ContributionEvent, 'targetType'>>): boolean {
  const targetType = event.targetType ?? null;
  if (targetType === null && PUSHES.has(event.actionName)) return true;
  if (event.actionName === 'commented on') return true;
  return targetType !== null && TARGET_TYPES.has(targetType) && TARGET_ACTIONS.has(event.actionName);
}

const contributionItem = (projectId: number, userId: number, at: string): Item => ({
  ...projectKeys.contribution(projectId, userId),
  ...projectIndexKeys.userContribution(userId, projectId),
  type: 'Contribution',
  projectId,
  userId,
  lastContributedAt: at,
});

/** The Put marking that `userId` contributed to `projectId` at `at`, for the event's transaction (unconditioned: the latest writer's time stays). */
export function contributionPut(projectId: number, userId: number, at: string): TransactItem {
  return { Put: { TableName: tableName(), Item: contributionItem(projectId, userId, at) } };
}

/** A user's contribution entries, in project id order after `after` (GSI1, eventually consistent). */
export async function* contributionsOf(userId: number): AsyncIterable<{ projectId: number; lastContributedAt: string }> {
  for await (const item of queryCollection(projectCollections.userContributions(userId))) {
    yield { projectId: Number(item.projectId), lastContributedAt: String(item.lastContributedAt) };
  }
}

/** Deletes every contribution entry of a user being deleted (walks GSI1 until a pass deletes nothing); how many it deleted. */
export const deleteUserContributions = (userId: number): Promise<number> =>
  changeEveryItem(
    projectCollections.userContributions(userId),
    async (item) => {
      const { Attributes } = await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ReturnValues: 'ALL_OLD' }));
      return Attributes !== undefined;
    },
    "deleted user's contributions deleted",
    { userId },
  );

/**
 * Data migration step (`functions/bootstrap/migrations.ts`): the contribution entries of the
 * events of `projectId` recorded before they were kept, from its feed newest first, as far back as
 * the window reaches (older events do not count): one entry per contributing author, with the time
 * of their latest contribution, unless a newer one is there. Idempotent; answers how many it wrote.
 */
export async function indexProjectContributions(projectId: number): Promise<number> {
  const since = new Date(Date.now() - CONTRIBUTION_WINDOW_MS).toISOString();
  const latest = new Map<number, string>();
  for await (const item of queryCollection(projectCollections.projectEvents(projectId), { ascending: false })) {
    if (String(item.createdAt) < since) break;
    const authorId = Number(item.authorId);
    if (!latest.has(authorId) && isContribution({ actionName: String(item.actionName), targetType: (item.targetType as string | null) ?? null })) {
      latest.set(authorId, String(item.createdAt));
    }
  }
  let written = 0;
  for (const [userId, at] of latest) {
    const put = await ifConditionHolds(
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: contributionItem(projectId, userId, at),
          ConditionExpression: 'attribute_not_exists(PK) OR lastContributedAt < :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
    if (put) written++;
  }
  return written;
}
