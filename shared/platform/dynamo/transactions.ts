import {
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client';

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

/** A transaction whose conditions failed; `failed` lists the indexes of the items that failed. */
export class TransactionConditionFailed extends Error {
  constructor(readonly failed: number[]) {
    super(`transaction condition failed at ${failed.join(', ')}`);
    this.name = 'TransactionConditionFailed';
  }
}

const MAX_ATTEMPTS = 8;
/** Cancellation reasons that a later attempt can succeed past. */
const RETRYABLE = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Writes all items atomically. Conflicts with another transaction on the same item (e.g. two
 * users created at once both updating the users' stats item) and throttling are retried with
 * jittered backoff;
 * failed conditions are reported as {@link TransactionConditionFailed} with the failing indexes
 * so the caller can tell which uniqueness claim was taken.
 */
export async function transactWrite(items: TransactItems): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) && (error as Error).name !== 'TransactionCanceledException') {
        throw error;
      }
      const reasons: CancellationReason[] = (error as TransactionCanceledException).CancellationReasons ?? [];
      const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
      if (failed.length > 0) throw new TransactionConditionFailed(failed);
      const retryable = reasons.length === 0 || reasons.some((r) => RETRYABLE.has(r.Code ?? ''));
      if (!retryable || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}
