import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { traced } from '../observability';
import { countWrites } from '../write-audit';

/**
 * One S3 client per Lambda container, created on first use and reused across invocations.
 * Endpoints come from the SDK's own environment variables (AWS, LocalStack, s3rver); each feature
 * builds its object keys in its own registry (e.g. `shared/projects/store/objects.ts`). Its calls
 * are X-Ray subsegments where tracing is on (deployed; `shared/platform/observability.ts`).
 */
let s3Client: S3Client | undefined;

export function s3(): S3Client {
  s3Client ??= traced(countWrites(new S3Client({ forcePathStyle: config().s3ForcePathStyle })));
  return s3Client;
}

/** The bucket every object lives in. */
export const bucketName = (): string => config().bucketName;

/** Test hook: use the given client (e.g. wrapped by aws-sdk-client-mock); `undefined`: the default one again. */
export function setS3Client(client: S3Client | undefined): void {
  s3Client = client;
}
