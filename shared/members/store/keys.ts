/**
 * The members feature's keys: its only items are access requests (the memberships are the auth
 * feature's). Every key and collection of them is built here, and only here; the access patterns
 * are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';
import type { MemberSource } from '../../auth';

/** Internal: the partition a source's access requests live in (owned by the projects and namespaces features). */
const partitionOf = (source: MemberSource) => (source.kind === 'project' ? `PROJECT#${source.id}` : `NAMESPACE#${source.id}`);

const ACCESS_REQUEST_PREFIX = 'ACCESS_REQUEST#';

export const accessRequestKeys = {
  /** A user's pending request for access to a project or group, by user id (one per user and source). */
  request: (source: MemberSource, userId: number): Key => ({ PK: partitionOf(source), SK: `${ACCESS_REQUEST_PREFIX}${pad(userId)}` }),
} as const;

/** The ranges of items one Query reads. */
export const accessRequestCollections = {
  /** A project's or group's pending access requests, by user id. */
  requests: (source: MemberSource) => tableCollection(partitionOf(source), ACCESS_REQUEST_PREFIX),
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': [ACCESS_REQUEST_PREFIX], 'NAMESPACE#': [ACCESS_REQUEST_PREFIX] },
  indexPartitions: {},
  sequences: [],
};
