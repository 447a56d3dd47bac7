/**
 * System events (GitLab's `SystemHooksService`): an outbox, as for project hook events
 * (`hook-events.ts`). A feature's change (a project, user or group created or destroyed, a member
 * added or removed) is told to the composition root's listeners, which put one `SystemHookEvent`
 * item (`SYSTEM_HOOK_EVENT#<uuid>`, a partition each); the table's stream carries it to the
 * delivery function (the same `HOOK_EVENT_STREAM_FILTER`), which sends it to every system hook.
 * The item expires by TTL a day later.
 *
 * The item holds the payload's fields as they were when the event happened (`data`, GitLab's
 * names), and what delivery reads to complete it (`complete`): the owners of a project's
 * namespace. The request that made the change pays one Put (a member event also reads its project
 * or group first).
 */
import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { TTL_ATTRIBUTE } from '../../platform/dynamo/table-definition';
import { hookKeys } from './keys';

/** GitLab's `event_name` of the system events built here. */
export type SystemEventName =
  | 'project_create'
  | 'project_destroy'
  | 'user_create'
  | 'user_destroy'
  | 'group_create'
  | 'group_destroy'
  | 'user_add_to_team'
  | 'user_remove_from_team'
  | 'user_add_to_group'
  | 'user_remove_from_group';

/** What delivery reads to complete an event's payload. */
export interface SystemEventCompletion {
  /** A project event's `owner_name`, `owner_email` and `owners`: those of this namespace. */
  ownersOf?: number;
}

export interface SystemHookEvent {
  /** A random UUID (no sequence: the Put is the event's only request). */
  id: string;
  eventName: SystemEventName;
  createdAt: string;
  /** The payload's fields known when the event happened. */
  data: Record<string, unknown>;
  complete?: SystemEventCompletion;
}

/** The item's `type`, which the stream filter selects on (beside `HookEvent`). */
export const SYSTEM_HOOK_EVENT_TYPE = 'SystemHookEvent';

const RETENTION_SECONDS = 24 * 60 * 60;

/** Puts a system event in the outbox; its stream record triggers delivery. */
export async function putSystemHookEvent(eventName: SystemEventName, data: Record<string, unknown>, complete?: SystemEventCompletion): Promise<SystemHookEvent> {
  const event: SystemHookEvent = { id: randomUUID(), eventName, createdAt: new Date().toISOString(), data, ...(complete ? { complete } : {}) };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...hookKeys.systemHookEvent(event.id), type: SYSTEM_HOOK_EVENT_TYPE, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + RETENTION_SECONDS, ...event },
    }),
  );
  return event;
}

/** Whether a stream record's new image is a system event (else a project's `HookEvent`). */
export const isSystemHookEventImage = (image: Record<string, AttributeValue>): boolean => image.type?.S === SYSTEM_HOOK_EVENT_TYPE;

/** The system event of a stream record's new image. */
export function systemHookEventFromImage(image: Record<string, AttributeValue>): SystemHookEvent {
  const { [TTL_ATTRIBUTE]: _expires, ...fields } = entityFields(unmarshall(image));
  return fields as SystemHookEvent;
}
