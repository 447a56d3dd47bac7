/**
 * Data migrations run once per table: the bootstrap (the stack's custom resource, on every
 * deploy) runs each named step unless its `MIGRATION#<name>` record says it ran, and the jobs
 * worker finishes what a deploy's run had no time for. A step must be idempotent: one interrupted
 * before its record is written runs again.
 *
 * A run may stop part way and the next one resumes: a step reports its progress through
 * {@link MigrationRun.checkpoint} (e.g. after each project, the last project done), kept in the
 * migration's progress item with a lease. One run at a time works on a migration: it holds the
 * lease, renewed at each checkpoint, for longer than a Lambda can run, so only a dead run's lease
 * runs out; a run that stops, fails or finishes gives it back.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../logger';
import { db, tableName } from './client';
import { ifConditionHolds } from './conditional';
import { keys, type Key } from './keys';
import { getItem } from './query';
import { setAttributes } from './items';
import { transactOr } from './transactions';

/** How long a run holds a migration without a checkpoint: longer than a Lambda runs (15 min). */
export const MIGRATION_LEASE_MS = 16 * 60_000;
/** The least time between two checkpoint writes (progress lost by a crash, at most). */
export const CHECKPOINT_MS = 10_000;

/** What a step sees of its run. */
export interface MigrationRun {
  /** Where the last run of this migration stopped: its last checkpoint, and the items seen until then. */
  readonly resumed?: { after: string; items: number };
  /**
   * Records that everything up to `after` is done, `items` seen so far (written at most every
   * {@link CHECKPOINT_MS}, and always when the time is up). False when the step must return
   * `undefined` now: its run's time is up, or another run took the migration over.
   */
  checkpoint(after: string, items: number): Promise<boolean>;
}

/** A migration: the items it saw, or `undefined` when it stopped at a checkpoint that said so. */
export type MigrationStep = (run: MigrationRun) => Promise<number | undefined>;

/** What one run of a migration came to. */
export type MigrationOutcome =
  | { ran: number }
  /** It had run on this table before. */
  | 'skipped'
  /** Its time was up: the progress is kept, the next run resumes. */
  | 'stopped'
  /** Another run is working on it (holds its lease). */
  | 'busy';

export interface MigrationOptions {
  /** Whether the run should stop at its next checkpoint (the invocation's time is nearly up). Never, by default. */
  timeUp?: () => boolean;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * A migration over a list in id order (an index sorted by padded id): `list(after)` yields what
 * comes after that id, `step` migrates one and says how many items it changed; a checkpoint after
 * each, so a run stopped part way resumes after the last one it finished.
 */
export const eachInIdOrder =
  <T>(list: (after?: number) => AsyncIterable<T>, idOf: (each: T) => number, step: (each: T) => Promise<number>): MigrationStep =>
  async (run) => {
    let items = run.resumed?.items ?? 0;
    for await (const each of list(run.resumed ? Number(run.resumed.after) : undefined)) {
      items += await step(each);
      if (!(await run.checkpoint(String(idOf(each)), items))) return undefined;
    }
    return items;
  };

/** Internal: whether the migration's record is in the table (a consistent point read). */
const recorded = async (name: string): Promise<boolean> => (await getItem(keys.migration(name))) !== undefined;

/**
 * Runs `step` unless it already ran on this table, resuming where an earlier run stopped, and
 * records it once the step returns its count.
 */
export async function runOnce(name: string, step: MigrationStep, options: MigrationOptions = {}): Promise<MigrationOutcome> {
  if (await recorded(name)) return 'skipped';
  const now = options.now ?? Date.now;
  const timeUp = options.timeUp ?? (() => false);
  const runner = randomUUID();
  const progressKey = keys.migrationProgress(name);
  const leaseUntil = () => new Date(now() + MIGRATION_LEASE_MS).toISOString();

  const claimed = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: progressKey,
        UpdateExpression: 'SET #type = :type, migration = :name, runner = :runner, leaseUntil = :until',
        ConditionExpression: 'attribute_not_exists(runner) OR leaseUntil < :now',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'MigrationProgress', ':name': name, ':runner': runner, ':until': leaseUntil(), ':now': new Date(now()).toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!claimed?.Attributes) return 'busy';
  // The record may have been written by a run that finished between the read above and the claim.
  if (await recorded(name)) {
    await release(progressKey, runner);
    return 'skipped';
  }
  const previous = claimed.Attributes;
  const resumed = typeof previous.after === 'string' ? { after: previous.after, items: Number(previous.items ?? 0) } : undefined;
  if (resumed) logger.info('migration resumed', { migration: name, ...resumed });

