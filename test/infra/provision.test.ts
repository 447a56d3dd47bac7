/**
 * Provisioning an existing table made by an older version: the indexes it lacks are added one
 * UpdateTable at a time (DynamoDB's rule), each waited for, the stream is enabled if missing, and
 * nothing else is recreated.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  type GlobalSecondaryIndexDescription,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureTable } from '../../infra/local/provision';
import { GLOBAL_INDEXES } from '../../shared/platform/dynamo/table-definition';

const dynamo = mockClient(DynamoDBClient);

/** The stream a table made by this version has. */
const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;
const ALL_INDEXES = () => GLOBAL_INDEXES.map((index) => ({ IndexName: index.indexName, IndexStatus: 'ACTIVE' as const }));

afterAll(() => dynamo.restore());

beforeEach(() => {
  dynamo.reset();
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});

describe('ensureTable on an existing table', () => {
  it('adds each missing index with its own UpdateTable and leaves the present ones alone', async () => {
    // Prepare: a table with the first three indexes; a created index is ACTIVE on the next describe.
    const indexes: GlobalSecondaryIndexDescription[] = ['GSI1', 'GSI2', 'GSI3'].map((IndexName) => ({ IndexName, IndexStatus: 'ACTIVE' }));
    dynamo.on(DescribeTableCommand).callsFake(() => ({
      Table: { TableName: 't', TableStatus: 'ACTIVE', StreamSpecification: STREAM, GlobalSecondaryIndexes: indexes.map((index) => ({ ...index })) },
    }));
    dynamo.on(UpdateTableCommand).callsFake((input) => {
      indexes.push({ IndexName: input.GlobalSecondaryIndexUpdates[0].Create.IndexName, IndexStatus: 'ACTIVE' });
      return {};
    });
    dynamo.on(DescribeTimeToLiveCommand).resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED' } });

    // Act
    const created = await ensureTable('t');

    // Assess
    expect(created).toBe(false);
    expect(dynamo.commandCalls(CreateTableCommand)).toHaveLength(0);
    const updates = dynamo.commandCalls(UpdateTableCommand).map((call) => call.args[0].input);
    expect(updates.map((update) => update.GlobalSecondaryIndexUpdates)).toEqual(
      GLOBAL_INDEXES.slice(3).map((index) => index.indexName).map((name) => [
        {
          Create: {
            IndexName: name,
            KeySchema: [
              { AttributeName: `${name}PK`, KeyType: 'HASH' },
              { AttributeName: `${name}SK`, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        },
      ]),
    );
    expect(indexes.map((index) => index.IndexName)).toEqual(GLOBAL_INDEXES.map((index) => index.indexName));
  });

  it('changes nothing when every index is there', async () => {
    dynamo.on(DescribeTableCommand).resolves({
      Table: { TableName: 't', TableStatus: 'ACTIVE', StreamSpecification: STREAM, GlobalSecondaryIndexes: ALL_INDEXES() },
    });
    dynamo.on(DescribeTimeToLiveCommand).resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED' } });

    expect(await ensureTable('t')).toBe(false);
    expect(dynamo.commandCalls(UpdateTableCommand)).toHaveLength(0);
  });

  it('describes the table once: DynamoDB Local sizes every index on each DescribeTable, minutes on a large table', async () => {
    // Prepare: every index but the last; the engine answers the creation ACTIVE at once, as DynamoDB Local does.
    const last = GLOBAL_INDEXES[GLOBAL_INDEXES.length - 1].indexName;
    dynamo.on(DescribeTableCommand).resolves({
      Table: { TableName: 't', TableStatus: 'ACTIVE', StreamSpecification: STREAM, GlobalSecondaryIndexes: ALL_INDEXES().slice(0, -1) },
    });
    dynamo.on(UpdateTableCommand).resolves({ TableDescription: { TableName: 't', GlobalSecondaryIndexes: ALL_INDEXES() } });
    dynamo.on(DescribeTimeToLiveCommand).resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED' } });

    // Act
    await ensureTable('t');

    // Assess
    expect(dynamo.commandCalls(DescribeTableCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(UpdateTableCommand).map((call) => call.args[0].input.GlobalSecondaryIndexUpdates?.[0].Create?.IndexName)).toEqual([last]);
  });

  it('enables the stream of a table made without one, with one UpdateTable', async () => {
    // Prepare: every index, no stream.
    dynamo.on(DescribeTableCommand).resolves({ Table: { TableName: 't', TableStatus: 'ACTIVE', GlobalSecondaryIndexes: ALL_INDEXES() } });
    dynamo.on(DescribeTimeToLiveCommand).resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED' } });

    // Act
    const created = await ensureTable('t');

    // Assess
    expect(created).toBe(false);
    expect(dynamo.commandCalls(UpdateTableCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 't', StreamSpecification: STREAM },
    ]);
  });

  it('replaces a stream of another view type: disabled, then enabled with both images', async () => {
    // Prepare
    dynamo.on(DescribeTableCommand).resolves({
      Table: {
        TableName: 't',
        TableStatus: 'ACTIVE',
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
        GlobalSecondaryIndexes: ALL_INDEXES(),
      },
    });
    dynamo.on(DescribeTimeToLiveCommand).resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED' } });

    // Act
    await ensureTable('t');

    // Assess
    expect(dynamo.commandCalls(UpdateTableCommand).map((call) => call.args[0].input.StreamSpecification)).toEqual([
      { StreamEnabled: false },
      STREAM,
    ]);
  });
});

describe('ensureTable without a table', () => {
  it('creates the table with the stream the deployed table has', async () => {
    // Prepare: not found, then ACTIVE once created.
    let exists = false;
    dynamo.on(DescribeTableCommand).callsFake(() => {
      if (!exists) throw new ResourceNotFoundException({ message: 'not found', $metadata: {} });
      return { Table: { TableName: 't', TableStatus: 'ACTIVE' } };
    });
    dynamo.on(CreateTableCommand).callsFake(() => {
      exists = true;
      return {};
    });
    dynamo.on(DescribeTimeToLiveCommand).resolves({ TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED' } });

    // Act
    const created = await ensureTable('t');

    // Assess
    expect(created).toBe(true);
    expect(dynamo.commandCalls(CreateTableCommand)[0].args[0].input.StreamSpecification).toEqual(STREAM);
    expect(dynamo.commandCalls(UpdateTableCommand)).toHaveLength(0);
  });
});
