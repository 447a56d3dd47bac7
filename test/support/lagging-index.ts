/**
 * A local runtime whose secondary indexes lag behind the table, as they may on AWS (DynamoDB
 * Local updates them in the same request, hiding the lag). For unit tests of read-after-write:
 * the runtime (DynamoDB Local, s3rver, the real handlers in this process) is started for the test
 * file, and the data layer's client (`db()`) is replaced by one that, while {@link IndexLag} is
 * on, shows every index Query the items written since the lag began as they were when it began:
 * an item put (created, or replaced whole), updated in its index key attributes, or deleted since
 * then is left out where it is now and shown where it was (its version from before its first
 * write in the lag, read from the table just before that write: a deleted item, or one moved to
 * another partition or sort key, still shows in its old place). The table itself (GetItem,
 * BatchGetItem, Query of the table) is read as DynamoDB Local answers it, consistently.
 *
 * A write lags for {@link IndexLag.LAG_MS}, then its indexes show it as it is.
 *
 * What it does not simulate: items updated in other attributes (on AWS the index shows their old
 * version; here they are shown as they are), and index Queries with a filter (their old versions
 * are not added back).
 *
 * The fixtures of `fixtures.ts` work here: `API_URL` and `ROOT_TOKEN` point at this runtime.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { setClients, tableName } from '../../shared/platform/dynamo/client';
import type { LocalRuntime } from '../../infra/local/runtime';
import { RECENT_WINDOW_MS } from '../../shared/platform/dynamo/recent';

type Key = { PK: string; SK: string };
const keyOf = (key: Key | Record<string, unknown> | undefined): string | undefined =>
  key && typeof key.PK === 'string' && typeof key.SK === 'string' ? `${key.PK}\u0000${key.SK}` : undefined;

/** Whether an update expression sets an index key attribute (which moves the item in that index). */
const movesInIndex = (expression: string | undefined, names: Record<string, string> | undefined): boolean =>
  /GSI\d+(PK|SK)/.test(expression ?? '') || Object.values(names ?? {}).some((name) => /^GSI\d+(PK|SK)$/.test(name));

/** The keys of the items a write command puts, moves in an index, or deletes. */
function keysIndexedAnew(command: unknown): Key[] {
  const found: Array<Key | Record<string, unknown> | undefined> = [];
  if (command instanceof PutCommand) found.push(command.input.Item);
  if (command instanceof UpdateCommand && movesInIndex(command.input.UpdateExpression, command.input.ExpressionAttributeNames)) found.push(command.input.Key);
  if (command instanceof DeleteCommand) found.push(command.input.Key);
  if (command instanceof TransactWriteCommand) {
    for (const item of command.input.TransactItems ?? []) {
      if (item.Put) found.push(item.Put.Item);
      if (item.Update && movesInIndex(item.Update.UpdateExpression, item.Update.ExpressionAttributeNames)) found.push(item.Update.Key);
      if (item.Delete) found.push(item.Delete.Key);
    }
  }
  if (command instanceof BatchWriteCommand) {
    for (const requests of Object.values(command.input.RequestItems ?? {})) {
      for (const request of requests) found.push(request.PutRequest?.Item ?? request.DeleteRequest?.Key);
    }
  }
  return found.flatMap((key) => (keyOf(key) === undefined ? [] : [{ PK: key!.PK as string, SK: key!.SK as string }]));
}

type Row = Record<string, unknown>;

/**
 * Whether an item is in the range an index Query's key condition reads (the forms `query.ts`
 * writes: `#pk = :pk`, then `AND begins_with(#sk, :v)`, `#sk BETWEEN :a AND :b`, `#sk >= :v`,
 * `#sk < :v`, ...).
 */
