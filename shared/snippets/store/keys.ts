/**
 * The snippets feature's keys: every key and collection of its items is built here, and only
 * here; its S3 object keys too ({@link snippetObjects}). Its access patterns are listed in
 * ACCESS_PATTERNS.md beside this folder.
 */
import { pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';

/** Internal: a project's partition (owned by the projects feature, swept whole when the project is deleted). */
const projectPartition = (projectId: number) => `PROJECT#${projectId}`;

export const SNIPPET_PREFIX = 'SNIPPET#';

export const snippetKeys = {
  /** A project snippet in its project's partition, by id (zero-padded: id order is creation order). */
  snippet: (projectId: number, snippetId: number): Key => ({ PK: projectPartition(projectId), SK: `${SNIPPET_PREFIX}${pad(snippetId)}` }),
} as const;

/** The ranges of items one Query reads. */
export const snippetCollections = {
  /** A project's snippets, by id. */
  snippets: (projectId: number) => tableCollection(projectPartition(projectId), SNIPPET_PREFIX),
} as const;

/** The sequence snippet ids are drawn from (global, as GitLab's `snippets.id`). */
export const SNIPPET_SEQUENCE = 'snippets';

/**
 * S3 keys of snippet file contents: everything of a project's snippets under
 * `snippets/<projectId>/`, of one snippet under `snippets/<projectId>/<snippetId>/` (the trailing
 * slash keeps 7 apart from 70). Each written content is an object of its own, named by a random
 * token (never overwritten: a snippet item names the objects of its current files).
 */
const projectObjectPrefix = (projectId: number): string => `snippets/${projectId}/`;
const snippetObjectPrefix = (projectId: number, snippetId: number): string => `${projectObjectPrefix(projectId)}${snippetId}/`;

export const snippetObjects = {
  projectPrefix: projectObjectPrefix,
  snippetPrefix: snippetObjectPrefix,
  /** One file content of a snippet. */
  content: (projectId: number, snippetId: number, token: string): string => `${snippetObjectPrefix(projectId, snippetId)}${token}`,
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': [SNIPPET_PREFIX] },
  indexPartitions: {},
  sequences: [SNIPPET_SEQUENCE],
};
