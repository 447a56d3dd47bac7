/**
 * The hooks feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { type KeySpace, pad, tableCollection, type Key } from '../../platform/dynamo/keys';

/** The one partition of the instance's system hooks (an instance has few: one Query lists them). */
const SYSTEM_HOOKS = 'SYSTEM_HOOKS';

export const hookKeys = {
  hook: (projectId: number, hookId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `HOOK#${pad(hookId)}` }),
  /** A webhook event waiting to be delivered (an outbox item: its stream record triggers delivery; TTL removes it). */
  hookEvent: (projectId: number, eventId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `HOOK_EVENT#${pad(eventId)}` }),
  /** A system hook (admins' instance-wide hook). */
  systemHook: (hookId: number): Key => ({ PK: SYSTEM_HOOKS, SK: `HOOK#${pad(hookId)}` }),
  /** A system event waiting to be delivered to the system hooks (outbox item, one partition each: no hot partition). */
  systemHookEvent: (eventId: string): Key => ({ PK: `SYSTEM_HOOK_EVENT#${eventId}`, SK: 'SYSTEM_HOOK_EVENT' }),
} as const;

/** The ranges of items one Query reads. */
export const hookCollections = {
  projectHooks: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'HOOK#'),
  systemHooks: () => tableCollection(SYSTEM_HOOKS, 'HOOK#'),
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [SYSTEM_HOOKS, 'SYSTEM_HOOK_EVENT#'],
  sortKeys: { 'PROJECT#': ['HOOK#', 'HOOK_EVENT#'], [SYSTEM_HOOKS]: ['HOOK#'], 'SYSTEM_HOOK_EVENT#': ['SYSTEM_HOOK_EVENT'] },
  indexPartitions: {},
  sequences: ['hooks', 'hook_events'],
};