function matchesKeyCondition(item: Row, input: QueryCommand['input']): boolean {
  const names = input.ExpressionAttributeNames ?? {};
  const values = (input.ExpressionAttributeValues ?? {}) as Row;
  const attribute = (name: string) => names[name] ?? name;
  const [partition, ...rest] = (input.KeyConditionExpression ?? '').split(/\s+AND\s+/i);
  const sort = rest.join(' AND ');
  const equal = /^\s*(#?\w+)\s*=\s*(:\w+)\s*$/.exec(partition ?? '');
  if (!equal) throw new Error(`lagging index: key condition not understood: ${input.KeyConditionExpression}`);
  if (item[attribute(equal[1])] !== values[equal[2]]) return false;
  if (!sort) return true;
  const prefix = /^\s*begins_with\((#?\w+),\s*(:\w+)\)\s*$/.exec(sort);
  if (prefix) return String(item[attribute(prefix[1])] ?? '').startsWith(String(values[prefix[2]]));
  const between = /^\s*(#?\w+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)\s*$/i.exec(sort);
  if (between) {
    const value = item[attribute(between[1])] as string | undefined;
    return value !== undefined && value >= (values[between[2]] as string) && value <= (values[between[3]] as string);
  }
  const compare = /^\s*(#?\w+)\s*(>=|<=|>|<|=)\s*(:\w+)\s*$/.exec(sort);
  if (!compare) throw new Error(`lagging index: key condition not understood: ${input.KeyConditionExpression}`);
  const value = item[attribute(compare[1])] as string | undefined;
  const bound = values[compare[3]] as string;
  if (value === undefined) return false;
  return { '>=': value >= bound, '<=': value <= bound, '>': value > bound, '<': value < bound, '=': value === bound }[compare[2]]!;
}

/** Turns the simulated index lag on and off. */
export class IndexLag {
  private lagging = false;
  /**
   * Keys written since the lag began, with the item as it was before (`undefined`: there was none)
   * and when: an index catches up with a write after {@link LAG_MS}.
   */
  private readonly written = new Map<string, { before: Row | undefined; at: number }>();

  /**
   * How long an index lags behind a write: half the window of the journal of recent writes
   * (`RECENT_WINDOW_MS`, what covers the lag), far above what AWS shows. A longer lag would
   * outlast the journal only in a test slowed down by a loaded machine: what failed then would be
   * the harness, not the service.
   */
  static readonly LAG_MS = RECENT_WINDOW_MS / 2;

  /** Whether the indexes still show the key as it was before its write. */
  private lagsBehind(id: string): boolean {
    const write = this.written.get(id);
    return write !== undefined && Date.now() - write.at < IndexLag.LAG_MS;
  }
  /** How many index items the lag has hidden since it began (a test can check the lag was real). */
  hidden = 0;
  /** How many old versions (deleted or moved items) index Queries showed since the lag began. */
  stale = 0;

  /** From now on, index Queries show what is written as it was (until {@link stop}). */
  start(): void {
    this.lagging = true;
    this.written.clear();
    this.hidden = 0;
    this.stale = 0;
  }

  /** The indexes have caught up. */
  stop(): void {
    this.lagging = false;
    this.written.clear();
  }

  /**
   * Everything written so far is old: the indexes have caught up with it and its journal entries
   * (`recent.ts`) are past their window (deleted here); what is written next lags again.
   */
  async catchUp(): Promise<void> {
    this.stop();
    const entries = [...this.journal];
    this.journal.clear();
    for (let i = 0; i < entries.length; i += 25) {
      const chunk = entries.slice(i, i + 25).map((id) => {
        const [PK, SK] = id.split('\u0000');
        return { DeleteRequest: { Key: { PK, SK } } };
      });
      await this.send?.(new BatchWriteCommand({ RequestItems: { [tableName()]: chunk } }));
    }
    this.start();
  }

  /** Keys of the journal entries written (to forget them in {@link catchUp}), and where. */
  private readonly journal = new Set<string>();
  private send: ((command: unknown) => Promise<Record<string, unknown>>) | undefined;

  /** `client` with the lag applied to its `send`. */
  wrap(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
    const send = client.send.bind(client) as (command: unknown, ...rest: unknown[]) => Promise<Record<string, unknown>>;
    this.send = send;
    const lagged = async (command: unknown, ...rest: unknown[]) => {
      if (command instanceof BatchWriteCommand) {
        for (const requests of Object.values(command.input.RequestItems ?? {})) {
          for (const request of requests) {
            const item = request.PutRequest?.Item;
            if (item?.type === 'RecentWrite') this.journal.add(keyOf(item)!);
          }
        }
      }
      if (this.lagging) {
        for (const key of keysIndexedAnew(command)) {
          const id = keyOf(key)!;
          if (this.lagsBehind(id)) continue;
          // The version the index still shows: the item as it is before this write (writes of one
          // key are not concurrent in these tests).
          const { Item } = await send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
          this.written.set(id, { before: Item as Row | undefined, at: Date.now() });
        }
      }
      const output = await send(command, ...rest);
      if (this.lagging && command instanceof QueryCommand && command.input.IndexName && Array.isArray(output.Items)) {
        const input = command.input;
        const items = output.Items as Row[];
        const shown = items.filter((item) => !this.lagsBehind(keyOf(item) ?? ''));
        this.hidden += items.length - shown.length;
        if (!input.FilterExpression) {
          const sortAttribute = `${input.IndexName}SK`;
          const sortOf = (item: Row | undefined) => (item?.[sortAttribute] as string | undefined) ?? '';
          const ascending = input.ScanIndexForward !== false;
          const after = (a: string, b: string) => (ascending ? a > b : a < b);
          const start = input.ExclusiveStartKey as Row | undefined;
          const last = output.LastEvaluatedKey as Row | undefined;
          const old = [...this.written.entries()]
            .flatMap(([id, write]) => (this.lagsBehind(id) ? [write.before] : []))
            .filter(
            (item): item is Row =>
              item !== undefined &&
              item[sortAttribute] !== undefined &&
              matchesKeyCondition(item, input) &&
              (!start || after(sortOf(item), sortOf(start))) &&
              (!last || !after(sortOf(item), sortOf(last))),
          );
          this.stale += old.length;
          shown.push(...old);
          shown.sort((a, b) => (sortOf(a) === sortOf(b) ? 0 : after(sortOf(a), sortOf(b)) ? 1 : -1));
        }
        output.Items = shown;
      }
      return output;
    };
    (client as { send: unknown }).send = lagged;
    return client;
  }
}

/**
 * Starts the local runtime for the test file (in this process: its handlers use this module
 * graph's `db()`), points the fixtures at it, and gives the data layer a client whose indexes lag
 * while the returned {@link IndexLag} is on.
 */
export function useLaggingRuntime(): IndexLag {
  const lag = new IndexLag();
  let runtime: LocalRuntime | undefined;
  let dataDir: string | undefined;
  const saved = { API_URL: process.env.API_URL, ROOT_TOKEN: process.env.ROOT_TOKEN };
  beforeAll(async () => {
    dataDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'project-hosting-lag-'));
    const rootToken = `glpat-${randomBytes(15).toString('base64url')}`;
    const { startLocalRuntime } = await import('../../infra/local/runtime');
    // This DynamoDB Local lives for one test file: its JVM compiles with the quick compiler only
    // (what the optimizing one would compile costs more than it saves in so short a life: the
    // read-after-write file took 40 s of CPU, 54 s, with both, 24 s, 30 s, without; the suite's
    // long-lived runtime keeps both, test/support/global-setup.ts). Set for the start only: the
    // unit files share this process.
    const javaOptions = process.env.JAVA_TOOL_OPTIONS;
    process.env.JAVA_TOOL_OPTIONS = `${javaOptions ?? '-XX:+UseSerialGC'} -XX:TieredStopAtLevel=1`;
    try {
      runtime = await startLocalRuntime({ port: 0, dataDir, rootToken, quiet: true, dynamoInMemory: true });
    } finally {
      if (javaOptions === undefined) delete process.env.JAVA_TOOL_OPTIONS;
      else process.env.JAVA_TOOL_OPTIONS = javaOptions;
    }
    process.env.API_URL = runtime.url;
    process.env.ROOT_TOKEN = rootToken;
    // The runtime set the endpoint and credentials in the environment; the client reads them.
    setClients({ db: lag.wrap(DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } })) });
  });
  afterAll(async () => {
    lag.stop();
    await runtime?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return lag;
}
