/**
 * Webhook events: an outbox. A write that should trigger the project's hooks puts one
 * `HookEvent` item in its own transaction (`PROJECT#<id>` / `HOOK_EVENT#<id>`), so a hook fires
 * exactly when the change happened. The table's stream carries the new item to the delivery
 * function (`functions/hook_delivery`, selected by `HOOK_EVENT_STREAM_FILTER`), which reads the
 * project's hooks and sends the payloads; the item expires by TTL a day later.
 *
 * The outbox knows no kind of event. The features that write events declare their kinds and what
 * each carries by augmenting {@link HookEventKinds} (declaration merging), so `prepareHookEvent`
 * is typed for every kind without this module naming one. The item holds what the payload needs
 * as it was at the time of the change (e.g. the issue as written and the one it replaced), not ids
 * to read later: a hook tells what happened, not what is there now. A kind may register how its
 * events are stored ({@link registerHookEventForms}: a previous state reduced to what changed, a
 * size bound); a kind without a registered form is stored as given.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { nextId } from '../../platform/dynamo/counters';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import type { Item } from '../../platform/dynamo/query';
import { TTL_ATTRIBUTE } from '../../platform/dynamo/table-definition';
import { logger } from '../../platform/logger';
import { hookKeys } from './keys';
import { SYSTEM_HOOK_EVENT_TYPE } from './system-events';

/**
 * The kinds of hook events and what each carries besides the common fields: GitLab's
 * `object_attributes.action` (`action`) and the kind's data. Empty here: each feature that writes
 * events augments it for its own kinds, e.g.
 *
 * @example
 * declare module '../../hooks' {
 *   interface HookEventKinds {
 *     issue: { action: 'open' | 'close'; issue: Issue; previous: Issue | null };
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface HookEventKinds {}

/** A declared kind of hook event (`issue`, `note`, ...). */
export type HookEventKind = keyof HookEventKinds & string;

/** What every hook event has, whatever its kind. */
export type HookEventFields<K extends string = string> = {
  /** From the sequence `hook_events`. */
  id: number;
  projectId: number;
  /** Who made the change (`user` of the payload). */
  actorId: number;
  kind: K;
  /** GitLab's `object_attributes.action` (`open`, `create`, ...). */
  action: string;
  createdAt: string;
};

/** A hook event of any kind, as the outbox and delivery see it: the common fields and its kind's data. */
export type HookEvent = HookEventFields & { readonly [field: string]: unknown };

/** A hook event of the declared kind `K`. */
export type HookEventOf<K extends HookEventKind> = HookEventFields<K> & HookEventKinds[K];

/** A hook event as a write states it, of any declared kind (the outbox adds its id and time). */
export type NewHookEvent = {
  [K in HookEventKind]: Omit<HookEventFields<K>, 'id' | 'createdAt' | 'action'> & HookEventKinds[K];
}[HookEventKind];

/**
 * How one kind's events are stored in the outbox item, declared by the feature that writes them.
 * Both directions see the event without the item's keys and bookkeeping.
 */
export interface HookEventForm<E extends HookEventFields = HookEvent> {
  /** The event's fields as stored; they should stay within {@link HOOK_EVENT_MAX_BYTES} as JSON. */
  toStored(event: E): Record<string, unknown>;
  /** The event again, from the stored fields (the stream record's new image). */
  fromStored(stored: HookEvent): E;
}

/** The forms of some kinds, by kind. */
export type HookEventForms = Readonly<Record<string, HookEventForm>>;

/** The item's `type`, which the stream filter selects on. */
export const HOOK_EVENT_TYPE = 'HookEvent';

/**
 * What an event's stored fields may take as JSON: well under DynamoDB's 400 KB item limit, leaving
 * room for keys and attribute names. A form keeps its kind's events within it.
 */
export const HOOK_EVENT_MAX_BYTES = 300_000;

/** Outbox items only need to live until the stream has carried them (24 h). */
const RETENTION_SECONDS = 24 * 60 * 60;

const forms = new Map<string, HookEventForm>();
const warnedKinds = new Set<string>();

/**
 * Registers how the events of some kinds are stored (by the feature that declares them). Every
 * process that writes or reads events of a kind must have registered its form first.
 *
 * @example
 * registerHookEventForms({ issue: { toStored: (event) => ({ ...event }), fromStored: (stored) => stored } });
 */
export function registerHookEventForms(kinds: HookEventForms): void {
  for (const [kind, form] of Object.entries(kinds)) forms.set(kind, form);
}

/**
 * The Put of a new hook event, for the transaction of the change it tells.
 *
 * @example
 * const { put } = await prepareHookEvent({ projectId, actorId: user.id, kind: 'issue', action: 'close', issue, previous });
 * await writeIssues([{ previous, next: issue }], [put]);
 */
export async function prepareHookEvent(input: NewHookEvent): Promise<{ event: HookEvent; put: { Put: { TableName: string; Item: Item } } }> {
  const event: HookEvent = { ...input, id: await nextId('hook_events'), createdAt: new Date().toISOString() };
  const item = {
    ...hookKeys.hookEvent(event.projectId, event.id),
    type: HOOK_EVENT_TYPE,
    [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + RETENTION_SECONDS,
    ...storedForm(event),
  };
  return { event, put: { Put: { TableName: tableName(), Item: item } } };
}

/** Internal: the event as its kind stores it, or as given (with a warning, once) when no form is registered. */
function storedForm(event: HookEvent): Record<string, unknown> {
  const form = forms.get(event.kind);
  if (form) return form.toStored(event);
  if (!warnedKinds.has(event.kind)) {
    warnedKinds.add(event.kind);
    logger.warn('no stored form registered for this kind of hook event; stored as given', { kind: event.kind });
  }
  return { ...event };
}

/** The event of a stream record's new image (DynamoDB JSON), as the delivery function receives it. */
export function hookEventFromImage(image: Record<string, AttributeValue>): HookEvent {
  const { [TTL_ATTRIBUTE]: _expires, ...fields } = entityFields(unmarshall(image));
  const event = fields as HookEvent;
  return forms.get(event.kind)?.fromStored(event) ?? event;
}

/**
 * The stream records the delivery function wants: new hook event items, a project's
 * (`HookEvent`) or the instance's (`SystemHookEvent`, `system-events.ts`). The same pattern is the
 * Lambda event source mapping's filter on AWS (`infra/constructs/events.ts`) and the local stream
 * poller's (`infra/local/streams.ts`), so both deliver the same records.
 */
export const HOOK_EVENT_STREAM_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { type: { S: [HOOK_EVENT_TYPE, SYSTEM_HOOK_EVENT_TYPE] } } },
} as const;
