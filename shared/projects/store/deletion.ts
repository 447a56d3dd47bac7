/**
 * The steps of deleting a project completely (the command `deleteProject` runs them in order):
 * the items of its partition, its S3 objects, then the project item with its claims and its
 * namespace's count, and the fork count of its source.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany, getMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { deleteObjectsUnder } from '../../platform/s3/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import type { Key } from '../../platform/dynamo/keys';
import { queryCollection } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { namespaceKeys, removeSearchEntries } from '../../namespaces';
import { projectCollections, projectKeys } from './keys';
import { projectObjects } from './objects';
import { projectCounterUpdate, projectFromItem, projectSearchEntryKeys, type Project } from './projects';
import { getTopics, topicCountUpdate } from './topics';

/** Keys deleted per round of {@link deleteMany} while a project's partition is read. */
const DELETE_BATCH = 100;

/**
 * Deletes every item of a project's partition (members, stars, hooks, uploads, events, and later
 * issues etc. — their index entries go with them) except the project item and its shares, in
 * batches. Returns the groups the project is shared with: a share leaves with `unshareProject`,
 * which also edits the project's list.
 */
export async function deleteProjectChildren(projectId: number): Promise<number[]> {
  const sharedWith: number[] = [];
  let pending: Key[] = [];
  for await (const item of queryCollection(projectCollections.projectPartition(projectId))) {
    if (item.SK === 'PROJECT') continue;
    if (item.type === 'Share') {
      sharedWith.push(Number(item.groupId));
      continue;
    }
    pending.push({ PK: item.PK, SK: item.SK });
    // Batched: a project with many issues and notes has many items.
    if (pending.length >= DELETE_BATCH) {
      await deleteMany(pending);
      pending = [];
    }
  }
  await deleteMany(pending);
  return sharedWith;
}

/** Deletes every S3 object under the project's prefix. */
export const deleteProjectObjects = (projectId: number): Promise<void> => deleteObjectsUnder(projectObjects.projectPrefix(projectId));

/**
 * The last step of a deletion, once: the item, its path and name claims, the lookup of its
 * runners token (`runnersToken`: the plaintext, opened by the caller) and its namespace's project
 * count, then its search entries. `already_removed` when a condition failed (a concurrent
 * deletion finished first).
 */
export async function removeProjectItem(project: Project, runnersToken?: string): Promise<'removed' | 'already_removed'> {
  for (let attempt = 1; ; attempt++) {
    const result = await removeProjectItemOnce(project, runnersToken);
    // A topic deleted between the read and the write: read again (the retry leaves it out).
    if (result !== 'topic_gone') return result;
    if (attempt >= 5) throw new Error(`project ${project.id}: its topics kept changing`);
  }
}

/** Internal: one attempt of {@link removeProjectItem}. */
async function removeProjectItemOnce(project: Project, runnersToken?: string): Promise<'removed' | 'already_removed' | 'topic_gone'> {
  // Only count down a namespace that still exists (an ADD would recreate a deleted one); the
  // project as marked names the search entries to remove (an edit may have landed before the mark)
  // and the topics it counts in, counted down in the same transaction (those that still exist).
  const namespaceKey = namespaceKeys.namespace(project.namespaceId);
  const items = await getMany([namespaceKey, projectKeys.project(project.id)]);
  const namespaceLeft = items.some((item) => item.PK === namespaceKey.PK);
  const marked = items.find((item) => item.SK === 'PROJECT');
  const topicIds = (marked ? projectFromItem(marked) : project).topicIds ?? [];
  const topics = [...(await getTopics(topicIds)).keys()];
  const failure = await transactOr(
    {
      project: { Delete: { TableName: tableName(), Key: projectKeys.project(project.id), ConditionExpression: 'attribute_exists(PK)' } },
      path: { Delete: { TableName: tableName(), Key: namespaceKeys.claims.projectPath(project.namespaceId, project.path) } },
      name: { Delete: { TableName: tableName(), Key: projectKeys.claims.projectName(project.namespaceId, project.name) } },
      runners_token: runnersToken !== undefined && { Delete: { TableName: tableName(), Key: projectKeys.runnersToken(runnersToken) } },
      namespace: namespaceLeft && {
        Update: {
          TableName: tableName(),
          Key: namespaceKeys.namespace(project.namespaceId),
          UpdateExpression: 'ADD projectCount :minus',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
      topics: topics.map((id) => topicCountUpdate(id, -1)),
    },
    [['project', 'already_removed' as const], ['topics', 'topic_gone' as const]],
    'already_removed' as const,
  );
  if (failure) return failure;
  await removeSearchEntries(projectSearchEntryKeys(marked ? projectFromItem(marked) : project));
  return 'removed';
}

/** Counts a deleted fork out of its source's `forks_count`; nothing when the source is gone already. */
export async function countForkOut(sourceId: number): Promise<void> {
  await ifConditionHolds(db().send(new UpdateCommand({ ...projectCounterUpdate(sourceId, 'forksCount', -1).Update })));
}
