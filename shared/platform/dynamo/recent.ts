/**
 * Read-your-writes for index lists. On AWS a global secondary index is updated a moment after the
 * table (usually well under a second), and it can only be read eventually consistently: a client
 * that creates a project and lists its namespace's projects at once may not find it. GitLab's
 * clients rely on seeing what they just created (create, then list), so the lists they rely on
 * are served with the help of a small journal of recent writes, kept in the table itself:
 *
 * - a feature declares which of its index partitions are read this way (`readYourWrites`, beside
 *   its keys in `store/keys.ts`);
 * - every item that a `transact` puts, or updates with `SET` of an index partition attribute, into
 *   one of them gets a journal entry (`RECENT#<partition>` / `<time>#<PK>#<SK>`, gone by TTL
 *   after an hour) naming it, written once the transaction succeeded and before the writer is
 *   answered (a refused write writes nothing; should the process die in between, the write is
 *   only seen as late as the index shows it); derived entries put by `putMany` (filtered lists)
 *   get theirs in the same batches, ahead of the item's own write like the entries themselves.
 *   An entry may name an item that is gone or has moved on: readers check the item itself;
 * - `queryCollection` of such a partition reads, besides the index page, the partition's journal
 *   of the last {@link RECENT_WINDOW_MS} (one consistent Query of at most {@link RECENT_LIMIT}
 *   entries, whatever the size of the list) and the items it names (one consistent BatchGetItem,
 *   only when there are any); those items replace whatever the index says of them: shown where
 *   their sort key puts them when they are (still) in the partition and the range read, left out
 *   otherwise.
 *
 * A list page therefore costs one more small Query, not more reads as the list grows. What the
 * journal does not cover: the partition an item left (a move shows it there too for that moment),
 * an item's sort key changed by an UpdateItem outside a transaction, and an item deleted (its old
 * index entry shows for that moment);
 * lists that load their items consistently after the index (projects, groups, users) drop a
 * deleted item themselves.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { keys, type Collection, type Key } from './keys';
import { GLOBAL_INDEXES } from './table-definition';
import type { Item } from './query';

/** How long after a write a reader of its index partitions consults the journal (index lag is normally far below it). */
export const RECENT_WINDOW_MS = 10_000;
/** Most journal entries read with one list page (the newest): a bound on the extra cost. */
export const RECENT_LIMIT = 100;
/** How long journal entries stay in the table (removed by TTL; readers ignore them long before). */
const JOURNAL_TTL_SECONDS = 3600;

const journaled: string[] = [];

/**
 * Declares index partitions (by prefix, e.g. `NAMESPACE_PROJECTS#`) whose lists must show their
 * writer's writes at once. Called by the feature that owns them, next to their key builders, so
 * that every process writing or reading those partitions has declared them.
 */
export function readYourWrites(...partitionPrefixes: string[]): void {
  for (const prefix of partitionPrefixes) if (!journaled.includes(prefix)) journaled.push(prefix);
}

/** Whether lists of this index partition read the journal (and writes to it are journaled). */
export const isJournaled = (partitionValue: string): boolean => journaled.some((prefix) => partitionValue.startsWith(prefix));

const PARTITION_ATTRIBUTES: readonly string[] = GLOBAL_INDEXES.map((index) => index.partitionKey);

/** The journal entries (items to put) of items about to be put: one per journaled index partition an item is in. */
export function journalEntries(items: Item[], now = Date.now()): Item[] {
  if (journaled.length === 0) return [];
  const at = new Date(now).toISOString();
  const entries = new Map<string, Item>();
  for (const item of items) {
    if (typeof item.PK !== 'string' || typeof item.SK !== 'string') continue;
    for (const attribute of PARTITION_ATTRIBUTES) {
      const partition = item[attribute];
      if (typeof partition !== 'string' || !isJournaled(partition)) continue;
      const key = keys.recentWrite(partition, at, item.PK, item.SK);
      entries.set(`${key.PK}\u0000${key.SK}`, {
        ...key,
        type: 'RecentWrite',
        itemKey: { PK: item.PK, SK: item.SK },
        expiresAtEpoch: Math.floor(now / 1000) + JOURNAL_TTL_SECONDS,
      });
    }
  }
  return [...entries.values()];
}

