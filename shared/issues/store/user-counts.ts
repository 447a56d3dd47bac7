/**
 * A user's counts kept by the issues feature for `GET /user_counts` (GitLab's
 * `User#assigned_open_issues_count` and `#todos_pending_count`): the open issues assigned to the
 * user and their pending todos. Each is one item in the user's partition, moved only by `ADD` in
 * the very transactions that change what it counts (issue writes: `store/issues.ts`; todo writes:
 * `store/todos.ts`), so reading it costs one point read whatever the user's data, and racing
 * writes move it once each. The items appear with the first change (an `ADD` creates them) and go
 * with the user's partition.
 */
import { tableName } from '../../platform/dynamo/client';
import { getMany } from '../../platform/dynamo/batch';
import { queryCollection } from '../../platform/dynamo/query';
import { ConditionFailed, transact, type NamedTransactItems, type TransactItem } from '../../platform/dynamo/transactions';
import { issueCollections, issueKeys } from './keys';

/** The transaction operation moving a user's count of assigned open issues by `delta`. */
export const assignedIssuesCountUpdate = (userId: number, delta: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.assignedIssuesCount(userId),
    UpdateExpression: 'ADD assignedOpenIssues :delta',
    ExpressionAttributeValues: { ':delta': delta },
  },
});

/** The transaction operation moving a user's count of pending todos by `delta`. */
export const pendingTodosCountUpdate = (userId: number, delta: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.pendingTodosCount(userId),
    UpdateExpression: 'ADD pendingTodos :delta',
    ExpressionAttributeValues: { ':delta': delta },
  },
});

/** What the issues feature counts for a user. */
export interface IssueUserCounts {
  assignedOpenIssues: number;
  pendingTodos: number;
}

/**
 * The user's counts: both items in one BatchGetItem (shared with any other point read of the same
 * turn, such as the merge requests' counts); an item never written counts 0.
 */
export async function getIssueUserCounts(userId: number): Promise<IssueUserCounts> {
  const items = await getMany([issueKeys.assignedIssuesCount(userId), issueKeys.pendingTodosCount(userId)]);
  const of = (sk: string, attribute: string) => Math.max(0, Number(items.find((item) => item.SK === sk)?.[attribute] ?? 0));
  return {
    assignedOpenIssues: of(issueKeys.assignedIssuesCount(userId).SK, 'assignedOpenIssues'),
    pendingTodos: of(issueKeys.pendingTodosCount(userId).SK, 'pendingTodos'),
  };
}

/** Internal: runs a release transaction; a failed condition means it was released already (a rerun). */
async function releaseOnce(entries: NamedTransactItems): Promise<void> {
  try {
    await transact(entries);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

/**
 * Takes a deleted project's part out of its users' counts (#257), before its partition is swept:
 * each pending todo is deleted with its user's pending count moved by -1, and each per-assignee
 * count of open issues (`ISSUE_COUNT#assignee:<userId>`) is deleted with its user's count moved by
 * its `opened`, each in one transaction conditioned on the item still being as read, so a rerun of
 * the deletion job (which resumes where it stopped) never takes one twice. The project is marked
 * `deleting` by then: no issue or todo write moves these items any more.
 */
export async function releaseProjectUserCounts(projectId: number): Promise<void> {
  for (const prefix of ['TODO#', 'MR_TODO#', 'COMMIT_TODO#'] as const) {
    for await (const item of queryCollection(issueCollections.projectPendingTodos(projectId, prefix))) {
      await releaseOnce({
        todo: { Delete: { TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': item.id } } },
        count: pendingTodosCountUpdate(Number(item.userId), -1),
      });
    }
  }
  for await (const item of queryCollection(issueCollections.projectAssigneeCounts(projectId))) {
    const opened = Number(item.opened ?? 0);
    const userId = Number(String(item.SK).slice('ISSUE_COUNT#assignee:'.length));
    if (opened === 0 || !Number.isInteger(userId)) continue;
    await releaseOnce({
      count: { Delete: { TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConditionExpression: 'opened = :opened', ExpressionAttributeValues: { ':opened': opened } } },
      user: assignedIssuesCountUpdate(userId, -opened),
    });
  }
}
