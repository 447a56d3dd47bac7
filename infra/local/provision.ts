/**
 * Creates the table and bucket the handlers expect, for the local engines (and, with
 * `PROVISION=true`, LocalStack). Uses the same environment as the handlers: the SDK reads the
 * endpoint from `AWS_ENDPOINT_URL_DYNAMODB` / `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`.
 *
 * The table comes from shared/platform/dynamo/table-definition.ts, the definition the CDK stack deploys, so
 * what runs locally has exactly the deployed keys, indexes and TTL attribute.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../shared/platform/s3/client';
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/platform/dynamo/table-definition';

/**
 * Creates the table if it does not exist, adds the indexes and the stream an older table lacks,
 * and enables TTL. Returns whether the table was created.
 */
export async function ensureTable(tableName: string): Promise<boolean> {
  // A raw client: the document client used by the handlers cannot run control-plane commands.
  const client = new DynamoDBClient({});
  try {
    // Described once: DynamoDB Local answers DescribeTable by walking every index to size it,
    // minutes on a table of some gigabytes (the bench's 100,000 issues).
    const table = await describeTable(client, tableName);
    const created = table ? false : await createTable(client, tableName);
    if (table) {
      await addMissingIndexes(client, tableName, table);
      await enableStream(client, tableName, table);
    }
    await enableTtl(client, tableName);
    return created;
  } finally {
    client.destroy();
  }
}

/** The table's description, or undefined when there is no such table. */
async function describeTable(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** Creates the table with every index and the stream; false when another process made it first. */
async function createTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const attributeNames = new Set<string>([TABLE_KEY.partitionKey, TABLE_KEY.sortKey]);
  for (const index of GLOBAL_INDEXES) {
    attributeNames.add(index.partitionKey);
    attributeNames.add(index.sortKey);
  }
  let created = false;
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributeNames].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({ IndexName: index.indexName, ...indexShape(index) })),
        StreamSpecification: STREAM,
      }),
    );
    created = true;
  } catch (error) {
    // Another process (a parallel test run on the same engines) created it first.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitForTable(client, tableName);
  return created;
}

/** An index's keys and projection, as the definition (and the CDK stack) has them. */
function indexShape(index: (typeof GLOBAL_INDEXES)[number]) {
  return {
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
}

/**
 * Adds the global indexes of the definition that an existing table (made by an older version,
 * e.g. a developer's `.data` from before an index was added) does not have: one at a time, as
 * DynamoDB allows one index creation per UpdateTable, each waited for until ACTIVE (DynamoDB
 * Local answers ACTIVE at once, so it is polled only where the index is still being built).
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<void> {
  const present = new Set(table.GlobalSecondaryIndexes?.map((existing) => existing.IndexName));
  for (const index of GLOBAL_INDEXES) {
    if (present.has(index.indexName)) continue;
    console.log(JSON.stringify({ level: 'INFO', message: 'adding a missing index', tableName, index: index.indexName }));
    const { TableDescription: updated } = await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.indexName, ...indexShape(index) } }],
      }),
    );
    if (indexStatus(updated, index.indexName) !== 'ACTIVE') await waitForIndex(client, tableName, index.indexName);
  }
}

function indexStatus(table: TableDescription | undefined, indexName: string): string | undefined {
  return table?.GlobalSecondaryIndexes?.find((existing) => existing.IndexName === indexName)?.IndexStatus;
}

/** The stream the deployed table has (`infra/constructs/data.ts`): webhook events ride on it. */
const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

/**
 * Turns on the stream of a table made before webhooks (or with another view type, which DynamoDB
 * only changes by disabling the stream first). A separate UpdateTable: DynamoDB refuses a stream
 * change and an index creation in one.
 */
async function enableStream(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<void> {
  const current = table.StreamSpecification;
  if (current?.StreamEnabled && current.StreamViewType === STREAM.StreamViewType) return;
  console.log(JSON.stringify({ level: 'INFO', message: 'enabling the table stream', tableName }));
  if (current?.StreamEnabled) {
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }));
    await waitForTable(client, tableName);
  }
  await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
  await waitForTable(client, tableName);
}

/** Waits until the table is ACTIVE: at once on DynamoDB Local; LocalStack and AWS take a moment. */
async function waitForTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await waitUntilTableExists({ client, maxWaitTime: 120, minDelay: 1, maxDelay: 5 }, { TableName: tableName });
}

/** Polls until the index is ACTIVE (at once on DynamoDB Local; a backfill on AWS). */
async function waitForIndex(client: DynamoDBClient, tableName: string, indexName: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (indexStatus(Table, indexName) === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`index ${indexName} of ${tableName} did not become ACTIVE`);
}

/**
 * Turns TTL on. Tolerant by design: expiry is a storage optimisation (readers check expiry
 * themselves), and emulators differ: some DynamoDB Local versions answer "TimeToLive is already
 * enabled" with a ValidationException, others do not implement DescribeTimeToLive.
 */
async function enableTtl(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const described = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    const status = described.TimeToLiveDescription?.TimeToLiveStatus;
    if (status === 'ENABLED' || status === 'ENABLING') return;
  } catch {
    // Fall through and try to enable it.
  }
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/already enabled|TimeToLive is active|not supported|not implemented/i.test(message)) throw error;
  }
}

/** Creates the bucket if it does not exist. Returns whether it was created. */
export async function ensureBucket(name: string): Promise<boolean> {
  const { client } = await s3();
  try {
    await client.send(new HeadBucketCommand({ Bucket: name }));
    return false;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== 404) throw error;
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
    return true;
  } catch (error) {
    const code = (error as { name?: string }).name;
    if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') return false;
    throw error;
  }
}
