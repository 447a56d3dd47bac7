/**
 * Noteables: what notes, subscriptions, todos and time tracking hang on (GitLab's `Noteable`,
 * `Subscribable`, `TimeTrackable`): an issue (this feature's item) or a merge request (the
 * merge-requests feature's item, which this feature never imports: its owner describes it here).
 *
 * What hangs on a noteable lives under keys of its type in the noteable's project partition
 * (`noteableKeys`). Writes that change the noteable itself in their transaction (a comment's
 * `userNotesCount`, time tracking, the `updatedAt` they stamp) update the noteable's own item,
 * whose key and update-ordered index sort keys its owner gives ({@link NoteableItem}). That item
 * must hold a numeric `version` which its owner's writes are conditioned on (a note bumps it, so
 * an edit that read the item before the note re-reads instead of putting the old count back), and
 * may carry `deletedAt` when soft-deleted (then nothing more is written on it).
 */
import { tableName } from '../../platform/dynamo/client';
import type { Key } from '../../platform/dynamo/keys';
import { heldAs, type TransactItem } from '../../platform/dynamo/transactions';
import type { Item } from '../../platform/dynamo/query';
import type { NoteableKeyed, NoteableType } from './keys';

export type { NoteableKeyed, NoteableType } from './keys';

/** The noteable's own item, as its owning feature stores it. */
export interface NoteableItem {
  /** The item's key (an issue's `ISSUE#<iid>`, a merge request's `MR#<iid>`). */
  key: Key;
  /**
   * The attributes a write that stamps `updatedAt` sets besides it: the owner's update-ordered
   * index sort keys (an issue's `GSI4SK`..`GSI6SK`, `GSI8SK`), so the item moves in its lists; `{}` for none.
   */
  touched: (updatedAt: string) => Record<string, string>;
  /**
   * The item as its owner read it in this request (key and index attributes), when it did: a
   * write that stamps it then journals the index partitions it is in from this image instead of
   * reading it again (`heldAs`).
   */
  held?: () => Item;
}

/**
 * A noteable as the writes and reads of notes, subscriptions, todos and time tracking need it.
 * @example
 * const noteable = issueNoteable(issue); // or the merge-requests feature's `mergeRequestNoteable(mr)`
 */
export interface Noteable extends NoteableKeyed {
  type: NoteableType;
  projectId: number;
  iid: number;
  /** Global id (`noteable_id`, a todo's `target_id`). */
  id: number;
  /** Participants by their own fields: subscribed unless they chose otherwise. */
  authorId: number;
  assigneeIds: number[];
  /** A merge request's reviewers (none on issues). */
  reviewerIds?: number[];
  item: NoteableItem;
}

/** Internal: the noteable item exists and is not soft-deleted (`deletedAt` absent or null). */
const LIVE = 'attribute_exists(PK) AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :nullType))';

/**
 * The `SET` clause (and its values) that stamps `updatedAt` on a noteable item, with the
 * attributes its owner re-sorts it by ({@link NoteableItem.touched}).
 */
export function touchClause(item: NoteableItem, at: string): { clause: string; values: Record<string, unknown> } {
  const fields: Record<string, unknown> = { updatedAt: at, ...item.touched(at) };
  return {
    clause: Object.keys(fields).map((name) => `${name} = :touch_${name}`).join(', '),
    values: Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:touch_${name}`, value])),
  };
}

/**
 * The noteable item's part of a note transaction: a liveness check when nothing changes, else
 * `ADD userNotesCount` (by `delta`) and `unresolvedDiscussionsCount` (by `unresolvedDelta`: a
 * merge request's count of unresolved discussions, behind `blocking_discussions_resolved`) and
 * `version`, stamping `updatedAt` when `touchedAt` is given; conditioned on the item being there
 * and not deleted.
 */
export function noteCountPart(noteable: Noteable, delta: number, touchedAt?: string, unresolvedDelta = 0): TransactItem {
  const liveValues = { ':nullType': 'NULL' };
  const key = noteable.item.key;
  if (delta === 0 && unresolvedDelta === 0 && !touchedAt) {
    return { ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: LIVE, ExpressionAttributeValues: liveValues } };
  }
  const touch = touchedAt ? touchClause(noteable.item, touchedAt) : undefined;
  const adds = [
    ...(delta !== 0 ? ['userNotesCount :delta'] : []),
    ...(unresolvedDelta !== 0 ? ['unresolvedDiscussionsCount :unresolved'] : []),
    '#version :one',
  ];
  const update: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `${touch ? `SET ${touch.clause} ` : ''}ADD ${adds.join(', ')}`,
      ConditionExpression: LIVE,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: {
        ':one': 1,
        ...(delta !== 0 ? { ':delta': delta } : {}),
        ...(unresolvedDelta !== 0 ? { ':unresolved': unresolvedDelta } : {}),
        ...liveValues,
        ...touch?.values,
      },
    },
  };
  return noteable.item.held ? heldAs(update, noteable.item.held()) : update;
}

/** The noteable item's vote counters (`upvotes`, `downvotes`: its `thumbsup` and `thumbsdown` awards). */
export type VoteCounter = 'upvotes' | 'downvotes';

/** What a vote is counted on: the item of an issue or a merge request. */
export type VotedItem = { item: Pick<NoteableItem, 'key'> };

/**
 * The noteable item's part of an award transaction: `ADD` to a vote counter (and `version`, so an
 * edit that read the item before the award re-reads instead of putting the old count back), or a
 * liveness check when the award is not a vote; conditioned on the item being there and not
 * deleted. `updated_at` is left as it is.
 */
export function votePart(noteable: VotedItem, counter: VoteCounter | undefined, delta: number): TransactItem {
  const liveValues = { ':nullType': 'NULL' };
  const key = noteable.item.key;
  if (!counter) return { ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: LIVE, ExpressionAttributeValues: liveValues } };
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #counter :delta, #version :one',
      ConditionExpression: LIVE,
      ExpressionAttributeNames: { '#counter': counter, '#version': 'version' },
      ExpressionAttributeValues: { ':delta': delta, ':one': 1, ...liveValues },
    },
  };
}

/**
 * What a write carries in its transaction besides its main items: its webhook event, its feed
 * event and its system notes (items built by their own stores).
 */
export interface WriteEffects {
  hook?: TransactItem;
  event?: TransactItem;
  notes?: TransactItem[];
}
