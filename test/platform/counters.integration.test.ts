/**
 * Id sequences (`shared/platform/dynamo/counters.ts`) on the local runtime's DynamoDB: the ids a
 * request asks for in one turn come from one UpdateItem, stay unique under concurrency, and a
 * table written before the shared counter item existed goes on past its old counters. The data
 * layer is called in the test process, against the same table (local runtime only).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { nextId, nextIds, SEED_MARGIN } from '../../shared/platform/dynamo/counters';
import { getItem } from '../../shared/platform/dynamo/query';
import { keys } from '../../shared/platform/dynamo/keys';
import { isLocalRuntime } from '../support/api';
import { unique } from '../support/fixtures';

/** Names of global sequences (no `#`) no other test uses. */
const sequenceName = () => unique('seq').replace(/[^a-z0-9]/gi, '_').toLowerCase();

describe.runIf(isLocalRuntime())('id sequences', () => {
  const calls: string[] = [];
  beforeAll(() => {
    db().middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(String((context as { commandName?: string }).commandName));
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
  });
  const callsDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; calls: string[] }> => {
    const start = calls.length;
    const result = await work();
    return { result, calls: calls.slice(start) };
  };

  it('serves the ids of several sequences asked for in one turn with one UpdateItem', async () => {
    // Arrange: the sequences exist (their first use seeds them, costing more calls once)
    const [a, b, c] = [sequenceName(), sequenceName(), sequenceName()];
    await Promise.all([nextId(a), nextId(b), nextId(c)]);

    // Act
    const { result, calls: made } = await callsDuring(() => Promise.all([nextId(a), nextIds(b, 3), nextId(c), nextId(a)]));

    // Assert
    expect(made).toEqual(['UpdateItemCommand']);
    expect(result).toEqual([2, [2, 3, 4], 2, 3]);
  });

  it('starts a sequence never used at 1, and keeps a per-parent sequence (`name#id`) in its own item', async () => {
    // Arrange
    const name = sequenceName();

    // Act
    const [first, iid] = await Promise.all([nextId(name), nextId(`${name}#7`)]);

    // Assert
    expect(first).toBe(1);
    expect(iid).toBe(1);
    expect(await getItem(keys.counter(`${name}#7`))).toMatchObject({ value: 1 });
    expect(await getItem(keys.counter(name))).toBeUndefined();
  });

  it('hands out unique ids to many writers at once, each turn in one call', async () => {
    // Arrange
    const [a, b] = [sequenceName(), sequenceName()];

    // Act: 40 writers, each asking in its own turn after a random pause
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
        return Promise.all([nextId(a), nextIds(b, 1 + (i % 3))]);
      }),
    );

    // Assert: no id twice, none skipped
    const aIds = ids.map(([id]) => id).sort((x, y) => x - y);
    const bIds = ids.flatMap(([, block]) => block).sort((x, y) => x - y);
    expect(aIds).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(bIds).toEqual(Array.from({ length: bIds.length }, (_, i) => i + 1));
    for (const [, block] of ids) expect(block).toEqual(Array.from({ length: block.length }, (_, i) => block[0] + i));
  });

  it('goes on past a sequence kept in its own item by an earlier version, with a margin for ids it may still hand out', async () => {
    // Arrange: an old counter item at 41
    const name = sequenceName();
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.counter(name), value: 41 } }));

    // Act
    const ids = await Promise.all([nextId(name), nextId(name)]);

    // Assert: past the old values, and the old item is left as it was
    expect(ids).toEqual([41 + SEED_MARGIN + 1, 41 + SEED_MARGIN + 2]);
    expect(await getItem(keys.counter(name))).toMatchObject({ value: 41 });
  });
});
