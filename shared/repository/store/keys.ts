/**
 * The repository feature's keys: every key and collection of its items is built here, and only
 * here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 *
 * A project's refs live in the project's partition (one item per ref, so each ref is updated with
 * its own compare-and-swap and a project's deletion removes them with the partition). Objects live
 * in an object pool: the packs a project and its forks share, in the pool's own partition.
 */
import { pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';

const projectPartition = (projectId: number) => `PROJECT#${projectId}`;
const poolPartition = (pool: string) => `POOL#${pool}`;

/**
 * Which repository of a project: its code (`project`, `<namespace>/<project>.git`) or its wiki
 * (`wiki`, `<namespace>/<project>.wiki.git`, GitLab's separate wiki repository). Both live in the
 * project's partition under sort keys of their own, and each has its own object pool.
 */
export type RepositoryKind = 'project' | 'wiki';

const recordKey = (kind: RepositoryKind) => (kind === 'wiki' ? 'WIKI_REPOSITORY' : 'REPOSITORY');
const refPrefix = (kind: RepositoryKind) => (kind === 'wiki' ? 'WIKI_REF#' : 'REF#');

export const repositoryKeys = {
  /** The project's repository: which object pool it reads, created by its first write. */
  repository: (projectId: number, kind: RepositoryKind = 'project'): Key => ({ PK: projectPartition(projectId), SK: recordKey(kind) }),
  /** One ref (`refs/heads/main`), holding the object id it points to (a wiki's under `WIKI_REF#`). */
  ref: (projectId: number, name: string, kind: RepositoryKind = 'project'): Key => ({ PK: projectPartition(projectId), SK: `${refPrefix(kind)}${name}` }),
  /** A protected branch (name or wildcard pattern) and who may push and merge. */
  protectedBranch: (projectId: number, name: string): Key => ({ PK: projectPartition(projectId), SK: `PROTECTED_BRANCH#${name}` }),
  /** A protected tag (name or wildcard pattern) and who may create the tags it matches. */
  protectedTag: (projectId: number, name: string): Key => ({ PK: projectPartition(projectId), SK: `PROTECTED_TAG#${name}` }),
  /** The language statistics of the project's default branch, for the commit they were computed at. */
  languages: (projectId: number): Key => ({ PK: projectPartition(projectId), SK: 'LANGUAGES' }),
  /** An object pool: how many repositories read it. */
  pool: (pool: string): Key => ({ PK: poolPartition(pool), SK: 'POOL' }),
  /** A repository that reads a pool (housekeeping keeps what any of them can reach); a wiki's pool has its wiki alone. */
  poolMember: (pool: string, projectId: number): Key => ({ PK: poolPartition(pool), SK: `MEMBER#${pad(projectId)}` }),
  /** One pack of a pool, by its name (the pack's SHA-1 checksum). */
  pack: (pool: string, name: string): Key => ({ PK: poolPartition(pool), SK: `PACK#${name}` }),
} as const;

export const repositoryCollections = {
  /** A project's refs under a prefix (`refs/heads/`), in byte order as git lists them. */
  refs: (projectId: number, prefix = '', kind: RepositoryKind = 'project') => tableCollection(projectPartition(projectId), `${refPrefix(kind)}${prefix}`),
  protectedBranches: (projectId: number) => tableCollection(projectPartition(projectId), 'PROTECTED_BRANCH#'),
  protectedTags: (projectId: number) => tableCollection(projectPartition(projectId), 'PROTECTED_TAG#'),
  packs: (pool: string) => tableCollection(poolPartition(pool), 'PACK#'),
  poolMembers: (pool: string) => tableCollection(poolPartition(pool), 'MEMBER#'),
} as const;

/**
 * Comments on commits (GitLab's notes with `noteable_type: Commit`, `store/commit-notes.ts`), in
 * the project's partition: each note after its commit, by id (one commit's notes are one range,
 * in the comments API's order), and a discussion's pointer (its id → its first note).
 */
export const commitNoteKeys = {
  note: (projectId: number, sha: string, noteId: number): Key => ({ PK: projectPartition(projectId), SK: `COMMIT_NOTE#${sha}#${pad(noteId)}` }),
  discussion: (projectId: number, discussionId: string): Key => ({ PK: projectPartition(projectId), SK: `COMMIT_DISCUSSION#${discussionId}` }),
} as const;

export const commitNoteCollections = {
  /** A commit's notes, by id. */
  notes: (projectId: number, sha: string) => tableCollection(projectPartition(projectId), `COMMIT_NOTE#${sha}#`),
} as const;

/** The id sequences of the feature's items (`COUNTER#<name>`). */
export const repositorySequences = {
  /** Ids of protected branches. */
  protectedBranches: 'protected_branches',
  /** Ids of their push and merge access levels. */
  accessLevels: 'protected_branch_access_levels',
  /** Ids of protected tags. */
  protectedTags: 'protected_tags',
  /** Ids of their create access levels. */
  tagAccessLevels: 'protected_tag_access_levels',
  /**
   * Ids of the first comments on commits, until they joined the notes' shared sequence
   * (`platform/dynamo/sequences.ts`): no longer drawn from, kept so no other sequence takes the name.
   */
  commitNotes: 'commit_notes',
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: ['POOL#'],
  sortKeys: { 'PROJECT#': ['REPOSITORY', 'REF#', 'WIKI_REPOSITORY', 'WIKI_REF#', 'PROTECTED_BRANCH#', 'PROTECTED_TAG#', 'LANGUAGES', 'COMMIT_NOTE#', 'COMMIT_DISCUSSION#'], 'POOL#': ['POOL', 'PACK#', 'MEMBER#'] },
  indexPartitions: {},
  sequences: Object.values(repositorySequences),
};
