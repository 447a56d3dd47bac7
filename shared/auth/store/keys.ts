/**
 * The auth feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { type KeySpace, pad, tableCollection, indexCollection, type Key } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

/** What a membership belongs to: a group (a namespace) or a project. */
export type MemberSource = { kind: 'group' | 'project'; id: number };
const sourcePK = (source: MemberSource) => (source.kind === 'group' ? `NAMESPACE#${source.id}` : `PROJECT#${source.id}`);

export const membershipKeys = {
  /** A direct membership of a user in a group (namespace) or a project. */
  member: (source: MemberSource, userId: number): Key => ({ PK: sourcePK(source), SK: `MEMBER#${pad(userId)}` }),
} as const;

/** Secondary-index attributes, written on the item they index. */
export const membershipIndexKeys = {
  /** GSI1: a user's memberships, groups then projects, by id. */
  userMembership: (userId: number, source: MemberSource) => ({
    GSI1PK: `USER_MEMBERSHIPS#${userId}`,
    GSI1SK: `${source.kind.toUpperCase()}#${pad(source.id)}`,
  }),
} as const;

/** The ranges of items one Query reads. */
export const membershipCollections = {
  members: (source: MemberSource) => tableCollection(sourcePK(source), 'MEMBER#'),
  userMemberships: (userId: number, kind?: MemberSource['kind']) =>
    indexCollection('GSI1', `USER_MEMBERSHIPS#${userId}`, kind ? { prefix: `${kind.toUpperCase()}#` } : {}),
} as const;

/** Index partitions whose lists show a write at once (read-your-writes journal, `platform/dynamo/recent.ts`): a user's memberships (`GET /groups`, `owned`, `membership`). */
readYourWrites('USER_MEMBERSHIPS#');

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'NAMESPACE#': ['MEMBER#'], 'PROJECT#': ['MEMBER#'] },
  indexPartitions: { GSI1: ['USER_MEMBERSHIPS#'] },
  sequences: [],
};
