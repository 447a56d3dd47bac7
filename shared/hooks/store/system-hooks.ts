/**
 * System hooks (GitLab's `SystemHook`): the instance's hooks, set by admins, in one partition
 * (`SYSTEM_HOOKS` / `HOOK#<id>`; an instance has few, and a page of them is one Query of it).
 * Ids come from the `hooks` sequence, shared with project hooks, as GitLab's `web_hooks` table is.
 *
 * The secret token is kept only sealed, as a project hook's (`store/hooks.ts`): the commands seal
 * it, delivery opens it; nothing here takes a clear one.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, isId, queryAll, type Item } from '../../platform/dynamo/query';
import type { CollectionSource } from '../../platform/http/pagination';
import { hookCollections, hookKeys } from './keys';
import type { SealedTokenChange } from './hooks';

/** The flags of a system hook (the response fields, camel-cased). System events go to every system hook. */
export interface SystemHookTriggers {
  pushEvents: boolean;
  tagPushEvents: boolean;
  mergeRequestsEvents: boolean;
  repositoryUpdateEvents: boolean;
  enableSslVerification: boolean;
}

export interface SystemHookSettings extends SystemHookTriggers {
  url: string;
  name: string | null;
  description: string | null;
}

export interface SystemHook extends SystemHookSettings {
  id: number;
  hasToken: boolean;
  /** The secret token, sealed; absent when none is set. */
  tokenSealed?: string;
  createdAt: string;
}

/** GitLab's defaults for a new system hook (`SystemHook`): repository updates on, SSL verification on, the rest off. */
export const DEFAULT_SYSTEM_HOOK_TRIGGERS: SystemHookTriggers = {
  pushEvents: false,
  tagPushEvents: false,
  mergeRequestsEvents: false,
  repositoryUpdateEvents: true,
  enableSslVerification: true,
};

const TYPE = 'SystemHook';

const systemHookFromItem = (item: Item): SystemHook => entityFields(item) as SystemHook;

function withToken(hook: SystemHook, change: SealedTokenChange): SystemHook {
  if (change === undefined) return hook;
  const { tokenSealed: _replaced, ...rest } = hook;
  return change === null ? { ...rest, hasToken: false } : { ...rest, hasToken: true, tokenSealed: change };
}

/** The system hooks, oldest first, as a pageable list (one partition). */
export function systemHookList(): CollectionSource<SystemHook> {
  return { collection: hookCollections.systemHooks(), ascending: true, select: systemHookFromItem };
}

/** Every system hook (delivery reads them all: an instance has few). */
export async function listSystemHooks(): Promise<SystemHook[]> {
  return (await queryAll(hookCollections.systemHooks())).map(systemHookFromItem);
}

export async function getSystemHook(hookId: number): Promise<SystemHook | undefined> {
  if (!isId(hookId)) return undefined;
  return getEntity(hookKeys.systemHook(hookId), systemHookFromItem);
}

const put = (hook: SystemHook, condition: string) =>
  db().send(new PutCommand({ TableName: tableName(), Item: { ...hookKeys.systemHook(hook.id), type: TYPE, ...hook }, ConditionExpression: condition }));

/** Adds a system hook, with its sealed token if one is given. */
export async function insertSystemHook(settings: SystemHookSettings, tokenSealed: string | undefined): Promise<SystemHook> {
  const hook = withToken({ ...settings, id: await nextId('hooks'), hasToken: false, createdAt: new Date().toISOString() }, tokenSealed);
  await put(hook, 'attribute_not_exists(PK)');
  return hook;
}

/** Replaces a system hook's settings and its sealed token as `token` says; `'hook_gone'` when it was deleted meanwhile (nothing written). */
export async function updateSystemHook(hook: SystemHook, settings: SystemHookSettings, token: SealedTokenChange): Promise<SystemHook | 'hook_gone'> {
  const updated = withToken({ ...hook, ...settings }, token);
  return (await ifConditionHolds(put(updated, 'attribute_exists(PK)'))) ? updated : 'hook_gone';
}

/** Deletes a system hook; returns what was deleted, or `undefined` when there was none. One request. */
export async function deleteSystemHook(hookId: number): Promise<SystemHook | undefined> {
  if (!isId(hookId)) return undefined;
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: hookKeys.systemHook(hookId), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_OLD' })),
  );
  return deleted?.Attributes ? systemHookFromItem(deleted.Attributes) : undefined;
}
