/**
 * Walking an index partition to change each item it lists, in the background (e.g. a deleted
 * user's contributions moved to the ghost user). The index lags a moment behind the table, so
 * one walk may miss an item written just before: the walk is repeated until a pass changes
 * nothing (at most {@link MAX_PASSES}). Every step must be re-entrant: an item already changed
 * answers "unchanged" on the next pass. Progress is logged every {@link LOG_EVERY} items.
 */
import { logger } from '../logger';
import type { Collection } from './keys';
import { queryCollection, type Item } from './query';

/** Walks of the index: a later pass finds what the index did not yet show. */
const MAX_PASSES = 3;
/** A progress line every this many changed items. */
const LOG_EVERY = 100;

/**
 * Applies `change` (whether it changed the item) to every item of `collection`, pass after pass
 * until one changes nothing; logs `what` with `fields` and the count. Returns how many it changed.
 */
export async function changeEveryItem(collection: Collection, change: (item: Item) => Promise<boolean>, what: string, fields: Record<string, unknown>): Promise<number> {
  let total = 0;
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    let changed = 0;
    for await (const item of queryCollection(collection)) {
      if (!(await change(item))) continue;
      changed++;
      if ((total + changed) % LOG_EVERY === 0) logger.info(what, { ...fields, items: total + changed });
    }
    total += changed;
    if (changed === 0) break;
  }
  if (total > 0) logger.info(`${what}: done`, { ...fields, items: total });
  return total;
}
