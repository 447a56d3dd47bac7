/** Secondary emails: in their owner's partition, unique (case-insensitively) with every primary email too. */
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import type { Item } from '../../platform/dynamo/query';
import { childAccess, insertChild, type ChildInsertResult } from './children';
import { userCollections, userKeys } from './keys';

export interface Email {
  id: number;
  userId: number;
  email: string;
  createdAt: string;
}

const fromItem = (item: Item) => entityFields(item) as Email;

export async function insertEmail(userId: number, email: string): Promise<{ result: ChildInsertResult; email: Email }> {
  const record: Email = { id: await nextId('emails'), userId, email, createdAt: new Date().toISOString() };
  const result = await insertChild(userId, userKeys.email(userId, record.id), { type: 'Email', ...record }, [
    userKeys.claims.email(email),
  ]);
  return { result, email: record };
}

const emails = childAccess({ key: userKeys.email, collection: userCollections.userEmails, fromItem });

/** A user's secondary emails, by id. */
export const listEmails = emails.list;
/** One secondary email of a user, or undefined. */
export const getEmail = emails.get;
/** Deletes a secondary email and its claim; returns it, or undefined when it was not there. */
export const deleteEmail = emails.remove;