/**
 * The key and the index partition attributes an UpdateItem sets (`SET #n = :v` or `SET GSI2PK = :v`),
 * as an item for {@link journalEntries}: an update that moves an item into a journaled partition
 * is journaled like a put.
 */
export function updatedIndexPartitions(update: {
  Key?: Record<string, unknown>;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}): Item | undefined {
  const set = /\bSET\b(.*?)(\b(REMOVE|ADD|DELETE)\b|$)/s.exec(update.UpdateExpression ?? '')?.[1];
  if (!set || !update.Key) return undefined;
  const fields: Item = {};
  for (const [, name, value] of set.matchAll(/(#?\w+)\s*=\s*(:\w+)/g)) {
    const attribute = name.startsWith('#') ? update.ExpressionAttributeNames?.[name] : name;
    if (attribute && PARTITION_ATTRIBUTES.includes(attribute)) fields[attribute] = update.ExpressionAttributeValues?.[value];
  }
  return Object.keys(fields).length > 0 ? { ...update.Key, ...fields } : undefined;
}

/** What the journal says of a collection: its recently written items (in range, in order) and every key it names. */
export interface RecentWrites {
  /** Items named by the journal that are in the collection now, in its order, after the start position. */
  fresh: Item[];
  /** Keys (`PK\0SK`) of every item the journal names: the index's (possibly stale) entries of them are not used. */
  touched: Set<string>;
}

export const itemKeyString = (item: { PK: string; SK: string }): string => `${item.PK}\u0000${item.SK}`;

/** Whether a sort-key value is in the range a Query of the collection reads (the same rule as its key condition). */
function inRange(collection: Collection, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (collection.prefix) return value.startsWith(collection.prefix);
  if (collection.from) return value >= collection.from;
  if (collection.below) return value < collection.below;
  return true;
}

/**
 * The journal of a journaled index collection (see the file header); `undefined` for other
 * collections, which cost nothing more. `getMany` is passed in by `query.ts` (no import circle).
 */
export async function recentWrites(
  collection: Collection,
  options: { ascending: boolean; startAfter?: Item },
  getMany: (keyList: Key[]) => Promise<Item[]>,
  now = Date.now(),
): Promise<RecentWrites | undefined> {
  if (!collection.index || !isJournaled(collection.partitionValue)) return undefined;
  const since = new Date(now - RECENT_WINDOW_MS).toISOString();
  const page = await db().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'PK = :pk AND SK >= :since',
      ExpressionAttributeValues: { ':pk': keys.recentWrite(collection.partitionValue, '', '', '').PK, ':since': since },
      ScanIndexForward: false,
      Limit: RECENT_LIMIT,
      ConsistentRead: true,
    }),
  );
  const named = (page?.Items ?? []).map((entry) => entry.itemKey as Key | undefined).filter((key): key is Key => typeof key?.PK === 'string' && typeof key.SK === 'string');
  if (named.length === 0) return undefined;
  const touched = new Set(named.map(itemKeyString));
  const { partitionAttribute: pa, partitionValue: pv, sortAttribute: sa } = collection;
  const start = options.startAfter?.[sa] as string | undefined;
  const fresh = (await getMany(named))
    .filter((item) => item[pa] === pv && inRange(collection, item[sa]))
    .filter((item) => start === undefined || (options.ascending ? item[sa] > start : item[sa] < start))
    .sort((a, b) => (options.ascending ? 1 : -1) * (a[sa] < b[sa] ? -1 : a[sa] > b[sa] ? 1 : 0));
  return { fresh, touched };
}
