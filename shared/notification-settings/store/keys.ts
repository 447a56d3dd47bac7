/**
 * The notification settings feature's keys: every key of its items is built here, and only here.
 * Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 *
 * A user's settings live in the user's partition (owned by the users feature), so deleting the
 * user deletes them with the rest of its partition (the users feature's sweep of its children).
 */
import { pad, type Key, type KeySpace } from '../../platform/dynamo/keys';

/** Whose setting: the user's global one, or the user's for a group or a project (GitLab's `source`). */
export type SettingSource = { kind: 'global' } | { kind: 'group' | 'project'; id: number };

export const NOTIFICATION_SETTING_PREFIX = 'NOTIFICATION_SETTING#';

/** Internal: the user's partition (the users feature's `USER#<id>`). */
const userPartition = (userId: number) => `USER#${userId}`;

export const notificationSettingKeys = {
  /** One setting of a user: `…#GLOBAL`, `…#GROUP#<id>` or `…#PROJECT#<id>`. */
  setting: (userId: number, source: SettingSource): Key => ({
    PK: userPartition(userId),
    SK: `${NOTIFICATION_SETTING_PREFIX}${source.kind === 'global' ? 'GLOBAL' : `${source.kind.toUpperCase()}#${pad(source.id)}`}`,
  }),
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'USER#': [NOTIFICATION_SETTING_PREFIX] },
  indexPartitions: {},
  sequences: [],
};
