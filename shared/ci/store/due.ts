/**
 * The scheduler's reads of its sparse "due" indexes (deadlines, artifact expiries, schedule runs,
 * environments to stop or delete): the first `limit` items of a collection bounded by `now`, each
 * with its index sort key — the entry a conditional write later names, so a stale or concurrent
 * reading changes nothing.
 */
import type { Collection } from '../../platform/dynamo/keys';
import { queryCollection, type Item } from '../../platform/dynamo/query';

export async function dueItems(collection: Collection, limit: number): Promise<Array<{ item: Item; entry: string }>> {
  const found: Array<{ item: Item; entry: string }> = [];
  for await (const item of queryCollection(collection, { pageSize: limit })) {
    found.push({ item, entry: String(item[collection.sortAttribute]) });
    if (found.length >= limit) break;
  }
  return found;
}
