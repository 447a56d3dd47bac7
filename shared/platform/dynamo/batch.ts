import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
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
 * Reads many items by key with BatchGetItem: chunks of 100, and the keys DynamoDB leaves
 * unprocessed (throttling) are asked again with backoff, never silently dropped. Duplicate keys
 * are read once. Missing items are simply absent from the result.
 */
export async function getMany(keyList: Key[], options: { consistent?: boolean } = {}): Promise<Item[]> {
  const table = config().tableName;
  // Keys too long to exist name no item.
  const unique = [...new Map(keyList.filter(isStorableKey).map((k) => [`${k.PK}\u0000${k.SK}`, k])).values()];
  const items: Item[] = [];
  for (let start = 0; start < unique.length; start += MAX_BATCH) {
    let pending: Record<string, unknown>[] = unique.slice(start, start + MAX_BATCH);
    for (let round = 0; pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const result = await db().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent ?? true } } }),
      );
      items.push(...(result.Responses?.[table] ?? []));
      pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return items;
}

/** Indexes items by their `PK`/`SK`, to find the item of a key after {@link getMany}. */
export function byKey(items: Item[]): (key: Key) => Item | undefined {
  const map = new Map(items.map((item) => [`${item.PK}\u0000${item.SK}`, item]));
  return (key) => map.get(`${key.PK}\u0000${key.SK}`);
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
 * journal entries in the same batches, ahead of them (`recent.ts`).
 */
export const putMany = (items: Item[]) =>
  writeMany([...journalEntries(items), ...items].map((item) => ({ PutRequest: { Item: item } })));

/** Deletes many items by key (see {@link writeMany}). */
export const deleteMany = (keyList: Key[]) => writeMany(keyList.map((key) => ({ DeleteRequest: { Key: { PK: key.PK, SK: key.SK } } })));
