import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { lazily } from '../lazy';
import { traced } from '../observability';
import { countWrites } from '../write-audit';

/**
 * One S3 client per Lambda container, created on first use and reused across invocations.
 * Endpoints come from the SDK's own environment variables (AWS, LocalStack, s3rver); each feature
 * builds its object keys in its own registry (e.g. `shared/projects/store/objects.ts`). Its calls
 * are X-Ray subsegments where tracing is on (deployed; `shared/platform/observability.ts`).
 *
 * The SDK's S3 module is imported on first use too (the bundler gives it a chunk of its own,
 * `infra/bundling.ts`): most requests of most functions never touch the bucket, and it is about
 * 135 KB of code a cold start would otherwise parse. So callers take the commands from it:
 * @example
 * const { client, sdk } = await s3();
 * await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: key, Body: data }));
 */
export interface S3 {
  client: S3Client;
  sdk: typeof S3Sdk;
}

let s3Client: S3Client | undefined;
const loadSdk = lazily(
  () => import('@aws-sdk/client-s3'),
  (sdk) => () => sdk,
);

export async function s3(): Promise<S3> {
  const sdk = await loadSdk();
  s3Client ??= traced(countWrites(new sdk.S3Client({ forcePathStyle: config().s3ForcePathStyle })));
  return { client: s3Client, sdk };
}

/** `DeleteObjects`' limit on the keys of one request. */
const DELETE_BATCH = 1000;

/** Deletes the objects of `keys` (missing ones are no error), up to 1,000 keys a request. */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  const { client, sdk } = await s3();
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    const objects = keys.slice(i, i + DELETE_BATCH).map((Key) => ({ Key }));
    await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucketName(), Delete: { Objects: objects, Quiet: true } }));
  }
}

/**
 * Deletes every object whose key starts with `prefix`, a listed page (up to 1,000 keys) at a time:
 * everything of a project, of a job, of a trace's chunks.
 */
export async function deleteObjectsUnder(prefix: string): Promise<void> {
  const { client, sdk } = await s3();
  let token: string | undefined;
  do {
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix, ContinuationToken: token }));
    await deleteObjects((page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/** Whether an S3 error says the object is not there (`GetObject` of a missing key). */
export const isNoSuchKey = (error: unknown): boolean => (error as Error | undefined)?.name === 'NoSuchKey';

/** The bucket every object lives in. */
export const bucketName = (): string => config().bucketName;

/** Test hook: use the given client (e.g. wrapped by aws-sdk-client-mock); `undefined`: the default one again. */
export function setS3Client(client: S3Client | undefined): void {
  s3Client = client;
}
