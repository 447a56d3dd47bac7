/**
 * Webhook events: an outbox. A write that should trigger the project's hooks puts one
 * `HookEvent` item in its own transaction (`PROJECT#<id>` / `HOOK_EVENT#<id>`), so a hook fires
 * exactly when the change happened. The table's stream carries the new item to the delivery
 * function (`functions/hook_delivery`, selected by `HOOK_EVENT_STREAM_FILTER`), which reads the
 * project's hooks and sends the payloads; the item expires by TTL a day later.
 *
 * The item holds what the payload needs as it was at the time of the change (the issue as
 * written, the one it replaced, the note), not ids to read later: a hook tells what happened, not
 * what is there now.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../platform/config';
import { nextId } from '../../platform/dynamo/counters';
import type { Issue, Note } from '../../issues';
import { hookKeys } from './keys';
import type { Item } from '../../platform/dynamo/query';
import { TTL_ATTRIBUTE } from '../../platform/dynamo/table-definition';
import { entityFields } from '../../platform/dynamo/items';

/**
 * What a hook event is about, with GitLab's `object_attributes.action`. `previous` is the issue
 * before the change (for the payload's `changes`); stored as the fields that differ only.
 */
export type HookEventSubject =
  | { kind: 'issue'; action: 'open' | 'update' | 'close' | 'reopen'; issue: Issue; previous: Issue | null }
  | { kind: 'note'; action: 'create'; note: Note; issue: Issue };

/** A hook event as a write states it. */
export type NewHookEvent = HookEventSubject & {
  projectId: number;
  /** Who made the change (`user` of the payload). */
  actorId: number;
};

export type HookEvent = NewHookEvent & {
  /** From the sequence `hook_events`. */
  id: number;
  createdAt: string;
};

/** The item's `type`, which the stream filter selects on. */
export const HOOK_EVENT_TYPE = 'HookEvent';

/** Outbox items only need to live until the stream has carried them (24 h). */
const RETENTION_SECONDS = 24 * 60 * 60;

/**
 * The Put of a new hook event, for the transaction of the change it tells.
 *
 * @example
 * const { put } = await prepareHookEvent({ projectId, actorId: user.id, kind: 'issue', action: 'close', issue, previous });
 * await writeIssues([{ previous, next: issue }], [put]);
 */
export async function prepareHookEvent(input: NewHookEvent): Promise<{ event: HookEvent; put: { Put: { TableName: string; Item: Item } } }> {
  const event = { ...input, id: await nextId('hook_events'), createdAt: new Date().toISOString() };
  const item = {
    ...hookKeys.hookEvent(event.projectId, event.id),
    type: HOOK_EVENT_TYPE,
    [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + RETENTION_SECONDS,
    ...storedForm(event),
  };
  return { event, put: { Put: { TableName: config().tableName, Item: item } } };
}

/** Well under DynamoDB's 400 KB item limit, leaving room for keys and attribute names. */
const MAX_STORED_BYTES = 300_000;

/**
 * Internal: the event as stored: `previous` reduced to the fields that changed and, in the rare
 * event too large for one item (a long note on an issue with a long description), the issue's
 * description left out (the payload then carries `null`) rather than failing the user's write.
 */
function storedForm(event: HookEvent): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...event };
  if (event.kind === 'issue' && event.previous) {
    const previous = event.previous as unknown as Record<string, unknown>;
    const current = event.issue as unknown as Record<string, unknown>;
    const names = new Set([...Object.keys(previous), ...Object.keys(current)]);
    stored.previous = Object.fromEntries(
      [...names].filter((name) => JSON.stringify(previous[name]) !== JSON.stringify(current[name])).map((name) => [name, previous[name] ?? null]),
    );
  }
  if (Buffer.byteLength(JSON.stringify(stored)) > MAX_STORED_BYTES) {
    stored.issue = { ...event.issue, description: null };
    if (stored.previous) delete (stored.previous as Record<string, unknown>).description;
  }
  return stored;
}

/** The event of a stream record's new image (DynamoDB JSON), as the delivery function receives it. */
export function hookEventFromImage(image: Record<string, AttributeValue>): HookEvent {
  const { [TTL_ATTRIBUTE]: _expires, ...fields } = entityFields(unmarshall(image));
  const event = fields as HookEvent;
  // `previous` was stored as the fields that changed: the rest are the issue's.
  if (event.kind === 'issue' && event.previous) event.previous = { ...event.issue, ...event.previous };
  return event;
}

/**
 * The stream records the delivery function wants: new hook event items. The same pattern is the
 * Lambda event source mapping's filter on AWS (`infra/constructs/events.ts`) and the local stream
 * poller's (`infra/local/streams.ts`), so both deliver the same records.
 */
export const HOOK_EVENT_STREAM_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { type: { S: [HOOK_EVENT_TYPE] } } },
} as const;
