import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import type { Key } from './keys';

/**
 * Awaits a conditional write, answering `undefined` instead of throwing when its condition did not
 * hold (the item was gone, already in the wanted state, ...): the caller decides what that means.
 */
export async function ifConditionHolds<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/**
 * Marks an item as being deleted: reads then treat it as gone, and writes of its children check
 * against the mark, so a deletion that walks the children can't leave orphans behind.
 * @returns false when the item does not exist or `condition` does not hold.
 */
export async function markDeleting(key: Key, condition = 'attribute_exists(PK)', values: Record<string, unknown> = {}): Promise<boolean> {
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: key,
        UpdateExpression: 'SET deleting = :true',
        ConditionExpression: condition,
        ExpressionAttributeValues: { ':true': true, ...values },
      }),
    ),
  );
  return result !== undefined;
}
