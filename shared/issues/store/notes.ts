/**
 * Notes (comments) on issues: items in the issue's project partition,
 * `PROJECT#<projectId>` / `NOTE#<issue iid>#<note id>` (see ACCESS_PATTERNS.md), so one issue's
 * notes are one sort-key range (listed by id, which is creation order) and deleting the project
 * deletes them with the rest of its partition.
 *
 * The issue's `userNotesCount` (`user_notes_count`) is exact: adding or removing a non-system note
 * changes it with `ADD` in the same transaction as the note, conditioned on the issue being there
 * and not deleted. That update also bumps the issue's `version`, so an issue edit that read the
 * issue before the note (and would `Put` the old count back) fails its version condition and
 * re-reads instead of losing the change. A new comment also stamps the issue's `updated_at` (as
 * GitLab touches the noteable), re-sorting it in the update-ordered lists.
 *
 * System notes are written by the issue writes themselves, in their transaction (`notePut`).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany, putMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { isId, queryAll, type Item, getEntity } from '../../platform/dynamo/query';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { touchIssue, type IssueEffects } from './issues';
import { issueCollections, issueKeys } from './keys';
import { transactOr } from './transact';

export interface Note {
  /** Global id (sequence `notes`). */
  id: number;
  projectId: number;
  /** The noteable: the issue's iid (for the key) and global id (for `noteable_id`). */
  issueIid: number;
  issueId: number;
  body: string;
  authorId: number;
  /** Written by the service on a state change (`closed`, `reopened`); not counted, not editable. */
  system: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The issue item's note counter, read where the issue is presented. */
export type WithUserNotesCount = { userNotesCount?: number };

/** Why a note write did not happen. */
export type NoteWriteFailure = 'project_gone' | 'issue_gone' | 'note_gone';

export const noteFromItem = (item: Item): Note => entityFields(item) as Note;

const noteToItem = (note: Note): Item => ({ ...issueKeys.note(note.projectId, note.issueIid, note.id), type: 'Note', ...note });

/** Internal: the issue exists and is not soft-deleted (`deletedAt` absent or null). */
const ISSUE_LIVE = 'attribute_exists(PK) AND (attribute_not_exists(deletedAt) OR attribute_type(deletedAt, :nullType))';

/**
 * Internal: the issue item's part of a transaction: a liveness check, or `ADD userNotesCount`
 * (and `version`, see the module comment) when `delta` is not 0, stamping `updatedAt` when given.
 */
function issuePart(note: Note, delta: number, touchedAt?: string): TransactItem {
  const key = issueKeys.issue(note.projectId, note.issueIid);
  const liveValues = { ':nullType': 'NULL' };
  if (delta === 0) return { ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: ISSUE_LIVE, ExpressionAttributeValues: liveValues } };
  const touch = touchedAt ? touchIssue(note.issueId, touchedAt) : undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `${touch ? `SET ${touch.clause} ` : ''}ADD userNotesCount :delta, #version :one`,
      ConditionExpression: ISSUE_LIVE,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':delta': delta, ':one': 1, ...liveValues, ...touch?.values },
    },
  };
}

/** The Put of a new note, for a write that adds it in its own transaction (system notes). */
export const notePut = (note: Note): TransactItem => ({
  Put: { TableName: tableName(), Item: noteToItem(note), ConditionExpression: 'attribute_not_exists(PK)' },
});

/**
 * Internal: runs a note transaction (`project`, `issue`, `note` and the effects), naming the
 * failure: the project, else the issue, else the note.
 */
function write(entries: { project: TransactItem; issue: TransactItem; note: TransactItem } & Pick<IssueEffects, 'event' | 'hook'>): Promise<NoteWriteFailure | undefined> {
  return transactOr<NoteWriteFailure>(entries, [['project', 'project_gone'], ['issue', 'issue_gone']], 'note_gone');
}

/** One note of an issue (consistent read); `undefined` when none. */
export async function getNote(projectId: number, issueIid: number, noteId: number): Promise<Note | undefined> {
  if (!isId(noteId)) return undefined;
  return getEntity(issueKeys.note(projectId, issueIid, noteId), noteFromItem);
}

/**
 * Adds a note while the project is live and the issue is not deleted; a non-system note counts
 * in the issue's `userNotesCount` and stamps its `updatedAt` in the same transaction, which also
 * carries the write's effects (the `commented on` event, the webhook event).
 */
export async function insertNote(note: Note, effects: Pick<IssueEffects, 'event' | 'hook'> = {}): Promise<NoteWriteFailure | undefined> {
  return write({
    project: projectIsLive(note.projectId),
    issue: issuePart(note, note.system ? 0 : 1, note.system ? undefined : note.createdAt),
    note: notePut(note),
    event: effects.event,
    hook: effects.hook,
  });
}

/** Replaces a note's body (last write wins); `undefined` when the note is gone. */
export async function updateNoteBody(note: Note, body: string, updatedAt: string): Promise<Note | undefined> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: issueKeys.note(note.projectId, note.issueIid, note.id),
        UpdateExpression: 'SET body = :body, updatedAt = :updatedAt',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':body': body, ':updatedAt': updatedAt },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? noteFromItem(Attributes) : undefined;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/**
 * Deletes a note; a non-system note leaves the issue's `userNotesCount` in the same transaction.
 * Conditioned on the note existing, so two racing deletes change the count once.
 */
export async function removeNote(note: Note): Promise<NoteWriteFailure | undefined> {
  return write({
    project: projectIsLive(note.projectId),
    issue: issuePart(note, note.system ? 0 : -1),
    note: { Delete: { TableName: tableName(), Key: issueKeys.note(note.projectId, note.issueIid, note.id), ConditionExpression: 'attribute_exists(PK)' } },
  });
}

/** Every note of an issue, oldest first (bounded by the issue; used to copy them on a move and to sort by `updated_at`). */
export async function listIssueNotes(projectId: number, issueIid: number): Promise<Note[]> {
  return (await queryAll(issueCollections.issueNotes(projectId, issueIid))).map(noteFromItem);
}

/**
 * Writes notes outside a transaction: for copies under an issue that no transaction has made
 * reachable yet (a move writes them first, then the issue; `removeNotes` cleans up a failed move).
 */
export const putNotes = (notes: Note[]) => putMany(notes.map(noteToItem));

/** Removes notes without touching their issue's count (the cleanup of {@link putNotes}). */
export const removeNotes = (notes: Note[]) => deleteMany(notes.map((note) => issueKeys.note(note.projectId, note.issueIid, note.id)));
