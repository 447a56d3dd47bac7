/**
 * Project uploads: the bytes are an S3 object under the project's prefix (`objects.ts`); a small
 * item in the project's partition (`PROJECT#<id>` / `UPLOAD#<secret>`) records that the upload
 * exists, its name and its type. Deleting the project deletes both (its partition and its
 * prefix), so an upload never outlives its project.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { bucketName, isNoSuchKey, s3 } from '../../platform/s3/client';
import type { Item } from '../../platform/dynamo/query';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { projectKeys } from './keys';
import { projectObjects } from './objects';
import { projectIsLive } from './projects';

/** An uploaded file: its item in the project's partition; the bytes are in S3 ({@link projectObjects}). */
export interface ProjectUpload {
  projectId: number;
  /** 32 hex characters (128 random bits): knowing it is what lets a reader find the file. */
  secret: string;
  /** The sanitized file name. */
  filename: string;
  contentType: string;
  size: number;
  uploadedBy: number;
  createdAt: string;
}

function uploadToItem(upload: ProjectUpload): Item {
  return { ...projectKeys.upload(upload.projectId, upload.secret), type: 'Upload', ...upload };
}

function uploadFromItem(item: Item): ProjectUpload {
  return {
    projectId: Number(item.projectId),
    secret: String(item.secret),
    filename: String(item.filename),
    contentType: String(item.contentType),
    size: Number(item.size),
    uploadedBy: Number(item.uploadedBy),
    createdAt: String(item.createdAt),
  };
}

/** Where an upload's bytes are. */
const objectOf = (upload: Pick<ProjectUpload, 'projectId' | 'secret' | 'filename'>) => ({
  Bucket: bucketName(),
  Key: projectObjects.upload(upload.projectId, upload.secret, upload.filename),
});

/**
 * Stores an upload: the bytes go to S3 first, then the item, written only while the project is
 * live; if that fails (`project_gone`: the project is being deleted) the object is removed again.
 * In that order, a project deletion running at the same time (which deletes the partition, then
 * the prefix) cannot leave an object behind.
 */
export async function putUpload(upload: ProjectUpload, data: Buffer): Promise<'stored' | 'project_gone'> {
  const { client, sdk } = await s3();
  const object = objectOf(upload);
  await client.send(new sdk.PutObjectCommand({ ...object, Body: data, ContentType: upload.contentType }));
  try {
    await transact({
      project: projectIsLive(upload.projectId),
      upload: { Put: { TableName: tableName(), Item: uploadToItem(upload), ConditionExpression: 'attribute_not_exists(PK)' } },
    });
  } catch (error) {
    try {
      await client.send(new sdk.DeleteObjectCommand(object));
    } catch {
      // Best effort: the error that matters is the write's. Should this delete fail as well, the
      // object stays under the project's prefix until the project is deleted.
    }
    if (error instanceof ConditionFailed && error.failedOn('project')) return 'project_gone';
    throw error;
  }
  return 'stored';
}

/** The upload of a project with this secret, if there is one (consistent read). */
export async function getUpload(projectId: number, secret: string): Promise<ProjectUpload | undefined> {
  const { Item: item } = await db().send(new GetCommand({ TableName: tableName(), Key: projectKeys.upload(projectId, secret), ConsistentRead: true }));
  return item ? uploadFromItem(item) : undefined;
}

/** The bytes of an upload; `undefined` when the object is gone (its project is being deleted). */
export async function readUploadObject(upload: ProjectUpload): Promise<Buffer | undefined> {
  const { client, sdk } = await s3();
  try {
    const { Body } = await client.send(new sdk.GetObjectCommand(objectOf(upload)));
    return Body ? Buffer.from(await Body.transformToByteArray()) : undefined;
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}
