/** The push feature's one write of its own: a hook event put alone (a push has no transaction to put it in). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../platform/dynamo/client';
import type { Item } from '../../platform/dynamo/query';

/** Writes a hook event prepared by the hooks feature's `prepareHookEvent`. */
export async function putHookEvent(put: { Put: { TableName: string; Item: Item } }): Promise<void> {
  await db().send(new PutCommand(put.Put));
}
