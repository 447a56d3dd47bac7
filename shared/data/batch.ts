import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import type { Key } from './keys';
import type { Item } from './query';

const MAX_BATCH = 100;
const MAX_ROUNDS = 6;

/**
 * Reads many items by key with BatchGetItem: chunks of 100, and the keys DynamoDB leaves
 * unprocessed (throttling) are asked again with backoff, never silently dropped. Duplicate keys
 * are read once. Missing items are simply absent from the result.
 */
export async function getMany(keyList: Key[], options: { consistent?: boolean } = {}): Promise<Item[]> {
  const table = config().tableName;
  const unique = [...new Map(keyList.map((k) => [`${k.PK}\u0000${k.SK}`, k])).values()];
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
