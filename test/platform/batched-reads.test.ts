/**
 * Point reads of one turn share one BatchGetItem (`shared/platform/dynamo/batch.ts`): what each
 * caller gets back is exactly the items of its own keys, whoever else read in that turn; a lone
 * read stays a GetItem; a failed batch fails every read in it and no other. A mocked table answers,
 * to count the calls and to fail one on demand.
 */
import { BatchGetCommand, GetCommand, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { getMany } from '../../shared/platform/dynamo/batch';
import type { Key } from '../../shared/platform/dynamo/keys';
import { getItem } from '../../shared/platform/dynamo/query';
import { useMockedTable } from '../support/mocked-table';

const mock = useMockedTable('batched-reads-test');

const key = (n: number): Key => ({ PK: `THING#${n}`, SK: 'THING' });
const item = (n: number) => ({ ...key(n), n });

/** Answers every BatchGetItem with the items of the keys asked for that `exists`. */
function answerBatches(exists: (n: number) => boolean = () => true): void {
  mock.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const [[table, { Keys }]] = Object.entries(input.RequestItems!);
    const found = (Keys ?? []).map((k) => Number(String(k.PK).slice('THING#'.length))).filter(exists).map(item);
    return { Responses: { [table]: found } };
  });
}

const keysAsked = () => mock.commandCalls(BatchGetCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0].Keys!.length);

describe('point reads of one turn', () => {
  it('go out as one BatchGetItem, each caller getting the items of its own keys', async () => {
    answerBatches((n) => n !== 3);

    const [one, two, many, missing] = await Promise.all([getItem(key(1)), getItem(key(2)), getMany([key(2), key(4), key(5)]), getItem(key(3))]);

    expect(one).toEqual(item(1));
    expect(two).toEqual(item(2));
    expect(many.map((found) => found.n).sort()).toEqual([2, 4, 5]);
    expect(missing).toBeUndefined();
    expect(keysAsked()).toEqual([5]);
    expect(mock.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads a lone item with GetItem, and reads of later turns apart', async () => {
    mock.on(GetCommand).callsFake((input) => ({ Item: item(Number(String(input.Key.PK).slice('THING#'.length))) }));

    expect(await getItem(key(7))).toEqual(item(7));
    expect(await getItem(key(8))).toEqual(item(8));

    expect(mock.commandCalls(GetCommand)).toHaveLength(2);
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('returns an item once however often its key is given', async () => {
    answerBatches();

    const items = await getMany([key(1), key(1), key(2)]);

    expect(items.map((found) => found.n).sort()).toEqual([1, 2]);
    expect(keysAsked()).toEqual([2]);
  });

  it('reads eventually consistent reads in a batch of their own', async () => {
    answerBatches();

    await Promise.all([getMany([key(1)], { consistent: false }), getMany([key(2)]), getItem(key(3))]);

    const batches = mock.commandCalls(BatchGetCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0]);
    expect(batches.map((batch) => [batch.ConsistentRead, batch.Keys!.length]).sort()).toEqual([
      [false, 1],
      [true, 2],
    ]);
  });

  it('sends more than 100 keys in chunks of 100 and joins what they found', async () => {
    answerBatches();

    const [first, second] = await Promise.all([getMany(Array.from({ length: 150 }, (_, i) => key(i))), getMany(Array.from({ length: 60 }, (_, i) => key(1000 + i)))]);

    expect(first).toHaveLength(150);
    expect(second).toHaveLength(60);
    expect(keysAsked().sort()).toEqual([10, 100, 100]);
  });

  it('fails every read of a failed batch, and not the reads of the next turn', async () => {
    mock.on(BatchGetCommand).rejectsOnce(new Error('throttled for good'));

    const reads = await Promise.allSettled([getItem(key(1)), getMany([key(2)])]);
    expect(reads.map((read) => read.status)).toEqual(['rejected', 'rejected']);

    answerBatches();
    expect((await Promise.all([getItem(key(1)), getItem(key(2))])).map((found) => found?.n)).toEqual([1, 2]);
  });
});
