import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch';
import { config } from '../config';
import { db } from './client';
import { ifConditionHolds } from './conditional';
import { keys } from './keys';

/**
 * Id sequences. Values are unique under any concurrency (atomic `ADD`); a failed create leaves a
 * gap, as database sequences do.
 *
 * - A global sequence (`users`, `events`, `hook_events`…: a name without `#`) is one attribute of
 *   the shared counter item `COUNTER#ids`. Every request of this process asking for ids in the
 *   same turn of the event loop (a create asks for its id, its event's, its webhook event's… at
 *   once) is served by ONE `UpdateItem` of that item, `ADD` of each sequence's count, returning
 *   the new totals: one round trip instead of one per sequence.
 * - A per-parent sequence (`issues#<project id>`: an iid) stays one item per sequence
 *   (`COUNTER#<name>`, attribute `value`); requests of the same one in one turn are served by one
 *   `ADD` too.
 *
 * Tables written before the shared item existed hold each global sequence in its own item. The
 * first allocation of a sequence missing from the shared item fails its `attribute_exists`
 * condition; the sequence is then seeded from its own item (consistent read) plus
 * {@link SEED_MARGIN}, which covers ids that a previous version of the code, still finishing
 * requests during a deploy, may take from the old item meanwhile; a sequence never used starts
 * at 0. The old items are not written again.
 *
 * One item takes every create of the service: DynamoDB serves about 1,000 writes a second to one
 * item, shared here by all requests of a turn (one write for many ids). The per-sequence items it
 * replaces had that ceiling each, and `events` alone took one write per recorded event.
 */
const SHARED_ITEM = 'ids';
export const SEED_MARGIN = 1000;

interface Request {
  sequence: string;
  count: number;
  resolve: (ids: number[]) => void;
  reject: (error: unknown) => void;
}

/** The requests of this turn, flushed together (`setImmediate`). */
let pending: Request[] = [];

/** Next value of a named id sequence (`users`, `ssh_keys`, `issues#7`...). */
export async function nextId(sequence: string): Promise<number> {
  return (await nextIds(sequence, 1))[0];
}

/** `count` consecutive values of a sequence (e.g. the ids of notes copied together). */
export function nextIds(sequence: string, count: number): Promise<number[]> {
  if (count === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ sequence, count, resolve, reject });
  });
}

const isShared = (sequence: string) => !sequence.includes('#');

function flush(): void {
  const requests = pending;
  pending = [];
  const byItem = new Map<string, Request[]>();
  for (const request of requests) {
    const item = isShared(request.sequence) ? SHARED_ITEM : request.sequence;
    byItem.set(item, [...(byItem.get(item) ?? []), request]);
  }
  for (const [item, group] of byItem) {
    const totals = new Map<string, number>();
    for (const { sequence, count } of group) totals.set(sequence, (totals.get(sequence) ?? 0) + count);
    const allocation = item === SHARED_ITEM ? addShared(totals) : addOwn(item, totals.get(item)!).then((last) => new Map([[item, last]]));
    allocation.then(
      (lasts) => handOut(group, lasts),
      (error) => group.forEach(({ reject }) => reject(error)),
    );
  }
}

/** Gives each request its values, from the new totals: the last request of a sequence gets the highest. */
function handOut(group: Request[], lasts: Map<string, number>): void {
  const next = new Map<string, number>();
  for (const { sequence, count } of group) next.set(sequence, (next.get(sequence) ?? 0) + count);
  for (const [sequence, total] of next) next.set(sequence, lasts.get(sequence)! - total + 1);
  for (const request of group) {
    const first = next.get(request.sequence)!;
    next.set(request.sequence, first + request.count);
    request.resolve(Array.from({ length: request.count }, (_, i) => first + i));
  }
}

/** One `ADD` on a sequence's own item; the new total. */
async function addOwn(sequence: string, count: number): Promise<number> {
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
  return Number(result.Attributes?.value);
}

/** One `ADD` of every count on the shared item (each sequence already there); the new totals. */
async function addShared(totals: Map<string, number>, seeded = false): Promise<Map<string, number>> {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds: string[] = [];
  const exist: string[] = [];
  [...totals].forEach(([sequence, count], i) => {
    names[`#s${i}`] = sequence;
    values[`:c${i}`] = count;
    adds.push(`#s${i} :c${i}`);
    exist.push(`attribute_exists(#s${i})`);
  });
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.counter(SHARED_ITEM),
        UpdateExpression: `ADD ${adds.join(', ')}`,
        ConditionExpression: exist.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  if (result) return new Map([...totals.keys()].map((sequence) => [sequence, Number(result.Attributes?.[sequence])]));
  // A sequence is not on the shared item yet: seeded, then added again (seeding never removes one).
  if (seeded) throw new Error(`counters: ${[...totals.keys()].join(', ')} still missing from the shared item after seeding`);
  await seed([...totals.keys()]);
  return addShared(totals, true);
}

/**
 * Puts the sequences missing from the shared item there, each at its own old item's value (plus
 * {@link SEED_MARGIN} when it has one), never lowering one a concurrent seeder put first.
 */
async function seed(sequences: string[]): Promise<void> {
  const old = new Map((await getMany(sequences.map((sequence) => keys.counter(sequence)))).map((item) => [String(item.PK), Number(item.value)]));
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const sets = sequences.map((sequence, i) => {
    names[`#s${i}`] = sequence;
    const before = old.get(keys.counter(sequence).PK);
    values[`:v${i}`] = before === undefined ? 0 : before + SEED_MARGIN;
    return `#s${i} = if_not_exists(#s${i}, :v${i})`;
  });
  await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.counter(SHARED_ITEM),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}
