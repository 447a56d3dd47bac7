import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { traced } from '../observability';
import { countWrites } from '../write-audit';

/**
 * One DynamoDB document client per Lambda container, created on first use and reused across
 * invocations. Endpoints come from the SDK's own environment variables, so the same code talks
 * to AWS, LocalStack or the local emulators. Its calls are X-Ray subsegments where tracing is on
 * (deployed; `shared/platform/observability.ts`).
 */
let documentClient: DynamoDBDocumentClient | undefined;

/** The table every item lives in. */
export const tableName = (): string => config().tableName;

export function db(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(traced(countWrites(new DynamoDBClient({}))), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

/** Test hook: use the given client (e.g. wrapped by aws-sdk-client-mock); `undefined`: the default one again. */
export function setClients(clients: { db: DynamoDBDocumentClient | undefined }): void {
  documentClient = clients.db;
}
