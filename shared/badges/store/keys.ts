/**
 * The badges feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';

/** Whose badge: a project's (in its partition) or a group's (in the group's namespace partition). */
export interface BadgeSource {
  kind: 'project' | 'group';
  id: number;
}

/** Internal: the partition a source's badges live in (owned by the projects and namespaces features). */
const partitionOf = (source: BadgeSource) => (source.kind === 'project' ? `PROJECT#${source.id}` : `NAMESPACE#${source.id}`);

export const BADGE_PREFIX = 'BADGE#';

export const badgeKeys = {
  /** A badge, by its id (zero-padded: a source's badges are listed in id order, which is creation order). */
  badge: (source: BadgeSource, badgeId: number): Key => ({ PK: partitionOf(source), SK: `${BADGE_PREFIX}${pad(badgeId)}` }),
} as const;

/** The ranges of items one Query reads. */
export const badgeCollections = {
  /** A project's or a group's own badges, oldest first. */
  badges: (source: BadgeSource) => tableCollection(partitionOf(source), BADGE_PREFIX),
} as const;

/** Whether a list cursor's sort key is a badge's. */
export const isBadgeSortKey = (key: string): boolean => /^BADGE#\d{12}$/.test(key);

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': [BADGE_PREFIX], 'NAMESPACE#': [BADGE_PREFIX] },
  indexPartitions: {},
  sequences: ['badges'],
};
