/**
 * The write audit (shared/platform/write-audit.ts): with `WRITE_AUDIT=true`, the AWS SDK clients
 * name each write that succeeded in the audit of the request that made it; reads, failed writes
 * and writes outside a request are not counted.
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/platform/config';
import { auditWrites, countWrites } from '../../shared/platform/write-audit';

/** Internal: a client whose requests never leave the process: `fail` makes them throw. */
function offline<C extends DynamoDBClient | S3Client>(client: C, fail = false): C {
  (client.middlewareStack as unknown as { add: (m: unknown, o: unknown) => void }).add(
    () => async () => {
      if (fail) throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
      return { output: { $metadata: {} }, response: {} };
    },
    { step: 'build', name: 'offline' },
  );
  return client;
}

const dynamo = (fail = false) => offline(countWrites(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } })), fail);

describe('countWrites', () => {
  beforeEach(() => {
    process.env.WRITE_AUDIT = 'true';
    resetConfig();
  });
  afterEach(() => {
    delete process.env.WRITE_AUDIT;
    resetConfig();
  });

  it('names the writes that succeeded inside an audit, through the document client too, and no read', async () => {
    // Prepare
    const client = dynamo();
    const documents = DynamoDBDocumentClient.from(client);
    const s3 = offline(countWrites(new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } })));
    const writes: string[] = [];

    // Act
    await auditWrites(writes, async () => {
      await client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } }));
      await client.send(new PutItemCommand({ TableName: 't', Item: { PK: { S: 'a' } } }));
      await documents.send(new PutCommand({ TableName: 't', Item: { PK: 'b' } }));
      await documents.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 't', Item: { PK: 'c' } } }] }));
      await s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x' }));
    });

    // Assess
    expect(writes).toEqual(['PutItem', 'PutItem', 'TransactWriteItems', 'PutObject']);
  });

  it('does not count a write that failed, nor one made outside any audit', async () => {
    // Prepare
    const writes: string[] = [];

    // Act
    await auditWrites(writes, () => dynamo(true).send(new PutItemCommand({ TableName: 't', Item: { PK: { S: 'a' } } })).catch(() => undefined));
    await dynamo().send(new PutItemCommand({ TableName: 't', Item: { PK: { S: 'a' } } }));

    // Assess
    expect(writes).toEqual([]);
  });

  it('keeps the audits of requests served side by side apart', async () => {
    // Prepare
    const client = dynamo();
    const [first, second]: string[][] = [[], []];
    const put = () => client.send(new PutItemCommand({ TableName: 't', Item: { PK: { S: 'a' } } }));

    // Act
    await Promise.all([auditWrites(first, async () => { await put(); await put(); }), auditWrites(second, async () => undefined)]);

    // Assess
    expect(first).toHaveLength(2);
    expect(second).toEqual([]);
  });

  it('adds nothing to a client when the audit is off', async () => {
    // Prepare
    delete process.env.WRITE_AUDIT;
    resetConfig();
    const writes: string[] = [];

    // Act
    await auditWrites(writes, async () => {
      await dynamo().send(new PutItemCommand({ TableName: 't', Item: { PK: { S: 'a' } } }));
    });

    // Assess
    expect(writes).toEqual([]);
  });
});
