/**
 * The releases feature's keys: every key, index attribute and collection of its items is built
 * here, and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { indexCollection, pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

export const releaseKeys = {
  /** A release, in its project's partition, by its tag's name (one release per tag). */
  release: (projectId: number, tag: string): Key => ({ PK: `PROJECT#${projectId}`, SK: `RELEASE#${tag}` }),
} as const;

/**
 * Secondary-index attributes, written on the release item: one index partition per project, sorted
 * by `released_at` (GSI1) and by `created_at` (GSI2), the release id breaking ties.
 */
export const releaseIndexKeys = {
  byReleasedAt: (projectId: number, releasedAt: string, id: number) => ({ GSI1PK: `RELEASES#${projectId}`, GSI1SK: `${releasedAt}#${pad(id)}` }),
  byCreatedAt: (projectId: number, createdAt: string, id: number) => ({ GSI2PK: `RELEASES#${projectId}`, GSI2SK: `${createdAt}#${pad(id)}` }),
} as const;

/** The ranges of items one Query reads. */
export const releaseCollections = {
  /** A project's releases by `released_at`. */
  byReleasedAt: (projectId: number) => indexCollection('GSI1', `RELEASES#${projectId}`),
  /** A project's releases by `created_at`. */
  byCreatedAt: (projectId: number) => indexCollection('GSI2', `RELEASES#${projectId}`),
  /** Every release of a project (in tag order), as the table holds them. */
  projectReleases: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'RELEASE#'),
} as const;

/** A release created or edited is listed at once (read-your-writes journal, `platform/dynamo/recent.ts`). */
readYourWrites('RELEASES#');

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': ['RELEASE#'] },
  indexPartitions: { GSI1: ['RELEASES#'], GSI2: ['RELEASES#'] },
  sequences: ['releases', 'release_links'],
};
