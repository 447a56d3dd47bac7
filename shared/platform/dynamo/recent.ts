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
 *   one of them is named in a journal entry, one per journal partition and write
 *   (`RECENT#<journal>` / `<time>#<PK>#<SK>` of its first item, gone by TTL after an hour; the
 *   journal is the partition's own or the one it shares, see below), which names each item of
 *   the write with the journaled partitions it is in (at most {@link JOURNAL_ENTRY_ITEMS} items
 *   per entry), written in the transaction itself when the entries fit in its 100
 *   operations (else once it succeeded and before the writer is answered: should the process die
 *   in between, the write is only seen as late as the index shows it); derived entries put by `putMany` (filtered lists,
 *   search terms) get theirs in the same batches, ahead of the item's own write like the entries
 *   themselves; single writes outside a transaction (an event recorded, a pipeline stored or
 *   changed, a job's status changed) journal themselves with `journalWrite`;
 * - the partitions an item leaves are journaled the same way (an entry naming it, a tombstone):
 *   `transact` takes, for the items it deletes, updates in an index key attribute or replaces
 *   with a Put not conditioned on `attribute_not_exists`, the version their writer holds (`heldAs`;
 *   `versionedPut` with the previous item) or reads the others before the transaction (one
 *   consistent BatchGetItem, only when there are such items), and journals every read-your-writes partition
 *   those previous versions were in; `journalWrite` takes the previous versions from its writer.
 *   So an issue closed (out of its `opened` lists), deleted or moved to another project, a note
 *   deleted, a todo marked done, an SSH key deleted leave their old lists at once;
 * - `queryCollection` of such a partition reads, besides the index page, the partition's journal
 *   of the last {@link RECENT_WINDOW_MS} (one consistent Query of at most {@link RECENT_LIMIT}
 *   entries, whatever the size of the list) and the items they name in that partition (one
 *   consistent BatchGetItem, only when there are any); those items replace whatever the index says of them: shown where
 *   their sort key puts them when they are (still) in the partition and the range read, left out
 *   otherwise (gone, or moved elsewhere: the stale index entry is dropped).
 *
 * - index partitions a list reads together (an issue list of every state: `opened` and `closed`),
 *   or that one write puts many items in (an issue's filtered lists, its search terms), may share
 *   one journal (`journalTogether`): one Query per list read, not one per partition, and one entry
 *   per write, not one per item and partition (each reader still loads only its partition's items).
 * - a feature may give its journaled partitions a mark (`journalMark`): an item, put with the
 *   journal entries (in the same transaction or batch), holding the time of the last one. A list
 *   that reads the mark with what it reads first anyway (an issue list: with its project) skips
 *   the journal Query while the mark shows no write within the window (`quietJournals`): a quiet
 *   list costs no more than its index. Every journaled write of those partitions then puts the
 *   mark, so concurrent transactions putting one mark conflict and are retried (`transact`): a
 *   mark suits partitions whose writes are few per second (a project's issues), not hot ones.
 *   Marks are put, not maxed: a writer whose clock runs behind another's can set the mark back
 *   by that skew, as the journal's own window (`SK >= now - window`) depends on the clocks too.
 *
 * A list page therefore costs one more small Query (none while its mark is quiet), not more reads as the list grows; a write
 * that deletes, moves or replaces items its writer does not hand in costs one BatchGetItem more. What the journal does not
 * cover: an item's index attributes changed by an UpdateItem or DeleteItem outside a transaction
 * that does not call `journalWrite` (e.g. a job's status change whose previous status the writer
 * does not name: the list it left shows it for that moment), items removed by `deleteMany`
 * (background deletions of a project's, group's or user's items, whose parent is already marked
 * `deleting`: lists load it consistently and leave it out), a write racing between the read of
 * the previous versions and the transaction (the racing write journals its own partitions), and
 * more than {@link RECENT_LIMIT} writes to one journal within the window (the oldest are then
 * seen as late as the index shows them). Lists that load their items consistently after the
 * index (projects, groups, users, issues of filtered lists) drop a deleted item themselves.
 */
import { randomBytes } from 'node:crypto';
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

/** Journaled partitions whose lists are read together, by prefix: the journal partition they share. */
const groups: Array<{ prefix: string; group: (partition: string) => string }> = [];

/**
 * Declares that the journaled index partitions starting with `prefix` share a journal partition
 * per `group(partition)` — the partitions one list reads together (an issue list of every state
 * reads its `opened` and `closed` partitions): its readers then read one journal, not one per
 * partition, and concurrent reads of one journal are one Query ({@link recentWrites}). Each reader
 * keeps only the named items that are in its own partition. Called beside the feature's keys.
 * A deploy that changes a grouping hides, for at most {@link RECENT_WINDOW_MS}, what processes
 * of the previous version journaled under the old partitions (their index catches up by then).
 */
export function journalTogether(prefix: string, group: (partition: string) => string): void {
  if (!groups.some((entry) => entry.prefix === prefix)) groups.push({ prefix, group });
}

/** Journaled partitions with a mark, by prefix: the key of the mark of a partition. */
const marks: Array<{ prefix: string; mark: (partition: string) => Key }> = [];

/**
 * Declares that the journaled index partitions starting with `prefix` have a mark at
 * `mark(partition)` (see the file header): every journal entry of them puts the mark too, and
 * their readers may skip the journal while the mark is quiet ({@link quietJournals}). Partitions
 * read together ({@link journalTogether}) must share their mark. Called beside the feature's keys.
 */
export function journalMark(prefix: string, mark: (partition: string) => Key): void {
  if (!marks.some((entry) => entry.prefix === prefix)) marks.push({ prefix, mark });
}

/** The mark of a journaled index partition, if its feature declared one. */
export const journalMarkOf = (partition: string): Key | undefined => marks.find((entry) => partition.startsWith(entry.prefix))?.mark(partition);

/** Internal: the journal partition of an index partition. */
const journalOf = (partition: string): string => groups.find((entry) => partition.startsWith(entry.prefix))?.group(partition) ?? partition;

/** Table partitions (PK prefixes) whose items are never in an index: claims, and what features declare. */
const unindexed: string[] = ['UNIQUE#'];

/**
 * Declares table partitions (by PK prefix) whose items carry no index attributes: deleting or
 * replacing one leaves no index partition, so a transaction does not read its previous version
 * (`transactions.ts`) — a create that drops a stale item (a redirect at a path it takes) costs no
 * extra round trip. Called beside the feature's key builders.
 */
export function neverIndexed(...partitionPrefixes: string[]): void {
  for (const prefix of partitionPrefixes) if (!unindexed.includes(prefix)) unindexed.push(prefix);
}

/** Whether the item at `key` may sit in an index partition (anything not declared {@link neverIndexed}). */
export const mayBeIndexed = (key: { PK: string }): boolean => !unindexed.some((prefix) => key.PK.startsWith(prefix));

/** Whether any read-your-writes partitions are declared (writes then look for the partitions they leave). */
export const isJournaling = (): boolean => journaled.length > 0;

/** Whether an UpdateItem sets or removes an index key attribute (it may move the item in or out of an index partition). */
export const touchesIndexKeys = (update: { UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string> }): boolean =>
  /\bGSI\d+(PK|SK)\b/.test(update.UpdateExpression ?? '') || Object.values(update.ExpressionAttributeNames ?? {}).some((name) => /^GSI\d+(PK|SK)$/.test(name));

/** Whether lists of this index partition read the journal (and writes to it are journaled). */
export const isJournaled = (partitionValue: string): boolean => journaled.some((prefix) => partitionValue.startsWith(prefix));

const PARTITION_ATTRIBUTES: readonly string[] = GLOBAL_INDEXES.map((index) => index.partitionKey);

/** Most items one journal entry names (a write of more, e.g. an issue with a long description's search terms, puts several). */
const JOURNAL_ENTRY_ITEMS = 100;

/** What a journal entry says of one item: its key and the journaled partitions it was put in or left. */
interface JournalName extends Key {
  in: string[];
}

/**
 * The journal entries (items to put) of items about to be put: one per journal a write touches
 * (per {@link JOURNAL_ENTRY_ITEMS} items), naming each item with the journaled index partitions it
 * is in, or was in before the write (its previous version), so a reader loads only the items
 * of its own partition. Plus the marks of those partitions.
 */
export function journalEntries(items: Item[], now = Date.now()): Item[] {
  if (journaled.length === 0) return [];
  const at = new Date(now).toISOString();
  const journals = new Map<string, Map<string, JournalName>>();
  const marksPut = new Map<string, Item>();
  for (const item of items) {
    if (typeof item.PK !== 'string' || typeof item.SK !== 'string') continue;
    for (const attribute of PARTITION_ATTRIBUTES) {
      const partition = item[attribute];
      if (typeof partition !== 'string' || !isJournaled(partition)) continue;
      const journal = journalOf(partition);
      if (!journals.has(journal)) journals.set(journal, new Map());
      const names = journals.get(journal)!;
      const name = names.get(itemKeyString(item as Key)) ?? { PK: item.PK, SK: item.SK, in: [] };
      if (!name.in.includes(partition)) name.in.push(partition);
      names.set(itemKeyString(name), name);
      const mark = journalMarkOf(partition);
      if (mark) marksPut.set(itemKeyString(mark), { ...mark, type: 'JournalMark', journaledAt: at });
    }
  }
  const entries: Item[] = [];
  const write = randomBytes(4).toString('hex');
  for (const [journal, names] of journals) {
    const all = [...names.values()];
    for (let start = 0; start < all.length; start += JOURNAL_ENTRY_ITEMS) {
      const chunk = all.slice(start, start + JOURNAL_ENTRY_ITEMS);
      entries.push({
        ...keys.recentWrite(journal, at, chunk[0].PK, chunk[0].SK, write),
        type: 'RecentWrite',
        names: chunk,
        expiresAtEpoch: Math.floor(now / 1000) + JOURNAL_TTL_SECONDS,
      });
    }
  }
  return [...entries, ...marksPut.values()];
}

/**
 * The journal readings of a list of `partitions` known without a Query: those whose mark (as the
 * list read it, consistently, with what it reads first: `read` answers `undefined` for a mark
 * that does not exist) shows no journal entry within the window are empty. Hand them to the
 * list's read (`queryCollection`'s or `mergedCollections`' `journals`).
 */
export function quietJournals(partitions: readonly string[], read: (key: Key) => Item | undefined, now = Date.now()): JournalReads {
  const since = new Date(now - RECENT_WINDOW_MS).toISOString();
  const readings: JournalReads = new Map();
  for (const partition of partitions) {
    const mark = journalMarkOf(partition);
    if (!mark || !isJournaled(partition)) continue;
    const at = read(mark)?.journaledAt;
    if (typeof at === 'string' && at >= since) continue;
    readings.set(journalKeyOf(partition), Promise.resolve([]));
  }
  return readings;
}

/** Internal: the partition key of the journal of an index partition. */
const journalKeyOf = (partition: string): string => keys.recentWrite(journalOf(partition), '', '', '').PK;

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
 * The journals one read of several collections has read, by journal partition: created by that
 * read (never shared across requests: a journal read before a write must not answer after it).
 */
export type JournalReads = Map<string, Promise<JournalName[]>>;

/**
 * Internal: what a journal's entries of the window name (one consistent Query). An entry written
 * before entries named their partitions (`itemKey`, one item, one entry per partition) names its
 * item for every partition of the journal.
 */
async function readJournal(journalKey: string, now: number): Promise<JournalName[]> {
  const since = new Date(now - RECENT_WINDOW_MS).toISOString();
  const page = await db().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'PK = :pk AND SK >= :since',
      ExpressionAttributeValues: { ':pk': journalKey, ':since': since },
      ScanIndexForward: false,
      Limit: RECENT_LIMIT,
      ConsistentRead: true,
    }),
  );
  const isKey = (key: unknown): key is Key => typeof (key as Key)?.PK === 'string' && typeof (key as Key).SK === 'string';
  return (page?.Items ?? []).flatMap((entry): JournalName[] => {
    if (Array.isArray(entry.names)) return entry.names.filter((name): name is JournalName => isKey(name) && Array.isArray((name as JournalName).in));
    return isKey(entry.itemKey) ? [{ PK: entry.itemKey.PK, SK: entry.itemKey.SK, in: ['*'] }] : [];
  });
}

/**
 * The journal of a journaled index collection (see the file header); `undefined` for other
 * collections, which cost nothing more. The collections of one read sharing a journal read it
 * once; each loads the items named in its own partition (`getMany`, passed in by `query.ts`: no
 * import circle; the loads of one turn are one consistent BatchGetItem).
 */
export async function recentWrites(
  collection: Collection,
  options: { ascending: boolean; startAfter?: Item; journals?: JournalReads },
  getMany: (keyList: Key[]) => Promise<Item[]>,
  now = Date.now(),
): Promise<RecentWrites | undefined> {
  if (!collection.index || !isJournaled(collection.partitionValue)) return undefined;
  const journalKey = journalKeyOf(collection.partitionValue);
  // The partitions of one list read together share their journal's reading (`options.journals`).
  let reading = options.journals?.get(journalKey);
  if (!reading) {
    reading = readJournal(journalKey, now);
    options.journals?.set(journalKey, reading);
  }
  const { partitionAttribute: pa, partitionValue: pv, sortAttribute: sa } = collection;
  const named = (await reading).filter((name) => name.in.includes(pv) || name.in.includes('*'));
  if (named.length === 0) return undefined;
  const touched = new Set(named.map(itemKeyString));
  const items = await getMany([...new Map(named.map((name) => [itemKeyString(name), { PK: name.PK, SK: name.SK }])).values()]);
  const start = options.startAfter?.[sa] as string | undefined;
  const fresh = items
    .filter((item) => item[pa] === pv && inRange(collection, item[sa]))
    .filter((item) => start === undefined || (options.ascending ? item[sa] > start : item[sa] < start))
    .sort((a, b) => (options.ascending ? 1 : -1) * (a[sa] < b[sa] ? -1 : a[sa] > b[sa] ? 1 : 0));
  return { fresh, touched };
}
