import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { keys } from './keys';

/**
 * Next value of a named id sequence (`users`, `ssh_keys`, ...), from one atomic `ADD` on the
 * counter item. Values are unique under any concurrency; a failed create leaves a gap, as
 * database sequences do.
 */
export async function nextId(sequence: string): Promise<number> {
  const result = await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}
