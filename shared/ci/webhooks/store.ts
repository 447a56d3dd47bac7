/** The CI hooks' one write: an outbox item prepared by the hooks feature's `prepareHookEvent`, put alone (see `emit.ts`). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../platform/dynamo/client';
import type { Item } from '../../platform/dynamo/query';

export async function putHookEvent(put: { Put: { TableName: string; Item: Item } }): Promise<void> {
  await db().send(new PutCommand(put.Put));
}
