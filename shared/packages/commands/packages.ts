/**
 * Writes of packages: a generic package file uploaded (GitLab's
 * `Packages::Generic::CreatePackageFileService`: the package of that name and version found or
 * created, the file added to it, duplicates allowed as GitLab's default), a package or one file
 * deleted, and a deleted project's contents. They turn the store's results into GitLab's errors.
 */
import { createHash } from 'node:crypto';
import { config } from '../../platform/config';
import { NotFoundError, PayloadTooLargeError } from '../../platform/http/errors';
import {
  deleteFileContent,
  deletePackage,
  deletePackageFile,
  deleteProjectContents,
  getPackage,
  insertFile,
  insertPackageWithFile,
  newPackageFileId,
  newPackageId,
  packageIdByName,
  putFileContent,
  type Package,
  type PackageFile,
  type PackageStatus,
} from '../store/packages';

export interface GenericUpload {
  name: string;
  version: string;
  fileName: string;
  /** The package's status after the upload; undefined: `default` for a new package, unchanged otherwise. */
  status?: PackageStatus;
  data: Buffer;
  /** The user uploading; null for a deploy token or a job token (GitLab's `creator_id`). */
  creatorId: number | null;
  /** The running job whose token uploads, if any. */
  jobId: number | null;
}

/** How often an upload tries again after losing a race (a package created or deleted meanwhile by another request). */
const ATTEMPTS = 4;

/**
 * Stores a generic package file: 413 above `config().maxPackageFileBytes` (Lambda's payload limit,
 * README); the content in S3 first, then the file's item with its package: created with its name
 * claim, or joined when the name and version are taken (concurrent uploads of one name and version
 * make one package). 404 when the project went meanwhile.
 */
export async function uploadGenericFile(projectId: number, upload: GenericUpload): Promise<{ pkg: Package; file: PackageFile }> {
  if (upload.data.length > config().maxPackageFileBytes) throw new PayloadTooLargeError();
  const now = new Date().toISOString();
  const fileId = await newPackageFileId();
  await putFileContent(projectId, fileId, upload.data);
  const fileOf = (packageId: number): PackageFile => ({
    id: fileId,
    packageId,
    projectId,
    fileName: upload.fileName,
    size: upload.data.length,
    sha256: createHash('sha256').update(upload.data).digest('hex'),
    jobId: upload.jobId,
    createdAt: now,
    updatedAt: now,
  });
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const existingId = await packageIdByName(projectId, 'generic', upload.name, upload.version);
      const existing = existingId === undefined ? undefined : await getPackage(projectId, existingId);
      if (existing) {
        const file = fileOf(existing.id);
        const failure = await insertFile(existing, file, upload.status);
        if (failure === 'project_gone') throw new NotFoundError('Project');
        if (failure === undefined) return { pkg: upload.status ? { ...existing, status: upload.status } : existing, file };
        continue;
      }
      const pkg: Package = {
        id: await newPackageId(),
        projectId,
        name: upload.name,
        version: upload.version,
        packageType: 'generic',
        status: upload.status ?? 'default',
        creatorId: upload.creatorId,
        jobId: upload.jobId,
        createdAt: now,
        updatedAt: now,
        lastDownloadedAt: null,
      };
      const file = fileOf(pkg.id);
      const failure = await insertPackageWithFile(pkg, file);
      if (failure === 'project_gone') throw new NotFoundError('Project');
      if (failure === undefined) return { pkg, file };
    }
    throw new Error(`package ${upload.name} ${upload.version}: still contended after ${ATTEMPTS} attempts`);
  } catch (error) {
    await deleteFileContent(projectId, fileId);
    throw error;
  }
}

/** Deletes a package with its files; 404 when it went meanwhile. */
export async function removePackage(pkg: Package): Promise<void> {
  if (!(await deletePackage(pkg))) throw new NotFoundError('Package');
}

/** Deletes one file of a package; 404 when it went meanwhile. */
export async function removePackageFile(file: PackageFile): Promise<void> {
  if (!(await deletePackageFile(file))) throw new NotFoundError('Package file');
}

/** What goes with a deleted project (a removal step of the projects feature): the contents; the items go with its partition. */
export const removeProjectPackages = (project: { id: number }): Promise<void> => deleteProjectContents(project.id);
