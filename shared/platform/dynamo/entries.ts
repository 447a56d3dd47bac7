/**
 * Derived index entries (search terms, filtered lists): items that name another item and carry
 * the `version` of the write that put them. They are written around the item's own write so they
 * are always a superset of the truth (added before it, removed after it), and a reader checks the
 * named item before trusting an entry. Removal is conditioned on the entry's version so a racing,
 * newer write's entry survives an older write's cleanup.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { ifConditionHolds } from './conditional';
import type { Key } from './keys';

/** Conditional deletes in flight at once. */
const DELETE_CONCURRENCY = 10;

/**
 * Deletes entries unless a write newer than `version` put them again (`version` on the entry
 * above it); without `version`, whatever wrote them (the named item is gone for good).
 */
export async function removeEntriesUpTo(keys: Key[], version = Number.MAX_SAFE_INTEGER): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
    await Promise.all(
      keys.slice(i, i + DELETE_CONCURRENCY).map(({ PK, SK }) =>
        ifConditionHolds(
          db().send(
            new DeleteCommand({
              TableName: tableName(),
              Key: { PK, SK },
              ConditionExpression: 'attribute_not_exists(#version) OR #version <= :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': version },
            }),
          ),
        ),
      ),
    );
  }
}
