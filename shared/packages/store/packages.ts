/**
 * Packages and their files (GitLab's `Packages::Package`, `Packages::PackageFile`): one item per
 * package in its project's partition (`PROJECT#<id>` / `PACKAGE#<id>`, swept with the partition
 * when the project is deleted) with its order-index entries, a claim of its name and version
 * (`PACKAGE_NAME#…`: one package per name and version, whatever uploads race), and one item per
 * file under it. Contents are S3 objects named by the file's id ({@link packageObjects}), written
 * before the item that names them: a reader always finds the object of a file it read, and an
 * object whose item could not be written is deleted by its writer.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import { getEntity, getItem, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { heldAs, transactOr } from '../../platform/dynamo/transactions';
import { deleteMany } from '../../platform/dynamo/batch';
import { bucketName, deleteObjects, deleteObjectsUnder, isNoSuchKey, s3 } from '../../platform/s3/client';
import { projectIsLive } from '../../projects';
import { PACKAGE_FILE_SEQUENCE, PACKAGE_SEQUENCE, packageCollections, packageIndexKeys, packageKeys, packageObjects } from './keys';

/** The package types GitLab knows (`Packages::Package.package_types`); only `generic` packages are uploaded here. */
export const PACKAGE_TYPES = ['maven', 'npm', 'conan', 'nuget', 'pypi', 'composer', 'generic', 'golang', 'debian', 'rubygems', 'helm', 'terraform_module', 'rpm', 'ml_model'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

/** GitLab's package statuses; uploads here make `default` and `hidden` ones only. */
export const PACKAGE_STATUSES = ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

export interface Package {
  id: number;
  projectId: number;
  name: string;
  version: string;
  packageType: PackageType;
  status: PackageStatus;
  /** The user who created it; null when a deploy token or a job token did (GitLab's `creator_id`). */
  creatorId: number | null;
  /** The CI job whose token uploaded its first file (GitLab's build info), if any. */
  jobId: number | null;
  createdAt: string;
  updatedAt: string;
  lastDownloadedAt: string | null;
}

export interface PackageFile {
  id: number;
  packageId: number;
  projectId: number;
  fileName: string;
  size: number;
  /** Hex SHA-256 of the content (GitLab's `file_sha256`; MD5 and SHA-1 are not computed for generic files, as GitLab's). */
  sha256: string;
  /** The CI job whose token uploaded it, if any. */
  jobId: number | null;
  createdAt: string;
  updatedAt: string;
}

export const packageFromItem = (item: Item): Package => entityFields(item) as Package;
export const packageFileFromItem = (item: Item): PackageFile => entityFields(item) as PackageFile;

export const newPackageId = (): Promise<number> => nextId(PACKAGE_SEQUENCE);
export const newPackageFileId = (): Promise<number> => nextId(PACKAGE_FILE_SEQUENCE);

/** Internal: a package as an item, with its order-index entries. */
const packageItem = (pkg: Package): Item => ({
  ...packageKeys.package(pkg.projectId, pkg.id),
  ...packageIndexKeys.orders(pkg.projectId, pkg.status, pkg.name, pkg.version, pkg.id),
  type: 'Package',
  ...pkg,
});

/** Internal: a file as an item, with its entry among its package's files by name. */
const fileItem = (file: PackageFile): Item => ({
  ...packageKeys.file(file.projectId, file.packageId, file.id),
  ...packageIndexKeys.fileByName(file.packageId, file.fileName, file.id),
  type: 'PackageFile',
  ...file,
});

export async function getPackage(projectId: number, packageId: number): Promise<Package | undefined> {
  if (!isId(packageId)) return undefined;
  return getEntity(packageKeys.package(projectId, packageId), packageFromItem);
}

export async function getPackageFile(projectId: number, packageId: number, fileId: number): Promise<PackageFile | undefined> {
  if (!isId(fileId)) return undefined;
  return getEntity(packageKeys.file(projectId, packageId, fileId), packageFileFromItem);
}

/** The id of the project's package of that type, name and version, from its claim (consistent). */
export async function packageIdByName(projectId: number, packageType: PackageType, name: string, version: string): Promise<number | undefined> {
  const claim = await getItem(packageKeys.nameClaim(projectId, packageType, name, version));
  return claim ? (claim.packageId as number) : undefined;
}

/**
 * Adds a package with its first file while its project is live and no package holds its name and
 * version: `name_taken` when one does (a concurrent upload won: the caller adds its file to that
 * one), `project_gone` when the project went.
 */
export function insertPackageWithFile(pkg: Package, file: PackageFile): Promise<'name_taken' | 'project_gone' | undefined> {
  return transactOr(
    {
      project: projectIsLive(pkg.projectId),
      name: putClaim(packageKeys.nameClaim(pkg.projectId, pkg.packageType, pkg.name, pkg.version), { packageId: pkg.id }),
      package: { Put: { TableName: tableName(), Item: packageItem(pkg), ConditionExpression: 'attribute_not_exists(PK)' } },
      file: { Put: { TableName: tableName(), Item: fileItem(file), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [
      ['project', 'project_gone'],
      ['name', 'name_taken'],
    ],
  );
}

/**
 * Adds a file to a package that still exists (`package_gone` otherwise: deleted meanwhile), in
 * the same transaction moving the package to `status` when given and different (GitLab's
 * `update_column(:status, …)` of an upload naming a status).
 */
export function insertFile(pkg: Package, file: PackageFile, status?: PackageStatus): Promise<'package_gone' | 'project_gone' | undefined> {
  const key = packageKeys.package(pkg.projectId, pkg.id);
  const moved = status !== undefined && status !== pkg.status;
  const packageEntry = moved
    ? heldAs(
        {
          Update: {
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET #status = :status, updatedAt = :at, GSI1PK = :pk, GSI2PK = :pk, GSI3PK = :pk',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': status, ':at': file.createdAt, ':pk': packageIndexKeys.orders(pkg.projectId, status, pkg.name, pkg.version, pkg.id).GSI1PK },
          },
        },
        packageItem(pkg),
      )
    : { ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(PK)' } };
  return transactOr(
    {
      project: projectIsLive(pkg.projectId),
      package: packageEntry,
      file: { Put: { TableName: tableName(), Item: fileItem(file), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [
      ['project', 'project_gone'],
      ['package', 'package_gone'],
    ],
  );
}

/** Every file of a package, by id (a package holds what its uploads put in it: read whole only where GitLab reads it whole). */
export async function packageFiles(pkg: Pick<Package, 'projectId' | 'id'>): Promise<PackageFile[]> {
  return (await queryAll(packageCollections.files(pkg.projectId, pkg.id))).map(packageFileFromItem);
}

/**
 * Deletes a package: its item and name claim together (so a new upload of the name and version
 * makes a new package), then its files' items and contents. Whether there was one.
 */
export async function deletePackage(pkg: Package): Promise<boolean> {
  const failure = await transactOr(
    {
      package: heldAs({ Delete: { TableName: tableName(), Key: packageKeys.package(pkg.projectId, pkg.id), ConditionExpression: 'attribute_exists(PK)' } }, packageItem(pkg)),
      name: { Delete: { TableName: tableName(), Key: packageKeys.nameClaim(pkg.projectId, pkg.packageType, pkg.name, pkg.version), ConditionExpression: 'packageId = :id', ExpressionAttributeValues: { ':id': pkg.id } } },
    },
    [
      ['package', 'gone'],
      ['name', 'gone'],
    ],
  );
  if (failure) return false;
  const files = await queryAll(packageCollections.files(pkg.projectId, pkg.id));
  await deleteMany(files.map((item) => ({ PK: item.PK as string, SK: item.SK as string })));
  if (files.length > 0) await deleteObjects(files.map((item) => packageObjects.file(pkg.projectId, item.id as number)));
  return true;
}

/** Deletes one file (its item, then its content); whether there was one. */
export async function deletePackageFile(file: PackageFile): Promise<boolean> {
  const failure = await transactOr(
    { file: heldAs({ Delete: { TableName: tableName(), Key: packageKeys.file(file.projectId, file.packageId, file.id), ConditionExpression: 'attribute_exists(PK)' } }, fileItem(file)) },
    [['file', 'gone']],
  );
  if (failure) return false;
  await deleteObjects([packageObjects.file(file.projectId, file.id)]);
  return true;
}

/** Records a download (GitLab's `last_downloaded_at`): one UpdateItem of no index attribute; a package gone meanwhile is no error. */
export async function touchDownloaded(pkg: Package, at: string): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: packageKeys.package(pkg.projectId, pkg.id),
        UpdateExpression: 'SET lastDownloadedAt = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

/** Stores a file's content under its id (before its item is written). */
export async function putFileContent(projectId: number, fileId: number, data: Buffer): Promise<void> {
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: packageObjects.file(projectId, fileId), Body: data, ContentType: 'application/octet-stream' }));
}

/** Deletes a content whose item was never written. */
export const deleteFileContent = (projectId: number, fileId: number): Promise<void> => deleteObjects([packageObjects.file(projectId, fileId)]);

/** A file's content; `undefined` when its object is gone (the file deleted meanwhile). */
export async function readFileContent(file: PackageFile): Promise<Buffer | undefined> {
  const { client, sdk } = await s3();
  try {
    const result = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: packageObjects.file(file.projectId, file.id) }));
    return Buffer.from(await result.Body!.transformToByteArray());
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}

/** Every content of a project's packages (the project is being deleted; the items go with its partition). */
export const deleteProjectContents = (projectId: number): Promise<void> => deleteObjectsUnder(packageObjects.projectPrefix(projectId));
