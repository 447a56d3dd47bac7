/**
 * The deploy keys feature's keys: every key, index attribute and collection of its items is built
 * here, and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { afterId, indexCollection, pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

const keyPartition = (keyId: number) => `DEPLOY_KEY#${keyId}`;
const projectPartition = (projectId: number) => `PROJECT_DEPLOY_KEYS#${projectId}`;

/** GSI partitions: every deploy key by id, and the public (instance-wide) ones by id. */
const ALL_KEYS = 'DEPLOY_KEYS';
const PUBLIC_KEYS = 'DEPLOY_KEYS_PUBLIC';
const MD5_PREFIX = 'DEPLOY_KEY_MD5#';

export const deployKeyKeys = {
  /** A deploy key (GitLab's `DeployKey`): its own partition, with its links to projects beside it. */
  key: (keyId: number): Key => ({ PK: keyPartition(keyId), SK: 'KEY' }),
  /** A key's link to a project, in the key's partition (its projects, `projects_with_write_access`). */
  keyLink: (keyId: number, projectId: number): Key => ({ PK: keyPartition(keyId), SK: `PROJECT#${pad(projectId)}` }),
  /** The same link in the project's partition (GitLab's `DeployKeysProject`): the project's list, by key id. */
  projectLink: (projectId: number, keyId: number): Key => ({ PK: projectPartition(projectId), SK: `KEY#${pad(keyId)}` }),
} as const;

/** Secondary-index attributes, written on the key item. */
export const deployKeyIndexKeys = {
  /** GSI1: every deploy key by id (admins' `GET /deploy_keys`). */
  all: (keyId: number) => ({ GSI1PK: ALL_KEYS, GSI1SK: pad(keyId) }),
  /** GSI2: the public keys by id (`GET /deploy_keys?public=true`); only on public keys. */
  public: (keyId: number) => ({ GSI2PK: PUBLIC_KEYS, GSI2SK: pad(keyId) }),
  /** GSI3: the key by its MD5 fingerprint (`GET /keys?fingerprint=aa:bb:…`; a SHA-256 one is its claim's). */
  md5: (fingerprint: string) => ({ GSI3PK: `${MD5_PREFIX}${fingerprint}`, GSI3SK: 'KEY' }),
} as const;

/** The ranges of items one Query reads. */
export const deployKeyCollections = {
  /** Every deploy key, by id; `after`: only greater ids. */
  all: (after?: number) => indexCollection('GSI1', ALL_KEYS, afterId(after)),
  /** The public deploy keys, by id. */
  public: (after?: number) => indexCollection('GSI2', PUBLIC_KEYS, afterId(after)),
  /** The key (at most one) with an MD5 fingerprint. */
  byMd5: (fingerprint: string) => indexCollection('GSI3', `${MD5_PREFIX}${fingerprint}`),
  /** A key's links to projects, by project id. */
  keyLinks: (keyId: number) => tableCollection(keyPartition(keyId), 'PROJECT#'),
  /** A project's links to keys, by key id. */
  projectLinks: (projectId: number) => tableCollection(projectPartition(projectId), 'KEY#'),
} as const;

/** The sequence deploy key ids are drawn from. */
export const DEPLOY_KEY_SEQUENCE = 'deploy_keys';

/** The instance's lists show a new or removed key at once (read-your-writes journal, `platform/dynamo/recent.ts`). */
readYourWrites(ALL_KEYS, PUBLIC_KEYS, MD5_PREFIX);

/**
 * The prefixes this feature's items occupy (checked against every other feature's by a test). A
 * key's fingerprint is claimed with the users feature's SSH fingerprint claim
 * (`UNIQUE#SSH_FINGERPRINT#…`, built by its `userKeys`): one fingerprint, one key, user's or deploy.
 */
export const keySpace: KeySpace = {
  partitions: ['DEPLOY_KEY#', 'PROJECT_DEPLOY_KEYS#'],
  sortKeys: { 'DEPLOY_KEY#': ['KEY', 'PROJECT#'], 'PROJECT_DEPLOY_KEYS#': ['KEY#'] },
  indexPartitions: { GSI1: [ALL_KEYS], GSI2: [PUBLIC_KEYS], GSI3: [MD5_PREFIX] },
  sequences: [DEPLOY_KEY_SEQUENCE],
};
