import {
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { putMany } from './batch';
import { db } from './client';
import { journalEntries, updatedIndexPartitions } from './recent';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * A Put of `item` conditioned on the version read before (optimistic locking), or, without one,
 * on the item not existing yet: the write of a version-carrying entity.
 */
export function versionedPut(tableName: string, item: Record<string, unknown>, previousVersion?: number) {
  return {
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
  // Journal entries of the items written to read-your-writes index partitions (`recent.ts`),
  // written once the transaction succeeded, before the writer is answered: a refused write writes
  // nothing, and the writer (and whoever it tells) finds its write in those lists.
  const journal = journalEntries(
    items.flatMap((item) => {
      const written = item.Put?.Item ?? (item.Update ? updatedIndexPartitions(item.Update) : undefined);
      return written ? [written] : [];
    }),
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      if (journal.length > 0) await putMany(journal);
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
