/**
 * A project's repository record: the object pool it reads and writes. A project gets its own pool
 * with its first write; a fork reads its source's pool (and adds its own pushes to it), so forks
 * share objects instead of copying them. A pool counts the repositories that read it; the last one
 * to go deletes its packs.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { db, tableName } from '../../platform/dynamo/client';
import { getItem, queryAll } from '../../platform/dynamo/query';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { repositoryCollections, repositoryKeys, type RepositoryKind } from './keys';

export interface RepositoryRecord {
  projectId: number;
  pool: string;
  /** The project's code repository, or its wiki's. */
  kind: RepositoryKind;
}

/** The pool a project would create for itself (its wiki's: `wiki-<id>`, never shared). */
export const ownPool = (projectId: number, kind: RepositoryKind = 'project'): string => (kind === 'wiki' ? `wiki-${projectId}` : String(projectId));

export async function getRepository(projectId: number, kind: RepositoryKind = 'project'): Promise<RepositoryRecord | undefined> {
  const item = await getItem(repositoryKeys.repository(projectId, kind));
  return item ? { projectId, pool: item.pool as string, kind } : undefined;
}

/**
 * Creates the repository record reading `pool`, counting it in the pool; when a concurrent
 * request created it first, answers that one; undefined when the pool is being deleted.
 */
export async function createRepository(projectId: number, pool: string, kind: RepositoryKind = 'project'): Promise<RepositoryRecord | undefined> {
  try {
    await transact({
      repository: {
        Put: {
          TableName: tableName(),
          Item: { ...repositoryKeys.repository(projectId, kind), type: kind === 'wiki' ? 'WikiRepository' : 'Repository', pool },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      member: {
        Put: { TableName: tableName(), Item: { ...repositoryKeys.poolMember(pool, projectId), type: 'PoolMember', projectId, ...(kind === 'wiki' ? { kind } : {}) } },
      },
      pool: {
        Update: {
          TableName: tableName(),
          Key: repositoryKeys.pool(pool),
          UpdateExpression: 'SET #type = :type ADD repositories :one',
          // A pool whose last repository left is being emptied: nothing may start reading it again.
          ConditionExpression: 'attribute_not_exists(deleting)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'Pool', ':one': 1 },
        },
      },
    });
    return { projectId, pool, kind };
  } catch (error) {
    if (error instanceof ConditionFailed && error.failedOn('repository')) {
      const existing = await getRepository(projectId, kind);
      if (existing) return existing;
    }
    if (error instanceof ConditionFailed && error.failedOn('pool')) return undefined;
    throw error;
  }
}

/**
 * Removes the repository record and uncounts it from its pool, in one transaction (a retried
 * deletion does not uncount twice). Answers true when it was the pool's last repository: the pool
 * is then marked as being deleted (no repository can join it any more) and the caller empties it.
 */
export async function leavePool(record: RepositoryRecord): Promise<boolean> {
  try {
    await transact({
      repository: { Delete: { TableName: tableName(), Key: repositoryKeys.repository(record.projectId, record.kind), ConditionExpression: 'attribute_exists(PK)' } },
      member: { Delete: { TableName: tableName(), Key: repositoryKeys.poolMember(record.pool, record.projectId) } },
      pool: {
        Update: {
          TableName: tableName(),
          Key: repositoryKeys.pool(record.pool),
          UpdateExpression: 'ADD repositories :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    });
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
  const marked = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: repositoryKeys.pool(record.pool),
        UpdateExpression: 'SET deleting = :true',
        ConditionExpression: 'repositories <= :zero AND attribute_not_exists(deleting)',
        ExpressionAttributeValues: { ':true': true, ':zero': 0 },
      }),
    ),
  );
  return marked !== undefined;
}

/** The repositories that read a pool (their projects, and which of each project's repositories). */
export async function poolMembers(pool: string): Promise<Array<{ projectId: number; kind: RepositoryKind }>> {
  return (await queryAll(repositoryCollections.poolMembers(pool))).map((item) => ({ projectId: item.projectId as number, kind: (item.kind as RepositoryKind | undefined) ?? 'project' }));
}

/** Removes an emptied pool's own item (its packs are removed first). */
export async function removePool(pool: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: repositoryKeys.pool(pool) }));
}
