import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { getItem, getMany } from './batch';
import { MAX_PARTITION_KEY_BYTES, type Collection, type Key } from './keys';
import { itemKeyString, recentWrites, type JournalReads } from './recent';

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

/**
 * Internal: the first string after every string that starts with `prefix` (its last character
 * advanced by one), when that character is ASCII; `undefined` otherwise.
 */
function pastPrefix(prefix: string): string | undefined {
  const last = prefix.charCodeAt(prefix.length - 1);
  return last < 0x7f ? prefix.slice(0, -1) + String.fromCharCode(last + 1) : undefined;
}

function queryInput(collection: Collection, ascending: boolean): QueryCommandInput {
  const names: Record<string, string> = { '#pk': collection.partitionAttribute };
  const values: Record<string, unknown> = { ':pk': collection.partitionValue };
  let condition = '#pk = :pk';
  if (collection.prefix) {
    names['#sk'] = collection.sortAttribute;
    values[':prefix'] = collection.prefix;
    // The prefix as a range, `BETWEEN prefix AND past` (`past` itself, the one key in it without
    // the prefix, is left out by the reader): on DynamoDB the same key range as `begins_with`;
    // DynamoDB Local reads `begins_with` as a filter over the rest of the partition (1.4 s for a
    // project's hooks beside 4 million issue items) and a range as a range (10 ms).
    const past = pastPrefix(collection.prefix);
    if (past) values[':past'] = past;
    condition += past ? ' AND #sk BETWEEN :prefix AND :past' : ' AND begins_with(#sk, :prefix)';
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
  options: { ascending?: boolean; startAfter?: Item; pageSize?: number; journals?: JournalReads } = {},
): AsyncGenerator<Item> {
  // A partition value too long for a key has no items (a lookup by an over-long client value).
  if (Buffer.byteLength(collection.partitionValue, 'utf8') > MAX_PARTITION_KEY_BYTES) return;
  const ascending = options.ascending ?? true;
  const input = queryInput(collection, ascending);
  const readPage = async (startKey: Item | undefined) =>
    db().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey, Limit: options.pageSize ?? 100 }));
  let next = readPage(options.startAfter);
  next.catch(() => undefined); // awaited below, once the journal is read
  // An index partition declared read-your-writes: what its writers just wrote, read consistently
  // (`recent.ts`, alongside the first page), replaces what the index says of those items, merged
  // in sort-key order.
  const recent = await recentWrites(collection, { ascending, startAfter: options.startAfter, journals: options.journals }, getMany);
  const fresh = recent?.fresh ?? [];
  const sortOf = (item: Item) => item[collection.sortAttribute] as string;
  const before = (a: Item, b: Item) => (ascending ? sortOf(a) < sortOf(b) : sortOf(a) > sortOf(b));
  for (;;) {
    const page = await next;
    for (const item of page.Items ?? []) {
      if (recent?.touched.has(itemKeyString(item as Key))) continue;
      if (collection.prefix && !sortOf(item).startsWith(collection.prefix)) continue;
      while (fresh.length > 0 && before(fresh[0], item)) yield fresh.shift()!;
      yield item;
    }
    // The next page only when the consumer pulled past this one.
    if (!page.LastEvaluatedKey) break;
    next = readPage(page.LastEvaluatedKey);
  }
  yield* fresh;
}

/** Every item of a (small, bounded) collection, e.g. one user's SSH keys. */
export async function queryAll(collection: Collection, ascending = true): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of queryCollection(collection, { ascending })) items.push(item);
  return items;
}

export { getItem };

/** One entity by key, read consistently and mapped from its item; undefined when there is none. */
export async function getEntity<T>(key: Key, fromItem: (item: Item) => T): Promise<T | undefined> {
  const item = await getItem(key);
  return item ? fromItem(item) : undefined;
}

/** Whether a client-supplied number can be an id at all; anything else is simply not found. */
export const isId = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
