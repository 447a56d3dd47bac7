/**
 * Contribution events (the project and user feeds). One item per event, in its project's
 * partition (project feed) and indexed by author in GSI1 (user feed); ids come from one sequence,
 * so id order is time order and both feeds read newest first with a descending Query.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { journalWrite } from '../../platform/dynamo/transactions';
import { projectIndexKeys, projectKeys } from './keys';
import type { Item } from '../../platform/dynamo/query';
import { entityFields } from '../../platform/dynamo/items';

export interface ContributionEvent {
  id: number;
  projectId: number;
  authorId: number;
  /** `opened`, `closed`, `commented on`, `created`, `joined`, `left`, `pushed to`, ... */
  actionName: string;
  targetId: number | null;
  targetType: string | null;
  targetTitle: string | null;
  title: string | null;
  data: Record<string, unknown> | null;
  /** The comment of a `commented on` event, as written (presented with the event's author when read). */
  note: EventNote | null;
  /**
   * Set on events of confidential issues: the users (besides reporters and up) who may see the
   * event — the author and assignees, and whoever acted. Null for everything else.
   */
  restrictedTo?: number[] | null;
  createdAt: string;
}

/** The `action_name`s of push events (GitLab's `PushEvent#action_name`: a ref created, deleted, or updated). */
export const PUSH_ACTION_NAMES: ReadonlySet<string> = new Set(['pushed new', 'deleted', 'pushed to']);

/** What a `commented on` event keeps of its note. */
export interface EventNote {
  id: number;
  body: string;
  createdAt: string;
  system: boolean;
  noteableId: number;
  noteableType: string;
}

export type NewEvent = Omit<ContributionEvent, 'id' | 'createdAt' | 'title' | 'data' | 'note' | 'targetId' | 'targetType' | 'targetTitle'> &
  Partial<Pick<ContributionEvent, 'title' | 'data' | 'note' | 'targetId' | 'targetType' | 'targetTitle' | 'restrictedTo'>>;

/**
 * An event with its id and time, and the Put that records it, for a write that records its event
 * in its own transaction (so the event exists exactly when the change does).
 */
export async function prepareEvent(input: NewEvent): Promise<{ event: ContributionEvent; put: { Put: { TableName: string; Item: Item } } }> {
  const event: ContributionEvent = {
    title: null,
    data: null,
    note: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    ...input,
    id: await nextId('events'),
    createdAt: new Date().toISOString(),
  };
  const item = { ...projectKeys.event(event.projectId, event.id), ...projectIndexKeys.userEvents(event.authorId, event.id), type: 'Event', ...event };
  return { event, put: { Put: { TableName: tableName(), Item: item } } };
}

/** Records an event on its own; the one call every endpoint group uses when something feed-worthy happens. */
export async function recordEvent(input: NewEvent): Promise<ContributionEvent> {
  const { event, put } = await prepareEvent(input);
  await db().send(new PutCommand(put.Put));
  await journalWrite([put.Put.Item]); // the user's feed (GSI1) shows it at once
  return event;
}

export const eventFromItem = (item: Item) => entityFields(item) as ContributionEvent;
