/**
 * The generic parts of the single table's keys: padding, claim and sequence keys, and the shape of
 * a collection (what one Query reads). Every feature builds its own keys in its
 * `store/keys.ts`, declares the prefixes it owns there (`keySpace`), and lists its access
 * patterns in its ACCESS_PATTERNS.md; a test checks that no two features claim the same prefix.
 */
import type { IndexName } from './table-definition';

/** Zero-padded so that lexicographic sort-key order is numeric order. */
export const pad = (n: number): string => n.toString().padStart(12, '0');

export type Key = { PK: string; SK: string };

/** DynamoDB's largest partition and sort key values, in UTF-8 bytes. */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;

/**
 * Whether a key can name an item at all. A lookup by a client-supplied value too long for a key
 * (a 3,000-character group path, username or header) finds nothing: reads check this instead of
 * letting DynamoDB refuse the request, so every such lookup is a plain "not found".
 */
export function isStorableKey(key: Key): boolean {
  return Buffer.byteLength(key.PK, 'utf8') <= MAX_PARTITION_KEY_BYTES && Buffer.byteLength(key.SK, 'utf8') <= MAX_SORT_KEY_BYTES;
}

/** A uniqueness claim: an item whose existence reserves `value` of a `kind` (e.g. an email). */
export const unique = (kind: string, value: string): Key => ({ PK: `UNIQUE#${kind}#${value}`, SK: 'UNIQUE' });

export const keys = {
  /** Id sequences (`counters.ts`): `ids` holds every global sequence, `<name>#<parent id>` one per-parent sequence. */
  counter: (name: string): Key => ({ PK: `COUNTER#${name}`, SK: 'COUNTER' }),
  /** The record that a data migration ran on this table (`migrations.ts`). */
  migration: (name: string): Key => ({ PK: `MIGRATION#${name}`, SK: 'MIGRATION' }),
  /** Where a data migration's runs have got to, and which run holds it (its lease). */
  migrationProgress: (name: string): Key => ({ PK: `MIGRATION#${name}`, SK: 'PROGRESS' }),
  /** Maintained totals of a collection (e.g. users by state), for X-Total without counting. */
  stats: (name: string): Key => ({ PK: `STATS#${name}`, SK: 'STATS' }),
  /**
   * A journal entry of a write to read-your-writes index partitions (`recent.ts`), by time, then
   * its first item and the write's own token (two writes naming the same item in the same
   * millisecond put two entries, not one over the other).
   */
  recentWrite: (partition: string, at: string, itemPK: string, itemSK: string, write = ''): Key => ({
    PK: `RECENT#${partition}`,
    SK: at ? `${at}#${itemPK}#${itemSK}${write && `#${write}`}` : '',
  }),
} as const;

/** A range of items read by one Query: a partition and an optional sort-key prefix or lower bound. */
export interface Collection {
  index?: IndexName;
  partitionAttribute: string;
  partitionValue: string;
  sortAttribute: string;
  /** Only sort keys starting with this. */
  prefix?: string;
  /** Only sort keys `>=` this. */
  from?: string;
  /** Only sort keys `<` this. */
  below?: string;
}

/** The bounds of a collection sorted by padded id that holds only ids greater than `after` (all when undefined): where a walk resumes. */
export const afterId = (after?: number): Partial<Collection> => (after === undefined ? {} : { from: pad(after + 1) });

export const tableCollection = (pk: string, prefix: string): Collection => ({
  partitionAttribute: 'PK',
  partitionValue: pk,
  sortAttribute: 'SK',
  prefix,
});

export const indexCollection = (index: IndexName, pk: string, extra: Partial<Collection> = {}): Collection => ({
  index,
  partitionAttribute: `${index}PK`,
  partitionValue: pk,
  sortAttribute: `${index}SK`,
  ...extra,
});

/**
 * What one feature's items occupy in the table, declared beside its keys (`keySpace` in each
 * `store/keys.ts`), so a test can check that no two features claim the same prefix.
 */
export interface KeySpace {
  /** Prefixes of the partition keys the feature owns (its entities' partitions and its claims). */
  partitions: readonly string[];
  /** Sort-key prefixes of its items, by the partition prefix they live under (its own or another feature's). */
  sortKeys: Readonly<Record<string, readonly string[]>>;
  /** Partition prefixes it writes to each secondary index. */
  indexPartitions: Readonly<Partial<Record<IndexName, readonly string[]>>>;
  /** Names of its id sequences and maintained totals (`COUNTER#<name>`, `STATS#<name>`), per-project ones as `<name>#`. */
  sequences: readonly string[];
}
