/**
 * Delivery to system hooks (GitLab's `SystemHooksService#execute_hooks`, `SystemHook`): every
 * request is sent with `X-Gitlab-Event: System Hook`, the hook's token unsealed only for it.
 * - System events (`store/system-events.ts`) go to every system hook, their payload completed here
 *   with what takes reads: a project's owners.
 * - A project's push, tag push and merge request events go also to the system hooks with
 *   `push_events`, `tag_push_events`, `merge_requests_events` (the project hook's payload; a push's
 *   `commits` left out, as GitLab's documentation says), and each push or tag push as a
 *   `repository_update` to those with `repository_update_events` (`deliver.ts` asks for them).
 * - `POST /hooks/:id` sends GitLab's sample `project_create` to one hook.
 * A receiver's failure is logged, never retried (as for project hooks); errors reading the table
 * are thrown, so the stream retries.
 */
import { createHash } from 'node:crypto';
import { OWNER, membershipsOf } from '../auth';
import { getMany } from '../platform/dynamo/batch';
import { openSecret } from '../platform/crypto/secret-box';
import { logger } from '../platform/logger';
import { readNamespaceRecord } from '../namespaces';
import { userFromItem, userKeys, type User } from '../users';
import { hookHeaders } from './presenters/webhooks';
import { sendHook, type HookDeliveryResult } from './send';
import type { SystemHookEvent } from './store/system-events';
import { listSystemHooks, type SystemHook, type SystemHookTriggers } from './store/system-hooks';

/** `X-Gitlab-Event` of every system hook delivery. */
export const SYSTEM_HOOK_EVENT = 'System Hook';

/** How many owners a project event lists at most (a group's owners are few; GitLab lists them all). */
const MAX_OWNERS = 100;

/** GitLab's sample of `POST /hooks/:id` (`lib/api/system_hooks.rb`). */
export const SYSTEM_HOOK_TEST_DATA = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
} as const;

export type SystemDeliveryReport = Array<{ systemHookId: number; result: HookDeliveryResult }>;

/** A UUID-formatted digest of `name` (the same name always gives the same id). Internal. */
export function stableUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Sends `body` to one system hook. */
export async function sendToSystemHook(hook: SystemHook, body: string, eventUuid: string, allowLocalNetwork: boolean): Promise<HookDeliveryResult> {
  const token = hook.tokenSealed ? await openSecret(hook.tokenSealed) : undefined;
  const result = await sendHook(
    {
      url: hook.url,
      headers: hookHeaders(SYSTEM_HOOK_EVENT, { token, eventUuid, webhookUuid: stableUuid(`system-hook:${hook.id}`) }),
      body,
      verifySsl: hook.enableSslVerification,
    },
    { allowLocalNetwork },
  );
  const fields = { systemHookId: hook.id, eventUuid, ...result };
  if (result.ok) logger.info('system hook delivered', fields);
  else logger.warn('system hook delivery failed', fields);
  return result;
}

/** Sends `body` to each of `hooks`, in parallel. */
export async function sendToSystemHooks(hooks: SystemHook[], body: Record<string, unknown>, eventUuid: string, allowLocalNetwork: boolean): Promise<SystemDeliveryReport> {
  const text = JSON.stringify(body);
  return Promise.all(hooks.map(async (hook) => ({ systemHookId: hook.id, result: await sendToSystemHook(hook, text, eventUuid, allowLocalNetwork) })));
}

/** The system hooks that have `flag` on. */
export async function systemHooksWith(flag: Exclude<keyof SystemHookTriggers, 'enableSslVerification'>): Promise<SystemHook[]> {
  return (await listSystemHooks()).filter((hook) => hook[flag] === true);
}

/**
 * Sends a system event to every system hook.
 *
 * @example
 * await deliverSystemEvent(systemHookEventFromImage(record.dynamodb.NewImage), { allowLocalNetwork: false });
 */
export async function deliverSystemEvent(event: SystemHookEvent, options: { allowLocalNetwork: boolean }): Promise<SystemDeliveryReport> {
  const hooks = await listSystemHooks();
  if (hooks.length === 0) return [];
  const body = await completed(event);
  return sendToSystemHooks(hooks, body, stableUuid(`system-event:${event.id}`), options.allowLocalNetwork);
}

/** Internal: users by id, deleted ones left out. */
async function usersById(ids: number[]): Promise<User[]> {
  return (await getMany(ids.map((id) => userKeys.user(id)), { consistent: false })).map(userFromItem);
}

/** Internal: the event's payload, with what it takes reads to know. */
async function completed(event: SystemHookEvent): Promise<Record<string, unknown>> {
  const ownersOf = event.complete?.ownersOf;
  return ownersOf === undefined ? event.data : { ...event.data, ...(await ownersData(ownersOf)) };
}

/**
 * Internal: `owner_name`, `owner_email` and `owners` of a project in this namespace
 * (`ProjectBuilder#project_data`): a personal namespace's owner; a group itself (its name, no
 * email) and the group's owners.
 */
async function ownersData(namespaceId: number): Promise<Record<string, unknown>> {
  const namespace = await readNamespaceRecord(namespaceId);
  if (!namespace) return { owner_name: null, owner_email: '', owners: [] };
  const owner = (user: User) => ({ name: user.name, email: '[REDACTED]' });
  if (namespace.kind === 'user') {
    const [user] = namespace.ownerId ? await usersById([namespace.ownerId]) : [];
    return { owner_name: user?.name ?? null, owner_email: user ? '[REDACTED]' : '', owners: user ? [owner(user)] : [] };
  }
  const ownerIds = (await membershipsOf({ kind: 'group', id: namespace.id })).filter((m) => m.accessLevel === OWNER).map((m) => m.userId).slice(0, MAX_OWNERS);
  return { owner_name: namespace.name, owner_email: '', owners: (await usersById(ownerIds)).map(owner) };
}
