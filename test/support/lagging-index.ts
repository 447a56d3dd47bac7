/**
 * A local runtime whose secondary indexes lag behind the table, as they may on AWS (DynamoDB
 * Local updates them in the same request, hiding the lag). For unit tests of read-after-write:
 * the runtime (DynamoDB Local, s3rver, the real handlers in this process) is started for the test
 * file, and the data layer's client (`db()`) is replaced by one that, while {@link IndexLag} is
 * on, leaves out of every index Query the items written since the lag began: put (created, or
 * replaced whole), or updated in their index key attributes. The table itself (GetItem,
 * BatchGetItem, Query of the table) is read as DynamoDB Local answers it, consistently.
 *
 * What it does not simulate: an index still showing an item's previous version or a deleted item
 * (DynamoDB Local no longer has them), and items updated in other attributes (on AWS the index
 * shows their old version, which is still listed; here they are shown as they are).
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
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { setClients } from '../../shared/platform/dynamo/client';
import type { LocalRuntime } from '../../infra/local/runtime';

type Key = { PK: string; SK: string };
const keyOf = (key: Key | Record<string, unknown> | undefined): string | undefined =>
  key && typeof key.PK === 'string' && typeof key.SK === 'string' ? `${key.PK}\u0000${key.SK}` : undefined;

/** Whether an update expression sets an index key attribute (which moves the item in that index). */
const movesInIndex = (expression: string | undefined, names: Record<string, string> | undefined): boolean =>
  /GSI\d+(PK|SK)/.test(expression ?? '') || Object.values(names ?? {}).some((name) => /^GSI\d+(PK|SK)$/.test(name));

/** The keys of the items a write command puts or moves in an index. */
function keysIndexedAnew(command: unknown): string[] {
  const found: Array<string | undefined> = [];
  if (command instanceof PutCommand) found.push(keyOf(command.input.Item));
  if (command instanceof UpdateCommand && movesInIndex(command.input.UpdateExpression, command.input.ExpressionAttributeNames)) {
    found.push(keyOf(command.input.Key));
  }
  if (command instanceof TransactWriteCommand) {
    for (const item of (command.input).TransactItems ?? []) {
      if (item.Put) found.push(keyOf(item.Put.Item));
      if (item.Update && movesInIndex(item.Update.UpdateExpression, item.Update.ExpressionAttributeNames)) found.push(keyOf(item.Update.Key));
    }
  }
  if (command instanceof BatchWriteCommand) {
    for (const requests of Object.values((command.input).RequestItems ?? {})) {
      for (const request of requests) found.push(keyOf(request.PutRequest?.Item));
    }
  }
  return found.filter((key): key is string => key !== undefined);
}

/** Turns the simulated index lag on and off. */
export class IndexLag {
  private lagging = false;
  private readonly written = new Set<string>();
  /** How many index items the lag has hidden since it began (a test can check the lag was real). */
  hidden = 0;

  /** From now on, index Queries leave out what is written (until {@link stop}). */
  start(): void {
    this.lagging = true;
    this.written.clear();
    this.hidden = 0;
  }

  /** The indexes have caught up. */
  stop(): void {
    this.lagging = false;
    this.written.clear();
  }

  /** `client` with the lag applied to its `send`. */
  wrap(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
    const send = client.send.bind(client) as (command: unknown, ...rest: unknown[]) => Promise<Record<string, unknown>>;
    const lagged = async (command: unknown, ...rest: unknown[]) => {
      if (this.lagging) for (const key of keysIndexedAnew(command)) this.written.add(key);
      const output = await send(command, ...rest);
      if (this.lagging && command instanceof QueryCommand && command.input.IndexName && Array.isArray(output.Items)) {
        const items = output.Items as Array<Record<string, unknown>>;
        const shown = items.filter((item) => !this.written.has(keyOf(item) ?? ''));
        this.hidden += items.length - shown.length;
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
    runtime = await startLocalRuntime({ port: 0, dataDir, rootToken, quiet: true, dynamoInMemory: true });
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
