/**
 * The hooks feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { type KeySpace, pad, tableCollection, type Key } from '../../platform/dynamo/keys';

export const hookKeys = {
  hook: (projectId: number, hookId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `HOOK#${pad(hookId)}` }),
  /** A webhook event waiting to be delivered (an outbox item: its stream record triggers delivery; TTL removes it). */
  hookEvent: (projectId: number, eventId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `HOOK_EVENT#${pad(eventId)}` }),
} as const;

/** The ranges of items one Query reads. */
export const hookCollections = {
  projectHooks: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'HOOK#'),
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': ['HOOK#', 'HOOK_EVENT#'] },
  indexPartitions: {},
  sequences: ['hooks', 'hook_events'],
};
