import { BatchGetCommand, BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { isStorableKey, type Key } from './keys';
import { journalEntries } from './recent';
import type { Item } from './query';

const MAX_BATCH = 100;
/** BatchWriteItem's limit. */
const MAX_WRITE_BATCH = 25;
const MAX_ROUNDS = 6;

/**
 * Point reads asked for in the same turn of the event loop are served together, as id sequences
 * are (`counters.ts`): the reads of one request that do not depend on each other (an issue's
 * milestone and its assignee, a list's issues and its count) and those of concurrent requests
 * of this process go out as ONE BatchGetItem per consistency (chunks of 100 at once), each caller
 * getting back the items of its own keys. A turn that asks for one item alone reads it with
 * GetItem, as before.
 */
interface PendingRead {
  keys: Key[];
  consistent: boolean;
  /** One item by GetItem when it is the turn's only read. */
  single: boolean;
  resolve: (items: Item[]) => void;
  reject: (error: unknown) => void;
}

/** The reads of this turn, flushed together (`setImmediate`). */
let pendingReads: PendingRead[] = [];

/** Internal: queues a read for this turn's batch. */
function queueRead(keys: Key[], consistent: boolean, single: boolean): Promise<Item[]> {
  return new Promise((resolve, reject) => {
    if (pendingReads.length === 0) setImmediate(flushReads);
    pendingReads.push({ keys, consistent, single, resolve, reject });
  });
}

/** Internal: serves the turn's reads, one batch per consistency. */
function flushReads(): void {
  const reads = pendingReads;
  pendingReads = [];
  for (const consistent of [true, false]) {
    const group = reads.filter((read) => read.consistent === consistent);
    if (group.length === 0) continue;
    const fail = (error: unknown) => group.forEach((read) => read.reject(error));
    if (group.length === 1 && group[0].single) {
      getOne(group[0].keys[0]).then((item) => group[0].resolve(item ? [item] : []), fail);
      continue;
    }
    batchGet(group.flatMap((read) => read.keys), consistent).then((items) => {
      const found = byKey(items);
      for (const read of group) read.resolve(read.keys.flatMap((key) => found(key) ?? []));
    }, fail);
  }
}

/** Internal: one item by GetItem. */
async function getOne(key: Key): Promise<Item | undefined> {
  const { Item: item } = await db().send(new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }));
  return item;
}

/** Internal: `PK`/`SK` as one string. */
const keyString = (key: Key) => `${key.PK}\u0000${key.SK}`;

/**
 * Internal: reads many items by key with BatchGetItem: chunks of 100 at once, and the keys
 * DynamoDB leaves unprocessed (throttling) are asked again with backoff, never silently
 * dropped. Duplicate keys are read once.
 */
async function batchGet(keyList: Key[], consistent: boolean): Promise<Item[]> {
  const table = config().tableName;
  const unique = [...new Map(keyList.map((k) => [keyString(k), { PK: k.PK, SK: k.SK }])).values()];
  const chunks: Key[][] = [];
  for (let start = 0; start < unique.length; start += MAX_BATCH) chunks.push(unique.slice(start, start + MAX_BATCH));
  const read = async (chunk: Key[]): Promise<Item[]> => {
    const items: Item[] = [];
    let pending: Record<string, unknown>[] = chunk;
    for (let round = 0; pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const result = await db().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent } } }));
      items.push(...(result.Responses?.[table] ?? []));
      pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
    }
    return items;
  };
  return (await Promise.all(chunks.map(read))).flat();
}

/**
 * Reads many items by key (BatchGetItem, with whatever else this turn reads; see
 * {@link PendingRead}), each once however often its key is given. Missing items are simply
 * absent from the result, and so are keys too long to exist.
 */
export function getMany(keyList: Key[], options: { consistent?: boolean } = {}): Promise<Item[]> {
  const keys = [...new Map(keyList.filter(isStorableKey).map((key) => [keyString(key), key])).values()];
  return keys.length === 0 ? Promise.resolve([]) : queueRead(keys, options.consistent ?? true, false);
}

/** One item by key, read consistently (GetItem, or within this turn's BatchGetItem); undefined when there is none (or the key is too long to exist). */
export async function getItem(key: Key): Promise<Item | undefined> {
  if (!isStorableKey(key)) return undefined;
  return (await queueRead([key], true, true))[0];
}

/** Indexes items by their `PK`/`SK`, to find the item of a key after {@link getMany}. */
export function byKey(items: Item[]): (key: Key) => Item | undefined {
  const map = new Map(items.map((item) => [keyString(item as Key), item]));
  return (key) => map.get(keyString(key));
}

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

/**
 * Writes many independent items with BatchWriteItem (chunks of 25, unprocessed requests sent
 * again with backoff). Not atomic and unconditional: for items nothing reads until a later
 * transaction makes them reachable (e.g. the notes copied to a moved issue), and for cleanup.
 */
async function writeMany(requests: WriteRequest[]): Promise<void> {
  const table = config().tableName;
  for (let start = 0; start < requests.length; start += MAX_WRITE_BATCH) {
    let pending = requests.slice(start, start + MAX_WRITE_BATCH);
    for (let round = 0; pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new Error(`BatchWriteItem left ${pending.length} requests unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result?.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  }
}

/**
 * Puts many items (see {@link writeMany}); items in read-your-writes index partitions get their
 * journal entries in the same batches, ahead of them (`recent.ts`), unless `journal` is false:
 * bulk writes no client waits to list (an import, a data migration's rebuild) are then seen as
 * the index shows them, at half the items written.
 */
export const putMany = (items: Item[], options: { journal?: boolean } = {}) =>
  writeMany([...(options.journal === false ? [] : journalEntries(items)), ...items].map((item) => ({ PutRequest: { Item: item } })));

/** Deletes many items by key (see {@link writeMany}). */
export const deleteMany = (keyList: Key[]) => writeMany(keyList.map((key) => ({ DeleteRequest: { Key: { PK: key.PK, SK: key.SK } } })));
