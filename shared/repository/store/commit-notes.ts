/**
 * Comments on commits (GitLab's notes with `noteable_type: Commit`, keyed by the commit's full
 * sha): the comments API (`…/commits/:sha/comments`) and the commit discussions API
 * (`…/commits/:sha/discussions`) read and write the same notes, as in GitLab.
 *
 * Items (keys: `commitNoteKeys`): each note in the project's partition, after its commit, by id
 * (`COMMIT_NOTE#<sha>#<note id>`: a commit's notes are one range and go with the project); a
 * discussion's pointer (`COMMIT_DISCUSSION#<discussion id>`) finds a discussion by its id and
 * says whether it is an individual note (a plain comment, GitLab's `individual_note`). Notes
 * carry their discussion's id and first note's id (`rootId`), by which a commit's notes are
 * grouped into discussions.
 *
 * Writes are one transaction each, conditioned on the project being live; a reply is also
 * conditioned on the pointer as read (a reply to an individual note turns it into a discussion:
 * its first note becomes a `DiscussionNote`, as GitLab converts it). The pointer's `version`
 * (absent: 0) counts the discussion's changes: a reply and a deletion each raise it, conditioned
 * on the value read, so a deletion that finds its note the discussion's last removes the pointer
 * with it, and a reply racing it either lands first (the deletion then sees two notes) or finds
 * the discussion gone.
 *
 * Ids come from the notes' shared sequence (`platform/dynamo/sequences.ts`), as GitLab's notes are
 * one table. Notes written before that took ids from `commit_notes`, which may equal an issue's or
 * merge request's note id (no note is ever looked up by its id alone: always under its commit, or
 * in its noteable), or an id the shared sequence hands out later for the same commit: that write's
 * `attribute_not_exists` then fails (`id_taken`) and the caller takes the next id.
 */
import { createHash } from 'node:crypto';
import { getItem, queryCollection, type Item } from '../../platform/dynamo/query';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { nextId } from '../../platform/dynamo/counters';
import { ConditionFailed, transact, transactOr, type TransactItem } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { sharedSequences } from '../../platform/dynamo/sequences';
import { commitNoteCollections, commitNoteKeys } from './keys';

/**
 * GitLab's STI type of a commit note: a plain comment (`null`), a discussion's note, a comment on
 * a diff line of the comments API (`LegacyDiffNote`), a discussion's note on a diff position (`DiffNote`).
 */
export type CommitNoteType = null | 'DiscussionNote' | 'LegacyDiffNote' | 'DiffNote';

export interface CommitNote {
  id: number;
  projectId: number;
  /** The commit's full sha. */
  commitSha: string;
  /** The id of the discussion's first note (the note's own for a first note). */
  rootId: number;
  discussionId: string;
  noteType: CommitNoteType;
  body: string;
  authorId: number;
  createdAt: string;
  updatedAt: string;
  /** A comment on a diff line (`LegacyDiffNote`): the file, the line, its side, its line code. */
  path?: string;
  line?: number;
  lineType?: 'new' | 'old';
  lineCode?: string;
  /** A `DiffNote`'s position, as GitLab shows it (`Position#to_h`, snake case); `lineCode` its line's. */
  position?: Record<string, unknown>;
}

/** A discussion's pointer: which commit and first note its id names, and whether it is an individual note. */
export interface CommitDiscussionPointer {
  discussionId: string;
  commitSha: string;
  rootId: number;
  individual: boolean;
  /** How many times the discussion changed (replies, deletions); 0 for a pointer written before it was counted. */
  version: number;
}

const noteToItem = (note: CommitNote): Item => {
  const item: Item = {
    ...commitNoteKeys.note(note.projectId, note.commitSha, note.id),
    type: 'CommitNote',
    ...note,
  };
  for (const [name, value] of Object.entries(item)) if (value === undefined) delete item[name];
  return item;
};

export const commitNoteFromItem = (item: Item): CommitNote => {
  const fields = entityFields(item) as CommitNote;
  return { ...fields, noteType: fields.noteType ?? null };
};

/** GitLab-like discussion id (40 hex digits), fixed by the project, the commit and the first note. */
export const commitDiscussionId = (projectId: number, sha: string, rootId: number): string =>
  createHash('sha1').update(`Commit-${projectId}-${sha}-${rootId}`).digest('hex');

/** A fresh note id (the notes' shared sequence). */
export const nextCommitNoteId = (): Promise<number> => nextId(sharedSequences.notes);

/** What a note's write puts besides the note (its feed event, its webhook event), in its transaction. */
export type CommitNoteExtras = Record<string, TransactItem | undefined>;

/** Internal: the condition that a pointer is still at the version read. */
const atVersion = (version: number) => ({
  // A pointer written before the version was counted has none: version 0.
  ConditionExpression: version === 0 ? 'attribute_exists(PK) AND (attribute_not_exists(version) OR version = :version)' : 'version = :version',
  ExpressionAttributeValues: { ':version': version },
});

/**
 * Writes a discussion's first note and its pointer (`individual`: a plain comment), with `extras`.
 * @returns `created`, `project_gone` when the project is no longer there, `id_taken` when a note
 *   of the commit written before the shared sequence holds the id (or an extra's condition failed:
 *   a mention todo put meanwhile).
 */
