/**
 * Notes (comments) on noteables: items in the noteable's project partition, an issue's at
 * `PROJECT#<projectId>` / `NOTE#<issue iid>#<note id>`, a merge request's at
 * `MR_NOTE#<merge request iid>#<note id>` (see ACCESS_PATTERNS.md), so one noteable's notes are one
 * sort-key range (listed by id, which is creation order) and deleting the project deletes them
 * with the rest of its partition.
 *
 * The noteable's `userNotesCount` (`user_notes_count`) is exact: adding or removing a non-system
 * note changes it with `ADD` in the same transaction as the note, conditioned on the noteable
 * being there and not deleted. That update also bumps the noteable's `version`, so an edit that
 * read the noteable before the note (and would `Put` the old count back) fails its version
 * condition and re-reads instead of losing the change. A new comment also stamps the noteable's
 * `updated_at` (as GitLab touches the noteable), re-sorting it in the update-ordered lists.
 *
 * System notes are written by the noteable writes themselves, in their transaction (`notePut`),
 * or alone with a liveness check of the noteable (`insertNote` of a system note).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany, putMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { entityFields, setAttributes } from '../../platform/dynamo/items';
import { isId, queryAll, queryCollection, type Item, getEntity } from '../../platform/dynamo/query';
import { type TransactItem, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { issueCollections, issueIndexKeys, noteableKeys, type NoteableKeyed } from './keys';
import { noteCountPart, type Noteable, type WriteEffects } from './noteables';

/** What every note has, whatever its noteable. */
interface NoteFields {
  /** Global id (sequence `notes`). */
  id: number;
  projectId: number;
  body: string;
  authorId: number;
  /** Written by the service on a change (`closed`, `merged`, …); not counted, not editable. */
  system: boolean;
  createdAt: string;
  updatedAt: string;
  /**
   * The id of the first note of the discussion this note replies in; absent: the note starts its
   * own discussion (every note written before discussions existed does).
   */
  rootId?: number;
  /** GitLab's `type`: `DiscussionNote` for a note of a (threaded) discussion; absent: an individual note (`null`). */
  noteType?: 'DiscussionNote';
  /** When a resolvable note (a merge request's discussion note) was resolved, and by whom; absent: unresolved. */
  resolvedAt?: string;
  resolvedById?: number;
  /**
   * A diff note's place in a diff (GitLab's `DiffNote`, shown as `type: "DiffNote"`): its
   * position as GitLab shows it (`Gitlab::Diff::Position#to_h`), and the line code of a text
   * position. Stored with `noteType` `DiscussionNote` (a diff note is always part of a discussion);
   * absent: not a diff note.
   */
  position?: DiffNotePosition;
  lineCode?: string;
}

/** GitLab's `Gitlab::Diff::Position#to_h` (snake case, as the API shows it). */
export type DiffNotePosition = {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string | null;
  new_path: string | null;
  position_type: string;
} & Record<string, unknown>;

/** A note on an issue, stored as issue notes always were (no `noteableType`). */
export interface IssueNote extends NoteFields {
  noteableType?: 'Issue';
  /** The issue's iid (for the key) and global id (for `noteable_id`). */
  issueIid: number;
  issueId: number;
}

/** A note on a merge request. */
export interface MergeRequestNote extends NoteFields {
  noteableType: 'MergeRequest';
  /** The merge request's iid (for the key) and global id (for `noteable_id`). */
  mergeRequestIid: number;
  mergeRequestId: number;
}

export type Note = IssueNote | MergeRequestNote;

/** The noteable's item's note counter, read where the noteable is presented. */
export type WithUserNotesCount = { userNotesCount?: number };

/** Why a note write did not happen. */
export type NoteWriteFailure = 'project_gone' | 'noteable_gone' | 'note_gone' | 'discussion_gone' | 'resolution_changed' | 'source_gone' | 'todos_changed';

/**
 * How a note write changes its discussion's resolution (merge request discussions): the Put of
 * the discussion's state item, conditioned on the count read (`store/discussions.ts`), and the
 * change of the noteable's count of unresolved discussions (-1, 0, +1) it implies.
 */
export interface ResolutionChange {
  state: TransactItem;
  unresolvedDiscussionsDelta: number;
}

/**
 * The noteable a note is on: its type, project and iid (its keys) and global id (`noteable_id`).
 * @example
 * noteTarget(note); // { type: 'Issue', projectId: 5, iid: 3, id: 70 }
 */
export function noteTarget(note: Note): NoteableKeyed & { id: number } {
  return note.noteableType === 'MergeRequest'
    ? { type: 'MergeRequest', projectId: note.projectId, iid: note.mergeRequestIid, id: note.mergeRequestId }
    : { type: 'Issue', projectId: note.projectId, iid: note.issueIid, id: note.issueId };
}

