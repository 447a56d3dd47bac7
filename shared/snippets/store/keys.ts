/**
 * The snippets feature's keys: every key and collection of its items is built here, and only
 * here; its S3 object keys too ({@link snippetObjects}). Its access patterns are listed in
 * ACCESS_PATTERNS.md beside this folder.
 *
 * A snippet belongs to an owner: a project (a project snippet, in the project's partition) or
 * nobody but its author (a personal snippet, GitLab's `PersonalSnippet`, in a partition of its
 * own, found by id). Personal snippets are also in three index partitions, each read by one list
 * a Query page at a time: the author's (`GET /snippets`), the visible ones by visibility (public
 * and internal ones in one partition each, private ones in one per author: `GET /snippets/public`
 * and a non-admin's `GET /snippets/all` merge these), and every personal snippet (an admin's
 * `GET /snippets/all`).
 */
import { readYourWrites } from '../../platform/dynamo/recent';
import { indexCollection, pad, tableCollection, type Collection, type Key, type KeySpace } from '../../platform/dynamo/keys';

/** Internal: a project's partition (owned by the projects feature, swept whole when the project is deleted). */
const projectPartition = (projectId: number) => `PROJECT#${projectId}`;

export const SNIPPET_PREFIX = 'SNIPPET#';
/** A personal snippet's own partition and sort key. */
const PERSONAL_PARTITION = 'SNIPPET#';
const PERSONAL_SK = 'SNIPPET';
/** Index partitions of personal snippets. */
const AUTHOR_PARTITION = 'USER_SNIPPETS#';
const VISIBLE_PARTITION = 'PERSONAL_SNIPPETS#';
const ALL_PARTITION = 'ALL_PERSONAL_SNIPPETS';

export const snippetKeys = {
  /**
   * A snippet by id: a project snippet in its project's partition, a personal one (`projectId`
   * null) in its own (zero-padded: id order is creation order).
   */
  snippet: (projectId: number | null, snippetId: number): Key =>
    projectId === null ? { PK: `${PERSONAL_PARTITION}${pad(snippetId)}`, SK: PERSONAL_SK } : { PK: projectPartition(projectId), SK: `${SNIPPET_PREFIX}${pad(snippetId)}` },
} as const;

/** Internal: the index partition of a personal snippet of a visibility (private ones: one per author). */
const visiblePartition = (visibility: string, authorId: number) => (visibility === 'private' ? `${VISIBLE_PARTITION}private#${authorId}` : `${VISIBLE_PARTITION}${visibility}`);

/** The index attributes of a personal snippet (none on a project snippet: its lists read its project's partition). */
export const snippetIndexKeys = {
  personal: (snippet: { id: number; authorId: number; visibility: string }) => ({
    GSI1PK: `${AUTHOR_PARTITION}${snippet.authorId}`,
    GSI1SK: pad(snippet.id),
    GSI2PK: visiblePartition(snippet.visibility, snippet.authorId),
    GSI2SK: pad(snippet.id),
    GSI3PK: ALL_PARTITION,
    GSI3SK: pad(snippet.id),
  }),
  /** What a change of visibility moves: the visibility partition only. */
  visibility: (snippet: { id: number; authorId: number; visibility: string }) => ({ GSI2PK: visiblePartition(snippet.visibility, snippet.authorId), GSI2SK: pad(snippet.id) }),
} as const;

/** The ranges of items one Query reads. */
export const snippetCollections = {
  /** A project's snippets, by id. */
  snippets: (projectId: number) => tableCollection(projectPartition(projectId), SNIPPET_PREFIX),
  /** A user's personal snippets, by id. */
  authored: (authorId: number): Collection => indexCollection('GSI1', `${AUTHOR_PARTITION}${authorId}`),
  /** The personal snippets of a visibility, by id (private ones: one author's). */
  visible: (visibility: 'public' | 'internal' | 'private', authorId = 0): Collection => indexCollection('GSI2', visiblePartition(visibility, authorId)),
  /** Every personal snippet, by id. */
  all: (): Collection => indexCollection('GSI3', ALL_PARTITION),
} as const;

/** Whether a list cursor's sort key is one of these collections' (a padded id). */
export const isSnippetSortKey = (key: string): boolean => /^\d{12}$/.test(key);

/** The sequence snippet ids are drawn from (global, as GitLab's `snippets.id`). */
export const SNIPPET_SEQUENCE = 'snippets';

/**
 * S3 keys of snippet file contents: everything of a project's snippets under
 * `snippets/<projectId>/`, of one snippet under `snippets/<projectId>/<snippetId>/` (the trailing
 * slash keeps 7 apart from 70), of a personal snippet under `snippets/personal/<snippetId>/`.
 * Each written content is an object of its own, named by a random token (never overwritten: a
 * snippet item names the objects of its current files).
 */
const projectObjectPrefix = (projectId: number): string => `snippets/${projectId}/`;
const snippetObjectPrefix = (projectId: number | null, snippetId: number): string =>
  `${projectId === null ? 'snippets/personal/' : projectObjectPrefix(projectId)}${snippetId}/`;

export const snippetObjects = {
  projectPrefix: projectObjectPrefix,
  snippetPrefix: snippetObjectPrefix,
  /** One file content of a snippet. */
  content: (projectId: number | null, snippetId: number, token: string): string => `${snippetObjectPrefix(projectId, snippetId)}${token}`,
} as const;

// A client lists its snippets right after creating one.
readYourWrites(AUTHOR_PARTITION, VISIBLE_PARTITION, ALL_PARTITION);

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [PERSONAL_PARTITION],
  sortKeys: { 'PROJECT#': [SNIPPET_PREFIX], [PERSONAL_PARTITION]: [PERSONAL_SK] },
  indexPartitions: { GSI1: [AUTHOR_PARTITION], GSI2: [VISIBLE_PARTITION], GSI3: [ALL_PARTITION] },
  sequences: [SNIPPET_SEQUENCE],
};
