import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { isStorableKey, MAX_PARTITION_KEY_BYTES, type Collection, type Key } from './keys';

/** A raw table item: attributes are read by the feature store that knows its entity. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Item = Record<string, any>;

/** The key attributes that identify an item's position in a collection (what a cursor carries). */
export function positionOf(item: Item, collection: Collection): Item {
  const position: Item = { PK: item.PK, SK: item.SK };
  if (collection.index) {
    position[collection.partitionAttribute] = item[collection.partitionAttribute];
    position[collection.sortAttribute] = item[collection.sortAttribute];
  }
  return position;
}

function queryInput(collection: Collection, ascending: boolean): QueryCommandInput {
  const names: Record<string, string> = { '#pk': collection.partitionAttribute };
  const values: Record<string, unknown> = { ':pk': collection.partitionValue };
  let condition = '#pk = :pk';
  if (collection.prefix) {
    names['#sk'] = collection.sortAttribute;
    values[':prefix'] = collection.prefix;
    condition += ' AND begins_with(#sk, :prefix)';
  } else if (collection.from) {
    names['#sk'] = collection.sortAttribute;
    values[':from'] = collection.from;
    condition += ' AND #sk >= :from';
  } else if (collection.below) {
    names['#sk'] = collection.sortAttribute;
    values[':below'] = collection.below;
    condition += ' AND #sk < :below';
  }
  return {
    TableName: config().tableName,
    IndexName: collection.index,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: ascending,
    // Lists of the table itself read what was just written (a key added, then listed); an index
    // can only be read eventually consistently.
    ConsistentRead: collection.index ? undefined : true,
  };
}

/**
 * Streams the items of a collection in sort-key order, one Query page at a time, starting after
 * `startAfter` (a {@link positionOf} value). Reads only as many pages as the consumer pulls, so a
 * caller that stops early pays only for what it used. Never a Scan.
 */
export async function* queryCollection(
  collection: Collection,
  options: { ascending?: boolean; startAfter?: Item; pageSize?: number } = {},
): AsyncGenerator<Item> {
  // A partition value too long for a key has no items (a lookup by an over-long client value).
  if (Buffer.byteLength(collection.partitionValue, 'utf8') > MAX_PARTITION_KEY_BYTES) return;
  const input = queryInput(collection, options.ascending ?? true);
  let startKey: Item | undefined = options.startAfter;
  do {
    const page = await db().send(
      new QueryCommand({ ...input, ExclusiveStartKey: startKey, Limit: options.pageSize ?? 100 }),
    );
    for (const item of page.Items ?? []) yield item;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Every item of a (small, bounded) collection, e.g. one user's SSH keys. */
export async function queryAll(collection: Collection, ascending = true): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of queryCollection(collection, { ascending })) items.push(item);
  return items;
}

/** One item by key, read consistently; undefined when there is none (or the key is too long to exist). */
export async function getItem(key: Key): Promise<Item | undefined> {
  if (!isStorableKey(key)) return undefined;
  const { Item: item } = await db().send(new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }));
  return item;
}

/** One entity by key, read consistently and mapped from its item; undefined when there is none. */
export async function getEntity<T>(key: Key, fromItem: (item: Item) => T): Promise<T | undefined> {
  const item = await getItem(key);
  return item ? fromItem(item) : undefined;
}

/** Whether a client-supplied number can be an id at all; anything else is simply not found. */
export const isId = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