/**
 * A note not yet written on `noteable`, in the form of its type.
 * @example
 * const note = newNote(noteable, { id, body, authorId, system: false, createdAt: now, updatedAt: now });
 */
export function newNote(noteable: Pick<Noteable, 'type' | 'projectId' | 'iid' | 'id'>, fields: Omit<NoteFields, 'projectId'>): Note {
  const { id, body, authorId, system, createdAt, updatedAt, rootId, noteType, position, lineCode } = fields;
  const { projectId } = noteable;
  const thread = {
    ...(rootId !== undefined ? { rootId } : {}),
    ...(noteType ? { noteType } : {}),
    ...(position ? { position } : {}),
    ...(lineCode ? { lineCode } : {}),
  };
  return noteable.type === 'MergeRequest'
    ? { id, projectId, noteableType: 'MergeRequest', mergeRequestIid: noteable.iid, mergeRequestId: noteable.id, body, authorId, system, createdAt, updatedAt, ...thread }
    : { id, projectId, issueIid: noteable.iid, issueId: noteable.id, body, authorId, system, createdAt, updatedAt, ...thread };
}

/** The id of the first note of a note's discussion (its own when it starts one). */
export const discussionRootOf = (note: Pick<Note, 'id' | 'rootId'>): number => note.rootId ?? note.id;

export const noteFromItem = (item: Item): Note => entityFields(item) as Note;

/** A note's key. */
export const noteKey = (note: Note) => noteableKeys.note(noteTarget(note), note.id);

/**
 * A note's item: its key, its place among its noteable's discussions (GSI1) and among its author's
 * (GSI2, user and system notes alike: read only to delete a user's notes with `hard_delete`).
 */
const noteToItem = (note: Note): Item => ({
  ...noteKey(note),
  ...issueIndexKeys.noteThread(noteTarget(note), discussionRootOf(note), note.id),
  ...issueIndexKeys.userNote(note.authorId, note.id),
  type: 'Note',
  ...note,
});

/** The Put of a new note, for a write that adds it in its own transaction (system notes). */
export const notePut = (note: Note): TransactItem => ({
  Put: { TableName: tableName(), Item: noteToItem(note), ConditionExpression: 'attribute_not_exists(PK)' },
});

/**
 * Internal: runs a note transaction (`project`, `noteable`, `note` and the effects), naming the
 * failure: the project, else the noteable, else the note.
 */
function write(
  entries: {
    project: TransactItem;
    noteable: TransactItem;
    note: TransactItem;
    root?: TransactItem;
    resolution?: TransactItem;
    participant?: TransactItem;
    /** The todos of the users the note mentions. */
    todos?: TransactItem[];
    /** The item the note is made from, removed in its transaction (`NoteSource`). */
    source?: TransactItem;
  } & Pick<WriteEffects, 'event' | 'hook'>,
): Promise<NoteWriteFailure | undefined> {
  return transactOr<NoteWriteFailure>(
    entries,
    // `source` before `resolution`: a source already consumed is final, a resolution race is retried.
    // `todos`: a mentioned user's pending todo was put since it was read (the note is made again without it).
    [['project', 'project_gone'], ['noteable', 'noteable_gone'], ['root', 'discussion_gone'], ['source', 'source_gone'], ['resolution', 'resolution_changed'], ['todos', 'todos_changed']],
    'note_gone',
  );
}

/**
 * The part of a reply's transaction that turns an individual note into the first note of a
 * discussion (GitLab converts it to a `DiscussionNote` on its first reply), conditioned on it
 * still being there.
 */
export const convertToDiscussionPart = (note: Note): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: noteKey(note),
    UpdateExpression: 'SET noteType = :type',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':type': 'DiscussionNote' },
  },
});

/** One note of a noteable (consistent read); `undefined` when none. */
export async function getNote(noteable: NoteableKeyed, noteId: number): Promise<Note | undefined> {
  if (!isId(noteId)) return undefined;
  return getEntity(noteableKeys.note(noteable, noteId), noteFromItem);
}

/**
 * Adds a note on `noteable` while the project is live and the noteable is not deleted; a
 * non-system note counts in the noteable's `userNotesCount` and stamps its `updatedAt` in the
 * same transaction, which also carries the write's effects (the `commented on` event, the webhook
 * event), the commenter's participation (`participant`) and, for a resolvable note, its
 * discussion's resolution change (`resolution_changed` when the discussion's state is no longer
 * as read).
 */
