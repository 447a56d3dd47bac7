/**
 * Project topics (GitLab's `Projects::Topic`): one item each (`TOPIC#<id>` / `TOPIC`), its name
 * unique case-insensitively (a claim), listed by id (GSI1 `TOPICS`, a read-your-writes partition)
 * and found by its name's search terms. `totalProjectsCount` changes only by `ADD` in the
 * transaction of the project write that adds or removes the topic (`topicCountUpdate`, conditioned
 * on the topic existing): a project counts in the topics whose ids it holds (`Project.topicIds`),
 * so the count is exact whatever the concurrency, and a topic deleted meanwhile fails the write,
 * which its caller resolves again.
 */
import { getMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import { getEntity, getItem, isId, type Item } from '../../platform/dynamo/query';
import { transactOr, type TransactItem } from '../../platform/dynamo/transactions';
import { putSearchEntries, removeSearchEntries } from '../../namespaces';
import { searchTerms, termChanges } from '../../platform/search';
import { topicIndexKeys, topicKeys } from './keys';

export interface TopicFields {
  name: string;
  title: string;
  description: string | null;
}

export interface Topic extends TopicFields {
  id: number;
  totalProjectsCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const topicFromItem = (item: Item): Topic => entityFields(item) as Topic;

/** Internal: the search entries of a topic's name (GitLab searches topics by name). */
const searchKeys = (terms: string[], id: number) => terms.map((term) => topicKeys.searchEntry(term, id));
const termsOf = (topic: Pick<Topic, 'name'>) => searchTerms(topic.name);

const topicToItem = (topic: Topic): Item => ({ ...topicKeys.topic(topic.id), ...topicIndexKeys.topicList(topic.id), type: 'Topic', ...topic });

export async function getTopic(id: number): Promise<Topic | undefined> {
  if (!isId(id)) return undefined;
  return getEntity(topicKeys.topic(id), topicFromItem);
}

/** The topics of `ids` that exist (one BatchGetItem), by id. */
export async function getTopics(ids: readonly number[]): Promise<Map<number, Topic>> {
  const valid = [...new Set(ids)].filter(isId);
  if (valid.length === 0) return new Map();
  return new Map((await getMany(valid.map(topicKeys.topic))).map((item) => [item.id as number, topicFromItem(item)]));
}

/** The id of the topic named `name` (case-insensitively), or `undefined`. */
export async function topicIdByName(name: string): Promise<number | undefined> {
  return (await getItem(topicKeys.nameClaim(name)))?.topicId as number | undefined;
}

/** Adds a topic with its name claim (`'name_taken'`: a topic has the name, in any case). */
export async function insertTopic(fields: TopicFields): Promise<Topic | 'name_taken'> {
  const now = new Date().toISOString();
  const topic: Topic = { ...fields, id: await nextId('topics'), totalProjectsCount: 0, createdAt: now, updatedAt: now, version: 1 };
  await putSearchEntries(searchKeys(termsOf(topic), topic.id), { topicId: topic.id }, topic.version);
  const failure = await transactOr(
    {
      topic: { Put: { TableName: tableName(), Item: topicToItem(topic), ConditionExpression: 'attribute_not_exists(PK)' } },
      name: putClaim(topicKeys.nameClaim(topic.name), { topicId: topic.id }),
    },
    [['name', 'name_taken' as const]],
  );
  if (failure) {
    await removeSearchEntries(searchKeys(termsOf(topic), topic.id));
    return failure;
  }
  return topic;
}

/**
 * Edits a topic's name, title and description, conditioned on the version read (the count is
 * left as it is: `SET` of the edited fields only); a new name moves the claim.
 * `'changed'`: the topic was edited or deleted meanwhile.
 */
export async function updateTopic(previous: Topic, changes: Partial<TopicFields>): Promise<Topic | 'name_taken' | 'changed'> {
  const next = { ...previous, ...changes, updatedAt: new Date().toISOString(), version: previous.version + 1 };
  const renamed = next.name.toLowerCase() !== previous.name.toLowerCase();
  const { added, removed } = termChanges(termsOf(previous), termsOf(next));
  await putSearchEntries(searchKeys(added, next.id), { topicId: next.id }, next.version);
  const failure = await transactOr(
    {
      topic: {
        Update: {
          TableName: tableName(),
          Key: topicKeys.topic(previous.id),
          UpdateExpression: 'SET #name = :name, title = :title, description = :description, updatedAt = :updatedAt, #version = :next',
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#name': 'name', '#version': 'version' },
          ExpressionAttributeValues: { ':name': next.name, ':title': next.title, ':description': next.description, ':updatedAt': next.updatedAt, ':next': next.version, ':version': previous.version },
        },
      },
      name: renamed && putClaim(topicKeys.nameClaim(next.name), { topicId: next.id }),
      previous_name: renamed && { Delete: { TableName: tableName(), Key: topicKeys.nameClaim(previous.name) } },
    },
    [['name', 'name_taken' as const], ['topic', 'changed' as const]],
  );
  if (failure) return failure;
  await removeSearchEntries(searchKeys(removed, next.id), next.version);
  // The count as now stored (projects may have been added meanwhile).
  return (await getTopic(next.id)) ?? next;
}

/** Deletes a topic, its name claim and its search entries; `false` when it was gone already. */
export async function deleteTopic(topic: Topic): Promise<boolean> {
  const failure = await transactOr(
    {
      topic: { Delete: { TableName: tableName(), Key: topicKeys.topic(topic.id), ConditionExpression: 'attribute_exists(PK)' } },
      name: { Delete: { TableName: tableName(), Key: topicKeys.nameClaim(topic.name) } },
    },
    [['topic', 'gone' as const]],
  );
  if (failure) return false;
  await removeSearchEntries(searchKeys(termsOf(topic), topic.id));
  return true;
}

/**
 * A project's count in a topic, for the project write's transaction: `ADD totalProjectsCount`
 * `delta`, conditioned on the topic existing (a topic deleted meanwhile fails the write).
 */
export const topicCountUpdate = (topicId: number, delta: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: topicKeys.topic(topicId),
    UpdateExpression: 'ADD totalProjectsCount :delta',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':delta': delta },
  },
});
