/** Secondary emails: in their owner's partition, unique (case-insensitively) with every primary email too. */
import { nextId } from '../../platform/dynamo/counters';
import { userCollections, userKeys } from './keys';
import { getItem, queryAll, isId } from '../../platform/dynamo/query';
import { deleteChild, insertChild, type ChildInsertResult } from './children';
import { entityFields } from '../../platform/dynamo/items';

export interface Email {
  id: number;
  userId: number;
  email: string;
  createdAt: string;
}

const fromItem = (item: Record<string, unknown>) => entityFields(item) as Email;

export async function insertEmail(userId: number, email: string): Promise<{ result: ChildInsertResult; email: Email }> {
  const record: Email = { id: await nextId('emails'), userId, email, createdAt: new Date().toISOString() };
  const result = await insertChild(userId, userKeys.email(userId, record.id), { type: 'Email', ...record }, [
    userKeys.claims.email(email),
  ]);
  return { result, email: record };
}

export async function listEmails(userId: number): Promise<Email[]> {
  return (await queryAll(userCollections.userEmails(userId))).map(fromItem);
}

export async function getEmail(userId: number, emailId: number): Promise<Email | undefined> {
  if (!isId(emailId)) return undefined;
  const item = await getItem(userKeys.email(userId, emailId));
  return item ? fromItem(item) : undefined;
}

export async function deleteEmail(userId: number, emailId: number): Promise<Email | undefined> {
  if (!isId(emailId)) return undefined;
  const item = await deleteChild(userKeys.email(userId, emailId));
  return item ? fromItem(item) : undefined;
}
