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
  return (await nextIds(sequence, 1))[0];
}

/** `count` consecutive values of a sequence, in one `ADD` (e.g. the ids of notes copied together). */
export async function nextIds(sequence: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const result = await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
