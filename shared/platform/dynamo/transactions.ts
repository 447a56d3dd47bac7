import {
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { getMany, putMany } from './batch';
import { db, tableName } from './client';
import { ifConditionHolds } from './conditional';
import { isJournaling, journalEntries, mayBeIndexed, touchesIndexKeys, updatedIndexPartitions } from './recent';
import type { Key } from './keys';
import type { Item } from './query';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * A Put of `item` conditioned on the version read before (optimistic locking), or, without one,
 * on the item not existing yet: the write of a version-carrying entity. `previous` is the item as
 * read at that version (the transaction then knows the index partitions it leaves without
 * reading it again: {@link heldAs}).
 */
export function versionedPut(tableName: string, item: Record<string, unknown>, previousVersion?: number, previous?: Item): TransactItem {
  const put = {
    Put: {
      TableName: tableName,
      Item: item,
      ...(previousVersion !== undefined
        ? {
            ConditionExpression: '#version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':version': previousVersion },
          }
        : { ConditionExpression: 'attribute_not_exists(PK)' }),
    },
  };
  return previous && previousVersion !== undefined ? heldAs(put, previous) : put;
}

/** A Delete of the item at `key` conditioned on the version read (optimistic locking). */
export function versionedDelete(tableName: string, key: Record<string, unknown>, version: number) {
  return {
    Delete: {
      TableName: tableName,
      Key: key,
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': version },
    },
  };
}

/** One operation of a transaction (Put, Update, Delete or ConditionCheck). */
export type TransactItem = TransactItems[number];

/**
 * The operations of a transaction, by name: each entry is one operation, a list of operations
 * that fail together under the entry's name, or nothing (`undefined`/`false`: left out), so a
 * transaction reads as what it writes and a failure says which entry it was.
 *
 * @example
 * await transact({ project: projectIsLive(id), label: putLabel(label), name: putClaim(nameKey, { labelId }) });
 */
export type NamedTransactItems = Record<string, TransactItem | readonly TransactItem[] | undefined | false>;

/** A transaction whose conditions failed; `failed` names the entries whose conditions did not hold. */
export class ConditionFailed extends Error {
  constructor(readonly failed: string[]) {
    super(`transaction condition failed: ${failed.join(', ')}`);
    this.name = 'ConditionFailed';
  }

  /** Whether the condition of the named entry (any operation of it) failed. */
  failedOn(...names: string[]): boolean {
    return names.some((name) => this.failed.includes(name));
  }
}

const MAX_ATTEMPTS = 8;
/** TransactWriteItems' limit on operations. */
const MAX_TRANSACTION_ITEMS = 100;
/** Cancellation reasons that a later attempt can succeed past. */
const RETRYABLE = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Writes all named entries atomically. Conflicts with another transaction on the same item (e.g.
 * two users created at once both updating the users' stats item) and throttling are retried with
 * jittered backoff; failed conditions are reported as {@link ConditionFailed} with the
 * names of the failing entries, so the caller can tell which claim was taken or which parent was
 * gone.
 */
export async function transact(entries: NamedTransactItems): Promise<void> {
  const items: TransactItem[] = [];
  const names: string[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    if (!entry) continue;
    for (const item of Array.isArray(entry) ? (entry as readonly TransactItem[]) : [entry as TransactItem]) {
      items.push(item);
      names.push(name);
    }
  }
  // Journal entries of the items written to read-your-writes index partitions (`recent.ts`), in
  // the transaction itself when they fit (else written once it succeeded, before the writer is
  // answered): a refused write writes nothing, and the writer (and whoever it tells) finds its
  // write in those lists. The partitions the items it replaces, moves or deletes leave are
  // journaled too (their versions before it, as their writers hold them or read with one
  // consistent BatchGetItem first), so those lists stop showing them at once.
  const written = items.flatMap((item) => {
    const put = item.Put?.Item ?? (item.Update ? updatedIndexPartitions(item.Update) : undefined);
    return put ? [put] : [];
  });
  const left = await previousVersions(items);
  for (let attempt = 1; ; attempt++) {
    // The journal rides in the transaction when it fits (one round trip less), else follows it.
    const journal = journalEntries([...written, ...left]);
    const inside = items.length + journal.length <= MAX_TRANSACTION_ITEMS;
    const sent = inside ? [...items, ...journal.map((item): TransactItem => ({ Put: { TableName: tableName(), Item: item } }))] : items;
    try {
      await db().send(new TransactWriteCommand({ TransactItems: sent }));
      if (!inside) await putMany(journal);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) && (error as Error).name !== 'TransactionCanceledException') {
        throw error;
      }
      const reasons: CancellationReason[] = (error as TransactionCanceledException).CancellationReasons ?? [];
      const failed = [...new Set(reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [names[i] ?? String(i)] : [])))];
      if (failed.length > 0) throw new ConditionFailed(failed);
      const retryable = reasons.length === 0 || reasons.some((r) => RETRYABLE.has(r.Code ?? ''));
      if (!retryable || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}

/**
 * {@link transact}, with its failed conditions as results: the failure of the first entry of
 * `failures` (in that order) whose condition failed, else `otherwise`; `undefined` when everything
 * was written. Without `otherwise`, a failed condition of an entry not listed is thrown, as other
 * errors are.
 *
 * @example
 * const failure = await transactOr({ project: projectIsLive(id), label: put }, [['project', 'project_gone']], 'name_taken');
 */
export async function transactOr<F>(entries: NamedTransactItems, failures: ReadonlyArray<readonly [entry: string, failure: F]>, otherwise?: F): Promise<F | undefined> {
  try {
    await transact(entries);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const failure = failures.find(([entry]) => error.failedOn(entry));
    if (failure) return failure[1];
    if (otherwise === undefined) throw error;
    return otherwise;
  }
}

/**
 * Whether a Put replaces an item whose earlier version may sit in other index partitions: a Put
 * conditioned on that version (`#version = :v` and the like). An unconditioned Put writes a new
 * item (a fresh id: an event, a list or search entry), as does one conditioned on the key not
 * existing; reading their "previous versions" would cost every create a round trip for nothing.
 */
const mayReplace = (put: NonNullable<TransactItem['Put']>): boolean =>
  put.ConditionExpression !== undefined && !/^\s*attribute_not_exists\((PK|SK)\)\s*$/.test(put.ConditionExpression);

/** Images of items as their writers hold them, by the operation that changes them ({@link heldAs}). */
const heldImages = new WeakMap<TransactItem, Item>();

/**
 * Tells {@link transact} what the item `operation` changes looked like when its writer read it
 * (in this request): its key and index attributes (`GSIn…`). The partitions it leaves are then
 * journaled from that image instead of reading the item again. An image older than the item is
 * harmless: a journal entry only makes readers re-read the item it names and place it where it
 * is now, and whatever moved it meanwhile journaled its own partitions.
 *
 * @example
 * const update = heldAs({ Update: { Key: key, UpdateExpression: 'SET GSI4SK = :at' } }, issueToItem(issue));
 */
export function heldAs<T extends TransactItem>(operation: T, image: Item): T {
  heldImages.set(operation, image);
  return operation;
}

/**
 * The items as they are before a transaction that may take them out of index partitions or move
 * them in one (deletes, updates of index key attributes, replacing puts): as their writers hold
 * them ({@link heldAs}), the others read with one consistent BatchGetItem, only when
 * read-your-writes partitions are declared and there are such items.
 */
async function previousVersions(items: readonly TransactItem[]): Promise<Item[]> {
  if (!isJournaling()) return [];
  const held: Item[] = [];
  const keyList = items.flatMap((item): Key[] => {
    const key = item.Delete?.Key ?? (item.Update && touchesIndexKeys(item.Update) ? item.Update.Key : undefined) ?? (item.Put && mayReplace(item.Put) ? item.Put.Item : undefined);
    if (typeof key?.PK !== 'string' || typeof key.SK !== 'string' || !mayBeIndexed({ PK: key.PK })) return [];
    const image = heldImages.get(item);
    if (image) held.push({ ...image, PK: key.PK, SK: key.SK });
    return image ? [] : [{ PK: key.PK, SK: key.SK }];
  });
  return keyList.length > 0 ? [...held, ...(await getMany(keyList))] : held;
}

/**
 * Replaces an entity written whole (`item`, its index attributes with it) if the stored one is
 * still at `previous.version` (optimistic locking), then journals the index partitions it enters
 * and `previous` leaves ({@link journalWrite}). False when another writer was first.
 */
export async function putAtVersion(item: Item, previous: Item): Promise<boolean> {
  const written = await ifConditionHolds(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': previous.version },
      }),
    ),
  );
  if (!written) return false;
  await journalWrite([item], [previous]);
  return true;
}

/**
 * Journals a write made outside {@link transact} (a single PutItem, UpdateItem or DeleteItem that
 * must show at once in read-your-writes index lists, `recent.ts`): `written` are the items as
 * written (or their key and new index partition attributes), `left` their versions before the
 * write (known to the writer, or returned by `ReturnValues: 'ALL_OLD'`), whose partitions they
 * may have left. Call it once the write succeeded, before answering.
 */
export async function journalWrite(written: readonly Item[], left: readonly (Item | undefined)[] = []): Promise<void> {
  const journal = journalEntries([...written, ...left.filter((item): item is Item => item !== undefined)]);
  if (journal.length > 0) await putMany(journal);
}