  let lost = false;
  let stopped = false;
  let lastWrite = now();
  const run: MigrationRun = {
    resumed,
    async checkpoint(after, items) {
      const stop = timeUp();
      if (!stop && now() - lastWrite < CHECKPOINT_MS) return true;
      lastWrite = now();
      const held = await ifConditionHolds(
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: progressKey,
            // A run that stops here gives the migration back: the next one need not wait for the lease.
            UpdateExpression: `SET #after = :after, #items = :items, leaseUntil = :until${stop ? ' REMOVE runner' : ''}`,
            ConditionExpression: 'runner = :runner',
            ExpressionAttributeNames: { '#after': 'after', '#items': 'items' },
            ExpressionAttributeValues: { ':after': after, ':items': items, ':until': leaseUntil(), ':runner': runner },
          }),
        ),
      );
      logger.info('migration progress', { migration: name, after, items, ...(stop ? { stopping: true } : {}) });
      lost = held === undefined;
      stopped = stop;
      return !lost && !stop;
    },
  };

  let items: number | undefined;
  try {
    items = await step(run);
  } catch (error) {
    await release(progressKey, runner);
    throw error;
  }
  if (items === undefined) {
    if (lost) return 'busy';
    // A checkpoint that stopped the run gave the migration back already.
    if (!stopped) await release(progressKey, runner);
    return 'stopped';
  }
  // A failed condition: another run took the migration over (this one outlived its lease), and that run records it.
  const failure = await transactOr(
    {
      record: { Put: { TableName: tableName(), Item: { ...keys.migration(name), type: 'Migration', name, count: items, ranAt: new Date(now()).toISOString() } } },
      progress: {
        Delete: { TableName: tableName(), Key: progressKey, ConditionExpression: 'runner = :runner', ExpressionAttributeValues: { ':runner': runner } },
      },
    },
    [],
    'busy' as const,
  );
  return failure ?? { ran: items };
}

/** Gives a migration back (its progress stays), if this run still holds it. */
async function release(progressKey: ReturnType<typeof keys.migrationProgress>, runner: string): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: progressKey,
        UpdateExpression: 'REMOVE runner',
        ConditionExpression: 'runner = :runner',
        ExpressionAttributeValues: { ':runner': runner },
      }),
    ),
  );
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

/** Forgets the migrations seen recorded (unit tests that share a process: each file's table is its own). */
export function forgetMigrationsSeen(): void {
  seenRun.clear();
}

/**
 * Gives an item written before an index existed its entry there (`entry`: one GSI's `GSI<n>PK` and
 * `GSI<n>SK`), unless it has one already or is gone: an UpdateItem conditioned on both, so a step
 * run again, or racing the item's own writes, changes nothing. Answers whether it wrote.
 */
export async function addIndexEntry(key: Key, entry: Record<string, string>): Promise<boolean> {
  const partition = Object.keys(entry).find((name) => name.endsWith('PK'));
  if (!partition) throw new Error('addIndexEntry: no partition attribute given');
  const written = await ifConditionHolds(
    db().send(new UpdateCommand({ TableName: tableName(), Key: key, ...setAttributes(entry), ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(${partition})` })),
  );
  return written !== undefined;
}
