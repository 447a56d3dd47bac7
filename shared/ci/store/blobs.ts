/**
 * Traces and artifacts in S3 ({@link ciObjects}): trace chunks written as the runner sends them,
 * archived into one object when the job ends; artifacts uploaded whole; both streamed to readers.
 */
import { bucketName, deleteObjects, deleteObjectsUnder, isNoSuchKey, s3 } from '../../platform/s3/client';
import type { JobTestResult } from '../junit';
import type { ByteSource } from '../zip-reader';
import { ciObjects } from './objects';

export async function putTraceChunk(jobId: number, offset: number, data: Buffer): Promise<void> {
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: ciObjects.traceChunk(jobId, offset), Body: data, ContentType: 'text/plain' }));
}

async function listKeys(prefix: string): Promise<string[]> {
  const { client, sdk } = await s3();
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

async function readObject(key: string): Promise<Buffer | undefined> {
  const { client, sdk } = await s3();
  try {
    const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return Buffer.from(await result.Body!.transformToByteArray());
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}

/** The live trace: its chunks in order, cut at `length` bytes (what was acknowledged). */
export async function readTraceChunks(jobId: number, length: number): Promise<Buffer> {
  const parts = await Promise.all((await listKeys(ciObjects.traceChunkPrefix(jobId))).map(readObject));
  return Buffer.concat(parts.filter((part): part is Buffer => part !== undefined)).subarray(0, length);
}

/** Writes the whole trace as one object and removes the chunks. */
export async function archiveTrace(jobId: number, trace: Buffer): Promise<void> {
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: ciObjects.trace(jobId), Body: trace, ContentType: 'text/plain' }));
  await deleteObjectsUnder(ciObjects.traceChunkPrefix(jobId));
}

/** Removes everything of a job (erase, pipeline deletion). */
export async function deleteJobObjects(jobId: number): Promise<void> {
  await deleteObjectsUnder(ciObjects.jobPrefix(jobId));
}

export async function deleteTrace(jobId: number): Promise<void> {
  await deleteObjectsUnder(ciObjects.traceChunkPrefix(jobId));
  await deleteObjects([ciObjects.trace(jobId)]);
}

export async function deleteArtifacts(jobId: number): Promise<void> {
  await deleteObjects([ciObjects.artifacts(jobId)]);
}

/** Deletes the artifacts objects of several jobs (DeleteObjects, up to 1,000 keys a request). */
export async function deleteArtifactObjects(jobIds: readonly number[]): Promise<void> {
  if (jobIds.length > 0) await deleteObjects(jobIds.map((jobId) => ciObjects.artifacts(jobId)));
}

export async function putArtifacts(jobId: number, data: Buffer, contentType: string): Promise<void> {
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: ciObjects.artifacts(jobId), Body: data, ContentType: contentType }));
}

/** An object as it is read from S3 (its body streamed, never whole in memory), or undefined when gone. */
export interface OpenedObject {
  chunks: AsyncIterable<Uint8Array>;
  length: number | undefined;
}

async function openObject(key: string): Promise<OpenedObject | undefined> {
  const { client, sdk } = await s3();
  try {
    const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return { chunks: result.Body as AsyncIterable<Uint8Array>, length: result.ContentLength };
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}

/** The artifacts archive, streamed from S3 (the groups serving it answer through response streaming). */
export const openArtifacts = (jobId: number) => openObject(ciObjects.artifacts(jobId));

/** The archived trace of an ended job, streamed. */
export const openArchivedTrace = (jobId: number) => openObject(ciObjects.trace(jobId));

/**
 * The artifacts archive as a {@link ByteSource} of ranged reads (one file is taken out of it
 * without reading it whole: `zip-reader.ts`); its size read once (HeadObject).
 */
export function artifactsSource(jobId: number): ByteSource {
  const key = ciObjects.artifacts(jobId);
  let size: Promise<number | undefined> | undefined;
  const get = async (start: number, end: number) => {
    const { client, sdk } = await s3();
    // `end` is exclusive; an empty range is never asked for (the reader reads at least a header).
    const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: key, Range: `bytes=${start}-${end - 1}` }));
    return result.Body!;
  };
  return {
    size: () =>
      (size ??= (async () => {
        const { client, sdk } = await s3();
        try {
          return (await client.send(new sdk.HeadObjectCommand({ Bucket: bucketName(), Key: key }))).ContentLength;
        } catch (error) {
          if (isNoSuchKey(error) || (error as Error | undefined)?.name === 'NotFound') return undefined;
          throw error;
        }
      })()),
    read: async (start, end) => Buffer.from(await (await get(start, end)).transformToByteArray()),
    stream: async (start, end) => (await get(start, end)) as AsyncIterable<Uint8Array>,
  };
}

/** The cases of a job's JUnit report (`JobTestResult`), written when it is uploaded. */
export async function putTestReport(jobId: number, result: JobTestResult): Promise<void> {
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: ciObjects.testReport(jobId), Body: JSON.stringify(result), ContentType: 'application/json' }));
}

export async function readTestReport(jobId: number): Promise<JobTestResult | undefined> {
  const data = await readObject(ciObjects.testReport(jobId));
  return data ? (JSON.parse(data.toString('utf8')) as JobTestResult) : undefined;
}
