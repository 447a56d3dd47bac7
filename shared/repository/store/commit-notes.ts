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
 * its first note becomes a `DiscussionNote`, as GitLab converts it).
 */
import { createHash } from 'node:crypto';
import { getItem, queryCollection, type Item } from '../../platform/dynamo/query';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { nextId } from '../../platform/dynamo/counters';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { commitNoteCollections, commitNoteKeys, repositorySequences } from './keys';

/** GitLab's STI type of a commit note: a plain comment (`null`), a discussion's note, a comment on a diff line. */
export type CommitNoteType = null | 'DiscussionNote' | 'LegacyDiffNote';

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
}

/** A discussion's pointer: which commit and first note its id names, and whether it is an individual note. */
export interface CommitDiscussionPointer {
  discussionId: string;
  commitSha: string;
  rootId: number;
  individual: boolean;
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

/** A fresh note id (the `commit_notes` sequence). */
export const nextCommitNoteId = (): Promise<number> => nextId(repositorySequences.commitNotes);

/**
 * Writes a discussion's first note and its pointer (`individual`: a plain comment).
 * @returns `created`, or `project_gone` when the project is no longer there.
 */
export async function insertFirstNote(note: CommitNote, individual: boolean): Promise<'created' | 'project_gone'> {
  const pointer = commitNoteKeys.discussion(note.projectId, note.discussionId);
  try {
    await transact({
      project: projectIsLive(note.projectId),
      note: { Put: { TableName: tableName(), Item: noteToItem(note), ConditionExpression: 'attribute_not_exists(PK)' } },
      pointer: {
        Put: {
          TableName: tableName(),
          Item: { ...pointer, type: 'CommitDiscussion', discussionId: note.discussionId, commitSha: note.commitSha, rootId: note.rootId, individual },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    });
    return 'created';
  } catch (error) {
    if (error instanceof ConditionFailed && error.failedOn('project')) return 'project_gone';
    throw error;
  }
}

/**
 * Writes a reply in a discussion read as `pointer`: an individual note's pointer and first note
 * become a discussion's in the same transaction.
 * @returns `created`, `project_gone`, or `changed` when the discussion is gone or changed since it was read.
 */
export async function insertReply(note: CommitNote, pointer: CommitDiscussionPointer): Promise<'created' | 'project_gone' | 'changed'> {
  const pointerKey = commitNoteKeys.discussion(note.projectId, pointer.discussionId);
  try {
    await transact({
      project: projectIsLive(note.projectId),
      note: { Put: { TableName: tableName(), Item: noteToItem(note), ConditionExpression: 'attribute_not_exists(PK)' } },
      pointer: pointer.individual
        ? {
            Update: {
              TableName: tableName(),
              Key: pointerKey,
              UpdateExpression: 'SET individual = :no',
              ConditionExpression: 'individual = :yes',
              ExpressionAttributeValues: { ':no': false, ':yes': true },
            },
          }
        : { ConditionCheck: { TableName: tableName(), Key: pointerKey, ConditionExpression: 'individual = :no', ExpressionAttributeValues: { ':no': false } } },
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
    return error.failedOn('project') ? 'project_gone' : 'changed';
  }
}

/** A discussion's pointer by its id, if it is one of `sha`'s (consistent read). */
export async function getDiscussionPointer(projectId: number, sha: string, discussionId: string): Promise<CommitDiscussionPointer | undefined> {
  if (!/^[0-9a-f]{40}$/.test(discussionId)) return undefined;
  const item = await getItem(commitNoteKeys.discussion(projectId, discussionId));
  if (!item || item.commitSha !== sha) return undefined;
  return { discussionId, commitSha: String(item.commitSha), rootId: Number(item.rootId), individual: item.individual === true };
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
