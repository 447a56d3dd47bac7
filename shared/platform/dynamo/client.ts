import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { logger } from '../logger';
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

/**
 * The SDK's logger: its warnings in ours, and neither `info` nor `error`. The SDK builds a copy of
 * every request and response with sensitive members masked (`schemaLogFilter`) to hand to `info`
 * (and of every failed request to `error`), even when the logger is its default no-op one;
 * without them it skips that work (about 5 % of the busy CPU of an issue list page in the
 * `npm run bench` profile). A failed call is thrown to the code that made it, which knows whether
 * it is an error (a failed condition usually is not).
 */
const sdkLogger = {
  debug: () => undefined,
  trace: () => undefined,
  warn: (...content: unknown[]) => logger.warn('AWS SDK warning', { content }),
} as unknown as NonNullable<DynamoDBClientConfig['logger']>;

export function db(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(traced(countWrites(new DynamoDBClient({ logger: sdkLogger }))), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

/** Test hook: use the given client (e.g. wrapped by aws-sdk-client-mock); `undefined`: the default one again. */
export function setClients(clients: { db: DynamoDBDocumentClient | undefined }): void {
  documentClient = clients.db;
}
