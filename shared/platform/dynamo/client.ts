import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';

/**
 * One DynamoDB document client and one S3 client per Lambda container, created outside the
 * handler so connections are reused across invocations. Endpoints come from the SDK's own
 * environment variables, so the same code talks to AWS, LocalStack or the local emulators.
 */
let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;

/** The table every item lives in. */
export const tableName = (): string => config().tableName;

export function db(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function s3(): S3Client {
  s3Client ??= new S3Client({ forcePathStyle: config().s3ForcePathStyle });
  return s3Client;
}

/** Test hook: use the given clients (e.g. wrapped by aws-sdk-client-mock). */
export function setClients(clients: { db?: DynamoDBDocumentClient; s3?: S3Client }): void {
  if (clients.db) documentClient = clients.db;
  if (clients.s3) s3Client = clients.s3;
}
