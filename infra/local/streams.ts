/**
 * The local stand-in for a Lambda event source mapping on the table's stream: polls DynamoDB
 * Streams (DynamoDB Local's, or LocalStack's when `AWS_ENDPOINT_URL` points there), keeps the
 * records the mapping's filter selects, and invokes the handler in-process with the event Lambda
 * would send, batch by batch, in order per shard, retrying failed records like the deployed
 * mapping (`infra/constructs/events.ts`) does.
 *
 * Not emulated: bisecting a failing batch (records are retried from the reported failure, or the
 * whole batch, then skipped), the batching window (a batch is what one poll returned), and
 * on-failure destinations (skipped records are logged).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type _Record,
  type AttributeValue as StreamAttributeValue,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger as rootLogger, type Logger } from '../../shared/platform/logger';
import { asBackgroundInvocation } from './invocations';

/** A stream handler as Lambda runs it (`functions/hook_delivery/handler.ts`). */
export type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

/**
 * An event filter pattern of the shape Lambda accepts: nested objects whose leaves are lists of
 * allowed values. Content rules (`prefix`, `exists`, `numeric`, …) are not supported.
 */
export interface FilterPattern {
  readonly [field: string]: FilterPattern | readonly (string | number | boolean | null)[];
}

/**
 * Whether a (Lambda-shaped) record matches a filter pattern: every field of the pattern must be
 * present, a list matching when the value (or, for a list value, one of its elements) is one of
 * its entries, a nested pattern matching the nested object.
 *
 * @example
 * matchesFilter(record, HOOK_EVENT_STREAM_FILTER); // INSERT of an item with type HookEvent
 */
export function matchesFilter(value: unknown, pattern: FilterPattern): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([field, rule]) => {
    const actual = (value as Record<string, unknown>)[field];
    if (!Array.isArray(rule)) return matchesFilter(actual, rule as FilterPattern);
    for (const allowed of rule) {
      if (typeof allowed === 'object' && allowed !== null) throw new TypeError(`unsupported filter rule on '${field}': ${JSON.stringify(allowed)}`);
    }
    const candidates: unknown[] = Array.isArray(actual) ? actual : [actual];
    return actual !== undefined && candidates.some((candidate) => rule.includes(candidate));
  });
}

/**
 * Internal: a record as the streams API returns it, turned into the record of Lambda's event
 * (`eventSourceARN`, creation time in epoch seconds, binary values as base64 text).
 */
export function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const created = stream.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    eventSourceARN: streamArn,
    awsRegion: record.awsRegion ?? process.env.AWS_REGION,
    ...(record.userIdentity ? { userIdentity: record.userIdentity } : {}),
    dynamodb: {
      ...(created ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}),
      ...(stream.Keys ? { Keys: toLambdaImage(stream.Keys) } : {}),
      ...(stream.NewImage ? { NewImage: toLambdaImage(stream.NewImage) } : {}),
      ...(stream.OldImage ? { OldImage: toLambdaImage(stream.OldImage) } : {}),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
  };
}