export async function insertFirstNote(note: CommitNote, individual: boolean, extras: CommitNoteExtras = {}): Promise<'created' | 'project_gone' | 'id_taken'> {
  const pointer = commitNoteKeys.discussion(note.projectId, note.discussionId);
  const failure = await transactOr(
    {
      ...extras,
      project: projectIsLive(note.projectId),
      note: { Put: { TableName: tableName(), Item: noteToItem(note), ConditionExpression: 'attribute_not_exists(PK)' } },
      pointer: {
        Put: {
          TableName: tableName(),
          Item: { ...pointer, type: 'CommitDiscussion', discussionId: note.discussionId, commitSha: note.commitSha, rootId: note.rootId, individual, version: 0 },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    [
      ['project', 'project_gone' as const],
      ['note', 'id_taken' as const],
      ['pointer', 'id_taken' as const],
    ],
    // An extra's condition: a mentioned user's pending todo was put since it was read
    // (`mention_todo_<n>`); the caller writes the note again, as for a taken id, from fresh reads.
    'id_taken',
  );
  return failure ?? 'created';
}

/**
 * Writes a reply in a discussion read as `pointer`: an individual note's pointer and first note
 * become a discussion's in the same transaction.
 * @returns `created`, `project_gone`, `id_taken` (see {@link insertFirstNote}), or `changed` when
 *   the discussion is gone or changed since it was read.
 */
export async function insertReply(note: CommitNote, pointer: CommitDiscussionPointer, extras: CommitNoteExtras = {}): Promise<'created' | 'project_gone' | 'changed' | 'id_taken'> {
  const pointerKey = commitNoteKeys.discussion(note.projectId, pointer.discussionId);
  try {
    await transact({
      ...extras,
      project: projectIsLive(note.projectId),
      note: { Put: { TableName: tableName(), Item: noteToItem(note), ConditionExpression: 'attribute_not_exists(PK)' } },
      pointer: {
        Update: {
          TableName: tableName(),
          Key: pointerKey,
          // ADD, not SET of the version read + 1: a reply is not conditioned on the version, and
          // one that read an older version must still move it past every version read since.
          UpdateExpression: 'SET individual = :no ADD version :one',
          ConditionExpression: pointer.individual ? 'individual = :yes' : 'individual = :no',
          ExpressionAttributeValues: { ':no': false, ':one': 1, ...(pointer.individual ? { ':yes': true } : {}) },
        },
      },
      root: pointer.individual && {
        Update: {
          TableName: tableName(),
          Key: commitNoteKeys.note(note.projectId, pointer.commitSha, pointer.rootId),
          UpdateExpression: 'SET noteType = :type',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':type': 'DiscussionNote' },
        },
      },
    });
    return 'created';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('project')) return 'project_gone';
    return error.failedOn('note') ? 'id_taken' : 'changed';
  }
}

/**
 * Changes a note's body (and `updatedAt`), if it is still there.
 * @returns the note as written, or `undefined` when it is gone.
 */
export async function updateCommitNoteBody(note: CommitNote, body: string, at: string): Promise<CommitNote | undefined> {
  try {
    await transact({
      note: {
        Update: {
          TableName: tableName(),
          Key: commitNoteKeys.note(note.projectId, note.commitSha, note.id),
          UpdateExpression: 'SET body = :body, updatedAt = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':body': body, ':at': at },
        },
      },
    });
    return { ...note, body, updatedAt: at };
  } catch (error) {
    if (error instanceof ConditionFailed) return undefined;
    throw error;
  }
}

/**
 * Deletes a note of the discussion read as `pointer`; `last`: it is the discussion's last note,
 * so the pointer goes too. Either way conditioned on the pointer's version as read.
 * @returns `removed`, `note_gone`, or `changed` when the discussion changed since it was read.
 */
export async function removeCommitNote(note: CommitNote, pointer: CommitDiscussionPointer, last: boolean): Promise<'removed' | 'note_gone' | 'changed'> {
  const pointerKey = commitNoteKeys.discussion(note.projectId, pointer.discussionId);
  const condition = atVersion(pointer.version);
  try {
    await transact({
      note: { Delete: { TableName: tableName(), Key: commitNoteKeys.note(note.projectId, note.commitSha, note.id), ConditionExpression: 'attribute_exists(PK)' } },
      pointer: last
        ? { Delete: { TableName: tableName(), Key: pointerKey, ...condition } }
        : {
            Update: {
              TableName: tableName(),
              Key: pointerKey,
              UpdateExpression: 'SET version = :next',
              ...condition,
              ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':next': pointer.version + 1 },
            },
          },
    });
    return 'removed';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return error.failedOn('note') ? 'note_gone' : 'changed';
  }
}

/** A discussion's pointer by its id, if it is one of `sha`'s (consistent read). */
export async function getDiscussionPointer(projectId: number, sha: string, discussionId: string): Promise<CommitDiscussionPointer | undefined> {
  if (!/^[0-9a-f]{40}$/.test(discussionId)) return undefined;
  const item = await getItem(commitNoteKeys.discussion(projectId, discussionId));
  if (!item || item.commitSha !== sha) return undefined;
  return { discussionId, commitSha: String(item.commitSha), rootId: Number(item.rootId), individual: item.individual === true, version: Number(item.version ?? 0) };
}

/** One note of a commit (consistent read). */
export async function getCommitNote(projectId: number, sha: string, noteId: number): Promise<CommitNote | undefined> {
  const item = await getItem(commitNoteKeys.note(projectId, sha, noteId));
  return item && commitNoteFromItem(item);
}

/** A commit's notes by id (consistent): the comments list, and what discussions are grouped from. */
export async function* commitNotes(projectId: number, sha: string): AsyncGenerator<CommitNote> {
  for await (const item of queryCollection(commitNoteCollections.notes(projectId, sha))) yield commitNoteFromItem(item);
}
