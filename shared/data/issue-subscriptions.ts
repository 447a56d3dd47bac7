/**
 * Explicit subscriptions of users to issues: one item per (issue, user) in the project's
 * partition (`PROJECT#<pid>` / `SUBSCRIPTION#<iid>#<userId>`), so deleting the project deletes
 * them. Presence means subscribed; writes are conditional, so "already subscribed" and "not
 * subscribed" are answered by DynamoDB, not by a read-then-write race.
 */
import { config } from '../config';
import { keys } from './keys';
import { projectIsLive } from './projects';
import { getItem } from './query';
import { TransactionConditionFailed, transactWrite } from './transactions';

const table = () => config().tableName;

/** Whether `userId` is subscribed to the issue (consistent read). */
export async function isSubscribed(projectId: number, iid: number, userId: number): Promise<boolean> {
  return (await getItem(keys.issueSubscription(projectId, iid, userId))) !== undefined;
}

/**
 * Subscribes `userId` while the project is live.
 * @returns false when the user already was subscribed (or the project is being deleted).
 */
export async function putSubscription(projectId: number, iid: number, userId: number): Promise<boolean> {
  try {
    await transactWrite([
      projectIsLive(projectId),
      {
        Put: {
          TableName: table(),
          Item: { ...keys.issueSubscription(projectId, iid, userId), type: 'IssueSubscription', projectId, iid, userId, createdAt: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return false;
    throw error;
  }
}

/** Unsubscribes `userId`; false when there was no subscription. */
export async function deleteSubscription(projectId: number, iid: number, userId: number): Promise<boolean> {
  try {
    await transactWrite([
      { Delete: { TableName: table(), Key: keys.issueSubscription(projectId, iid, userId), ConditionExpression: 'attribute_exists(PK)' } },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return false;
    throw error;
  }
}
