/**
 * Data migrations run once per table: the bootstrap (the stack's custom resource, on every
 * deploy) runs each named step unless its `MIGRATION#<name>` record says it ran. A step must be
 * idempotent: one interrupted before its record is written runs again on the next deploy.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys } from './keys';
import { getItem } from './query';

/** Internal: whether the migration's record is in the table (a consistent point read). */
const recorded = async (name: string): Promise<boolean> => (await getItem(keys.migration(name))) !== undefined;

/**
 * Runs `step` unless it already ran on this table, then records it.
 * @returns what the step reported (e.g. how many items it saw), or `undefined` when skipped.
 */
export async function runOnce(name: string, step: () => Promise<number>): Promise<number | undefined> {
  if (await recorded(name)) return undefined;
  const count = await step();
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.migration(name), type: 'Migration', name, count, ranAt: new Date().toISOString() } }));
  return count;
}

/** Migrations this process has seen recorded: a migration never un-runs, so each is read until it has. */
const seenRun = new Set<string>();

/**
 * Whether the data migration `name` has run on this table (its record, read consistently until
 * it exists, then remembered): lets a reader keep to the old way while a deploy's migration is
 * still under way.
 */
export async function hasRun(name: string): Promise<boolean> {
  if (seenRun.has(name)) return true;
  const done = await recorded(name);
  if (done) seenRun.add(name);
  return done;
}
