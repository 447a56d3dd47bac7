/**
 * The packages feature's keys: every key, index attribute and collection of its items is built
 * here, and only here; its S3 object keys too ({@link packageObjects}). Its access patterns are
 * listed in ACCESS_PATTERNS.md beside this folder.
 */
import { indexCollection, pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

/** Internal: a project's partition (owned by the projects feature, swept whole when the project is deleted). */
const projectPartition = (projectId: number) => `PROJECT#${projectId}`;

const PACKAGE_PREFIX = 'PACKAGE#';
const PACKAGE_NAME_PREFIX = 'PACKAGE_NAME#';
const PACKAGE_FILE_PREFIX = 'PACKAGE_FILE#';
/** Index partitions: a project's packages of one status; a package's files by name. */
const PACKAGES_PARTITION = 'PACKAGES#';
const PACKAGE_FILES_PARTITION = 'PACKAGE_FILES#';

export const packageKeys = {
  /** A package in its project's partition, by id (zero-padded: id order is creation order). */
  package: (projectId: number, packageId: number): Key => ({ PK: projectPartition(projectId), SK: `${PACKAGE_PREFIX}${pad(packageId)}` }),
  /**
   * The claim of a name and version of a type in a project (one package per name and version,
   * GitLab's unique index): names and versions hold no `#`, so the key is unambiguous.
   */
  nameClaim: (projectId: number, packageType: string, name: string, version: string): Key => ({
    PK: projectPartition(projectId),
    SK: `${PACKAGE_NAME_PREFIX}${packageType}#${name}#${version}`,
  }),
  /** A file of a package, under the package (files in upload order). */
  file: (projectId: number, packageId: number, fileId: number): Key => ({ PK: projectPartition(projectId), SK: `${PACKAGE_FILE_PREFIX}${pad(packageId)}#${pad(fileId)}` }),
} as const;

/** The partition of a project's packages of one status (`default`, `hidden`) in the three order indexes. */
const packagesPartition = (projectId: number, status: string) => `${PACKAGES_PARTITION}${projectId}#${status}`;

/**
 * Secondary-index attributes written on the package item: one index partition per project and
 * status, sorted by id (GSI1: `created_at`, and `type` as one type is served), by name (GSI2) and
 * by version (GSI3), the id breaking ties. Names and versions hold only characters above `#`, so
 * `<name>#` sorts before any longer name it starts.
 */
export const packageIndexKeys = {
  orders: (projectId: number, status: string, name: string, version: string, id: number) => ({
    GSI1PK: packagesPartition(projectId, status),
    GSI1SK: pad(id),
    GSI2PK: packagesPartition(projectId, status),
    GSI2SK: `${name}#${pad(id)}`,
    GSI3PK: packagesPartition(projectId, status),
    GSI3SK: `${version}#${pad(id)}`,
  }),
  /** A file among its package's files, by name then id (GSI4): the newest of a name is the last. */
  fileByName: (packageId: number, fileName: string, fileId: number) => ({ GSI4PK: `${PACKAGE_FILES_PARTITION}${packageId}`, GSI4SK: `${fileName}#${pad(fileId)}` }),
} as const;

export const PACKAGE_ORDERS = { created_at: 'GSI1', type: 'GSI1', name: 'GSI2', version: 'GSI3' } as const;
export type PackageOrder = keyof typeof PACKAGE_ORDERS;

/** The ranges of items one Query reads. */
export const packageCollections = {
  /** A project's packages of one status, in one order; with `namePrefix` (order `name` only), those whose name starts with it. */
  packages: (projectId: number, status: string, order: PackageOrder, namePrefix?: string) =>
    indexCollection(PACKAGE_ORDERS[order], packagesPartition(projectId, status), namePrefix ? { prefix: namePrefix } : {}),
  /** Every package of a project, by id (any status), as the table holds them. */
  projectPackages: (projectId: number) => tableCollection(projectPartition(projectId), PACKAGE_PREFIX),
  /** A package's files, by id. */
  files: (projectId: number, packageId: number) => tableCollection(projectPartition(projectId), `${PACKAGE_FILE_PREFIX}${pad(packageId)}#`),
  /** A package's files named `fileName`, by id; or every file by name then id. */
  filesByName: (packageId: number, fileName?: string) => indexCollection('GSI4', `${PACKAGE_FILES_PARTITION}${packageId}`, fileName === undefined ? {} : { prefix: `${fileName}#` }),
} as const;

/** A package uploaded or changed, and a file added, are listed at once (read-your-writes journal, `platform/dynamo/recent.ts`). */
readYourWrites(PACKAGES_PARTITION, PACKAGE_FILES_PARTITION);

/** The sequences package and package file ids are drawn from (global, as GitLab's `packages_packages.id`, `packages_package_files.id`). */
export const PACKAGE_SEQUENCE = 'packages';
export const PACKAGE_FILE_SEQUENCE = 'package_files';

/**
 * S3 keys of package file contents: everything of a project's packages under
 * `packages/<projectId>/` (the trailing slash keeps 7 apart from 70), one object per file, named
 * by the file's id (never overwritten; ids are global, so a file's key does not depend on which
 * package it joined).
 */
const projectObjectPrefix = (projectId: number): string => `packages/${projectId}/`;

export const packageObjects = {
  projectPrefix: projectObjectPrefix,
  /** One file's content. */
  file: (projectId: number, fileId: number): string => `${projectObjectPrefix(projectId)}${fileId}`,
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': [PACKAGE_PREFIX, PACKAGE_NAME_PREFIX, PACKAGE_FILE_PREFIX] },
  indexPartitions: { GSI1: [PACKAGES_PARTITION], GSI2: [PACKAGES_PARTITION], GSI3: [PACKAGES_PARTITION], GSI4: [PACKAGE_FILES_PARTITION] },
  sequences: [PACKAGE_SEQUENCE, PACKAGE_FILE_SEQUENCE],
};
