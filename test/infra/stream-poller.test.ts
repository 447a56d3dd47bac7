/**
 * The local stand-in for the stream's event source mapping: which records it keeps (the
 * mapping's filter), the event it sends (Lambda's record shape), how it batches and retries, and
 * which shards it reads from where.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  ResourceNotFoundException,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliverInBatches, matchesFilter, startStreamPoller, toLambdaRecord, type StreamHandler } from '../../infra/local/streams';
import { HOOK_EVENT_STREAM_FILTER, HOOK_EVENT_TYPE } from '../../shared/hooks/store/hook-events';
import { createLogger, type Logger } from '../../shared/platform/logger';

const STREAM_ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-01-01T00:00:00.000';

/** Internal: a logger whose lines the test can read. */
function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: () => logger, lines };
  return logger;
}

/** Internal: a Lambda-shaped record with sequence number `n`. */
const record = (n: number): DynamoDBRecord => ({
  eventID: `e${n}`,
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(n).padStart(21, '0') },
});
const records = (count: number) => Array.from({ length: count }, (_, index) => record(index + 1));
const sequence = (event: DynamoDBStreamEvent) => event.Records.map((r) => Number(r.dynamodb?.SequenceNumber));

describe('matchesFilter', () => {
  const hookEvent = { eventName: 'INSERT', dynamodb: { NewImage: { type: { S: HOOK_EVENT_TYPE }, id: { N: '1' } } } };

  it('matches a new hook event item', () => {
    expect(matchesFilter(hookEvent, HOOK_EVENT_STREAM_FILTER)).toBe(true);
  });

  it.each([
    ['a modified hook event', { ...hookEvent, eventName: 'MODIFY' }],
    ['a removed hook event (expired by TTL)', { eventName: 'REMOVE', dynamodb: { OldImage: { type: { S: HOOK_EVENT_TYPE } } } }],
    ['a new item of another type', { eventName: 'INSERT', dynamodb: { NewImage: { type: { S: 'Issue' } } } }],
    ['a new item without type', { eventName: 'INSERT', dynamodb: { NewImage: { PK: { S: 'x' } } } }],
    ['a record without images', { eventName: 'INSERT', dynamodb: {} }],
    ['a type of another attribute kind', { eventName: 'INSERT', dynamodb: { NewImage: { type: { N: '1' } } } }],
  ])('rejects %s', (_name, candidate) => {
    expect(matchesFilter(candidate, HOOK_EVENT_STREAM_FILTER)).toBe(false);
  });

  it('accepts any of the listed values, and a list value with one of them', () => {
    // Prepare
    const pattern = { a: ['x', 'y'], b: { c: [1, true] } };

    // Assess
    expect(matchesFilter({ a: 'y', b: { c: 1 } }, pattern)).toBe(true);
    expect(matchesFilter({ a: ['z', 'x'], b: { c: true } }, pattern)).toBe(true);
    expect(matchesFilter({ a: 'z', b: { c: 1 } }, pattern)).toBe(false);
    expect(matchesFilter({ a: 'x', b: 'c' }, pattern)).toBe(false);
    expect(matchesFilter({ a: 'x', b: { c: '1' } }, pattern)).toBe(false);
  });

  it('refuses content rules it does not implement rather than guessing', () => {
    expect(() => matchesFilter({ a: 'x' }, { a: [{ prefix: 'x' }] } as never)).toThrow(/unsupported filter rule on 'a'/);
  });
});