export async function insertNote(
  noteable: Noteable,
  note: Note,
  effects: Pick<WriteEffects, 'event' | 'hook'> & { root?: TransactItem; resolution?: ResolutionChange; participant?: TransactItem; todos?: TransactItem[]; source?: TransactItem } = {},
): Promise<NoteWriteFailure | undefined> {
  const unresolved = effects.resolution?.unresolvedDiscussionsDelta ?? 0;
  return write({
    root: effects.root,
    resolution: effects.resolution?.state,
    project: projectIsLive(note.projectId),
    noteable: noteCountPart(noteable, note.system ? 0 : 1, note.system ? undefined : note.createdAt, unresolved),
    note: notePut(note),
    event: effects.event,
    hook: effects.hook,
    participant: effects.participant,
    todos: effects.todos,
    source: effects.source,
  });
}

/** Replaces a note's body (last write wins); `undefined` when the note is gone. */
export async function updateNoteBody(note: Note, body: string, updatedAt: string): Promise<Note | undefined> {
  const updated = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: noteKey(note),
        UpdateExpression: 'SET body = :body, updatedAt = :updatedAt',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':body': body, ':updatedAt': updatedAt },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return updated?.Attributes ? noteFromItem(updated.Attributes) : undefined;
}

/**
 * Deletes a note of `noteable`; a non-system note leaves the noteable's `userNotesCount` in the
 * same transaction, and an unresolved resolvable note its discussion's unresolved count
 * (`resolution`). Conditioned on the note existing, so two racing deletes change the counts once.
 */
export async function removeNote(noteable: Noteable, note: Note, resolution?: ResolutionChange): Promise<NoteWriteFailure | undefined> {
  return write({
    resolution: resolution?.state,
    project: projectIsLive(note.projectId),
    noteable: noteCountPart(noteable, note.system ? 0 : -1, undefined, resolution?.unresolvedDiscussionsDelta ?? 0),
    // Conditioned on the resolution read too, so the discussion's unresolved count moves only as read.
    note: {
      Delete: {
        TableName: tableName(),
        Key: noteKey(note),
        ConditionExpression: `attribute_exists(PK) AND ${note.resolvedAt === undefined ? 'attribute_not_exists' : 'attribute_exists'}(resolvedAt)`,
      },
    },
  });
}

/** Every note of a noteable, oldest first (bounded by the noteable; used to copy an issue's on a move and to sort by `updated_at`). */
export async function listNotes(noteable: NoteableKeyed): Promise<Note[]> {
  return (await queryAll(noteableKeys.notes(noteable))).map(noteFromItem);
}

/** Every note of an issue, oldest first (an issue's range holds issue notes only). */
export const listIssueNotes = async (projectId: number, issueIid: number): Promise<IssueNote[]> =>
  (await listNotes({ type: 'Issue', projectId, iid: issueIid })) as IssueNote[];

/**
 * Writes notes outside a transaction: for copies under an issue that no transaction has made
 * reachable yet (a move writes them first, then the issue; `removeNotes` cleans up a failed move).
 */
export const putNotes = (notes: Note[]) => putMany(notes.map(noteToItem));

/**
 * Data migration: gives every note of a project written before discussions existed its place
 * among its noteable's discussions (GSI1, its own discussion), idempotently.
 * @returns how many notes it indexed.
 */
export const indexProjectNoteThreads = (projectId: number): Promise<number> =>
  indexProjectNotes(projectId, (note, item) => (item.GSI1PK ? undefined : issueIndexKeys.noteThread(noteTarget(note), discussionRootOf(note), note.id)));

/**
 * Data migration: gives every note of a project written before the author index existed (and
 * every system note written before the index took them too) its place among its author's notes
 * (GSI2 `USER_NOTES#<authorId>`, read to delete a user's notes with `hard_delete`), idempotently.
 * @returns how many notes it indexed.
 */
export const indexProjectNoteAuthors = (projectId: number): Promise<number> =>
  indexProjectNotes(projectId, (note, item) => (item.GSI2PK ? undefined : issueIndexKeys.userNote(note.authorId, note.id)));

/**
 * Internal: sets the index entry `entryOf` gives (none: the note is left alone, e.g. it has one
 * already) on every note of a project, each update conditioned on the note still being there.
 */
async function indexProjectNotes(projectId: number, entryOf: (note: Note, item: Item) => Record<string, string> | undefined): Promise<number> {
  let indexed = 0;
  for (const type of ['Issue', 'MergeRequest'] as const) {
    for await (const item of queryCollection(issueCollections.projectNoteItems(projectId, type))) {
      const note = noteFromItem(item);
      const entry = entryOf(note, item);
      if (!entry) continue;
      const written = await ifConditionHolds(
        db().send(new UpdateCommand({ TableName: tableName(), Key: noteKey(note), ...setAttributes(entry), ConditionExpression: 'attribute_exists(PK)' })),
      );
      if (written) indexed++;
    }
  }
  return indexed;
}

/** Removes notes without touching their noteable's count (the cleanup of {@link putNotes}). */
export const removeNotes = (notes: Note[]) => deleteMany(notes.map(noteKey));
