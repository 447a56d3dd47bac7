/**
 * Diff versions of merge requests (GitLab's `merge_request_diffs`): the metadata item
 * `MR_VERSION#<iid>#<id>` (listed by `GET …/versions`) and, apart, the version's commits and diffs,
 * computed once when the version is recorded: inline in `MR_DIFF#<iid>#<id>` while they fit an item
 * comfortably, else as one JSON object in S3 (`versionObjectKey`), written before the transaction
 * that records the version (an object whose transaction failed is never read).
 */
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getItem, queryAll } from '../../platform/dynamo/query';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { bucketName, deleteObjectsUnder, s3 } from '../../platform/s3/client';
import { mergeRequestCollections, mergeRequestKeys, versionObjectKey, versionObjectPrefix } from './keys';
import type { StoredVersion } from './merge-requests';

/** A commit of a version, as GitLab's `Commit` entity shows it (`id`, `short_id`, `title`, `message`, ...). */
export type VersionCommit = Record<string, unknown> & { id: string; message: string };

/** A file diff of a version, as GitLab's `Diff` entity shows it (`old_path`, `new_path`, modes, flags, `diff`). */
export type VersionDiff = Record<string, unknown> & { old_path: string; new_path: string; diff: string; new_file: boolean; deleted_file: boolean };

/** The commits (newest first) and diffs of a version. */
export interface VersionContent {
  commits: VersionCommit[];
  diffs: VersionDiff[];
}

/** Content larger than this (as JSON) goes to S3: an item holds 400 KB with its keys and names. */
const INLINE_LIMIT = 300_000;

/**
 * The items recording a version (metadata and, when small, its content), for the transaction of
 * the merge request write; large content is put in S3 first.
 */
export async function versionItems(version: StoredVersion, content: VersionContent): Promise<TransactItem[]> {
  const json = JSON.stringify(content);
  const external = Buffer.byteLength(json) > INLINE_LIMIT;
  if (external) {
    const { client, sdk } = await s3();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: bucketName(), Key: versionObjectKey(version.projectId, version.iid, version.id), Body: json, ContentType: 'application/json' }),
    );
  }
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...mergeRequestKeys.version(version.projectId, version.iid, version.id), type: 'MergeRequestVersion', ...version, external },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
  if (!external) {
    items.push({
      Put: { TableName: tableName(), Item: { ...mergeRequestKeys.versionContent(version.projectId, version.iid, version.id), type: 'MergeRequestVersionContent', content: json } },
    });
  }
  return items;
}

/** Internal: the metadata of a stored version item. */
const versionFromItem = (item: Record<string, unknown>): StoredVersion & { external?: boolean } => entityFields(item) as StoredVersion & { external?: boolean };

/** The versions of a merge request, newest first (metadata only). */
export async function listVersions(projectId: number, iid: number): Promise<StoredVersion[]> {
  return (await queryAll(mergeRequestCollections.versions(projectId, iid), false)).map(versionFromItem);
}

/** One version's metadata, if it is one of the merge request's. */
export async function getVersion(projectId: number, iid: number, versionId: number): Promise<(StoredVersion & { external?: boolean }) | undefined> {
  if (!Number.isSafeInteger(versionId) || versionId < 1) return undefined;
  const item = await getItem(mergeRequestKeys.version(projectId, iid, versionId));
  return item && versionFromItem(item);
}

/** A version's commits and diffs (empty when nothing was stored). */
export async function versionContent(version: StoredVersion & { external?: boolean }): Promise<VersionContent> {
  if (version.external) {
    const { client, sdk } = await s3();
    const { Body } = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: versionObjectKey(version.projectId, version.iid, version.id) }));
    return JSON.parse(await Body!.transformToString('utf8')) as VersionContent;
  }
  const item = await getItem(mergeRequestKeys.versionContent(version.projectId, version.iid, version.id));
  return item ? (JSON.parse(item.content as string) as VersionContent) : { commits: [], diffs: [] };
}

/**
 * Removes the S3 objects of a deleted project's large diff versions (its items go with its
 * partition); registered with the projects feature's `removeWithProject` by the composition root.
 */
export const removeVersionObjects = (projectId: number): Promise<void> => deleteObjectsUnder(versionObjectPrefix(projectId));