describe('toLambdaRecord', () => {
  it("shapes a streams API record like Lambda's event record", () => {
    // Prepare
    const raw: _Record = {
      eventID: 'e1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'ddblocal',
      dynamodb: {
        ApproximateCreationDateTime: new Date('2026-01-01T00:00:05.000Z'),
        Keys: { PK: { S: 'PROJECT#1' } },
        NewImage: { PK: { S: 'PROJECT#1' }, data: { B: new Uint8Array([1, 2]) }, list: { L: [{ BS: [new Uint8Array([3])] }] } },
        SequenceNumber: '000000000000000000001',
        SizeBytes: 30,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    };

    // Act
    const shaped = toLambdaRecord(raw, STREAM_ARN);

    // Assess
    expect(shaped).toEqual({
      eventID: 'e1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      eventSourceARN: STREAM_ARN,
      awsRegion: 'ddblocal',
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2026-01-01T00:00:05.000Z') / 1000,
        Keys: { PK: { S: 'PROJECT#1' } },
        NewImage: { PK: { S: 'PROJECT#1' }, data: { B: 'AQI=' }, list: { L: [{ BS: ['Aw=='] }] } },
        SequenceNumber: '000000000000000000001',
        SizeBytes: 30,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
  });
});

describe('deliverInBatches', () => {
  const options = (logger = recordingLogger()) => ({ batchSize: 10, retryAttempts: 3, retryDelayMs: 0, logger });

  it('invokes the handler with batches of at most 10 records, in order', async () => {
    // Prepare
    const handler = vi.fn<StreamHandler>(async () => ({ batchItemFailures: [] }));

    // Act
    await deliverInBatches(records(25), handler, options());

    // Assess
    expect(handler.mock.calls.map(([event]) => sequence(event))).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      [21, 22, 23, 24, 25],
    ]);
  });

  it('accepts a handler that returns nothing', async () => {
    const handler = vi.fn<StreamHandler>(async () => undefined);
    await deliverInBatches(records(3), handler, options());
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('retries from the first reported failure, not the records before it', async () => {
    // Prepare: record 3 fails once.
    let failed = false;
    const handler = vi.fn<StreamHandler>(async (event): Promise<DynamoDBBatchResponse> => {
      const third = event.Records.find((r) => r.eventID === 'e3');
      if (!third || failed) return { batchItemFailures: [] };
      failed = true;
      return { batchItemFailures: [{ itemIdentifier: third.dynamodb!.SequenceNumber! }] };
    });

    // Act
    await deliverInBatches(records(5), handler, options());

    // Assess
    expect(handler.mock.calls.map(([event]) => sequence(event))).toEqual([
      [1, 2, 3, 4, 5],
      [3, 4, 5],
    ]);
  });

  it('retries the whole batch when the handler throws or names an unknown record', async () => {
    // Prepare
    const handler = vi
      .fn<StreamHandler>()
      .mockRejectedValueOnce(new Error('table unavailable'))
      .mockResolvedValueOnce({ batchItemFailures: [{ itemIdentifier: '' }] })
      .mockResolvedValue({ batchItemFailures: [] });
    const logger = recordingLogger();

    // Act
    await deliverInBatches(records(2), handler, options(logger));

    // Assess
    expect(handler.mock.calls.map(([event]) => sequence(event))).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(logger.lines.map((line) => line.message)).toEqual(['stream handler failed']);
  });

  it('skips the failing records after 3 retries, logs them, and goes on with the next batch', async () => {
    // Prepare: record 2 always fails.
    const handler = vi.fn<StreamHandler>(async (event) => ({
      batchItemFailures: event.Records.filter((r) => r.eventID === 'e2').map((r) => ({ itemIdentifier: r.dynamodb!.SequenceNumber! })),
    }));
    const logger = recordingLogger();

    // Act
    await deliverInBatches(records(12), handler, options(logger));

    // Assess: 1 + 3 retries of the first batch, then the next one.
    expect(handler.mock.calls.map(([event]) => sequence(event))).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [2, 3, 4, 5, 6, 7, 8, 9, 10],
      [2, 3, 4, 5, 6, 7, 8, 9, 10],
      [2, 3, 4, 5, 6, 7, 8, 9, 10],
      [11, 12],
    ]);
    expect(logger.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'stream records skipped after retries',
        fields: expect.objectContaining({ retries: 3, eventIDs: ['e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10'] }),
      }),
    ]);
  });

  it('stops retrying once aborted', async () => {
    // Prepare
    const abort = new AbortController();
    const handler = vi.fn<StreamHandler>(async () => {
      abort.abort();
      throw new Error('down');
    });

    // Act
    await deliverInBatches(records(3), handler, { ...options(), retryDelayMs: 60_000, signal: abort.signal });

    // Assess
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('startStreamPoller', () => {
  const dynamo = mockClient(DynamoDBClient);
  const streams = mockClient(DynamoDBStreamsClient);
  afterAll(() => {
    dynamo.restore();
    streams.restore();
  });

  /** Internal: a raw stream record; `hook` makes it one the filter keeps. */
  const raw = (n: number, hook = true): _Record => ({
    eventID: `e${n}`,
    eventName: 'INSERT',
    dynamodb: {
      NewImage: { type: { S: hook ? HOOK_EVENT_TYPE : 'Issue' } },
      SequenceNumber: String(n).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  });

  /** Internal: resolves once `predicate` holds (checked every 10 ms), or fails after 2 s. */
  async function until(predicate: () => boolean): Promise<void> {
    for (let waited = 0; !predicate(); waited += 10) {
      if (waited > 2000) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  beforeEach(() => {
    dynamo.reset();
    streams.reset();
    streams.on(ListStreamsCommand).resolves({ Streams: [{ StreamArn: STREAM_ARN, StreamLabel: '2026-01-01T00:00:00.000', TableName: 't' }] });
  });

  it('reads open shards from their end and later shards from their start, following pagination', async () => {
    // Prepare: two pages of shards at start (one closed), a third shard once the first closes.
    let rotated = false;
    streams.on(DescribeStreamCommand).callsFake((input: { ExclusiveStartShardId?: string }) => {
      if (input.ExclusiveStartShardId === undefined) {
        return { StreamDescription: { Shards: [{ ShardId: 'old', SequenceNumberRange: { EndingSequenceNumber: '5' } }], LastEvaluatedShardId: 'old' } };
      }
      const shards = [{ ShardId: 'open' }, ...(rotated ? [{ ShardId: 'next', ParentShardId: 'open' }] : [])];
      return { StreamDescription: { Shards: shards } };
    });
    streams.on(GetShardIteratorCommand).callsFake((input: { ShardId: string; ShardIteratorType: string }) => ({
      ShardIterator: `${input.ShardId}:${input.ShardIteratorType}`,
    }));
    streams.on(GetRecordsCommand).callsFake((input: { ShardIterator: string }) => {
      if (input.ShardIterator === 'open:LATEST') {
        rotated = true;
        return { Records: [raw(10), raw(11, false)], NextShardIterator: null };
      }
      if (input.ShardIterator === 'next:TRIM_HORIZON') return { Records: [raw(12)], NextShardIterator: 'next:1' };
      return { Records: [], NextShardIterator: input.ShardIterator };
    });
    const events: DynamoDBStreamEvent[] = [];
    const handler = vi.fn<StreamHandler>(async (event) => void events.push(event));

    // Act
    const poller = await startStreamPoller({ tableName: 't', handler, filter: HOOK_EVENT_STREAM_FILTER, idleDelayMs: 5, rediscoverMs: 20, logger: recordingLogger() });
    await until(() => events.length === 2);
    await poller.stop();

    // Assess
    const iterators = streams.commandCalls(GetShardIteratorCommand).map((call) => `${call.args[0].input.ShardId}:${call.args[0].input.ShardIteratorType}`);
    expect(iterators).toEqual(['open:LATEST', 'next:TRIM_HORIZON']);
    expect(events.map((event) => event.Records.map((r) => r.eventID))).toEqual([['e10'], ['e12']]);
    expect(events[0].Records[0]).toMatchObject({ eventSource: 'aws:dynamodb', eventSourceARN: STREAM_ARN });
  });

  it('asks for the table\'s stream once, however often it lists the shards, and never with DescribeTable (it walks every index locally)', async () => {
    // Prepare: a stream with one quiet shard.
    streams.on(DescribeStreamCommand).resolves({ StreamDescription: { StreamStatus: 'ENABLED', Shards: [{ ShardId: 's' }] } });
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 's:0' });
    streams.on(GetRecordsCommand).resolves({ Records: [], NextShardIterator: 's:0' });

    // Act: many listings of the shards.
    const poller = await startStreamPoller({ tableName: 't', handler: async () => undefined, filter: HOOK_EVENT_STREAM_FILTER, idleDelayMs: 2, rediscoverMs: 2, logger: recordingLogger() });
    await until(() => streams.commandCalls(DescribeStreamCommand).length >= 5);
    await poller.stop();

    // Assess
    expect(streams.commandCalls(ListStreamsCommand)).toHaveLength(1);
    expect(streams.commandCalls(ListStreamsCommand)[0].args[0].input.TableName).toBe('t');
    expect(dynamo.commandCalls(DescribeTableCommand)).toHaveLength(0);
  });

  it.each([
    ['gone', () => new ResourceNotFoundException({ message: 'Requested resource not found', $metadata: {} })],
    ['disabled', () => ({ StreamDescription: { StreamStatus: 'DISABLED', Shards: [{ ShardId: 'old' }] } })],
  ])('follows the table to its new stream when the one it reads is %s, and reads that one from its start', async (_, oldStream) => {
    // Prepare: the table recreated after start: its first stream answers as gone or disabled.
    const NEW_ARN = STREAM_ARN.replace('2026-01-01', '2026-02-02');
    // The old stream stays listed beside the new one (as DynamoDB keeps a disabled stream a while).
    const old = { StreamArn: STREAM_ARN, StreamLabel: '2026-01-01T00:00:00.000', TableName: 't' };
    streams
      .on(ListStreamsCommand)
      .resolvesOnce({ Streams: [old] })
      .resolves({ Streams: [{ StreamArn: NEW_ARN, StreamLabel: '2026-02-02T00:00:00.000', TableName: 't' }, old] });
    let recreated = false;
    streams.on(DescribeStreamCommand).callsFake((input: { StreamArn: string }) => {
      if (input.StreamArn === NEW_ARN) return { StreamDescription: { StreamStatus: 'ENABLED', Shards: [{ ShardId: 'new' }] } };
      if (!recreated) {
        recreated = true;
        return { StreamDescription: { StreamStatus: 'ENABLED', Shards: [{ ShardId: 'old' }] } };
      }
      const answer = oldStream();
      if (answer instanceof Error) throw answer;
      return answer;
    });
    streams.on(GetShardIteratorCommand).callsFake((input: { ShardId: string; ShardIteratorType: string }) => ({ ShardIterator: `${input.ShardId}:${input.ShardIteratorType}` }));
    streams.on(GetRecordsCommand).callsFake((input: { ShardIterator: string }) =>
      input.ShardIterator === 'new:TRIM_HORIZON' ? { Records: [raw(1)], NextShardIterator: 'new:1' } : { Records: [], NextShardIterator: input.ShardIterator },
    );
    const events: DynamoDBStreamEvent[] = [];
    const logger = recordingLogger();

    // Act
    const poller = await startStreamPoller({ tableName: 't', handler: async (event) => void events.push(event), filter: HOOK_EVENT_STREAM_FILTER, idleDelayMs: 2, rediscoverMs: 2, logger });
    await until(() => events.length === 1);
    await poller.stop();

    // Assess
    expect(events[0].Records[0]).toMatchObject({ eventID: 'e1', eventSourceARN: NEW_ARN });
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', message: 'the table has a new stream' }));
    expect(streams.commandCalls(ListStreamsCommand)).toHaveLength(2);
  });

  it('logs its own errors as JSON lines, once while they last, and keeps polling', async () => {
    // Prepare: three discoveries after start fail, the next works.
    streams
      .on(DescribeStreamCommand)
      .resolvesOnce({ StreamDescription: { Shards: [] } })
      .rejectsOnce(new Error('engine restarting'))
      .rejectsOnce(new Error('engine restarting'))
      .rejectsOnce(new Error('engine restarting'))
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'late' }] } });
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'late:0' });
    streams.on(GetRecordsCommand).resolvesOnce({ Records: [raw(1)], NextShardIterator: 'late:1' }).resolves({ Records: [], NextShardIterator: 'late:1' });
    const handler = vi.fn<StreamHandler>(async () => undefined);
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));

    // Act
    const poller = await startStreamPoller({ tableName: 't', handler, filter: HOOK_EVENT_STREAM_FILTER, idleDelayMs: 5, rediscoverMs: 10, logger: createLogger() });
    await until(() => handler.mock.calls.length === 1);
    await poller.stop();
    stderr.mockRestore();

    // Assess
    expect(written.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ level: 'error', message: 'stream poll failed; retrying', error: expect.objectContaining({ message: 'engine restarting' }) }),
    ]);
  });

  it('stops promptly, after the invocation under way', async () => {
    // Prepare: a handler that takes 100 ms.
    streams.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 's' }] } });
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 's:0' });
    streams.on(GetRecordsCommand).resolvesOnce({ Records: [raw(1)], NextShardIterator: 's:1' }).resolves({ Records: [], NextShardIterator: 's:1' });
    let finished = false;
    let started = false;
    const handler: StreamHandler = async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
      finished = true;
    };
    const poller = await startStreamPoller({ tableName: 't', handler, filter: HOOK_EVENT_STREAM_FILTER, idleDelayMs: 60_000, logger: recordingLogger() });
    await until(() => started);

    // Act
    const before = Date.now();
    await poller.stop();

    // Assess
    expect(finished).toBe(true);
    expect(Date.now() - before).toBeLessThan(1000);
  });
});
