/**
 * The deploy tokens feature's keys: every key and collection of its items is built here, and only
 * here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { type KeySpace, pad, tableCollection, type Key } from '../../platform/dynamo/keys';

/** Who holds a deploy token: a project or a group (GitLab's `deploy_token_type`). */
export interface Holder {
  kind: 'project' | 'group';
  id: number;
}

const holderPartition = (holder: Holder) => `DEPLOY_TOKENS#${holder.kind === 'project' ? 'PROJECT' : 'GROUP'}#${holder.id}`;

export const deployTokenKeys = {
  /** A deploy token in its holder's partition, by id. */
  token: (holder: Holder, tokenId: number): Key => ({ PK: holderPartition(holder), SK: `TOKEN#${pad(tokenId)}` }),
  /** The sealed secret of a token named `gitlab-deploy-token` (what CI jobs are given), beside it. */
  ciSecret: (holder: Holder, tokenId: number): Key => ({ PK: holderPartition(holder), SK: `CI_SECRET#${pad(tokenId)}` }),
  /** Where a token is, by the SHA-256 digest of its secret (git authentication): one GetItem. */
  digest: (digest: string): Key => ({ PK: `DEPLOY_TOKEN_DIGEST#${digest}`, SK: 'TOKEN' }),
} as const;

/** The ranges of items one Query reads. */
export const deployTokenCollections = {
  /** A holder's tokens, by id. */
  tokens: (holder: Holder) => tableCollection(holderPartition(holder), 'TOKEN#'),
  /** A holder's tokens named `gitlab-deploy-token`, their secrets sealed, by id. */
  ciSecrets: (holder: Holder) => tableCollection(holderPartition(holder), 'CI_SECRET#'),
  /** Everything a holder has (its removal). */
  holder: (holder: Holder) => tableCollection(holderPartition(holder), ''),
} as const;

/** The sequence token ids are drawn from. */
export const DEPLOY_TOKEN_SEQUENCE = 'deploy_tokens';

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: ['DEPLOY_TOKENS#', 'DEPLOY_TOKEN_DIGEST#'],
  sortKeys: { 'DEPLOY_TOKENS#': ['TOKEN#', 'CI_SECRET#'], 'DEPLOY_TOKEN_DIGEST#': ['TOKEN'] },
  indexPartitions: {},
  sequences: [DEPLOY_TOKEN_SEQUENCE],
};
