/**
 * Unit tests of the data layer against a mocked DocumentClient (aws-sdk-client-mock): for fault
 * paths a real engine cannot produce on demand (cancelled transactions, throttling).
 */
import { DynamoDBClient, TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { resetConfig } from '../../shared/platform/config';
import { setClients } from '../../shared/platform/dynamo/client';

/**
 * Points the data layer at `table` on a mocked client for the test file (reset before each test,
 * the environment restored after the file) and returns the mock to script answers on.
 */
export function useMockedTable(table: string) {
  const mock = mockClient(DynamoDBDocumentClient);
  const saved = process.env.TABLE_NAME;
  beforeAll(() => {
    process.env.TABLE_NAME = table;
    resetConfig();
    setClients({ db: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } })) });
  });
  afterAll(() => {
    mock.restore();
    if (saved === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = saved;
    resetConfig();
  });
  beforeEach(() => {
    mock.reset();
    // Derived entries (search terms) are written unconditionally around each write: accepted by default.
    mock.on(BatchWriteCommand).resolves({});
    // A transaction first reads the versions of the items it may move out of read-your-writes index
    // partitions (`transactions.ts`): by default there are none; a test scripts them when it matters.
    mock.on(BatchGetCommand).resolves({ Responses: {} });
    // Partitions read after a write (redirects beneath a path just taken) are empty unless scripted.
    mock.on(QueryCommand).resolves({ Items: [] });
  });
  return mock;
}

/** The error DynamoDB answers a cancelled transaction with, one reason code per operation. */
export const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code): CancellationReason => ({ Code })),
  });

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * The operations of a transaction as its writer named them: without the read-your-writes journal
 * entries and marks (`RecentWrite` and `JournalMark` puts) that `transact` adds at the end when they fit.
 */
export const writerOperations = (input: TransactWriteCommandInput): TransactItems =>
  (input.TransactItems ?? []).filter((operation) => !['RecentWrite', 'JournalMark'].includes(String(operation.Put?.Item?.type)));