function toLambdaImage(image: Record<string, StreamAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

function toLambdaValue(value: StreamAttributeValue): AttributeValue {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  return value as AttributeValue;
}

export interface BatchDeliveryOptions {
  /** Records per invocation. */
  batchSize: number;
  /** Invocations of a failing batch after the first, before its records are skipped. */
  retryAttempts: number;
  /** Pause before the n-th retry: n times this. */
  retryDelayMs: number;
  /** Stops retrying (and invoking) once aborted; an invocation under way is awaited. */
  signal?: AbortSignal;
  logger: Logger;
}

/**
 * Internal: invokes the handler on consecutive batches of `records`, in order. A batch whose
 * invocation throws, or reports an unknown item, is retried whole; one reporting failures is
 * retried from its first failed record (what Lambda does with `ReportBatchItemFailures`). After
 * `retryAttempts` retries, the batch's remaining records are logged and skipped.
 */
export async function deliverInBatches(records: DynamoDBRecord[], handler: StreamHandler, options: BatchDeliveryOptions): Promise<void> {
  for (let start = 0; start < records.length; start += options.batchSize) {
    let batch = records.slice(start, start + options.batchSize);
    for (let retries = 0; batch.length > 0 && !options.signal?.aborted; retries++) {
      if (retries > 0) await sleep(options.retryDelayMs * retries, undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal?.aborted) return;
      batch = batch.slice(await invoke(batch, handler, options.logger));
      if (batch.length > 0 && retries >= options.retryAttempts) {
        options.logger.error('stream records skipped after retries', {
          retries,
          eventIDs: batch.map((record) => record.eventID),
          sequenceNumbers: batch.map((record) => record.dynamodb?.SequenceNumber),
        });
        break;
      }
    }
    if (options.signal?.aborted) return;
  }
}

/** Internal: how many records of the batch, from its start, the handler has done with. */
async function invoke(batch: DynamoDBRecord[], handler: StreamHandler, logger: Logger): Promise<number> {
  let response: DynamoDBBatchResponse | void;
  try {
    response = await asBackgroundInvocation(() => handler({ Records: batch }));
  } catch (error) {
    logger.error('stream handler failed', { error, records: batch.length });
    return 0;
  }
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return batch.length;
  const positions = failures.map((failure) => batch.findIndex((record) => record.dynamodb?.SequenceNumber === failure.itemIdentifier));
  // Lambda treats a missing or unknown identifier as a failure of the whole batch.
  return positions.includes(-1) ? 0 : Math.min(...positions);
}

export interface StreamPollerOptions {
  tableName: string;
  handler: StreamHandler;
  /** The event source mapping's filter; records it does not match are dropped. */
  filter: FilterPattern;
  /** @default 10 */
  batchSize?: number;
  /** @default 3 */
  retryAttempts?: number;
  /** @default 250 ms */
  retryDelayMs?: number;
  /** Pause between polls when no shard had records. @default 250 ms */
  idleDelayMs?: number;
  /** How often shards are listed again (DynamoDB Local closes shards and opens new ones). @default 1 s */
  rediscoverMs?: number;
  /** @default - the service logger, tagged `component: stream-poller` */
  logger?: Logger;
}

export interface StreamPoller {
  /** Ends the loop promptly; resolves once the invocation under way (if any) has finished. */
  stop(): Promise<void>;
}

/** What the poller knows of one shard. */
interface ShardState {
  id: string;
  parentId?: string;
  /** Null once the shard is closed and read to its end. */
  iterator: string | null;
  /** Where reading started: where to start again if the iterator expires before any record. */
  start: 'LATEST' | 'TRIM_HORIZON';
  lastSequenceNumber?: string;
}

/**
 * Starts polling the table's stream. Resolves once the shards open now have iterators at their
 * end (`LATEST`), so every write after it is delivered and none before it (`npm start` on an old
 * data directory does not replay old events); shards that appear later are read from their start.
 * Errors are logged and retried on the next poll: the poller never throws.
 *
 * @example
 * const poller = await startStreamPoller({ tableName, handler, filter: HOOK_EVENT_STREAM_FILTER });
 * await poller.stop();
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const logger = options.logger ?? rootLogger.child({ component: 'stream-poller' });
  const delivery = {
    batchSize: options.batchSize ?? 10,
    retryAttempts: options.retryAttempts ?? 3,
    retryDelayMs: options.retryDelayMs ?? 250,
  };
  const idleDelayMs = options.idleDelayMs ?? 250;
  const rediscoverMs = options.rediscoverMs ?? 1000;

  const abort = new AbortController();
  const { signal } = abort;
  // DynamoDB Local serves streams on the DynamoDB endpoint; without either variable the SDK
  // resolves the endpoint itself (AWS_ENDPOINT_URL for LocalStack, else AWS).
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS || process.env.AWS_ENDPOINT_URL_DYNAMODB || undefined;
  const streams = new DynamoDBStreamsClient(endpoint ? { endpoint } : {});

  let streamArn: string | undefined;
  const shards = new Map<string, ShardState>();
  /** Shards read to their end (or open before the poller started and already closed): never read again. */
  const finished = new Set<string>();

  const iterator = async (shardId: string, type: ShardIteratorType, sequenceNumber?: string) => {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
      { abortSignal: signal },
    );
    return ShardIterator ?? null;
  };

  /**
   * The table's newest stream (by its label, the time it was created), asked for only when the
   * poller has none yet or the one it reads is gone or disabled (the table recreated, its stream
   * turned off and on). Asked of DynamoDB Streams, not of the table: DynamoDB Local answers
   * DescribeTable by walking every index to size it, minutes on a table of some gigabytes.
   */
  const follow = async () => {
    let latest: { StreamArn?: string; StreamLabel?: string } | undefined;
    let after: string | undefined;
    do {
      const page = await streams.send(new ListStreamsCommand({ TableName: options.tableName, ExclusiveStartStreamArn: after }), { abortSignal: signal });
      for (const stream of page.Streams ?? []) if (!latest || (stream.StreamLabel ?? '') > (latest.StreamLabel ?? '')) latest = stream;
      after = page.LastEvaluatedStreamArn;
    } while (after);
    if (!latest?.StreamArn) throw new Error(`table ${options.tableName} has no stream`);
    if (latest.StreamArn !== streamArn) {
      // A new stream (the table was recreated, or its stream re-enabled): all of it is new.
      if (streamArn !== undefined) logger.warn('the table has a new stream', { streamArn: latest.StreamArn });
      streamArn = latest.StreamArn;
      shards.clear();
      finished.clear();
    }
  };

  /** The shards of the stream followed, every page; undefined when that stream is gone or disabled. */
  const listShards = async (): Promise<Shard[] | undefined> => {
    const listed: Shard[] = [];
    let after: string | undefined;
    do {
      let page;
      try {
        page = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }), { abortSignal: signal });
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return undefined;
        throw error;
      }
      const status = page.StreamDescription?.StreamStatus;
      if (status === 'DISABLED' || status === 'DISABLING') return undefined;
      listed.push(...(page.StreamDescription?.Shards ?? []));
      after = page.StreamDescription?.LastEvaluatedShardId;
    } while (after);
    return listed;
  };

  /** Lists the stream's shards and starts reading the new ones (`initial`: from their end). */
  const discover = async (initial: boolean) => {
    if (streamArn === undefined) await follow();
    let listed = await listShards();
    if (listed === undefined) {
      await follow();
      listed = await listShards();
      if (listed === undefined) throw new Error(`the stream of table ${options.tableName} is disabled`);
    }
    for (const shard of listed) {
      const id = shard.ShardId;
      if (!id || shards.has(id) || finished.has(id)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      if (initial && closed) {
        finished.add(id);
        continue;
      }
      const start = initial ? 'LATEST' : 'TRIM_HORIZON';
      shards.set(id, { id, parentId: shard.ParentShardId, start, iterator: await iterator(id, start) });
    }
  };

  /** Reads one shard once and delivers what matched. Returns whether it had records. */
  const poll = async (shard: ShardState): Promise<boolean> => {
    let result;
    try {
      result = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator!, Limit: 1000 }), { abortSignal: signal });
    } catch (error) {
      if (error instanceof ExpiredIteratorException) {
        shard.iterator = shard.lastSequenceNumber
          ? await iterator(shard.id, 'AFTER_SEQUENCE_NUMBER', shard.lastSequenceNumber)
          : await iterator(shard.id, shard.start);
        return false;
      }
      if (error instanceof TrimmedDataAccessException) {
        shard.iterator = await iterator(shard.id, 'TRIM_HORIZON');
        return false;
      }
      throw error;
    }
    shard.iterator = result.NextShardIterator ?? null;
    const records = result.Records ?? [];
    if (records.length > 0) shard.lastSequenceNumber = records.at(-1)?.dynamodb?.SequenceNumber;
    const wanted = records.map((record) => toLambdaRecord(record, streamArn!)).filter((record) => matchesFilter(record, options.filter));
    if (wanted.length > 0) await deliverInBatches(wanted, options.handler, { ...delivery, signal, logger });
    return records.length > 0;
  };

  /** Whether shards were listed once: until then, open shards are read from their end. */
  let discovered = false;
  /** The last error logged, so that a lasting failure is logged once, not every poll. */
  let lastError: string | undefined;
  const failed = (message: string, error: unknown) => {
    const text = `${message}: ${String(error)}`;
    if (text !== lastError) logger.error(message, { error, tableName: options.tableName });
    lastError = text;
  };

  const loop = async () => {
    let nextDiscovery = discovered ? Date.now() + rediscoverMs : 0;
    while (!signal.aborted) {
      let busy = false;
      try {
        if (Date.now() >= nextDiscovery) {
          nextDiscovery = Date.now() + rediscoverMs;
          await discover(!discovered);
          discovered = true;
          lastError = undefined;
        }
        for (const shard of [...shards.values()]) {
          if (signal.aborted) break;
          // A child shard continues its parent's keys: read it once the parent is done.
          if (shard.parentId !== undefined && shards.has(shard.parentId)) continue;
          if (shard.iterator !== null && (await poll(shard))) busy = true;
          lastError = undefined;
          if (shard.iterator === null) {
            shards.delete(shard.id);
            finished.add(shard.id);
            nextDiscovery = 0; // its children are likely there now
          }
        }
      } catch (error) {
        if (signal.aborted) break;
        failed('stream poll failed; retrying', error);
        busy = false;
      }
      if (!busy) await sleep(idleDelayMs, undefined, { signal }).catch(() => undefined);
    }
  };

  try {
    await discover(true);
    discovered = true;
  } catch (error) {
    // Keep going: the loop discovers the stream once it is there.
    failed('stream not readable yet; retrying', error);
  }
  const running = loop().finally(() => streams.destroy());

  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= (async () => {
        abort.abort();
        await running;
      })()),
  };
}
