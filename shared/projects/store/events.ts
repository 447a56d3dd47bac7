/**
 * Contribution events (the project and user feeds). One item per event, in its project's
 * partition (project feed) and indexed by author in GSI1 (user feed); ids come from one sequence,
 * so id order is time order and both feeds read newest first with a descending Query.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { transactOr, type TransactItem } from '../../platform/dynamo/transactions';
import { userIsLive } from '../../users';
import { contributionPut, isContribution } from './contributions';
import { projectIsLive } from './projects';
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
  /**
   * A wiki page's event (target `WikiPage::Meta`): the page as the change left it, shown as the
   * event's `wiki_page`. Absent on every other event.
   */
  wikiPage?: { format: string; slug: string; title: string };
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
  /** `null` for a note on a commit (which has no numeric id). */
  noteableId: number | null;
  noteableType: string;
}

export type NewEvent = Omit<ContributionEvent, 'id' | 'createdAt' | 'title' | 'data' | 'note' | 'targetId' | 'targetType' | 'targetTitle'> &
  Partial<Pick<ContributionEvent, 'title' | 'data' | 'note' | 'targetId' | 'targetType' | 'targetTitle' | 'restrictedTo' | 'wikiPage'>>;

/**
 * An event with its id and time, and the Puts that record it, for a write that records its event
 * in its own transaction (so the event exists exactly when the change does). A contribution
 * (pushes, comments, issues and merge requests opened, closed, merged, approved) also puts its
 * author's contribution entry for the project, in the same transaction (`contributions.ts`).
 */
export async function prepareEvent(input: NewEvent): Promise<{ event: ContributionEvent; put: readonly TransactItem[] }> {
  const createdAt = new Date().toISOString();
  const id = await nextId('events');
  const event: ContributionEvent = {
    title: null,
    data: null,
    note: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    ...input,
    id,
    createdAt,
  };
  const item = { ...projectKeys.event(event.projectId, event.id), ...projectIndexKeys.userEvents(event.authorId, event.id), type: 'Event', ...event };
  const contribution = isContribution(input) ? [contributionPut(input.projectId, input.authorId, createdAt)] : [];
  return { event, put: [{ Put: { TableName: tableName(), Item: item } }, ...contribution] };
}

/**
 * Records an event on its own; the one call every endpoint group uses when something feed-worthy
 * happens. An event must not outlive its project or its author (nothing would ever remove it):
 * their deletions mark them `deleting` first, then sweep the project's partition or walk the
 * author's feed. So the event is put in one transaction with checks that both are live and not
 * marked (`undefined` when either is not: the deletion may have swept past already); a mark comes
 * after it otherwise, and so does the sweep that will find it. The transaction journals the
 * user's feed (GSI1), which shows the event at once.
 */
export async function recordEvent(input: NewEvent): Promise<ContributionEvent | undefined> {
  const { event, put } = await prepareEvent(input);
  const [eventPut, ...contribution] = put as [{ Put: { TableName: string; Item: Item } }, ...TransactItem[]];
  const gone = await transactOr(
    { project: projectIsLive(event.projectId), author: userIsLive(event.authorId), event: { Put: { ...eventPut.Put, ConditionExpression: 'attribute_not_exists(PK)' } }, contribution },
    [
      ['project', 'gone'],
      ['author', 'gone'],
    ],
  );
  return gone ? undefined : event;
}

/**
 * Deletes an event (from both feeds: the project's partition and its author's index entry);
 * whether it was there.
 */
export async function removeEvent(event: Pick<ContributionEvent, 'projectId' | 'id'>): Promise<boolean> {
  const { Attributes } = await db().send(new DeleteCommand({ TableName: tableName(), Key: projectKeys.event(event.projectId, event.id), ReturnValues: 'ALL_OLD' }));
  return Attributes !== undefined;
}

export const eventFromItem = (item: Item) => entityFields(item) as ContributionEvent;
